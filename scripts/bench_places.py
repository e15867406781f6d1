"""Every place given back, interactive calls ahead of batch work, a prompt exit (issue 67).

    python scripts/bench_places.py [--cancels 1000] [--resets 100000] [--deadline-seconds 60]
                                            [--readers 20] [--calls 40] [--write]

Each server is ``serve(Settings(...))`` in a subprocess on 127.0.0.1 (deploy_hostile.Served:
both ports, metrics, ``--max-concurrent 2``); the clients are this process. Writes the
"deploy-places" section of BENCHMARKS.md (after "deploy-hostile") with ``--write``.

- Calls cancelled before their request is read, the ways clients do it: ``future().cancel()``
  at once and asyncio tasks cancelled after 10 ms (``--cancels`` in all); rapid resets (HEADERS
  then RST_STREAM, raw HTTP/2, ``--resets``); GetMove with 20 ms deadlines from 32 threads for
  ``--deadline-seconds``; ``--readers`` stream clients that never read (their flow-control
  window shut). After each: the places in use (the metric) and a normal GetMove's time.
- GetMove at level 5 (``--calls`` positions) on an idle server and with every batch slot busy
  with an AnalyzeGame of 2 threads, p50 and p99; and beside an interactive Analyze of 2
  threads, for the cost of sharing the cores without the batch priority.
- SIGTERM to exit, idle and busy (an Analyze running), with and without the HTTP port.
"""
from __future__ import annotations

import asyncio
import statistics
import threading
import time
import urllib.request

from bench_hostile import Served, _valid_requests
from h2raw import RawConnection


def metric(srv: Served, key: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{srv.metrics_port}/metrics", timeout=10).read().decode()
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name == key:
            return float(value)
    return 0.0


PLACES = 'splendor_places_in_use{port="grpc"}'


def settle(srv: Served, seconds: float = 15.0) -> tuple[float, float]:
    """(places in use once back to 0 or after ``seconds``, seconds it took)."""
    t0 = time.monotonic()
    while (used := metric(srv, PLACES)) > 0 and time.monotonic() - t0 < seconds:
        time.sleep(0.05)
    return used, time.monotonic() - t0


def normal_call(srv: Served) -> float | str:
    """A fresh client's GetMove (200 iterations): its milliseconds, or why it failed."""
    from splendor_ai_client import Client, ServiceError

    t0 = time.monotonic()
    try:
        with Client(f"127.0.0.1:{srv.grpc_port}", timeout=30, retries=0) as c:
            c.get_move(_valid_requests()["GetMove"].position, iterations=200, seed=1)
    except ServiceError as exc:
        return type(exc).__name__
    return (time.monotonic() - t0) * 1000


def after(srv: Served, **fields) -> dict:
    used, took = settle(srv)
    return {**fields, "places": used, "settled_s": took, "call": normal_call(srv)}


def cancels(srv: Served, n: int) -> dict:
    import grpc
    from splendor.v1 import splendor_pb2 as pb
    from splendor.v1 import splendor_pb2_grpc as pb_grpc
    from splendor_ai_client import AsyncClient

    with grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}") as channel:
        stub = pb_grpc.SplendorServiceStub(channel)
        for _ in range(n // 2):
            stub.GetCatalog.future(pb.GetCatalogRequest(), timeout=10).cancel()

    async def tasks():
        async with AsyncClient(f"127.0.0.1:{srv.grpc_port}", timeout=10, retries=0) as ai:
            for start in range(0, n - n // 2, 100):
                batch = [asyncio.ensure_future(ai.new_game(2, seed=i))
                         for i in range(start, min(start + 100, n - n // 2))]
                await asyncio.sleep(0.01)
                for t in batch:
                    t.cancel()
                await asyncio.gather(*batch, return_exceptions=True)

    asyncio.run(tasks())
    return after(srv, sent=n)


def resets(srv: Served, n: int) -> dict:
    sent, connections, t0 = 0, 0, time.monotonic()
    while sent < n:
        connections += 1
        try:
            with RawConnection(srv.grpc_port) as raw:
                for _ in range(min(1000, n - sent)):
                    raw.reset(raw.open("GetMove" if sent % 2 else "GetCatalog"))
                    sent += 1
                    if sent % 50 == 0:
                        raw.flush()
                raw.flush()
                raw.read(0.01)
        except OSError:  # the server closed the connection (GOAWAY for too many resets): a new one
            pass
    return after(srv, sent=sent, connections=connections, seconds=time.monotonic() - t0)


def deadlines(srv: Served, seconds: float, threads: int = 32) -> dict:
    import grpc
    from splendor.v1 import splendor_pb2 as pb
    from splendor.v1 import splendor_pb2_grpc as pb_grpc

    request = pb.GetMoveRequest(position=_valid_requests()["GetMove"].position,
                                limits=pb.SearchLimits(iterations=2000))
    stop = time.monotonic() + seconds
    codes: dict[str, int] = {}
    lock = threading.Lock()

    def hammer():
        with grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}") as channel:
            stub = pb_grpc.SplendorServiceStub(channel)
            while time.monotonic() < stop:
                try:
                    stub.GetMove(request, timeout=0.02)
                    code = "OK"
                except grpc.RpcError as err:
                    code = err.code().name
                with lock:
                    codes[code] = codes.get(code, 0) + 1

    workers = [threading.Thread(target=hammer) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return after(srv, calls=sum(codes.values()), codes=codes, threads=threads)


def readers(srv: Served, n: int) -> dict:
    from splendor.v1 import splendor_pb2 as pb

    request = pb.AnalyzeRequest(position=_valid_requests()["GetMove"].position, limits=pb.SearchLimits(time_ms=1000),
                                report_every_ms=50).SerializeToString()
    rss = srv.rss_mb()
    refused_keys = [f'splendor_refusals_total{{port="grpc",reason="{r}"}}' for r in ("slots", "workers")]
    refused_before = sum(metric(srv, k) for k in refused_keys)
    raws = []
    t0 = time.monotonic()
    try:
        for _ in range(n):
            raw = RawConnection(srv.grpc_port, window=0)
            raw.send(raw.open("Analyze"), request)
            raw.flush()
            raws.append(raw)
        peak = srv.rss_mb()
        deadline = time.monotonic() + 60
        while (metric(srv, "splendor_searches_in_flight") > 0 or metric(srv, PLACES) > 0) and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        freed = time.monotonic() - t0
        out = after(srv, clients=n, freed_s=freed, rss_before=rss, rss_peak=peak,
                    cancelled=metric(srv, 'splendor_server_cancelled_total{reason="send_timeout"}'),
                    refused=sum(metric(srv, k) for k in refused_keys) - refused_before)
        out["rss_after"] = srv.rss_mb()
        return out
    finally:
        for raw in raws:
            raw.close()


def latency(srv: Served, calls: int, beside: str | None) -> list[float]:
    """GetMove at level 5 on ``calls`` positions, with ``beside`` running: None, "batch" (an
    AnalyzeGame of 2 threads) or "interactive" (an Analyze of 2 threads)."""
    from splendor_ai_client import Client

    from splendor_ai.games import load_game
    from splendor_ai.service import convert
    from splendor_ai.bench.service import positions

    pos = positions(calls)
    c = Client(f"127.0.0.1:{srv.grpc_port}", timeout=60, retries=0)
    background = None
    try:
        if beside == "batch":
            state = load_game("base", 2).new_initial_state(3)
            moves = []
            for _ in range(8):
                a = state.legal_actions()[0]
                moves.append(state.action_to_string(a))
                state.apply_action(a)
            background = c.analyze_game(convert.encode_position(load_game("base", 2).new_initial_state(3)), moves,
                                        iterations=2_000_000, threads=2)
            next(background)
        elif beside == "interactive":
            background = c.analyze(_valid_requests()["GetMove"].position, time_ms=10_000, threads=2,
                                   priority="interactive", report_every_ms=100)
            next(background)
        times = []
        for i, p in enumerate(pos):
            t0 = time.perf_counter()
            c.get_move(p, level=5, seed=i)
            times.append((time.perf_counter() - t0) * 1000)
            if beside == "interactive" and i % 10 == 9:  # a fresh 10 s analysis before this one ends
                background.cancel()
                background = c.analyze(_valid_requests()["GetMove"].position, time_ms=10_000, threads=2,
                                       priority="interactive", report_every_ms=100)
                next(background)
        return times
    finally:
        if background is not None:
            background.cancel()
        c.close()


def exit_time(http: bool, busy: bool, grace: float = 5.0) -> float:
    from splendor_ai_client import Client

    srv = Served(grace=grace, **({} if http else {"http_port": -1}))
    client = analysis = None
    if busy:
        client = Client(f"127.0.0.1:{srv.grpc_port}", timeout=60, retries=0)
        analysis = client.analyze(_valid_requests()["GetMove"].position, time_ms=30_000, report_every_ms=100)
        next(analysis)
        threading.Thread(target=lambda: [None for _ in analysis], daemon=True).start()
    try:
        return srv.stop()
    finally:
        if client is not None:
            client.close()


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main(argv=None) -> int:
    import argparse
    import os

    from bench_hostile import _place_after
    from splendor_ai.bench.report import machine_line, write_section

    ap = argparse.ArgumentParser(prog="python scripts/bench_places.py", description=__doc__.split("\n")[0])
    ap.add_argument("--cancels", type=int, default=1000, help="calls cancelled before their request")
    ap.add_argument("--resets", type=int, default=100_000, help="streams reset right after their headers")
    ap.add_argument("--deadline-seconds", type=float, default=60.0, help="seconds of 20 ms deadlines under load")
    ap.add_argument("--readers", type=int, default=20, help="stream clients that never read")
    ap.add_argument("--calls", type=int, default=40, help="GetMove calls in each latency run")
    ap.add_argument("--write", action="store_true", help="write the 'deploy-places' section of --out")
    ap.add_argument("--out", default="BENCHMARKS.md")
    args = ap.parse_args(argv)

    load_before = os.getloadavg()[0]
    srv = Served(send_timeout=2.0)
    try:
        rows = {"cancels": cancels(srv, args.cancels), "resets": resets(srv, args.resets),
                "deadlines": deadlines(srv, args.deadline_seconds), "readers": readers(srv, args.readers)}
        tracebacks = srv.text().count("Traceback")
    finally:
        srv.stop()
    srv = Served(max_batch=1, max_threads=2)
    try:
        idle = latency(srv, args.calls, None)
        batch = latency(srv, args.calls, "batch")
        shared = latency(srv, args.calls, "interactive")
    finally:
        srv.stop()
    exits = {(http, busy): exit_time(http, busy) for http in (False, True) for busy in (False, True)}
    load_after = os.getloadavg()[0]

    cmd = "python scripts/bench_places.py"
    for name, default in (("cancels", 1000), ("resets", 100_000), ("deadline_seconds", 60.0), ("readers", 20),
                          ("calls", 40)):
        if getattr(args, name) != default:
            cmd += f" --{name.replace('_', '-')} {getattr(args, name):g}"
    cmd += " --write"

    def outcome(r):
        call = f"served in {r['call']:.0f} ms" if isinstance(r["call"], float) else f"**not served** ({r['call']})"
        return f"{r['places']:.0f} (after {r['settled_s']:.1f} s) | {call}"

    c, rs, d, rd = rows["cancels"], rows["resets"], rows["deadlines"], rows["readers"]
    codes = ", ".join(f"{k} {v:,}" for k, v in sorted(d["codes"].items(), key=lambda kv: -kv[1]))

    def lat(label, times, base=None):
        ratio = f"{statistics.median(times) / statistics.median(base):.2f}x" if base else "1.00x"
        return f"| {label} | {statistics.median(times):.1f} ms | {pct(times, 99):.1f} ms | {ratio} |"

    body = "\n".join([
        "## Service deployment: every place given back, interactive calls first, prompt exit (issue 67)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Each server is `serve(Settings(...))` in a subprocess on 127.0.0.1 "
        "(both ports and metrics, `--max-concurrent 2`: 10 places on the gRPC port); the clients are one process. "
        f"Load average (1 min) before / after: {load_before:.1f} / {load_after:.1f}.",
        "",
        "**Calls that end before their request is read, or never read their answer** (one server, the four in a "
        "row, `--send-timeout 2`; before issue 67 about 10 such calls locked the gRPC port for good):",
        "",
        "| what the clients did | places in use after | a normal GetMove after |",
        "|---|---|---|",
        f"| {c['sent']:,} calls cancelled before their request: `future().cancel()` at once (half), asyncio "
        f"tasks cancelled after 10 ms (half) | {outcome(c)} |",
        f"| {rs['sent']:,} rapid resets (raw HTTP/2 HEADERS then RST_STREAM) on {rs['connections']} connections, "
        f"{rs['seconds']:.1f} s | {outcome(rs)} |",
        f"| GetMove with 20 ms deadlines from {d['threads']} threads for {args.deadline_seconds:g} s: "
        f"{d['calls']:,} calls ({codes}) | {outcome(d)} |",
        f"| {rd['clients']} Analyze streams whose client never reads (flow-control window 0): every slot freed "
        f"{rd['freed_s']:.1f} s after they started (1 s searches + the 2 s send bound): {rd['cancelled']:.0f} "
        f"held a slot and were cancelled by the server, {rd['refused']:.0f} were refused (no slot, or every place "
        "busy at that instant) "
        f"| {outcome(rd)} |",
        "",
        f"Resident memory over the non-reading clients: {rd['rss_before']:.1f} MB before, {rd['rss_peak']:.1f} MB "
        f"while they were connected, {rd['rss_after']:.1f} MB after. Tracebacks in the server's log: {tracebacks}.",
        "",
        f"**GetMove at level 5 with batch work running** ({args.calls} positions, one client; `--max-concurrent 2 "
        "--max-batch 1 --max-threads 2`, 2 cores):",
        "",
        "| beside it | p50 | p99 | p50 against idle |",
        "|---|---|---|---|",
        lat("nothing (idle server)", idle),
        lat("every batch slot busy: an AnalyzeGame of 2 threads (batch: nice 10)", batch, idle),
        lat("an interactive Analyze of 2 threads (no lower priority), for comparison", shared, idle),
        "",
        "**SIGTERM to exit** (`--grace 5`; busy: an Analyze of 30 s running, stopped and answered):",
        "",
        "| ports | idle | busy |",
        "|---|---|---|",
        f"| gRPC | {exits[(False, False)]:.2f} s | {exits[(False, True)]:.2f} s |",
        f"| gRPC + HTTP | {exits[(True, False)]:.2f} s | {exits[(True, True)]:.2f} s |",
    ])
    print(body)
    if args.write:
        _place_after(args.out, "deploy-hostile", "deploy-places")
        write_section(args.out, "deploy-places", body)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
