#!/usr/bin/env python3
"""A stand-in for workers/uno-bridge.py and LibreOffice, for unit tests of the office pool.

Started as the pool starts its bridge (argv: bridge-script pipe-name timeout office-pid jobs-dir),
it speaks the bridge's protocol. What it does with a document is written in the document itself,
as words done in order, after which it answers with a small PDF:
  sleep <seconds>   waits
  crash             exits at once, as a bridge whose office died
"""
import json
import sys
import time

PDF = b"%PDF-1.4\n% fake\n"


def send(obj, payload=b""):
    sys.stdout.buffer.write(json.dumps(obj).encode() + b"\n" + payload)
    sys.stdout.buffer.flush()


send({"ready": True, "ms": 1})
stdin = sys.stdin.buffer
while True:
    line = stdin.readline()
    if not line:
        break
    req = json.loads(line)
    if "watch" in req:
        continue
    words = stdin.read(req["bytes"]).decode("utf-8", "replace").split()
    send({"id": req["id"], "started": True})
    for i, word in enumerate(words):
        if word == "crash":
            sys.exit(3)
        if word == "sleep":
            time.sleep(float(words[i + 1]))
    send({"id": req["id"], "ok": True, "ms": 1, "bytes": len(PDF)}, PDF)
