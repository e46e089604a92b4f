#!/usr/bin/env python3
"""Reference external bot (standard library only): plays uniformly random legal actions.

Protocol 1, newline-delimited JSON on stdin/stdout (see README.md, "Bots in any language"):
hello -> ready; decide -> act; ack, event and end are read and ignored.
"""
import json
import random
import sys


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            rng.seed(msg.get("scenarioHash", "") + str(msg.get("side", 0)))
            send({"type": "ready", "name": "python-random"})
        elif kind == "decide":
            choice = rng.randrange(len(msg["legal"]))
            send({"type": "act", "id": msg["id"], "index": choice, "note": "random"})
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
