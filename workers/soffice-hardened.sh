#!/usr/bin/env bash
# soffice for libreoffice-convert: the same hardening as the warm pool. libreoffice-convert makes
# an empty profile folder per call and passes it as -env:UserInstallation; this writes the
# hardened registry into it first, then runs soffice with proxies at a closed port and, when the
# host allows, in a network namespace without interfaces.
set -euo pipefail
: "${DOCPIPE_HARDENED_XCU:?path of the hardened registrymodifications.xcu}"
for arg in "$@"; do
  case "$arg" in
    -env:UserInstallation=file://*)
      profile="${arg#-env:UserInstallation=file://}"
      mkdir -p "$profile/user"
      cp "$DOCPIPE_HARDENED_XCU" "$profile/user/registrymodifications.xcu"
      ;;
  esac
done
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 ftp_proxy=http://127.0.0.1:9 no_proxy=
if [ "${DOCPIPE_NETNS:-0}" = "1" ]; then
  exec unshare --net -- /usr/lib/libreoffice/program/soffice "$@"
fi
exec /usr/lib/libreoffice/program/soffice "$@"
