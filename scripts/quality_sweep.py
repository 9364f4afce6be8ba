#!/usr/bin/env python3
"""The visual quality instruments on sessions the matrix does not hold: `bench --simulate fast`
at realism high under every camera script, a prompt transition of K = 0 (a hard cut), 1 and 3
after chunk 3 (it starts at chunk 5), and each visual fault inside the transition and at the
first chunk after it, plus a clean session per setting. Prints what was found at the fault's
own chunk, at the next one, what was missed, and every other flag.

Usage: python3 scripts/quality_sweep.py [path/to/lingbot-monitor]   (about 2.5 min on 2 cores)
"""
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/release/lingbot-monitor"


def run(setting):
    camera, k, kind, chunk = setting
    args = [BINARY, "bench", "--simulate", "fast", "--num-chunks", "14", "--camera-pattern", camera,
            "--realism", "high", "--prompt-update", f"3:{k}:A snowy street at night", "--quality"]
    if kind:
        args += ["--fault", f"{kind}@{chunk}"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True).stdout
    flags = {}
    for match in re.finditer(r"^  (\w+) \([^\n]*\):\s+(.+)$", out, re.M):
        value = match.group(2).strip()
        flags[match.group(1)] = [] if value == "none" else [int(x) for x in re.findall(r"\d+", value)]
    return setting, flags


settings = []
for camera in ["forward", "orbit", "hold"]:
    for k in [0, 1, 3]:
        settings.append((camera, k, None, None))
        for kind in ["seam", "freeze", "blur", "tint"]:
            for chunk in [5 + k // 2, 5 + max(k, 1)]:
                settings.append((camera, k, kind, chunk))
with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(run, settings))

own = later = missed = 0
for (camera, k, kind, chunk), flags in results:
    where = f"{camera} K={k} {kind or 'clean'}{'@' + str(chunk) if kind else ''}"
    if kind:
        found = flags.get(kind, [])
        if chunk in found:
            own += 1
        elif chunk + 1 in found:
            later += 1
        else:
            missed += 1
            print(f"missed: {where}")
    for name, chunks in flags.items():
        for c in chunks:
            if not (name == kind and c in (chunk, chunk + 1)):
                print(f"other flag: {where}: {name} at chunk {c}")
faulted = sum(1 for (_, _, kind, _), _ in results if kind)
print(f"{faulted} faulted sessions: {own} at the fault's chunk, {later} a chunk later, {missed} missed;"
      f" {len(results) - faulted} clean sessions")
