#!/usr/bin/env python3
"""The monitor's window and ffplay playing the same kind of stream, measured in one run.

The built-in simulator serves in a process of its own (`lingbot-monitor simulate`), so its
rendering and encoding are counted for neither player. The window plays a live session from
it at the target fps; ffplay plays the recording of the same workload (the stream the
simulator sends, saved raw by `lingbot-monitor bench --simulate --save-raw`) at the same fps,
in a window the size of the monitor's video. Both run side by side on the same X display
(run under xvfb-run without one). Every --interval seconds the script reads each process's
CPU time (utime + stime from /proc/PID/stat) and resident memory (VmRSS), and prints both,
then the ratios: CPU over the measured span, RSS mean and peak, and RSS at the end against
RSS a tenth of the way in (flat: close to 1).

  python3 scripts/window_vs_ffplay.py [--seconds 120] [--chunks N] [--target-fps 16]

--chunks defaults to what --seconds needs at --target-fps. For the 2,000-chunk flatness check
at 1x playback that is --chunks 2000 --seconds 1500 (25 minutes).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def rss_mib(pid: int) -> float:
    match = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) / 1024.0 if match else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / "build/release/lingbot-monitor"))
    parser.add_argument("--seconds", type=float, default=120.0, help="measured span")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--chunks", type=int, default=0, help="default: enough for the span")
    parser.add_argument("--target-fps", type=float, default=16.0)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--raw", default="",
                        help="a stream recorded by an earlier run (its --chunks) for ffplay, "
                             "instead of recording one first")
    parser.add_argument("--profile", default="fast",
                        help="the window's simulator profile: fast runs ahead of playback "
                             "(bytes pile up compressed), h200-sp4 paces about like real time")
    parser.add_argument("--ffplay-size", default="640x369",
                        help="ffplay's window (the monitor's video area at 1280x800)")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        sys.exit("window_vs_ffplay: no DISPLAY; run it under xvfb-run -a -s '-screen 0 1920x1080x24'")
    chunks = args.chunks or int((args.seconds + args.warmup + 5) * args.target_fps / 12) + 2
    work = Path(tempfile.mkdtemp(prefix="lbm-vs-ffplay-"))
    env = dict(os.environ, XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "data"))

    # The stream ffplay plays: the same workload, recorded raw as it arrived.
    raw = Path(args.raw) if args.raw else work / "stream.m4s"
    if not args.raw:
        print(f"recording a {chunks}-chunk stream for ffplay ...", flush=True)
        subprocess.run([args.binary, "bench", "--simulate=fast", "--num-chunks", str(chunks),
                        "--save-raw", str(raw), "--ping-interval", "0"], check=True, env=env,
                       stdout=subprocess.DEVNULL)

    simulator = subprocess.Popen([args.binary, "simulate", "--port", "0", "--profile", args.profile],
                                 stdout=subprocess.PIPE, text=True, env=env)
    line = simulator.stdout.readline()
    url = re.search(r"(ws://\S+)", line).group(1)
    width, height = args.ffplay_size.split("x")
    window = subprocess.Popen([args.binary, "--endpoint", url, "--chunks", str(chunks),
                               "--target-fps", str(args.target_fps), "--start"],
                              env=env, stderr=subprocess.DEVNULL)
    ffplay = subprocess.Popen(["ffplay", "-loglevel", "error", "-autoexit", "-x", width, "-y", height,
                               "-vf", f"setpts=PTS*16/{args.target_fps}", str(raw)],
                              stdin=subprocess.DEVNULL, env=env)
    players = {"window": window, "ffplay": ffplay}
    samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name in players}
    try:
        time.sleep(args.warmup)
        began = time.monotonic()
        print(f"{'t_s':>6} {'window_cpu%':>12} {'ffplay_cpu%':>12} {'window_MiB':>11} {'ffplay_MiB':>11}")
        last = {name: (began, cpu_seconds(p.pid)) for name, p in players.items()}
        ended = None
        while time.monotonic() - began < args.seconds and not ended:
            time.sleep(args.interval)
            now = time.monotonic()
            row = []
            for name, process in players.items():
                if process.poll() is not None:
                    ended = name
            if ended:
                # What was sampled still counts: say so and summarise it.
                print(f"window_vs_ffplay: {ended} exited after {now - began:.0f} s "
                      f"({players[ended].returncode}); the summary covers the samples before",
                      flush=True)
                break
            for name, process in players.items():
                cpu = cpu_seconds(process.pid)
                used = 100.0 * (cpu - last[name][1]) / (now - last[name][0])
                last[name] = (now, cpu)
                samples[name].append((now - began, used, rss_mib(process.pid)))
                row.append((used, samples[name][-1][2]))
            print(f"{now - began:6.0f} {row[0][0]:12.1f} {row[1][0]:12.1f} {row[0][1]:11.1f} "
                  f"{row[1][1]:11.1f}", flush=True)
    finally:
        for process in (window, ffplay, simulator):
            process.send_signal(signal.SIGTERM)
        for process in (window, ffplay, simulator):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

    summary = {}
    for name, rows in samples.items():
        span = rows[-1][0]
        cpu = sum(r[1] * args.interval for r in rows) / span
        rss = [r[2] for r in rows]
        early = rss[max(0, len(rss) // 10 - 1)]
        summary[name] = {"cpu_percent": cpu, "rss_mean_mib": sum(rss) / len(rss),
                         "rss_peak_mib": max(rss), "rss_end_over_early": rss[-1] / early}
    w, f = summary["window"], summary["ffplay"]
    print(f"\nover {args.seconds:.0f} s at {args.target_fps:g} fps ({chunks} chunks):")
    for name, s in summary.items():
        print(f"  {name:7} CPU {s['cpu_percent']:5.1f}% of a core, RSS mean {s['rss_mean_mib']:6.1f} MiB, "
              f"peak {s['rss_peak_mib']:6.1f} MiB, end/early {s['rss_end_over_early']:.3f}")
    print(f"  ratios window/ffplay: CPU {w['cpu_percent'] / f['cpu_percent']:.2f}, RSS mean "
          f"{w['rss_mean_mib'] / f['rss_mean_mib']:.2f}, RSS peak {w['rss_peak_mib'] / f['rss_peak_mib']:.2f}")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
