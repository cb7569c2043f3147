"""UNO bridge: drives one warm LibreOffice (soffice --accept on a named pipe) for docpipe.

Protocol, one JSON object per line, a document's bytes right after the line that announces them
(every message is declared, and each reply checked, in src/render/convert/bridge-protocol.ts: change both
together):
  argv    pipe-name start-timeout-seconds office-pid jobs-dir socket...
          (the sockets are the office's in /tmp, removed when docpipe dies: see osl-pipes.ts)
  stdin   {"id": 1, "bytes": 3838, "title": "name", "pdfa": false}  then 3838 bytes of .docx
          {"watch": 1234}                                  the office's pid changed
  stdout  {"ready": true, "ms": 812}                      once connected
          {"id": 1, "started": true}                        as it begins a conversion
          {"id": 1, "ok": true, "ms": 38.2, "bytes": 29083}  then 29083 bytes of PDF
          {"id": 1, "ok": false, "error": "load-failed", "message": "...", "ms": 3.1, "bytes": 0}
                  error: load-failed, convert-failed, or office-gone (the office was disposed)
Documents travel through the pipes, not through files docpipe writes and reads: the bridge keeps
them in jobs-dir only while LibreOffice needs them, with plain system calls, where docpipe's file
calls each cost a round trip through its thread pool. Requests are served in order; several can
wait in the pipe, and the next starts as soon as one is answered.
Runs under /usr/bin/python3, whose uno module belongs to the Debian LibreOffice.
"""
import json
import os
import shutil
import signal
import sys
import threading
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

# MacroExecutionMode NEVER_EXECUTE and UpdateDocMode NO_UPDATE: no macro runs and no link is
# refreshed on load, whatever the profile says.
NEVER_EXECUTE = 0
NO_UPDATE = 0
# FrameSearchFlag CREATE | TASKS: a new top-level frame when none has this name.
CREATE_TASK = 8 | 32


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def send(obj, payload=b""):
    out = sys.stdout.buffer
    out.write(json.dumps(obj).encode("utf-8") + b"\n")
    if payload:
        out.write(payload)
    out.flush()


def connect(pipe, timeout):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + timeout
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except NoConnectException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def pdf_filter_data(pdfa):
    data = {"ExportFormFields": False, "ExportNotes": False, "ExportBookmarks": True}
    if pdfa:
        # SelectPdfVersion 2 is PDF/A-2b in LibreOffice 7.4.
        data["SelectPdfVersion"] = 2
    return uno.Any("[]com.sun.star.beans.PropertyValue", props(**data))


# Built once: the same for every document, and building UNO structs is part of a bridge's cost.
STORE_PROPS = {
    pdfa: props(FilterName="writer_pdf_Export", FilterData=pdf_filter_data(pdfa))
    for pdfa in (False, True)
}


class Frames:
    """One hidden frame, reused for every document this office converts.

    Loading into a new frame ("_blank") builds its window and UI elements for each document; in
    LibreOffice 7.4 every one of those windows resolves a module path through dladdr() over the
    whole of libmergedlo's symbol table. Reusing the frame, without its layout manager (no
    toolbars, menus or docking areas, which nobody sees), saves a good part of the office's CPU
    per conversion: see docs/decisions.md#one-reused-frame-without-a-layout-manager. Only the
    frame is shared: each document is detached from it and closed after its conversion, and after
    any failure the frame is thrown away.
    """

    def __init__(self, desktop):
        self.desktop = desktop
        self.frame = None
        self.name = "docpipe_%d" % os.getpid()

    def get(self):
        if self.frame is None:
            frame = self.desktop.findFrame(self.name, CREATE_TASK)
            try:
                frame.LayoutManager = None
            except Exception:  # noqa: BLE001 - only slower with one
                pass
            self.frame = frame
        return self.frame

    def release(self, doc):
        """Detaches `doc` from the frame and closes it; the frame stays for the next document."""
        frame = self.frame
        try:
            if frame is not None and not frame.setComponent(None, None):
                self.discard()
        except Exception:  # noqa: BLE001 - a frame that cannot let go is replaced
            self.discard()
        doc.close(True)

    def abandon(self, doc):
        """After a failure: closes `doc` and throws the frame away, whatever state they are in."""
        try:
            doc.close(True)
        except Exception:  # noqa: BLE001 - the failure being reported matters, not this one
            pass
        self.discard()

    def discard(self):
        frame, self.frame = self.frame, None
        if frame is not None:
            try:
                frame.close(True)
            except Exception:  # noqa: BLE001 - already disposed with its office
                pass


def convert(frames, req, jobs):
    """Converts the request's .docx (its bytes in req["docx"]); returns the reply and the PDF."""
    name = os.path.join(jobs, "%d" % req["id"])
    source, target = name + ".docx", name + ".pdf"
    try:
        with open(source, "wb") as f:
            f.write(req["docx"])
        reply = store(frames, req, source, target)
        pdf = b""
        if reply["ok"] and os.path.exists(target):
            with open(target, "rb") as f:
                pdf = f.read()
        return reply, pdf
    finally:
        for path in (source, target):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def store(frames, req, source, target):
    url = uno.systemPathToFileUrl(source)
    try:
        doc = frames.get().loadComponentFromURL(url, "_self", 0, LOAD_PROPS)
    except Exception:
        frames.discard()
        raise
    if doc is None:
        frames.discard()
        return {"ok": False, "error": "load-failed", "message": "LibreOffice could not load the document"}
    try:
        title = req.get("title")
        if title:
            doc.getDocumentProperties().Title = title
        doc.storeToURL(uno.systemPathToFileUrl(target), STORE_PROPS[bool(req.get("pdfa"))])
    except Exception:
        frames.abandon(doc)
        raise
    frames.release(doc)
    return {"ok": True}


LOAD_PROPS = props(
    Hidden=True,
    ReadOnly=True,
    MacroExecutionMode=NEVER_EXECUTE,
    UpdateDocMode=NO_UPDATE,
    FilterName="MS Word 2007 XML",
)


def main():
    pipe = sys.argv[1]
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    watched = [int(a) for a in sys.argv[3:4] if a.isdigit()]
    jobs = sys.argv[4]
    sockets = sys.argv[5:]
    # docpipe can die while a conversion hangs or while the office starts: stdin's end is then
    # not read for a long while. The watch notices the parent is gone within a second.
    parent = os.getppid()
    threading.Thread(target=watch_parent, args=(parent, watched, sockets, jobs), daemon=True).start()
    try:
        started = time.monotonic()
        desktop = connect(pipe, timeout)
        os.makedirs(jobs, exist_ok=True)
        send({"ready": True, "ms": round((time.monotonic() - started) * 1000, 1)})
        serve(desktop, watched, jobs)
    finally:
        # stdin closed: docpipe is gone (maybe killed).
        take_down(watched, sockets, jobs)


def watch_parent(parent, watched, sockets, jobs):
    while True:
        time.sleep(1)
        if os.getppid() != parent:
            take_down(watched, sockets, jobs)
            os._exit(0)


def take_down(watched, sockets, jobs):
    """Takes the office down, so that no orphaned soffice outlives the process that owned it, and
    its folder (profile, temporary files: memory, under /dev/shm) with it; the pool's folder too
    once empty, and the office's pipe sockets, which LibreOffice leaves in /tmp when killed."""
    for pid in watched:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    office_dir = os.path.dirname(jobs)
    shutil.rmtree(office_dir, ignore_errors=True)
    for socket in sockets:
        try:
            os.unlink(socket)
        except OSError:
            pass
    try:
        os.rmdir(os.path.dirname(office_dir))
    except OSError:
        pass


def serve(desktop, watched, jobs):
    frames = Frames(desktop)
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if "watch" in req:
            # The office was started again (after it set up its profile): a new pid to own.
            watched[:] = [int(req["watch"])]
            continue
        req["docx"] = stdin.read(req["bytes"])
        if len(req["docx"]) < req["bytes"]:
            return  # docpipe went away in the middle of a document
        # docpipe arms the conversion's deadline now, and knows it began if the office dies.
        send({"id": req.get("id"), "started": True})
        t = time.perf_counter()
        pdf = b""
        try:
            reply, pdf = convert(frames, req, jobs)
        except Exception as err:  # noqa: BLE001 - every failure goes back typed, the bridge lives on
            name = type(err).__name__
            # pyuno names UNO exceptions with their module (com.sun.star.lang.DisposedException).
            # A dead office process disposes the bridge; the caller replaces both and retries.
            short = name.rsplit(".", 1)[-1]
            gone = short in ("DisposedException", "RuntimeException") or "disposed" in str(err).lower()
            kind = "office-gone" if gone else "convert-failed"
            reply = {"ok": False, "error": kind, "message": "%s: %s" % (name, getattr(err, "Message", str(err)))}
        reply["id"] = req.get("id")
        reply["ms"] = round((time.perf_counter() - t) * 1000, 2)
        reply["bytes"] = len(pdf)
        send(reply, pdf)


if __name__ == "__main__":
    main()
