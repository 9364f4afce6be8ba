#!/usr/bin/env python3
"""Simulated LL-HLS viewers for a broadcast: each one, from its own loopback address
(127.0.0.2, 127.0.0.3, ...), reads the multivariant playlist, then follows the media playlist
with blocking reloads (_HLS_msn/_HLS_part from the preload hint) and fetches every new part,
as hls.js does, until the playlist ends or --seconds pass. Prints one JSON line with the
totals. Standard library only; every request goes to 127.0.0.0/8 and the run stops by itself.

  python3 scripts/broadcast_load.py http://127.0.0.1:8787/TOKEN/ --viewers 50 --seconds 120
"""
import argparse
import http.client
import json
import re
import threading
import time
import urllib.parse

PART = re.compile(r'#EXT-X-PART:[^\n]*URI="([^"]+)"')
HINT = re.compile(r'#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part(\d+)\.(\d+)\.m4s"')


class Viewer(threading.Thread):
    def __init__(self, number, base, deadline):
        super().__init__(daemon=True)
        self.base = urllib.parse.urlsplit(base)
        self.source = ("127.0.0.%d" % (2 + number), 0)
        self.deadline = deadline
        self.requests = 0
        self.bytes = 0
        self.errors = []
        self.parts = set()
        self.ended = False

    def get(self, connection, path):
        while True:
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            self.requests += 1
            self.bytes += len(body)
            # 503 before the first picture (or a part not out within the server's hold):
            # ask again after Retry-After, as players do.
            if response.status != 503 or time.monotonic() >= self.deadline:
                break
            time.sleep(float(response.getheader("Retry-After", "1")))
        if response.status != 200:
            raise RuntimeError("%s: HTTP %d %s" % (path, response.status, body[:80]))
        return body.decode("utf-8", "replace") if path.endswith(".m3u8") or "m3u8?" in path else body

    def run(self):
        try:
            connection = http.client.HTTPConnection(self.base.hostname, self.base.port, timeout=30,
                                                    source_address=self.source)
            root = self.base.path
            master = self.get(connection, root + "live.m3u8")
            media = root + [line for line in master.splitlines() if line and not line.startswith("#")][0]
            folder = media.rsplit("/", 1)[0] + "/"
            self.get(connection, folder + "init.mp4")
            query = ""
            while time.monotonic() < self.deadline:
                playlist = self.get(connection, media + query)
                for uri in PART.findall(playlist):
                    if uri not in self.parts:
                        self.parts.add(uri)
                        self.get(connection, folder + uri)
                if "#EXT-X-ENDLIST" in playlist:
                    self.ended = True
                    return
                hint = HINT.search(playlist)
                query = "?_HLS_msn=%s&_HLS_part=%s" % hint.groups() if hint else ""
        except Exception as error:  # one viewer's failure is counted, the others go on
            self.errors.append(str(error))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the viewer URL, http://HOST:PORT/TOKEN/")
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    if not 1 <= args.viewers <= 250:
        parser.error("--viewers must be 1..250 (one loopback address each)")
    deadline = time.monotonic() + args.seconds
    viewers = [Viewer(n, args.url, deadline) for n in range(args.viewers)]
    for viewer in viewers:
        viewer.start()
    for viewer in viewers:
        viewer.join(max(0.0, deadline - time.monotonic()) + 35)
    print(json.dumps({
        "viewers": len(viewers),
        "reached_end": sum(v.ended for v in viewers),
        "requests": sum(v.requests for v in viewers),
        "bytes": sum(v.bytes for v in viewers),
        "parts_per_viewer_min": min(len(v.parts) for v in viewers),
        "errors": [e for v in viewers for e in v.errors][:10],
    }))


if __name__ == "__main__":
    main()
