#!/usr/bin/env bash
# Installs everything docpipe needs on a fresh Debian machine with Node 20, then builds it.
# Idempotent and quick on a machine that already has everything: each step checks first.
#
#   scripts/setup.sh             apt packages (the test-only ones too), npm dependencies, build
#   scripts/setup.sh --image     the Docker image's runtime stage: the apt packages docpipe runs
#                                with, and tini; no test-only packages, no npm, no build
#   scripts/setup.sh --npm-only  the Docker image's build stage: the npm dependencies only
# The Dockerfile uses the two modes, so that the image and a machine set up by hand install the
# same packages in the same way.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/setup.sh [--image | --npm-only]" >&2
  exit 2
}
mode=all
case "$#:${1:-}" in
  0:) ;;
  1:--image) mode=image ;;
  1:--npm-only) mode=npm ;;
  *) usage ;;
esac

# What docpipe runs with: Writer (the converter; run headless), python3-uno (UNO bridge),
# metric-compatible fonts so that layouts keep their page count (docs/fonts.md maps Word's fonts
# to them), redis-server (embedded queue), libjemalloc2 (the office processes' malloc:
# LibreOffice converts faster with it), poppler-utils (pdftoppm and pdftotext: `docpipe check`
# and `docpipe preview` draw pages with them).
# Not libreoffice-writer-nogui: it ships none of Writer's .ui files, and Writer driven over UNO
# aborts (SIGABRT) on every document with comments when it cannot build their windows. The full
# package costs 12 MB more and still runs without a display.
RUNTIME_PACKAGES=(
  libreoffice-writer
  python3-uno
  fonts-liberation2
  fonts-crosextra-carlito
  fonts-crosextra-caladea
  fonts-urw-base35
  fonts-dejavu-core
  fonts-dejavu-extra
  fonts-noto-core
  fonts-noto-mono
  redis-server
  libjemalloc2
  poppler-utils
)
# Only the tests use this: chromium (the headless browser that tests the queue dashboard, driven
# by playwright-core).
TEST_PACKAGES=(
  chromium
)
# In a container docpipe is not PID 1: tini is, and reaps the office processes' orphans.
IMAGE_PACKAGES=(
  tini
)

log() { printf '[setup] %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; else SUDO=""; fi

install_apt_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "apt packages present"
    return
  fi
  log "installing apt packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian package starts a system-wide redis on port 6379; docpipe runs its own, so the
  # system one only takes memory.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet redis-server 2>/dev/null; then
    $SUDO systemctl disable --now redis-server >/dev/null 2>&1 || true
  fi
}

check_node() {
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 20 ]; then
    echo "docpipe needs Node 20 or newer (found $(node --version))" >&2
    exit 1
  fi
}

# Install only when the lock file changed since the last install. npm install, not npm ci: it
# follows the lock file too, and npm 11 leaves other platforms' optional packages (bullmq's
# msgpackr-extract builds) out of the lock, which npm ci then refuses as "out of sync".
install_npm_dependencies() {
  local stamp=node_modules/.docpipe-install-stamp
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
    log "installing npm dependencies"
    npm install --no-audit --no-fund --loglevel=error
    touch "$stamp"
  else
    log "npm dependencies present"
  fi
}

case "$mode" in
  image)
    install_apt_packages "${RUNTIME_PACKAGES[@]}" "${IMAGE_PACKAGES[@]}"
    check_node
    # An image layer keeps whatever this step leaves: apt's package lists are not needed again.
    $SUDO rm -rf /var/lib/apt/lists/*
    log "image packages ready"
    ;;
  npm)
    check_node
    install_npm_dependencies
    ;;
  all)
    install_apt_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    check_node
    install_npm_dependencies
    log "building"
    npm run --silent build
    log "ready"
    ;;
esac
