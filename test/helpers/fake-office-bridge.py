#!/usr/bin/env python3
"""A stand-in for workers/uno-bridge.py and LibreOffice, for unit tests of the office pool.

Started as the pool starts its bridge (argv: bridge-script pipe-name timeout office-pid), it
speaks the bridge's protocol. What it does with a document is written in the document itself:
  sleep <seconds>   waits, then writes a one-page PDF
  crash             exits at once, as a bridge whose office died
  anything else     writes a one-page PDF
"""
import json
import sys
import time


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


send({"ready": True, "ms": 1})
for line in sys.stdin:
    req = json.loads(line)
    if "watch" in req:
        continue
    with open(req["input"], "rb") as f:
        words = f.read().decode("utf-8", "replace").split()
    for i, word in enumerate(words):
        if word == "crash":
            sys.exit(3)
        if word == "sleep":
            time.sleep(float(words[i + 1]))
    with open(req["output"], "wb") as f:
        f.write(b"%PDF-1.4\n% fake\n")
    send({"id": req["id"], "ok": True, "ms": 1})
