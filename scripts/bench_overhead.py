"""GetMove's cost beyond its search, and the decode CPU of a position: this tree against another
checkout of the project, interleaved (issue 70).

    python scripts/bench_overhead.py --before DIR [--calls 300] [--iterations 1000] [--write [FILE]]
    python scripts/bench_overhead.py --bare-waits 0,1,12,30

DIR is another checkout (e.g. `git worktree add DIR <commit>`) with its cores built in place
(`python setup.py build_ext --inplace` there). One server runs from DIR (PYTHONPATH=DIR), one from
the installed package, each `splendor-ai serve --max-concurrent 2` in its own process; one client
calls GetMove on the same positions (the mover's view, from random base 2-player games) with the
same seed and budget on both, alternating which goes first. The cost beyond the search is the
call's wall time at the client less the time its searches took (as the server reports it).
Decode CPU: `convert.decode_position` on base 4-player positions, each tree in a process of its
own, CPU time per position.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from splendor_ai.bench.report import machine_line, write_section
from splendor_ai.bench.service import pct, positions

DECODE = """
import random, sys, time
from splendor_ai.games import load_game
from splendor_ai.service import convert
rng = random.Random(4)
msgs = []
while len(msgs) < 200:
    s = load_game("base", 4).new_initial_state(rng.getrandbits(32))
    for _ in range(rng.randrange(8, 60)):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.search_actions()))
    msgs.append(convert.encode_position(s))
for m in msgs[:20]:
    convert.decode_position(m)
t0 = time.process_time()
for _ in range(5):
    for m in msgs:
        convert.decode_position(m)
print((time.process_time() - t0) / (5 * len(msgs)) * 1e6)
"""


class Served:
    def __init__(self, pythonpath: str | None):
        self.dir = tempfile.TemporaryDirectory()
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        self.proc = subprocess.Popen([sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1",
                                      "--port", "0", "--max-concurrent", "2"], stdout=self.log,
                                     stderr=subprocess.STDOUT, cwd=self.dir.name, env=env)
        deadline = time.monotonic() + 60
        while not (m := re.search(r"listening on \S+:(\d+)", self.log_path.read_text())):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start:\n" + self.log_path.read_text())
            time.sleep(0.05)
        self.target = f"127.0.0.1:{m.group(1)}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()
        self.dir.cleanup()


def decode_us(pythonpath: str | None) -> float:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([sys.executable, "-c", DECODE], capture_output=True, text=True, env=env, cwd=d,
                             check=True)
    return float(out.stdout.strip())


BARE = """
import sys, time
from concurrent import futures
import grpc
def wait(request, context):  # as long as the caller says, the GIL released (as a search is), then 800 bytes
    time.sleep(int.from_bytes(request, "little") / 1e6)
    return bytes(800)
handler = grpc.method_handlers_generic_handler("bare.Bare", {"Wait": grpc.unary_unary_rpc_method_handler(wait)})
server = grpc.server(futures.ThreadPoolExecutor(2))
server.add_generic_rpc_handlers((handler,))
print(server.add_insecure_port("127.0.0.1:0"), flush=True)
server.start()
sys.stdin.read()
"""


class Bare:
    """A bare grpcio server (no project code) whose one method waits as long as it is told: what
    gRPC itself costs a call whose handler takes a search's time."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-c", BARE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        port = self.proc.stdout.readline().strip()
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        self.wait = self.channel.unary_unary("/bare.Bare/Wait")

    def beyond_ms(self, ms: float) -> float:
        t0 = time.perf_counter()
        self.wait(round(ms * 1000).to_bytes(4, "little"), timeout=10)
        return (time.perf_counter() - t0) * 1000 - ms

    def stop(self) -> None:
        self.channel.close()
        self.proc.stdin.close()
        self.proc.wait(10)


def bare_waits(waits: list[float], calls: int = 200) -> int:
    bare = Bare()
    try:
        for ms in waits:
            for _ in range(10):
                bare.beyond_ms(ms)
            beyond = [bare.beyond_ms(ms) for _ in range(calls)]
            print(f"bare grpcio call, handler waiting {ms:g} ms: beyond the wait "
                  f"p50 {statistics.median(beyond):.2f} ms, p99 {pct(beyond, 99):.2f} ms")
    finally:
        bare.stop()
    return 0


def health_ms(stub) -> float:
    """The floor: the smallest unary call the same server answers (the gRPC health check), on the
    same client machinery, so the cost of the call itself is seen apart from GetMove's own work."""
    t0 = time.perf_counter()
    stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    return (time.perf_counter() - t0) * 1000


def main(argv=None) -> int:
    from splendor_ai_client import Client

    ap = argparse.ArgumentParser(prog="python scripts/bench_overhead.py", description=__doc__.split("\n")[0])
    ap.add_argument("--before", metavar="DIR", help="the other checkout (its cores built in place)")
    ap.add_argument("--calls", type=int, default=300, help="positions")
    ap.add_argument("--iterations", type=int, default=1000, help="search budget of each GetMove decision")
    ap.add_argument("--write", nargs="?", const="BENCHMARKS.md", default=None, metavar="FILE")
    ap.add_argument("--bare-waits", metavar="MS,MS,...", help="only the bare grpcio floor, at these waits a call "
                    "(milliseconds), 200 calls each: how gRPC's own cost grows with the handler's time")
    args = ap.parse_args(argv)
    if args.bare_waits:
        return bare_waits([float(x) for x in args.bare_waits.split(",")])
    if not args.before:
        ap.error("--before DIR is needed (or --bare-waits)")
    before_dir = str(Path(args.before).resolve())
    rev = subprocess.run(["git", "-C", before_dir, "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip() or "?"
    here = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()

    pos = positions(args.calls)
    load_before = os.getloadavg()[0]
    servers = {"before": Served(before_dir), "after": Served(None)}
    bare = Bare()
    bare_over: list[float] = []
    over: dict[str, list[float]] = {"before": [], "after": []}
    floor: dict[str, list[float]] = {"before": [], "after": []}
    searched: dict[str, list[float]] = {"before": [], "after": []}
    handler: dict[str, list[float]] = {}
    try:
        clients = {k: Client(s.target, timeout=60, retries=0) for k, s in servers.items()}
        channels = {k: grpc.insecure_channel(s.target) for k, s in servers.items()}
        health = {k: health_pb2_grpc.HealthStub(ch) for k, ch in channels.items()}
        for k, c in clients.items():  # warm up: nets loaded, first searches
            for i in range(10):
                c.get_move(pos[i], iterations=args.iterations, seed=i)
        for i, p in enumerate(pos):
            for k in (("before", "after") if i % 2 == 0 else ("after", "before")):
                t0 = time.perf_counter()
                turn = clients[k].get_move(p, iterations=args.iterations, seed=i, request_id=f"bench-{i}")
                wall = time.perf_counter() - t0
                searched[k].append(sum(s.elapsed_seconds for s in turn.searches) * 1000)
                over[k].append(wall * 1000 - searched[k][-1])
                floor[k].append(health_ms(health[k]))
                bare_over.append(bare.beyond_ms(searched[k][-1]))
        time.sleep(0.5)  # the last call's log line
        for k, server in servers.items():  # the handler's own time, from each call's log line
            logged = {int(m.group(1)): float(m.group(2)) for m in
                      re.finditer(r"request_id='bench-(\d+)' .* elapsed=([\d.]+)ms", server.log_path.read_text())}
            handler[k] = [logged[i] - searched[k][i] for i in range(len(pos)) if i in logged]
        for c in clients.values():
            c.close()
        for ch in channels.values():
            ch.close()
    finally:
        for s in servers.values():
            s.stop()
        med_search = statistics.median(searched["after"])
        waits = {ms: statistics.median([bare.beyond_ms(ms) for _ in range(200)]) for ms in (0.0, med_search,
                                                                                          3 * med_search)}
        bare.stop()
    decode = {"before": decode_us(before_dir), "after": decode_us(None)}
    load_after = os.getloadavg()[0]

    b, a = over["before"], over["after"]
    mb, ma = statistics.median(b), statistics.median(a)
    fb, fa = statistics.median(floor["before"]), statistics.median(floor["after"])
    cmd = f"python scripts/bench_overhead.py --before DIR ({rev})" + (
        f" --calls {args.calls}" if args.calls != 300 else "") + (
        f" --iterations {args.iterations}" if args.iterations != 1000 else "") + " --write"
    body = "\n".join([
        "## Service: GetMove's cost beyond its search, and decode CPU, before and after issue 70",
        "",
        f"Command: `{cmd}` from {here} ({machine_line()}). Two servers (`splendor-ai serve --max-concurrent 2`), "
        f"the one of commit {rev} and this tree's, called in turn by one gRPC client on the same {len(pos)} "
        f"positions (the mover's view, random base 2-player games), {args.iterations:,} iterations a decision, "
        f"the same seeds. Load average (1 min) before / after: {load_before:.1f} / {load_after:.1f}.",
        "",
        "| figure | before | after | after / before |",
        "|---|---|---|---|",
        f"| GetMove beyond its search, p50 | {statistics.median(b):.2f} ms | {statistics.median(a):.2f} ms | "
        f"{statistics.median(a) / statistics.median(b):.2f}x |",
        f"| GetMove beyond its search, p99 | {pct(b, 99):.2f} ms | {pct(a, 99):.2f} ms | "
        f"{pct(a, 99) / pct(b, 99):.2f}x |",
        f"| the call itself (a health check, same server), p50 | {fb:.2f} ms | {fa:.2f} ms | {fa / fb:.2f}x |",
        f"| GetMove beyond its search and the call, p50 | {mb - fb:.2f} ms | {ma - fa:.2f} ms | "
        f"{(ma - fa) / (mb - fb):.2f}x |",
        f"| of it in the server's handler (its logged elapsed time less the search), p50 | "
        f"{statistics.median(handler['before']):.2f} ms | {statistics.median(handler['after']):.2f} ms | "
        f"{statistics.median(handler['after']) / statistics.median(handler['before']):.2f}x |",
        f"| of it outside the handler (the call, both ends' protobuf, the client's typed results), p50 | "
        f"{mb - statistics.median(handler['before']):.2f} ms | {ma - statistics.median(handler['after']):.2f} ms | "
        f"{(ma - statistics.median(handler['after'])) / (mb - statistics.median(handler['before'])):.2f}x |",
        f"| a bare grpcio call whose handler waits as long as the search did, beyond that wait, p50 | "
        f"{statistics.median(bare_over):.2f} ms | (the same) | |",
        f"| GetMove beyond its search and that bare call, p50 | {mb - statistics.median(bare_over):.2f} ms | "
        f"{ma - statistics.median(bare_over):.2f} ms | "
        f"{(ma - statistics.median(bare_over)) / (mb - statistics.median(bare_over)):.2f}x |",
        f"| decode_position CPU, base 4 players | {decode['before']:.0f} µs | {decode['after']:.0f} µs | "
        f"{decode['after'] / decode['before']:.2f}x |",
        "",
        "Beyond the search: the client's encoding and decoding (typed results), the call, the server's decoding "
        "and validation (once), the budget, the mover's view (a view sent is copied, not rebuilt), the search's "
        "setup and its lines, and the encoding of every candidate line with its principal variation (a line's "
        "first move made once and not replayed; a move the same in every position, as takes and returns are, "
        "looked up, not built). The handler's time is each call's `elapsed` in the server's log (0.1 ms steps) "
        "less its searches. Outside the handler a call costs more the longer its handler took, in gRPC itself: "
        "the bare grpcio server (no project code, its handler sleeping as long as each search took, the GIL "
        "released) shows it, so that call, not a health check, is the floor GetMove's own work is measured above. "
        "The bare call beyond its handler's wait, p50: " + ", ".join(
            f"{v:.2f} ms at {ms:.1f} ms" for ms, v in waits.items()) + " (no wait, the median search, three times it).",
    ])
    print(body)
    if args.write:
        write_section(args.write, "service-overhead", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
