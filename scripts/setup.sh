#!/usr/bin/env bash
# Installs everything docpipe needs on a fresh Debian machine with Node 20, then builds it.
# Idempotent and quick on a machine that already has everything: each step checks first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Writer (the converter; run headless), metric-compatible fonts so that layouts keep their page
# count, redis-server (embedded queue), poppler-utils (pdftotext in tests), python3-uno (UNO bridge),
# libjemalloc2 (the office processes' malloc: LibreOffice converts faster with it), chromium (the
# headless browser that tests the queue dashboard, driven by playwright-core).
# Not libreoffice-writer-nogui: it ships none of Writer's .ui files, and Writer driven over UNO
# aborts (SIGABRT) on every document with comments when it cannot build their windows. The full
# package costs 12 MB more and still runs without a display.
APT_PACKAGES=(
  libreoffice-writer
  python3-uno
  fonts-liberation2
  fonts-crosextra-carlito
  fonts-crosextra-caladea
  redis-server
  poppler-utils
  libjemalloc2
  chromium
)

log() { printf '[setup] %s\n' "$*"; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  log "installing apt packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian package starts a system-wide redis on port 6379; docpipe runs its own, so the
  # system one only takes memory.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet redis-server 2>/dev/null; then
    $SUDO systemctl disable --now redis-server >/dev/null 2>&1 || true
  fi
else
  log "apt packages present"
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "docpipe needs Node 20 or newer (found $(node --version))" >&2
  exit 1
fi

# Install only when the lock file changed since the last install. npm install, not npm ci: it
# follows the lock file too, and npm 11 leaves other platforms' optional packages (bullmq's
# msgpackr-extract builds) out of the lock, which npm ci then refuses as "out of sync".
stamp=node_modules/.docpipe-install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  log "installing npm dependencies"
  npm install --no-audit --no-fund --loglevel=error
  touch "$stamp"
else
  log "npm dependencies present"
fi

log "building"
npm run --silent build
log "ready"
