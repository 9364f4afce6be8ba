#!/usr/bin/python3
"""Compares two sets of transcripts written by record_upstream_transcripts.py, e.g. the real
handler's (tests/data/upstream/snapshot) against our simulator's, by what a client can
observe: every server message in order, with byte lengths, times, the request id and
server-made event ids (already normalized by the recorder) and how the connection ends
left out. The same rules as tests/sim/sim_conformance_tests.cpp.

  scripts/compare_transcripts.py REFERENCE_DIR OTHER_DIR [--only NAME ...]

Prints one block per scenario that differs; exit status 1 when any does.
"""
from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path


def facts(document: dict) -> list[str]:
    lines = []
    for entry in document["transcript"]:
        if "recv" in entry:
            message = entry["recv"]
            if isinstance(message, dict):
                message = dict(message)
                message.pop("text_chars", None)
                if message.get("type") == "video.chunk_metadata":
                    message["byte_length"] = ">0" if message.get("byte_length", 0) > 0 else 0
            lines.append(json.dumps(message, sort_keys=True, ensure_ascii=False))
        elif "binary" in entry:
            lines.append("<binary>")
        elif "text" in entry:
            lines.append("<text> " + entry["text"])
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference")
    parser.add_argument("other")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    differing = 0
    compared = 0
    for path in sorted(Path(args.reference).glob("*.json")):
        if args.only is not None and path.stem not in args.only:
            continue
        other = Path(args.other) / path.name
        if not other.exists():
            continue
        compared += 1
        a = facts(json.loads(path.read_text()))
        b = facts(json.loads(other.read_text()))
        if a != b:
            differing += 1
            print(f"===== {path.stem}")
            for line in difflib.unified_diff(a, b, "reference", "other", n=1, lineterm=""):
                print(line[:400])
    print(f"{compared} scenarios compared, {differing} differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
