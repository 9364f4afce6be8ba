#!/usr/bin/python3
"""Records what the real vLLM-Omni `WS /v1/realtime/video` handler sends, scenario by scenario.

The scenarios live in tests/data/upstream/scenarios.json: a session.start (or a raw first
message), and client messages to send at triggers ("open", "video.start", "media:K" after
the bytes of the K-th media chunk, "queued:N" / "error:N" / "pong:N" after the N-th such
reply). For every scenario and handler this script runs the session against the harness
(../shared/upstream-server/upstream_server.py, which serves the genuine handler with a fake
engine) and writes tests/data/upstream/<handler>/<scenario>.json: the scenario, the harness
settings and the transcript (every message each way, binary frames as lengths, the close).
tests/sim/sim_conformance_tests.cpp replays the same scenarios against our simulator and
compares.

No upstream code is kept here or in the output: the harness loads it from $UPSTREAM_SRC.

  export UPSTREAM_SRC=<git dir of github:y-null/vllm-omni>        # the "snapshot" handler
  scripts/record_upstream_transcripts.py [--overlay DIR] [--only NAME ...] [--out DIR]
      --overlay DIR   a tree holding the newest handler at
                      DIR/vllm_omni/entrypoints/openai/serving_video_output_stream.py
                      (wtz2333/vllm-omni @ 69da5b3c); records the "newest" handler too
  scripts/record_upstream_transcripts.py --simulate build/release/lingbot-monitor \
      --handler snapshot|newest|combined --out DIR
      runs the scenarios against our simulator instead (one per server setting, matched to
      the harness's), so scripts/compare_transcripts.py can diff the two sets;
      --url ws://... runs them against any server (the settings are then yours to match)

Needs Debian's python3 with python3-wsproto (installed with python3-uvicorn).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import select
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from wsproto import ConnectionType, WSConnection
from wsproto.events import (AcceptConnection, BytesMessage, CloseConnection, Ping, RejectConnection,
                            Request, TextMessage)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENARIOS = ROOT / "tests" / "data" / "upstream" / "scenarios.json"
DEFAULT_HARNESS = Path(os.environ.get("UPSTREAM_HARNESS", ROOT.parent / "shared" / "upstream-server"))
HEX32 = re.compile(r"^[0-9a-f]{32}$")


class WsClient:
    """A blocking WebSocket client on wsproto: frames are reassembled, pings answered."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        parsed = urlparse(url)
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host=f"{parsed.hostname}:{parsed.port}",
                                               target=parsed.path or "/")))
        self.pending: list = []
        self.closed: dict | None = None
        self._text: list[str] = []
        self._bytes: list[bytes] = []
        deadline = time.monotonic() + timeout
        while True:
            for event in self._read(max(0.0, deadline - time.monotonic())):
                if isinstance(event, AcceptConnection):
                    return
                if isinstance(event, RejectConnection):
                    raise ConnectionError(f"handshake refused: HTTP {event.status_code}")
            if time.monotonic() > deadline:
                raise TimeoutError("no WebSocket handshake answer")

    def _read(self, timeout: float) -> list:
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return []
        data = self.sock.recv(1 << 20)
        self.ws.receive_data(data if data else None)
        return list(self.ws.events())

    def send_text(self, text: str) -> None:
        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def send_bytes(self, data: bytes) -> None:
        self.sock.sendall(self.ws.send(BytesMessage(data=data)))

    def recv(self, timeout: float):
        """("text", str) | ("bytes", bytes) | ("close", code, reason) | None on timeout."""
        deadline = time.monotonic() + timeout
        while not self.pending:
            if self.closed is not None:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                events = self._read(remaining)
            except (ConnectionError, OSError):
                self.closed = {"code": None, "reason": "connection dropped"}
                self.pending.append(("close", None, "connection dropped"))
                break
            for event in events:
                if isinstance(event, TextMessage):
                    self._text.append(event.data)
                    if event.message_finished:
                        self.pending.append(("text", "".join(self._text)))
                        self._text = []
                elif isinstance(event, BytesMessage):
                    self._bytes.append(bytes(event.data))
                    if event.message_finished:
                        self.pending.append(("bytes", b"".join(self._bytes)))
                        self._bytes = []
                elif isinstance(event, Ping):
                    self.sock.sendall(self.ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    self.closed = {"code": event.code, "reason": event.reason}
                    self.pending.append(("close", event.code, event.reason))
                    try:
                        self.sock.sendall(self.ws.send(event.response()))
                    except Exception:  # noqa: BLE001 - the peer may be gone already
                        pass
        return self.pending.pop(0) if self.pending else None

    def close(self) -> None:
        try:
            if self.closed is None:
                self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        except Exception:  # noqa: BLE001
            pass
        self.sock.close()


# --------------------------------------------------------------------------- scenarios

def expand(value, placeholders: dict):
    """Replaces "$NAME" strings (and "$PAD:N", N characters of 'x') inside a JSON value."""
    if isinstance(value, str):
        if value.startswith("$PAD:"):
            return "x" * int(value[5:])
        return placeholders.get(value, value)
    if isinstance(value, list):
        return [expand(v, placeholders) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, placeholders) for k, v in value.items()}
    return value


def num_frames_for(chunks: int) -> int:
    return (3 * chunks - 1) * 4 + 1


def start_message(doc: dict, scenario: dict):
    """The first message as (kind, payload): ("json", dict) | ("text", str) | ("bytes", b) | None."""
    if "start_text" in scenario:
        return "text", expand(scenario["start_text"], doc["placeholders"])
    if "start_binary" in scenario:
        return "bytes", bytes(scenario["start_binary"])
    if scenario.get("start", {}) is None:
        return None
    start = dict(doc["base_start"])
    start["num_frames"] = num_frames_for(scenario.get("chunks", 4))
    for key, value in (scenario.get("start") or {}).items():
        if value == "$DELETE":
            start.pop(key, None)
        else:
            start[key] = value
    return "json", start


def payload_of(item: dict, placeholders: dict):
    if "json" in item:
        return "text", json.dumps(expand(item["json"], placeholders), ensure_ascii=False)
    if "text" in item:
        return "text", expand(item["text"], placeholders)
    if "binary" in item:
        return "bytes", bytes(item["binary"])
    raise ValueError(f"a step sends json, text or binary: {item}")


class Normalizer:
    """Replaces session-specific values (request id, server-made event ids, the first frame)
    by stable names, so transcripts compare across runs and servers."""

    def __init__(self, placeholders: dict, sent_ids: set[str]) -> None:
        self.request_id: str | None = None
        self.reverse = {v: k for k, v in placeholders.items() if isinstance(v, str) and len(v) > 16}
        self.sent_ids = sent_ids
        self.uuids: dict[str, str] = {}

    def value(self, value, key: str | None = None):
        if isinstance(value, str):
            if self.request_id is not None and value == self.request_id:
                return "$REQUEST_ID"
            if value in self.reverse:
                return self.reverse[value]
            if (key in ("event_id", None) or key.endswith("_ids")) and HEX32.match(value) \
                    and value not in self.sent_ids:
                return self.uuids.setdefault(value, f"$UUID{len(self.uuids) + 1}")
            if len(value) > 1000 and set(value) == {"x"}:
                return f"$PAD:{len(value)}"
            return value
        if isinstance(value, list):
            return [self.value(v, key if key and key.endswith("_ids") else None) for v in value]
        if isinstance(value, dict):
            return {k: self.value(v, k) for k, v in value.items()}
        return value

    def message(self, obj):
        if isinstance(obj, dict) and obj.get("type") == "video.start":
            self.request_id = obj.get("request_id")
        return self.value(obj)


def run_scenario(url: str, doc: dict, scenario: dict) -> dict:
    placeholders = doc["placeholders"]
    steps = [dict(step, fired=False) for step in scenario.get("steps", [])]
    sent_ids = {s["json"]["interaction"]["event_id"] for st in steps for s in st["send"]
                if isinstance(s.get("json"), dict) and isinstance(s["json"].get("interaction"), dict)
                and isinstance(s["json"]["interaction"].get("event_id"), str)}
    norm = Normalizer(placeholders, sent_ids)
    transcript: list[dict] = []
    counters = {"media": 0, "queued": 0, "error": 0, "pong": 0}
    client = WsClient(url)
    t0 = time.monotonic()

    def now() -> float:
        return round(time.monotonic() - t0, 3)

    def send(kind: str, payload, described) -> None:
        try:
            if kind == "text":
                client.send_text(payload)
            else:
                client.send_bytes(payload)
            transcript.append({"t": now(), "sent": described})
        except Exception:  # noqa: BLE001 - wsproto refuses once the server has closed
            transcript.append({"t": now(), "not_sent": described, "reason": "connection closed"})

    delayed: list[tuple[float, dict]] = []

    def send_step(step: dict) -> None:
        for item in step["send"]:
            kind, payload = payload_of(item, placeholders)
            send(kind, payload, item)

    def fire(trigger: str) -> None:
        for step in steps:
            if not step["fired"] and step["at"] == trigger:
                step["fired"] = True
                if step.get("delay_s"):
                    delayed.append((time.monotonic() + float(step["delay_s"]), step))
                else:
                    send_step(step)

    fire("open")
    first = start_message(doc, scenario)
    if first is not None:
        kind, payload = first
        if kind == "json":
            send("text", json.dumps(expand(payload, placeholders), ensure_ascii=False),
                 {"json": "$START"})
        else:
            send(kind, payload, {"text": scenario["start_text"]} if kind == "text"
                 else {"binary": scenario["start_binary"]})
    fire("start")

    # A session is over when the handler has said so (session.done or an error) and then
    # stays quiet; while it streams, silence only ends the scenario after a long wait.
    quiet_s = float(scenario.get("quiet_s", doc.get("quiet_s", 2.5)))
    streaming_quiet_s = 10.0
    last_message = time.monotonic()
    media_next = False
    said_so = False
    end = None
    while end is None:
        for entry in [d for d in delayed if d[0] <= time.monotonic()]:
            delayed.remove(entry)
            send_step(entry[1])
        event = client.recv(0.02)
        if event is None:
            limit = quiet_s if said_so else streaming_quiet_s
            if time.monotonic() - last_message > limit:
                end = {"t": now(), "end": f"quiet for {limit} s, connection still open"}
            elif time.monotonic() - t0 > float(scenario.get("max_s", 90)):
                end = {"t": now(), "end": "scenario time limit"}
            continue
        last_message = time.monotonic()
        if event[0] == "close":
            end = {"t": now(), "closed": event[1], "reason": event[2] or ""}
            break
        if event[0] == "bytes":
            transcript.append({"t": now(), "binary": len(event[1])})
            if media_next:
                fire(f"media:{counters['media']}")
                counters["media"] += 1
            media_next = False
            continue
        text = event[1]
        try:
            obj = json.loads(text)
        except ValueError:
            transcript.append({"t": now(), "text": text})
            continue
        entry = norm.message(obj)
        if isinstance(obj, dict) and obj.get("type") == "video.start":
            entry = dict(entry, text_chars=len(text))
        transcript.append({"t": now(), "recv": entry})
        kind = obj.get("type") if isinstance(obj, dict) else None
        said_so = said_so or kind in ("session.done", "error")
        if kind == "video.chunk_metadata":
            media_next = obj.get("kind") == "media"
        elif kind == "video.start":
            fire("video.start")
        elif kind == "session.interaction.queued":
            fire(f"queued:{counters['queued']}")
            counters["queued"] += 1
        elif kind == "error":
            fire(f"error:{counters['error']}")
            counters["error"] += 1
        elif kind == "session.pong":
            fire(f"pong:{counters['pong']}")
            counters["pong"] += 1
    client.close()
    transcript.append(end)
    return {"transcript": transcript,
            "unfired_steps": [s["at"] for s in steps if not s["fired"]]}


# --------------------------------------------------------------------------- harness

class Harness:
    def __init__(self, harness_dir: Path, src: str, settings: dict, overlay: str | None,
                 doc: dict) -> None:
        command = [sys.executable, str(harness_dir / "upstream_server.py"), "--port", "0",
                   "--src", src, "--profile", settings.get("profile", "0.3:0.5")]
        for option in ("stall_timeout", "start_timeout", "decoder"):
            if option in settings:
                command += [f"--{option.replace('_', '-')}", str(settings[option])]
        if overlay:
            command += ["--overlay", overlay]
        self.command = command
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY port "):
            self.process.kill()
            raise SystemExit(f"the harness did not start: {line!r}\n{self.process.stderr.read()}")
        self.url = f"ws://127.0.0.1:{int(line.split()[2])}/v1/realtime/video"
        # The first session of a fresh harness pays for imports and encoder start-up (seconds);
        # one throwaway session keeps that out of the recorded scenarios.
        warm = {"name": "warm-up", "chunks": 1, "quiet_s": 0.5}
        run_scenario(self.url, doc, warm)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Simulator:
    """`lingbot-monitor simulate` with the scenario group's settings, to diff against."""

    def __init__(self, binary: str, settings: dict, handler: str) -> None:
        ttfc, interval = settings.get("profile", "0.3:0.5").split(":")
        command = [binary, "simulate", "--port", "0", "--profile", f"fixed:{ttfc}:{interval}",
                   "--handler", handler]
        if "stall_timeout" in settings:
            command += ["--stall-timeout", str(settings["stall_timeout"])]
        if "start_timeout" in settings:
            command += ["--start-timeout", str(settings["start_timeout"])]
        if settings.get("decoder") == "independent":
            command.append("--independent-chunks")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        line = self.process.stdout.readline()
        match = re.search(r"(ws://\S+?)(?: |$)", line)
        if not match:
            self.process.kill()
            raise SystemExit(f"the simulator did not start: {line!r}\n{self.process.stderr.read()}")
        self.url = match.group(1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def git_commit(src: str) -> str:
    try:
        return subprocess.run(["git", f"--git-dir={src}", "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default=str(DEFAULT_SCENARIOS))
    parser.add_argument("--out", default=None, help="output directory (default: beside the scenarios)")
    parser.add_argument("--src", default=os.environ.get("UPSTREAM_SRC"))
    parser.add_argument("--overlay", default=None, help="tree with the newest handler (records 'newest')")
    parser.add_argument("--harness", default=str(DEFAULT_HARNESS))
    parser.add_argument("--url", default=None, help="run against this server instead of the harness")
    parser.add_argument("--handler", default=None,
                        help="with --url or --simulate: which handler's scenarios to run (and, "
                        "with --simulate, which version the simulator answers as)")
    parser.add_argument("--simulate", default=None, metavar="LINGBOT_MONITOR",
                        help="run against `LINGBOT_MONITOR simulate`, one per server setting")
    parser.add_argument("--only", nargs="*", default=None, help="scenario names")
    args = parser.parse_args()

    doc = json.loads(Path(args.scenarios).read_text())
    out_root = Path(args.out) if args.out else Path(args.scenarios).parent
    selected = [s for s in doc["scenarios"] if args.only is None or s["name"] in args.only]
    failures = 0

    def record(handler: str, url: str | None, harness_note: dict) -> None:
        nonlocal failures
        groups: dict[str, list[dict]] = {}
        for scenario in selected:
            if handler == "combined" or handler in scenario.get("handlers", ["snapshot", "newest"]):
                groups.setdefault(scenario.get("server", "default"), []).append(scenario)
        for server_name, scenarios in groups.items():
            settings = doc["servers"][server_name]
            harness = None
            target = url
            if args.simulate:
                harness = Simulator(args.simulate, settings, handler)
                target = harness.url
            elif target is None:
                harness = Harness(Path(args.harness), args.src, settings,
                                  args.overlay if handler == "newest" else None, doc)
                target = harness.url
            try:
                for scenario in scenarios:
                    result = run_scenario(target, doc, scenario)
                    out_dir = out_root / handler
                    out_dir.mkdir(parents=True, exist_ok=True)
                    document = {"scenario": scenario["name"], "handler": handler,
                                "server": dict(settings, name=server_name), "recorded_with": harness_note,
                                **result}
                    (out_dir / f"{scenario['name']}.json").write_text(
                        json.dumps(document, indent=1, ensure_ascii=False) + "\n")
                    flag = "" if not result["unfired_steps"] else f"  UNFIRED {result['unfired_steps']}"
                    failures += bool(result["unfired_steps"])
                    print(f"{handler:8} {scenario['name']:40} {len(result['transcript']):4} entries  "
                          f"{result['transcript'][-1]}{flag}", flush=True)
            finally:
                if harness is not None:
                    harness.stop()

    if args.url or args.simulate:
        record(args.handler or "snapshot", args.url, {"url": args.url or "lingbot-monitor simulate"})
    else:
        if not args.src:
            parser.error("name the vLLM-Omni source with --src or $UPSTREAM_SRC")
        note = {"harness": "upstream_server.py", "upstream": f"y-null/vllm-omni @ {git_commit(args.src)}"}
        record("snapshot", None, note)
        if args.overlay:
            record("newest", None, dict(note, overlay="serving_video_output_stream.py of "
                                        "wtz2333/vllm-omni @ 69da5b3c5f9d3865c4c7d3f7c1649ccb925490cc"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
