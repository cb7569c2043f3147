# docpipe's image: built in one stage, run in the next as a non-root user under tini.
#
#   docker build -t docpipe .
#   docker run --shm-size=512m -p 8080:8080 -v docpipe-data:/data docpipe   # docpipe start
#   docker run --shm-size=1g -e REDIS_URL=redis://redis:6379 ... docpipe worker
#
# --shm-size: office profiles, temporary files and documents in conversion live in /dev/shm, and
# Docker gives a container 64 MiB there; give it 512 MiB for each office process
# (DOCPIPE_OFFICE_PROCESSES, by default one per core). Roles, compose.yaml and the volume:
# docs/deploy.md.
#
# System packages come from scripts/setup.sh, the README's set-up script, so that the image and a
# machine set up by hand install the same ones. test/integration/docker-layout.test.ts lays out
# the runtime stage's files as the COPY lines below say and converts a document from there: a file
# the runtime needs but this file leaves out fails CI.

# Node 24, the version the tests run on (package.json's `node` devDependency). The build stage
# installs that devDependency too, as set-up does everywhere; npm prune drops it with the others.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/setup.sh ./scripts/
RUN ./scripts/setup.sh --npm-only
COPY tsconfig.json ./
COPY src ./src
COPY workers ./workers
# Only src and workers are compiled here (tsconfig's other folders are tests, benchmarks and
# scripts), into dist/src and dist/workers.
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
LABEL org.opencontainers.image.title="docpipe" \
      org.opencontainers.image.description="Document pipeline of the e-signing service: sniff, fill DOCX templates, convert to PDF, store, report typed failures"
WORKDIR /app
# Writer run headless, python3-uno, fonts, redis-server (start's embedded Redis), jemalloc and
# tini; not the packages only the tests use (see the script).
COPY scripts/setup.sh ./scripts/
RUN ./scripts/setup.sh --image \
 && useradd --system --uid 10001 --user-group --create-home docpipe \
 && mkdir /data && chown docpipe:docpipe /data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The office pool's UNO bridge, and the hardened soffice wrapper of DOCPIPE_CONVERTER=
# libreoffice-convert (which also needs bash, coreutils' timeout, iconv and unshare: all in the
# base image). Both are found from the project root, the folder of package.json.
COPY workers/uno-bridge.py workers/soffice-hardened.sh ./workers/
# The document library (DOCPIPE_TEMPLATES_DIR points elsewhere, such as a mounted folder).
COPY templates ./templates
# The signing page's script and stylesheet, served as they are (no build step).
COPY assets ./assets
# Listening on every interface: inside a container, 127.0.0.1 is reachable from nowhere else.
ENV DOCPIPE_DATA_DIR=/data \
    DOCPIPE_HTTP_HOST=0.0.0.0 \
    DOCPIPE_HTTP_PORT=8080
VOLUME ["/data"]
EXPOSE 8080
USER docpipe
# Ready when /readyz says so (Redis, storage and, under start, the office pool). Slim images have
# no curl: Node's fetch asks, on the port the server listens on. A worker serves no HTTP: give its
# containers no health check (compose.yaml does).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const h = process.env.DOCPIPE_HTTP_HOST; const host = !h || h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h.includes(':') ? `[${h}]` : h; fetch(`http://${host}:${process.env.DOCPIPE_HTTP_PORT || 8080}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/surfaces/cli/main.js"]
CMD ["start"]
