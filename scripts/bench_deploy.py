"""Deployment benchmark: what TLS and a token cost, what a refusal costs, two replicas vs one.

    python scripts/bench_deploy.py [--iterations 1000] [--calls 200] [--seconds 8] [--write]
    python scripts/bench_hostile.py [...]   (idle connections, fuzz, shutdown, soak)
    python scripts/bench_places.py [...]    (places given back, priority, exit)

Starts ``splendor-ai serve`` subprocesses on free ports of this machine and talks to them
through the client library; prints the "deploy" section of BENCHMARKS.md and writes it with
``--write``.

- TLS + bearer token against plaintext, in the same run (the calls alternate between a
  plaintext server and a TLS + token one, both --max-concurrent 4): GetMove and LegalActions
  latency p50/p99, and GetMove throughput with 2 clients.
- Refusals: a server with --max-concurrent 1 whose slot is held by an analysis; 4 clients send
  GetMove as fast as they can: refusals answered per second, and the latency of LegalActions
  calls meanwhile against the same server idle.
- Replicas: GetMove throughput with 4 clients against one server, and against two behind the
  client's round_robin (each server --max-concurrent 2), with the share each replica served.
  Certificates are made by ``devcerts`` (needs ``cryptography``, the ``test`` extra).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from splendor_ai.bench.report import machine_line, write_section
from splendor_ai.bench.service import pct, positions

TOKEN = "bench-token-0123456789"


class Server:
    """``splendor-ai serve`` on a free port of 127.0.0.1."""

    def __init__(self, *flags: str, env: dict | None = None):
        self.dir = tempfile.TemporaryDirectory()
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1",
                                      "--port", "0", *flags], stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=self.dir.name, env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = re.search(r"listening on \S+:(\d+)", self.log_path.read_text())
            if m:
                self.port = int(m.group(1))
                self.target = f"127.0.0.1:{self.port}"
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the server did not start:\n" + self.log_path.read_text())

    def served(self, method: str = "GetMove") -> int:
        return sum(1 for line in self.log_path.read_text().splitlines()
                   if f": {method} " in line and "outcome=OK" in line)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)
        self.log.close()
        self.dir.cleanup()


def _ms(f) -> float:
    t0 = time.perf_counter()
    f()
    return (time.perf_counter() - t0) * 1000


def loop(make_client, pos, iterations: int, clients: int, seconds: float) -> tuple[float, list[float]]:
    """GetMove calls/s of ``clients`` threads calling in a loop, and their latencies (ms)."""
    counts = [0] * clients
    lat: list[float] = []
    stop = time.monotonic() + seconds

    def work(k):
        with make_client() as c:
            i = k
            while time.monotonic() < stop:
                ms = _ms(lambda: c.get_move(pos[i % len(pos)], iterations=iterations, seed=i))
                lat.append(ms)
                counts[k] += 1
                i += clients

    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - t0), lat


def tls_vs_plaintext(pos, iterations: int, seconds: float, certs) -> dict:
    from splendor_ai_client import Client

    plain = Server("--max-concurrent", "4")
    secure = Server("--max-concurrent", "4", "--tls-cert", certs.path("server.pem"), "--tls-key",
                    certs.path("server.key"), env={"SPLENDOR_AI_TOKENS": TOKEN})

    def plain_client():
        return Client(plain.target, timeout=60, retries=0)

    def secure_client():
        return Client(secure.target, timeout=60, root_certificates=certs.path("ca.pem"), token=TOKEN, retries=0)

    out = {"plain": {"get": [], "legal": []}, "secure": {"get": [], "legal": []}}
    try:
        with plain_client() as p, secure_client() as s:
            p.wait_ready(10)
            s.wait_ready(10)
            for c in (p, s):  # warm up: connections, handshakes, first searches
                for q in pos[:10]:
                    c.get_move(q, iterations=iterations, seed=1)
            for i, q in enumerate(pos):  # alternate, so both see the same machine load
                for name, c in (("plain", p), ("secure", s)) if i % 2 == 0 else (("secure", s), ("plain", p)):
                    out[name]["get"].append(_ms(lambda: c.get_move(q, iterations=iterations, seed=i)))
                    out[name]["legal"].append(_ms(lambda: c.legal_actions(q)))
        for name, make in (("plain", plain_client), ("secure", secure_client)):
            out[name]["tput"] = loop(make, pos, iterations, 2, seconds)[0]
    finally:
        plain.stop()
        secure.stop()
    return out


def refusals(pos, seconds: float) -> dict:
    from splendor_ai_client import Busy, Client

    srv = Server("--max-concurrent", "1")
    try:
        with Client(srv.target, timeout=60, retries=0) as c:
            c.wait_ready(10)
            for q in pos[:20]:
                c.legal_actions(q)  # warm up
            analysis = c.analyze(pos[0], time_ms=int((seconds + 60) * 1000), report_every_ms=500)
            next(analysis)  # the slot is held now
            idle = []
            stop = time.monotonic() + min(3.0, seconds)
            while time.monotonic() < stop:  # the slot busy, no flood
                idle.append(_ms(lambda: c.legal_actions(pos[len(idle) % len(pos)])))
                time.sleep(0.01)
            before_ips = next(analysis).stats.iterations_per_second
            refused = [0] * 4
            other = [0] * 4
            stop = time.monotonic() + seconds

            def flood(k):
                with Client(srv.target, timeout=30, retries=0) as f:
                    i = k
                    while time.monotonic() < stop:
                        try:
                            f.get_move(pos[i % len(pos)], iterations=1000)
                            other[k] += 1
                        except Busy:
                            refused[k] += 1
                        i += 4

            threads = [threading.Thread(target=flood, args=(k,)) for k in range(4)]
            t0 = time.monotonic()
            for t in threads:
                t.start()
            busy = []
            while time.monotonic() < stop:
                busy.append(_ms(lambda: c.legal_actions(pos[len(busy) % len(pos)])))
                time.sleep(0.01)
            for t in threads:
                t.join()
            rate = sum(refused) / (time.monotonic() - t0)
            after = next(analysis).stats
            analysis.cancel()
    finally:
        srv.stop()
    return {"rate": rate, "refused": sum(refused), "accepted": sum(other), "idle": idle, "busy": busy,
            "analysis_ips": before_ips, "analysis_total": after}


def replicas(pos, iterations: int, seconds: float) -> dict:
    from splendor_ai_client import Client

    out = {}
    a, b = Server("--max-concurrent", "4"), Server("--max-concurrent", "4")
    try:
        out["one"] = loop(lambda: Client(a.target, timeout=60, retries=0), pos, iterations, 4, seconds)
        before = (a.served(), b.served())
        out["two"] = loop(lambda: Client([a.target, b.target], timeout=60, retries=0), pos, iterations, 4, seconds)
        time.sleep(0.5)
        out["shares"] = (a.served() - before[0], b.served() - before[1])
    finally:
        a.stop()
        b.stop()
    return out


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python scripts/bench_deploy.py", description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=1000, help="search budget of each GetMove decision")
    ap.add_argument("--calls", type=int, default=200, help="positions for the latency figures")
    ap.add_argument("--seconds", type=float, default=8.0, help="duration of each throughput or refusal run")
    ap.add_argument("--write", action="store_true", help="write the 'deploy' section of --out")
    ap.add_argument("--out", default="BENCHMARKS.md")
    args = ap.parse_args(argv)
    try:
        from devcerts import Certificates
    except ImportError:
        raise SystemExit("the TLS figures need cryptography: pip install cryptography (or the 'test' extra)")

    pos = positions(args.calls)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as d:
        tls = tls_vs_plaintext(pos, args.iterations, args.seconds, Certificates(Path(d)))
    ref = refusals(pos, args.seconds)
    rep = replicas(pos, args.iterations, args.seconds)
    load_after = os.getloadavg()[0]

    def row(label, plain, secure):
        p50p, p50s = statistics.median(plain), statistics.median(secure)
        return (f"| {label} | {p50p:.2f} / {pct(plain, 99):.2f} ms | {p50s:.2f} / {pct(secure, 99):.2f} ms "
                f"| {p50s / p50p:.2f}x | {p50s - p50p:+.2f} ms |")

    shares = rep["shares"]
    cmd = "python scripts/bench_deploy.py" + (
        f" --iterations {args.iterations}" if args.iterations != 1000 else "") + " --write"
    body = "\n".join([
        "## Service deployment: TLS and tokens, refusals, replicas (base, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Servers and clients on this machine, over loopback; "
        f"{len(pos)} positions (the mover's view, from random games); GetMove with {args.iterations:,} "
        f"iterations per decision. Load average (1 min) before / after: {load_before:.1f} / {load_after:.1f} "
        "(other processes shared the cores when above 0).",
        "",
        "**TLS + bearer token against plaintext** (the same run: each position is sent to a plaintext server "
        "and to a TLS + token one, in alternating order; ECDSA P-256 certificate):",
        "",
        "| call | plaintext p50 / p99 | TLS + token p50 / p99 | p50 ratio | p50 difference |",
        "|---|---|---|---|---|",
        row("GetMove", tls["plain"]["get"], tls["secure"]["get"]),
        row("LegalActions (no search)", tls["plain"]["legal"], tls["secure"]["legal"]),
        f"| GetMove throughput, 2 clients for {args.seconds:g} s | {tls['plain']['tput']:.1f} calls/s "
        f"| {tls['secure']['tput']:.1f} calls/s | {tls['secure']['tput'] / tls['plain']['tput']:.2f}x | |",
        "",
        f"**Refusals** (`--max-concurrent 1`, its slot held by an analysis; 4 clients send GetMove in a loop "
        f"for {args.seconds:g} s): {ref['rate']:,.0f} refusals answered per second "
        f"({ref['refused']:,} RESOURCE_EXHAUSTED, {ref['accepted']} accepted). A refusal takes the slot check "
        "before the position is decoded. LegalActions on the same server (its slot busy) took "
        f"{statistics.median(ref['idle']):.2f} ms (p50; p99 {pct(ref['idle'], 99):.2f} ms) without the flood and "
        f"{statistics.median(ref['busy']):.2f} ms (p99 {pct(ref['busy'], 99):.2f} ms) during it "
        f"({statistics.median(ref['busy']) / statistics.median(ref['idle']):.1f}x); the analysis holding the slot "
        f"searched {ref['analysis_ips']:,.0f} iterations/s before the flood and "
        f"{ref['analysis_total'].iterations_per_second:,.0f} on average by its end.",
        "",
        f"**Replicas** (4 clients calling GetMove in a loop for {args.seconds:g} s; each server "
        "`--max-concurrent 4`; two replicas behind the client's `round_robin`):",
        "",
        "| servers | GetMove calls/s | vs one | p50 / p99 latency | calls served by each replica |",
        "|---|---|---|---|---|",
        f"| one | {rep['one'][0]:.1f} | 1.00x | {statistics.median(rep['one'][1]):.1f} / "
        f"{pct(rep['one'][1], 99):.1f} ms | {int(round(rep['one'][0] * args.seconds))} |",
        f"| two, round robin | {rep['two'][0]:.1f} | {rep['two'][0] / rep['one'][0]:.2f}x | "
        f"{statistics.median(rep['two'][1]):.1f} / {pct(rep['two'][1], 99):.1f} ms | {shares[0]} / {shares[1]} |",
        "",
        f"On this machine both replicas share the same {os.cpu_count()} cores: a second replica adds no CPU, "
        "only a second process (the Python part of each call, decoding and encoding, runs under one "
        "interpreter lock per process). Replicas on separate machines scale throughput with their cores; "
        "the split shows the balancing.",
    ])
    print(body)
    if args.write:
        write_section(args.out, "deploy", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
