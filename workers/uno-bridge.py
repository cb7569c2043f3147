"""UNO bridge: drives one warm LibreOffice (soffice --accept on a named pipe) for docpipe.

Protocol, one JSON object per line:
  argv    pipe-name start-timeout-seconds office-pid
  stdin   {"id": 1, "input": "/abs/in.docx", "output": "/abs/out.pdf", "title": "name", "pdfa": false}
          {"watch": 1234}                                  the office's pid changed
  stdout  {"ready": true, "ms": 812}                      once connected
          {"id": 1, "ok": true, "ms": 38.2}
          {"id": 1, "ok": false, "error": "load-failed", "message": "..."}
Runs under /usr/bin/python3, whose uno module belongs to the Debian LibreOffice.
"""
import json
import os
import signal
import sys
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException

# MacroExecutionMode NEVER_EXECUTE and UpdateDocMode NO_UPDATE: no macro runs and no link is
# refreshed on load, whatever the profile says.
NEVER_EXECUTE = 0
NO_UPDATE = 0


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


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


def convert(desktop, req):
    url = uno.systemPathToFileUrl(req["input"])
    doc = desktop.loadComponentFromURL(
        url,
        "_blank",
        0,
        props(
            Hidden=True,
            ReadOnly=True,
            MacroExecutionMode=NEVER_EXECUTE,
            UpdateDocMode=NO_UPDATE,
            FilterName="MS Word 2007 XML",
        ),
    )
    if doc is None:
        return {"ok": False, "error": "load-failed", "message": "LibreOffice could not load the document"}
    try:
        title = req.get("title")
        if title:
            doc.getDocumentProperties().Title = title
        doc.storeToURL(
            uno.systemPathToFileUrl(req["output"]),
            props(FilterName="writer_pdf_Export", FilterData=pdf_filter_data(bool(req.get("pdfa")))),
        )
    finally:
        doc.close(True)
    return {"ok": True}


def main():
    pipe = sys.argv[1]
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    started = time.monotonic()
    desktop = connect(pipe, timeout)
    send({"ready": True, "ms": round((time.monotonic() - started) * 1000, 1)})
    watched = [int(a) for a in sys.argv[3:4] if a.isdigit()]
    try:
        serve(desktop, watched)
    finally:
        # stdin closed: docpipe is gone (maybe killed). Take the office down with it, so that no
        # orphaned soffice outlives the process that owned it.
        for pid in watched:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass


def serve(desktop, watched):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if "watch" in req:
            # The office was started again (after it set up its profile): a new pid to own.
            watched[:] = [int(req["watch"])]
            continue
        t = time.perf_counter()
        try:
            reply = convert(desktop, req)
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
        send(reply)


if __name__ == "__main__":
    main()
