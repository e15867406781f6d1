"""Service benchmark: what the gRPC layer adds to a search, and throughput under concurrency.

    splendor-ai bench service [--iterations 1000] [--calls 300] [--seconds 10] [--write [FILE]]

Starts ``splendor-ai serve`` as a subprocess on a free port, talks to it through the client
and prints the "service" section of BENCHMARKS.md (with --write, writes it too).

- GetMove latency beyond the search budget: the call's wall time minus the time the
  server's searches took (as they report it), over positions from random games (seats'
  views, mid-game), p50/p99; and relative to the search time.
- LegalActions and ApplyActions latency (no search).
- Throughput of GetMove with 1, 2 and 4 concurrent clients (one thread each).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .report import add_write_option, machine_line, report, shipped_net_named
from ..games import load_game
from ..service import convert


def positions(n: int, seed: int = 1):
    """Views of the seat to act along random 2-player games (every 3rd action)."""
    rng = random.Random(seed)
    out: list = []
    while len(out) < n:
        state = load_game("base", 2).new_initial_state(rng.getrandbits(32))
        k = 0
        while not state.is_terminal() and len(out) < n:
            if k % 3 == 0 and k > 0:
                out.append(convert.encode_position(state.view(state.current_player())))
            state.apply_action(rng.choice(state.search_actions()))
            k += 1
    return out


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


class Server:
    def __init__(self, max_concurrent: int):
        self.dir = tempfile.TemporaryDirectory()
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1", "--port", "0",
             "--max-concurrent", str(max_concurrent)],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.dir.name)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = re.search(r"listening on \S+:(\d+)", self.log_path.read_text())
            if m:
                self.target = f"127.0.0.1:{m.group(1)}"
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the server did not start:\n" + self.log_path.read_text())

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()
        self.dir.cleanup()


def bare(pos, iterations: int) -> list[float]:
    """Milliseconds of the same searches in this process, without the service."""
    from ..search import Config, Limits, Search

    out = []
    for i, p in enumerate(pos):
        state = convert.decode_position(p)
        t0 = time.perf_counter()
        Search(state, Limits(iterations=iterations), Config(seed=i)).run()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def latency(client, pos, iterations: int):
    """(GetMove wall ms, overhead ms, search ms, LegalActions ms, ApplyActions ms) per position."""
    walls, over, search, legal, apply = [], [], [], [], []
    for i, p in enumerate(pos):
        t0 = time.perf_counter()
        turn = client.get_move(p, iterations=iterations, seed=i)
        wall = time.perf_counter() - t0
        searched = sum(s.elapsed_seconds for s in turn.searches)
        walls.append(wall * 1000)
        over.append((wall - searched) * 1000)
        search.append(searched * 1000)
        t0 = time.perf_counter()
        moves = client.legal_actions(p).moves
        legal.append((time.perf_counter() - t0) * 1000)
        apply.append(_apply_ms(client, p, moves))
    return walls, over, search, legal, apply


def _apply_ms(client, p, moves):
    """ApplyActions of a move that draws no card (a view cannot apply a draw without it)."""
    plain = [m for m in moves if m.kind in ("take", "return", "noble", "pass")]
    if not plain:
        return None
    t0 = time.perf_counter()
    client.apply_actions(p, [plain[0]])
    return (time.perf_counter() - t0) * 1000


def throughput(target: str, pos, iterations: int, clients: int, seconds: float) -> float:
    from splendor_ai_client import Client

    counts = [0] * clients
    stop = time.monotonic() + seconds

    def work(k):
        with Client(target, timeout=60) as c:
            i = k
            while time.monotonic() < stop:
                c.get_move(pos[i % len(pos)], iterations=iterations, seed=i)
                counts[k] += 1
                i += clients

    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - t0)


class HttpServer(Server):
    """bench.Server with the HTTP port on."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1", "--port", "0",
             "--http-port", "0", "--max-concurrent", "2"], stdout=self.log, stderr=subprocess.STDOUT, cwd=self.dir.name)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = self.log_path.read_text()
            m = re.search(r"listening on \S+:(\d+)", text)
            h = re.search(r"demo page on https?://\S+?:(\d+)/", text)
            if m and h:
                self.target, self.http_port = f"127.0.0.1:{m.group(1)}", int(h.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the server did not start:\n" + self.log_path.read_text())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench service", description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=1000, help="search budget of each GetMove decision")
    ap.add_argument("--calls", type=int, default=300, help="positions for the latency figures")
    ap.add_argument("--seconds", type=float, default=10.0, help="duration of each throughput run")
    add_write_option(ap)
    args = ap.parse_args(argv)

    from splendor_ai_client import Client

    pos = positions(args.calls)
    load_before = os.getloadavg()[0]
    server = Server(max_concurrent=4)
    try:
        with Client(server.target, timeout=60) as client:
            client.wait_ready(10)
            latency(client, pos[:20], args.iterations)  # warm up
            walls, over, search, legal, apply = latency(client, pos, args.iterations)
        tput = {n: throughput(server.target, pos, args.iterations, n, args.seconds) for n in (1, 2, 4)}
    finally:
        server.stop()
    load_after = os.getloadavg()[0]
    apply = [a for a in apply if a is not None]
    med_search = statistics.median(search)
    alone = bare(pos, args.iterations)  # the first decision of each turn only
    cmd = "splendor-ai bench service" + (
        f" --iterations {args.iterations}" if args.iterations != 1000 else "")
    body = "\n".join([
        "## Service: gRPC latency and throughput (base, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Server and clients on this machine "
        f"(`splendor-ai serve --max-concurrent 4`), over loopback; {len(pos)} positions "
        f"(the mover's view, from random games), GetMove with {args.iterations:,} iterations per decision, "
        f"evaluated by the shipped net {shipped_net_named('base', 2)}. "
        f"Load average (1 min) before / after the run: {load_before:.1f} / {load_after:.1f} "
        f"(above 0 means other processes shared the cores; rerun on a quiet machine to compare).",
        "",
        "| figure | p50 | p99 |",
        "|---|---|---|",
        f"| the same search in-process, no service (first decision only) | {statistics.median(alone):.2f} ms "
        f"| {pct(alone, 99):.2f} ms |",
        f"| GetMove: the whole call, as the client sees it | {statistics.median(walls):.2f} ms "
        f"| {pct(walls, 99):.2f} ms |",
        f"| GetMove: its searches (as the server reports them) | {med_search:.2f} ms | {pct(search, 99):.2f} ms |",
        f"| GetMove: latency beyond the search budget | {statistics.median(over):.2f} ms | {pct(over, 99):.2f} ms |",
        f"| GetMove: overhead / search time | {statistics.median(over) / med_search:.1%} "
        f"| {pct(over, 99) / med_search:.1%} |",
        f"| LegalActions (no search) | {statistics.median(legal):.2f} ms | {pct(legal, 99):.2f} ms |",
        f"| ApplyActions, one move (no search) | {statistics.median(apply):.2f} ms | {pct(apply, 99):.2f} ms |",
        "",
        f"GetMove throughput, each client calling in a loop for {args.seconds:g} s:",
        "",
        "| concurrent clients | GetMove calls/s | vs 1 client |",
        "|---|---|---|",
        *[f"| {n} | {tput[n]:.1f} | {tput[n] / tput[1]:.2f}x |" for n in (1, 2, 4)],
        "",
        "The overhead is decoding and validating the position, encoding every candidate line with "
        "its principal variation (server), decoding them into typed results (client), and the call "
        "itself. Searches run with the GIL released (a LegalActions call answers at once while "
        "searches run: tests/service/test_service_search.py), so throughput can grow with clients up "
        "to the number of free cores; with other processes on the cores (see the load average) it "
        "cannot grow much past one client.",
    ])
    report(args, "service", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
