# docpipe image: build in one stage, run as a non-root user under tini in the next.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: see scripts/setup.sh (optional packages missing from the lock).
RUN npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workers ./workers
COPY bench ./bench
COPY test ./test
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# The converter needs Writer (run headless: the no-GUI package lacks the .ui files Writer needs
# for documents with comments), UNO and metric-compatible fonts; tini reaps the office processes' zombies;
# jemalloc makes LibreOffice cheaper (DOCPIPE_OFFICE_ALLOCATOR). Office profiles, temporary files
# and documents in conversion live in /dev/shm: run with room there (docker run --shm-size=512m).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      tini libreoffice-writer python3-uno fonts-liberation2 fonts-crosextra-carlito \
      fonts-crosextra-caladea redis-server poppler-utils libjemalloc2 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Run from the project root: the UNO bridge (office-pool) and the hardened soffice wrapper
# (libreoffice-convert, which also needs bash, coreutils' timeout, iconv and unshare: all in the base).
COPY workers/uno-bridge.py workers/soffice-hardened.sh ./workers/
COPY templates ./templates
RUN useradd --system --create-home docpipe && mkdir -p /app/data && chown docpipe /app/data
USER docpipe
ENV DOCPIPE_DATA_DIR=/app/data
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/cli/main.js"]
CMD ["start"]
