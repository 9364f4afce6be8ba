#!/usr/bin/python3
"""Checks a video recorded from the real-handler harness (../shared/upstream-server): decodes
it with PyAV and reads the frame number the harness's fake engine draws into every frame (a
16-bit barcode in rows 0..15, 52 px per bit, white = 1, most significant bit left).

  scripts/check_upstream_video.py FILE [--expect N]

Prints {"decoded_frames", "barcodes_in_order", "first_mismatch_at"} as JSON; exit status 0
when the frames run 0, 1, 2, ... (and number N when given). Needs python3-av and
python3-numpy (the harness's own dependencies).
"""
from __future__ import annotations

import argparse
import json
import sys

import av

BITS, ROWS = 16, 16


def frame_number(rgb) -> int:
    cell = rgb.shape[1] // BITS
    value = 0
    for bit in range(BITS):
        patch = rgb[3:ROWS - 3, bit * cell + 8:(bit + 1) * cell - 8]
        value = (value << 1) | int(patch.mean() > 127)
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--expect", type=int, default=None)
    args = parser.parse_args()
    numbers = []
    error = None
    try:
        with av.open(args.file) as container:
            for frame in container.decode(video=0):
                numbers.append(frame_number(frame.to_ndarray(format="rgb24")))
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        error = f"{type(exc).__name__}: {exc}"
    mismatch = next((i for i, n in enumerate(numbers) if n != i), None)
    result = {"decoded_frames": len(numbers), "barcodes_in_order": mismatch is None,
              "first_mismatch_at": mismatch, "decode_error": error}
    print(json.dumps(result))
    ok = error is None and mismatch is None and (args.expect is None or len(numbers) == args.expect)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
