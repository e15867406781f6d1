"""Benchmark: GetMove over the browser protocol (Connect, JSON) against gRPC, same positions.

    splendor-ai bench web [--iterations 1000] [--calls 200] [--write]
    (the demo page's first load: python scripts/bench_page.py; the TypeScript client from Node:
    python scripts/bench_web_ts.py, both in the source tree)

Starts one ``splendor-ai serve --http-port 0`` subprocess and calls GetMove for the same
positions (the mover's view, from random games) with the same seed and budget, once through
the gRPC client and once as a browser does it: a JSON body POSTed on a kept-alive HTTP/1.1
connection, the JSON reply parsed. The order of the two alternates from one position to the
next. Prints the figures; ``--write`` replaces the "web" section of BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import time

from google.protobuf import json_format

from .report import machine_line, write_section
from .service import HttpServer, pct, positions


class JsonClient:
    """What a page's fetch does: POST JSON, parse the JSON reply (one kept-alive connection)."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, message: dict) -> dict:
        body = json.dumps(message).encode()
        self.conn.request("POST", f"/splendor.v1.SplendorService/{method}", body,
                          {"content-type": "application/json", "connect-protocol-version": "1"})
        res = self.conn.getresponse()
        data = json.loads(res.read())
        if res.status != 200:
            raise RuntimeError(f"{method}: HTTP {res.status}: {data}")
        return data


def measure(client, web: JsonClient, pos, iterations: int):
    """Per position: (gRPC wall ms, gRPC search ms, JSON wall ms, JSON search ms, gRPC/JSON LegalActions ms)."""
    out: dict[str, list[float]] = {k: [] for k in ("grpc", "grpc_search", "json", "json_search", "grpc_legal",
                                                   "json_legal")}
    for i, p in enumerate(pos):
        as_json = json_format.MessageToDict(p)

        def over_grpc():
            t0 = time.perf_counter()
            turn = client.get_move(p, iterations=iterations, seed=i)
            out["grpc"].append((time.perf_counter() - t0) * 1000)
            out["grpc_search"].append(sum(s.elapsed_seconds for s in turn.searches) * 1000)
            t0 = time.perf_counter()
            client.legal_actions(p)
            out["grpc_legal"].append((time.perf_counter() - t0) * 1000)

        def over_json():
            t0 = time.perf_counter()
            turn = web.call("GetMove", {"position": as_json, "limits": {"iterations": str(iterations)},
                                        "seed": str(i)})
            out["json"].append((time.perf_counter() - t0) * 1000)
            out["json_search"].append(sum(float(s["elapsedSeconds"]) for s in turn["searches"]) * 1000)
            t0 = time.perf_counter()
            web.call("LegalActions", {"position": as_json})
            out["json_legal"].append((time.perf_counter() - t0) * 1000)

        for run in ((over_grpc, over_json) if i % 2 == 0 else (over_json, over_grpc)):
            run()
    return out


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="splendor-ai bench web", description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=1000, help="search budget of each GetMove decision")
    ap.add_argument("--calls", type=int, default=200, help="positions")
    ap.add_argument("--write", action="store_true", help="write the 'web' section of BENCHMARKS.md")
    args = ap.parse_args(argv)

    from splendor_ai_client import Client

    pos = positions(args.calls)
    load_before = os.getloadavg()[0]
    server = HttpServer()
    try:
        with Client(server.target, timeout=60) as client:
            client.wait_ready(10)
            web = JsonClient(server.http_port)
            measure(client, web, pos[:20], args.iterations)  # warm up
            r = measure(client, web, pos, args.iterations)
    finally:
        server.stop()
    load_after = os.getloadavg()[0]
    beyond = {k: [w - s for w, s in zip(r[k], r[k + "_search"])] for k in ("grpc", "json")}

    def row(name, a, b):
        return (f"| {name} | {statistics.median(a):.2f} ms | {pct(a, 99):.2f} ms | {statistics.median(b):.2f} ms "
                f"| {pct(b, 99):.2f} ms | {statistics.median(b) / statistics.median(a):.2f}x |")

    cmd = "splendor-ai bench web" + (
        f" --iterations {args.iterations}" if args.iterations != 1000 else "") + (
        f" --calls {args.calls}" if args.calls != 200 else "") + " --write"
    body = "\n".join([
        "## Service: GetMove over the browser protocol (Connect, JSON) against gRPC (base, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}). One server (`splendor-ai serve --http-port 0 "
        f"--max-concurrent 2`), client on this machine over loopback; the same {len(pos)} positions (the "
        f"mover's view, from random games) and seeds through both, in alternating order, GetMove with "
        f"{args.iterations:,} iterations per decision. JSON: a POST on a kept-alive HTTP/1.1 connection "
        f"and the reply parsed, as a page's `fetch` does; gRPC: the Python client. Load average (1 min) "
        f"before / after: {load_before:.1f} / {load_after:.1f}.",
        "",
        "| figure | gRPC p50 | gRPC p99 | JSON p50 | JSON p99 | JSON / gRPC (p50) |",
        "|---|---|---|---|---|---|",
        row("GetMove: the whole call", r["grpc"], r["json"]),
        row("GetMove: its searches (as the server reports them)", r["grpc_search"], r["json_search"]),
        row("GetMove: latency beyond the search", beyond["grpc"], beyond["json"]),
        row("LegalActions (no search)", r["grpc_legal"], r["json_legal"]),
        "",
        "Beyond the search, the browser protocol adds the JSON encoding of the position and of "
        "every candidate line (protobuf's json_format, in Python), HTTP/1.1 framing, and the hop "
        "from uvicorn's event loop to a worker thread and back.",
    ])
    print(body)
    if args.write:
        write_section("BENCHMARKS.md", "web", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
