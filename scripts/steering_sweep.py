#!/usr/bin/env python3
"""The visual quality instruments under camera motion nobody tuned them on: clean
`bench --simulate fast --quality` sessions of 16 chunks whose camera script holds random keys
(turns, looks, moves, strafes and pairs of them) for 1 to 5 chunks with pauses between, drawn
from a fixed seed. Nothing is wrong in these sessions, so every flag is a false one. Prints
each session's flags and the totals.

Usage: python3 scripts/steering_sweep.py [path/to/lingbot-monitor] [sessions] [seed]
       (about 1 min for 24 sessions on 2 cores)
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/release/lingbot-monitor"
SESSIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 24
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 7
CHUNKS = 16
LATENT_FRAMES = 3  # action lists per chunk in a camera_action_script
KEYS = ["l", "j", "i", "k", "w", "s", "a", "d", "wl", "wj", "ai", "dk", "wa", "sd", "il"]
IMAGE = os.path.join(os.path.dirname(os.path.abspath(BINARY)), "resources", "first_frame.png")


def schedule(rng):
    """Keys held from each chunk on ("" = released), chunk 0 (the first frame's blend) still."""
    held, chunk = {}, 1
    while chunk < CHUNKS - 2:
        held[chunk] = rng.choice(KEYS)
        chunk += rng.randint(1, 5)
        if rng.random() < 0.6 and chunk < CHUNKS - 1:
            held[chunk] = ""
            chunk += rng.randint(1, 2)
    return held


def run(held):
    keys, script = "", []
    for chunk in range(CHUNKS):
        keys = held.get(chunk, keys)
        script.append([list(keys) for _ in range(LATENT_FRAMES)])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as workload:
        json.dump({"image": IMAGE, "camera_action_script": script}, workload)
    try:
        out = subprocess.run([BINARY, "bench", "--simulate", "fast", "--quality", "--workload",
                              workload.name], capture_output=True, text=True, timeout=300,
                             check=True).stdout
    finally:
        os.unlink(workload.name)
    flags = {}
    for match in re.finditer(r"^  (\w+) \([^\n]*\):\s+(.+)$", out, re.M):
        if match.group(2).strip() != "none":
            flags[match.group(1)] = match.group(2).strip()
    return held, flags


rng = random.Random(SEED)
schedules = [schedule(rng) for _ in range(SESSIONS)]
with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(run, schedules))
kinds = Counter()
flagged = 0
for held, flags in results:
    text = ",".join(f"{chunk}:{keys or '-'}" for chunk, keys in sorted(held.items()))
    print(f"{text:<44} {'; '.join(f'{k} {v}' for k, v in flags.items()) or 'clean'}")
    flagged += 1 if flags else 0
    kinds.update(flags.keys())
print(f"{SESSIONS} clean steered sessions (seed {SEED}): {SESSIONS - flagged} without a flag, "
      f"{flagged} with one; sessions per flag: {dict(kinds) or 'none'}")
