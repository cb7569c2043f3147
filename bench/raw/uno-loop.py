#!/usr/bin/python3
"""Raw warm-loop baseline: one headless soffice driven over UNO (python3-uno).

Usage: /usr/bin/python3 bench/raw/uno-loop.py <file.docx> <rounds> <warmup> [--reuse-frame]

Starts its own soffice.bin (own process group, fresh temporary profile, unique pipe
name), connects over a named pipe, converts the same .docx to PDF `warmup + rounds`
times (load hidden/read-only, storeToURL with writer_pdf_Export, close), checks every
PDF, and prints one JSON line:
  {"kind": "uno" or "uno-frame", "n": N, "p50": ms, "p95": ms, "mean": ms, "startMs": ms, "ok": N}
Times are per-document milliseconds over the `rounds` timed conversions; startMs is the
time from spawning soffice to holding a Desktop reference.
With --reuse-frame every document loads into one hidden frame without a layout manager, as
docpipe's bridge does (workers/uno-bridge.py), instead of a new frame each ("_blank"): the
same office technique as docpipe, so that the benchmark can show docpipe's own overhead.

Must run under /usr/bin/python3 (Debian's python3-uno); a pyenv python has no `uno`.
"""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid

import uno  # noqa: E402  (python3-uno, only in /usr/bin/python3)
from com.sun.star.beans import PropertyValue  # noqa: E402
from com.sun.star.connection import NoConnectException  # noqa: E402

SOFFICE = "/usr/lib/libreoffice/program/soffice.bin"
CONNECT_TIMEOUT_S = 60.0
EXIT_RESTART = 81  # soffice.bin: "restart me" after first-start profile setup


def spawn_office(profile, conn):
    # RAW_OFFICE_PRELOAD: the malloc docpipe runs its office with, for soffice alone (not python).
    env = dict(os.environ)
    env.pop("RAW_OFFICE_PRELOAD", None)
    if os.environ.get("RAW_OFFICE_PRELOAD"):
        env["LD_PRELOAD"] = os.environ["RAW_OFFICE_PRELOAD"]
    return subprocess.Popen(
        [
            SOFFICE,
            "--headless",
            "--invisible",
            "--nologo",
            "--norestore",
            "--nodefault",
            "--nolockcheck",
            "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
            "--accept=" + conn,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # own process group, so killpg takes it all
        env=env,
    )


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def percentile(sorted_times, q):
    # Same rule as bench/stats.ts: times[min(n - 1, floor(q * n))].
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


def check_pdf(path):
    with open(path, "rb") as f:
        head = f.read(5)
    return head == b"%PDF-" and os.path.getsize(path) > 0


def stop_office(proc):
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def on_sigterm(signum, _frame):
    # Turn SIGTERM (e.g. a runner's timeout) into SystemExit so `finally` stops soffice.
    raise SystemExit(128 + signum)


def main(argv):
    signal.signal(signal.SIGTERM, on_sigterm)
    reuse_frame = argv[4:] == ["--reuse-frame"]
    if len(argv) != 4 and not reuse_frame:
        sys.stderr.write("usage: uno-loop.py <file.docx> <rounds> <warmup> [--reuse-frame]\n")
        return 2
    docx = os.path.abspath(argv[1])
    rounds = int(argv[2])
    warmup = int(argv[3])
    if rounds < 1 or warmup < 0:
        sys.stderr.write("rounds must be >= 1 and warmup >= 0\n")
        return 2
    if not os.path.isfile(docx):
        sys.stderr.write("no such file: %s\n" % docx)
        return 2

    work = tempfile.mkdtemp(prefix="docpipe-raw-uno-")
    profile = os.path.join(work, "profile")
    outdir = os.path.join(work, "out")
    os.mkdir(outdir)
    pipe = "docpipe_raw_uno_%d_%s" % (os.getpid(), uuid.uuid4().hex[:8])
    conn = "pipe,name=%s;urp;StarOffice.ComponentContext" % pipe

    proc = None
    try:
        started = time.perf_counter()
        proc = spawn_office(profile, conn)
        restarts = 0

        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        ctx = None
        while ctx is None:
            try:
                ctx = resolver.resolve("uno:" + conn)
            except NoConnectException:
                if proc.poll() is not None:
                    # soffice.bin exits with 81 after initialising a fresh profile and
                    # expects to be restarted (the soffice/oosplash wrapper does this).
                    if proc.returncode == EXIT_RESTART and restarts < 2:
                        restarts += 1
                        proc = spawn_office(profile, conn)
                        continue
                    raise RuntimeError("soffice exited with code %d" % proc.returncode)
                if time.perf_counter() - started > CONNECT_TIMEOUT_S:
                    raise RuntimeError("soffice did not accept connections in time")
                time.sleep(0.02)
        desktop = ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", ctx
        )
        start_ms = (time.perf_counter() - started) * 1000.0

        in_url = uno.systemPathToFileUrl(docx)
        load_props = (prop("Hidden", True), prop("ReadOnly", True))
        store_props = (prop("FilterName", "writer_pdf_Export"),)

        frame = None
        if reuse_frame:
            # FrameSearchFlag CREATE | TASKS: a new top-level frame, found again by its name.
            frame = desktop.findFrame("raw_uno_loop", 8 | 32)
            frame.LayoutManager = None

        times = []
        ok = 0
        for i in range(warmup + rounds):
            out_path = os.path.join(outdir, "out-%d.pdf" % i)
            out_url = uno.systemPathToFileUrl(out_path)
            t0 = time.perf_counter()
            if frame is None:
                doc = desktop.loadComponentFromURL(in_url, "_blank", 0, load_props)
            else:
                doc = frame.loadComponentFromURL(in_url, "_self", 0, load_props)
            if doc is None:
                raise RuntimeError("loadComponentFromURL returned None for " + docx)
            try:
                doc.storeToURL(out_url, store_props)
            finally:
                if frame is not None:
                    frame.setComponent(None, None)
                doc.close(True)
            elapsed = (time.perf_counter() - t0) * 1000.0
            good = check_pdf(out_path)
            os.unlink(out_path)
            if i >= warmup:
                times.append(elapsed)
                if good:
                    ok += 1
            elif not good:
                sys.stderr.write("warm-up conversion %d produced no valid PDF\n" % i)

        times.sort()
        print(
            json.dumps(
                {
                    "kind": "uno-frame" if reuse_frame else "uno",
                    "n": len(times),
                    "p50": percentile(times, 0.5),
                    "p95": percentile(times, 0.95),
                    "mean": sum(times) / len(times),
                    "startMs": start_ms,
                    "ok": ok,
                }
            ),
            flush=True,
        )
        return 0 if ok == len(times) else 1
    finally:
        stop_office(proc)
        # A stopped soffice leaves its pipes' sockets behind in /tmp: the one it accepts on, and
        # the one named after its profile (as src/render/convert/osl-pipes.ts computes it).
        url = uno.systemPathToFileUrl(profile).encode("utf-16-le")
        single = "SingleOfficeIPC_" + "".join("%x" % b for b in hashlib.md5(url).digest())
        for name in (pipe, single):
            try:
                os.unlink("/tmp/OSL_PIPE_%d_%s" % (os.getuid(), name))
            except OSError:
                pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
