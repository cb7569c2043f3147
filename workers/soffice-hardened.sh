#!/usr/bin/env bash
# soffice for libreoffice-convert, with the hardening of the warm pool, and the judge of whether a
# conversion worked.
#
# libreoffice-convert calls it as soffice: -env:UserInstallation=<fresh profile URL> --headless
# --convert-to <ext[:filter]> --outdir <dir> <source>. This writes the hardened registry into the
# profile first, then runs soffice with proxies at a closed port, its temporary files inside the
# profile, and, when DOCPIPE_NETNS=1, in a network namespace without interfaces.
#
# libreoffice-convert fails a conversion whenever soffice's stderr says "error", and LibreOffice
# says so about things that do not stop a conversion. So the output file decides: when it is
# there, soffice's stderr is dropped; when it is not, the wrapper says why on stderr and fails.
#
# Nothing stays behind: past DOCPIPE_CONVERT_TIMEOUT seconds soffice is killed with its whole
# process group; a killed soffice leaves its pipe socket in /tmp, removed here; when docpipe dies,
# soffice is killed and the converter's folder (DOCPIPE_CONVERT_DIR) removed.
set -uo pipefail
: "${DOCPIPE_HARDENED_XCU:?path of the hardened registrymodifications.xcu}"
: "${DOCPIPE_CONVERT_TIMEOUT:?seconds one conversion may take}"
: "${DOCPIPE_CONVERT_DIR:?the converter folder, removed if docpipe dies}"
: "${DOCPIPE_SOFFICE:?path of the soffice to run}"
SOFFICE=$DOCPIPE_SOFFICE

profile_url='' outdir='' format='' previous=''
for arg in "$@"; do
  case "$previous" in
    --outdir) outdir=$arg ;;
    --convert-to) format=$arg ;;
  esac
  case "$arg" in -env:UserInstallation=file://*) profile_url=${arg#-env:UserInstallation=} ;; esac
  previous=$arg
done
source_file=${*: -1}
profile=${profile_url#file://}
if [ -z "$profile_url" ] || [ -z "$outdir" ] || [ -z "$format" ]; then
  echo "error: soffice-hardened.sh needs -env:UserInstallation=file://..., --convert-to and --outdir" >&2
  exit 2
fi
# LibreOffice names its output after the source, with the extension that --convert-to names.
name=${source_file##*/}
output="$outdir/${name%.*}.${format%%:*}"

mkdir -p "$profile/user" "$profile/tmp"
cp "$DOCPIPE_HARDENED_XCU" "$profile/user/registrymodifications.xcu"
# libxml2 (through xmlsec) reads ftp_proxy and takes only an ftp:// one (office-profile.ts).
export http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 \
  HTTPS_PROXY=http://127.0.0.1:9 ftp_proxy=ftp://127.0.0.1:9 no_proxy=
export HOME="$profile" TMPDIR="$profile/tmp"

# Where soffice's pipe for this profile has its socket (src/render/convert/osl-pipes.ts): MD5 of the
# profile URL in UTF-16, each byte in hex without a leading zero.
single_office_pipe() {
  local md5 hex='' i
  md5=$(printf '%s' "$profile_url" | iconv -f UTF-8 -t UTF-16LE | md5sum)
  for ((i = 0; i < 32; i += 2)); do hex+=$(printf '%x' "$((16#${md5:i:2}))"); done
  echo "/tmp/OSL_PIPE_$(id -u)_SingleOfficeIPC_$hex"
}

command=("$SOFFICE" "$@")
[ "${DOCPIPE_NETNS:-0}" = "1" ] && command=(unshare --net -- "${command[@]}")
# timeout puts soffice in a process group of its own and, past the deadline, kills all of it
# (soffice is a script; soffice.bin runs under oosplash).
timeout --signal=KILL "$DOCPIPE_CONVERT_TIMEOUT" "${command[@]}" >/dev/null 2>"$profile/stderr" &
office=$!

# docpipe can die mid-conversion; then nobody waits for this one.
parent=$PPID
(
  while sleep 0.5; do
    read -r _ _ _ ppid _ <"/proc/$$/stat" 2>/dev/null || exit 0
    if [ "$ppid" != "$parent" ]; then
      kill -KILL -- "-$office" 2>/dev/null
      rm -f "$(single_office_pipe)"
      case "$DOCPIPE_CONVERT_DIR" in */docpipe-lo-convert-*) rm -rf "$DOCPIPE_CONVERT_DIR" ;; esac
      kill -KILL $$
      exit 0
    fi
  done
) </dev/null >/dev/null 2>&1 &
watcher=$!

wait "$office"
status=$?
kill "$watcher" 2>/dev/null
# Gone already when soffice shut itself down, left behind when it was killed.
rm -f "$(single_office_pipe)"

if [ "$status" -eq 137 ]; then
  echo "error: soffice did not finish within ${DOCPIPE_CONVERT_TIMEOUT} s and was killed" >&2
  exit 1
fi
if [ -s "$output" ]; then
  exit 0
fi
echo "error: soffice wrote no ${format%%:*} (exit status $status)" >&2
tail -n 5 "$profile/stderr" | grep -v javaldx >&2
exit 1
