"""Benchmark: the TypeScript client's GetMove over Connect from Node against the Python client's
over gRPC: the same server, positions and seeds, at 1 and 1,000 iterations per decision.

    python scripts/bench_web_ts.py [--calls 200] [--js client/js] [--write [FILE]]

Needs Node 18+ and the package built (``cd client/js && npm ci && npm run build``). One
``splendor-ai serve --http-port 0`` subprocess; one Node process
(``client/js/scripts/bench-getmove.mjs``) takes the positions one by one on its stdin and times
each awaited ``getMove`` inside Node (Connect, binary protobuf, HTTP/1.1 kept alive: the
client's defaults); the Python client times its own calls over gRPC. The two alternate from one
position to the next, so both see the same load. Prints the figures; ``--write`` replaces the
"web-ts" section of BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from splendor_ai.bench.report import add_write_option, machine_line, report
from splendor_ai.bench.service import pct, positions
from splendor_ai.bench.service import HttpServer

BUDGETS = (1, 1000)


def find_js(given: str | None) -> Path | None:
    """The built package: --js, else client/js of the source tree this module is in (an
    installed splendor_ai is not in one), else of the current folder."""
    candidates = [Path(given)] if given else [Path(__file__).resolve().parents[2] / "client" / "js",
                                              Path.cwd() / "client" / "js"]
    return next((c for c in candidates if (c / "dist" / "node.js").exists()), None)


class NodeClient:
    """The Node process: one GetMove per request line, its timing back."""

    def __init__(self, node: str, js: Path, base_url: str, protocol: str = "connect"):
        self.proc = subprocess.Popen([node, str(js / "scripts" / "bench-getmove.mjs"), base_url, protocol], cwd=js,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def get_move(self, position, iterations: int, seed: int) -> tuple[float, float]:
        line = json.dumps({"position": base64.b64encode(position.SerializeToString()).decode(),
                           "iterations": iterations, "seed": seed})
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"the Node client exited ({self.proc.wait()})")
        out = json.loads(reply)
        return out["wall"], out["search"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)


def measure(client, node: NodeClient, node_grpc: NodeClient, pos, iterations: int):
    """Per position: wall and search ms of the Python client over gRPC, of the TypeScript one over
    Connect (the HTTP port) and of the TypeScript one over gRPC (the gRPC port)."""
    out = {k: [] for k in ("py", "py_search", "ts", "ts_search", "tsg", "tsg_search")}
    for i, p in enumerate(pos):
        def over_grpc():
            t0 = time.perf_counter()
            turn = client.get_move(p, iterations=iterations, seed=i)
            out["py"].append((time.perf_counter() - t0) * 1000)
            out["py_search"].append(sum(s.elapsed_seconds for s in turn.searches) * 1000)

        def over_node():
            wall, search = node.get_move(p, iterations, i)
            out["ts"].append(wall)
            out["ts_search"].append(search)

        def over_node_grpc():
            wall, search = node_grpc.get_move(p, iterations, i)
            out["tsg"].append(wall)
            out["tsg_search"].append(search)

        runs = (over_grpc, over_node, over_node_grpc)
        for k in range(3):  # each client first, second and third in turn
            runs[(i + k) % 3]()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/bench_web_ts.py", description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=200, help="positions per budget")
    ap.add_argument("--js", help="the built client/js folder (default: the source tree's, or ./client/js)")
    add_write_option(ap)
    args = ap.parse_args(argv)
    node = shutil.which("node")
    if node is None:
        print("python scripts/bench_web_ts.py: needs Node 18+ (apt-get install nodejs npm)", file=sys.stderr)
        return 2
    js = find_js(args.js)
    if js is None:
        print("python scripts/bench_web_ts.py: no built TypeScript client (give --js DIR, or build it: "
              "cd client/js && npm ci && npm run build)", file=sys.stderr)
        return 2
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()

    from splendor_ai_client import Client

    pos = positions(args.calls)
    load_before = os.getloadavg()[0]
    server = HttpServer()
    results = {}
    try:
        ts = NodeClient(node, js, f"http://127.0.0.1:{server.http_port}")
        tsg = NodeClient(node, js, f"http://{server.target}", "grpc")
        try:
            with Client(server.target, timeout=120) as client:
                client.wait_ready(10)
                for iterations in BUDGETS:
                    measure(client, ts, tsg, pos[:20], iterations)  # warm up (the clients, the server)
                    results[iterations] = measure(client, ts, tsg, pos, iterations)
        finally:
            ts.close()
            tsg.close()
    finally:
        server.stop()
    load_after = os.getloadavg()[0]

    def row(name, a, b, c):
        return (f"| {name} | {statistics.median(a):.2f} / {pct(a, 99):.2f} ms | {statistics.median(b):.2f} / "
                f"{pct(b, 99):.2f} ms | {statistics.median(c):.2f} / {pct(c, 99):.2f} ms "
                f"| {statistics.median(b) / statistics.median(a):.2f}x "
                f"| {statistics.median(c) / statistics.median(a):.2f}x |")

    rows = []
    for iterations, r in results.items():
        beyond = {k: [w - s for w, s in zip(r[k], r[k + "_search"])] for k in ("py", "ts", "tsg")}
        label = f"{iterations:,} iteration{'s' if iterations != 1 else ''}"
        rows += [row(f"GetMove, {label}: the whole call", r["py"], r["ts"], r["tsg"]),
                 row(f"GetMove, {label}: beyond the search", beyond["py"], beyond["ts"], beyond["tsg"])]
    cmd = "python scripts/bench_web_ts.py" + (f" --calls {args.calls}" if args.calls != 200 else "") + " --write"
    body = "\n".join([
        "## Service: the TypeScript client's GetMove over Connect (Node) against the Python client over gRPC "
        "(base, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}, Node {version}). One server (`splendor-ai serve --http-port 0 "
        f"--max-concurrent 2`), the clients on this machine over loopback; the same {len(pos)} positions (the "
        "mover's view, from random games) and seeds through all three, at each budget. "
        "TypeScript: `splendor-ai-client` (client/js) in one Node process, Connect with binary protobuf on a "
        "kept-alive HTTP/1.1 connection (its defaults), each awaited `getMove` timed in Node; the same "
        "package over gRPC to the gRPC port (`protocol: \"grpc\"`, HTTP/2) in a second Node process, which "
        "parts the Node client's cost from the HTTP port's; Python: `splendor_ai_client.Client` over gRPC. "
        f"The three take turns going first. Load average (1 min) before / after: {load_before:.1f} / "
        f"{load_after:.1f}.",
        "",
        "| figure | Python, gRPC: p50 / p99 | TypeScript, Connect: p50 / p99 | TypeScript, gRPC: p50 / p99 "
        "| TS Connect / Python (p50) | TS gRPC / Python (p50) |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "At 1 iteration the call is nearly all overhead: the client's encoding and decoding, the protocol "
        "and the server's side of it (gRPC's C core, or uvicorn and the Connect runtime in Python for the "
        "HTTP port); at 1,000 iterations the search takes most of the call.",
    ])
    report(args, "web-ts", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
