#!/usr/bin/env bash
# Installs everything docpipe needs on a fresh Debian machine with Node and npm, then builds it.
# Idempotent and quick on a machine that already has everything: each step checks first.
#
# docpipe is built, tested and run on Node 24, whatever Node the machine has: the npm dependencies
# include `node` (the npm registry's package of Node's binary for this platform), whose bin npm
# links as node_modules/.bin/node. npm puts that folder first on the PATH of every npm script and
# of npx, so `npm start`, `npm test`, `npx docpipe` and every process they start run on Node 24.
# The machine's own Node only runs npm. Node 22 (the oldest that `engines` allows) is installed
# apart, in test/node22, for the smoke test that runs docpipe on it.
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
# and `docpipe preview` draw pages with them), postgresql (the embedded database of `docpipe start`
# without DATABASE_URL: docpipe runs Debian's server itself, in its data folder).
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
  postgresql
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
  # Debian's postgresql makes a system-wide cluster ("main", port 5432) when it is first
  # installed, and starts it; docpipe runs its own server in its data folder, so that one would
  # only take memory and a port. Told not to make it before the package is installed (a file in
  # createcluster.d, which the package's createcluster.conf includes); a cluster that is already
  # there is left alone.
  # (CREATECLUSTER_D moves it for the test of this script, which must not write to /etc.)
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    local conf_d=${CREATECLUSTER_D:-/etc/postgresql-common/createcluster.d}
    $SUDO mkdir -p "$conf_d"
    echo 'create_main_cluster = false' | $SUDO tee "$conf_d/docpipe.conf" >/dev/null
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian package starts a system-wide redis on port 6379; docpipe runs its own, so the
  # system one only takes memory.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet redis-server 2>/dev/null; then
    $SUDO systemctl disable --now redis-server >/dev/null 2>&1 || true
  fi
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet postgresql 2>/dev/null; then
    $SUDO systemctl disable --now postgresql >/dev/null 2>&1 || true
  fi
}

# The Node that runs this script and npm. npm 11 runs on Node 20.17 or newer; docpipe itself
# runs on the Node of its dependencies (see above).
check_system_node() {
  local node_major
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "docpipe's set-up needs Node and npm to install its own Node 24 (Debian: apt-get install nodejs npm)" >&2
    exit 1
  fi
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 20 ]; then
    echo "docpipe's set-up needs Node 20 or newer to run npm (found $(node --version))" >&2
    exit 1
  fi
}

# The image runs on its base image's Node, with no npm dependency of its own for it: package.json's
# `engines` range, Node 22 or newer.
check_image_node() {
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$node_major" -lt 22 ]; then
    echo "docpipe runs on Node 22 or newer (found $(node --version)): use a node:24 base image" >&2
    exit 1
  fi
}

# npm ci installs exactly the committed lock file and never writes it, so set-up leaves every
# tracked file as it is (CI checks). It starts from an empty node_modules, so it runs only when
# package.json or the lock file differ from those of the last install, recorded in a stamp.
# $1: the project folder (docpipe's, or test/node22's).
install_npm_dependencies() {
  local dir=$1 stamp="$1/node_modules/.docpipe-install-stamp" sum
  sum=$(cd "$dir" && cat package.json package-lock.json | sha256sum)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    log "npm dependencies present in $dir"
    return
  fi
  log "installing npm dependencies in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$sum" >"$stamp"
}

# The Node that a project's npm scripts run on, after its install: its major version must be $2.
# An install with --ignore-scripts (or an npm that blocks the `node` package's install script)
# leaves no node_modules/.bin/node, and the scripts would run on the machine's Node instead.
check_project_node() {
  local dir=$1 want=$2 found
  found=$("$dir/node_modules/.bin/node" -p 'process.versions.node' 2>/dev/null || true)
  if [ "${found%%.*}" != "$want" ]; then
    echo "$dir/node_modules/.bin/node is not Node $want (found: ${found:-none}): the \`node\` package's install script did not run; run npm ci with install scripts allowed" >&2
    exit 1
  fi
  log "Node $found runs the npm scripts of ${dir/#./docpipe}"
}

case "$mode" in
  image)
    install_apt_packages "${RUNTIME_PACKAGES[@]}" "${IMAGE_PACKAGES[@]}"
    check_image_node
    # An image layer keeps whatever this step leaves: apt's package lists are not needed again.
    $SUDO rm -rf /var/lib/apt/lists/*
    log "image packages ready"
    ;;
  npm)
    check_system_node
    install_npm_dependencies .
    check_project_node . 24
    ;;
  all)
    install_apt_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    check_system_node
    install_npm_dependencies .
    check_project_node . 24
    install_npm_dependencies test/node22
    check_project_node test/node22 22
    log "building"
    npm run --silent build
    log "ready"
    ;;
esac
