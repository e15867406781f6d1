"""The search benchmark: speed, parallel scaling, memory and cancellation latency, for each evaluator.

    splendor-ai bench search [--game base|duel|marvel] [--iterations N] [--write [FILE]]

2 players, opening position (seed 1). Every search names its evaluator: the heuristic one
(rollouts, ``evaluator="heuristic"``) and the game's shipped net (``evaluator="net"``; the
default search of a game that ships one). Prints (and with --write writes to BENCHMARKS.md):
per evaluator, iterations per second on one thread and on two, tree memory per 100,000
iterations and how long a cancel takes to stop a running search; for the heuristic also with
rollouts to the end of the game; and the net's speed against the heuristic's.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

from .report import add_write_option, machine_line, report
from ..games import load_game
from ..search.mcts import Config, Limits, Search, SearchError, SearchResult, search


def _ips(state, iterations, **cfg) -> tuple[float, SearchResult]:
    best, result = 0.0, None
    for rep in range(3):  # best of three: the machine is shared
        r = search(state, Limits(iterations=iterations), Config(seed=rep, **cfg))
        if r.iterations_per_second > best:
            best, result = r.iterations_per_second, r
    assert result is not None, "no search ran an iteration"
    return best, result


def _cancel_latency(state, repeats=5, **cfg) -> list[float]:
    out = []
    for i in range(repeats):
        s = Search(state, Limits(iterations=10**9), Config(seed=i, **cfg))
        th = threading.Thread(target=s.run)
        th.start()
        time.sleep(0.1)
        t0 = time.perf_counter()
        s.cancel()
        th.join()
        out.append(time.perf_counter() - t0)
    return out


def _memory(result) -> str:
    per = result.tree_bytes / result.iterations * 100_000
    return f"{per / 2**20:.1f} MiB ({result.tree_bytes / result.nodes:.0f} bytes a node; {result.nodes:,} nodes " \
           f"for {result.iterations:,} iterations)"


def _latency(lat: list[float]) -> str:
    return f"{statistics.median(lat) * 1000:.2f} ms / {max(lat) * 1000:.2f} ms"


def _check(result, kind: str) -> None:
    """A row is labelled by its evaluator: fail if the search evaluated with another one."""
    if result.evaluator.kind != kind:
        raise RuntimeError(f"a {kind} row was searched with {result.evaluator}")


def measure(state, n: int) -> tuple[list[tuple[str, str]], str]:
    """The figures' rows (name, value), and what the net rows searched with."""
    heuristic = {"evaluator": "heuristic"}
    cut = Config().rollout_depth
    one, r1 = _ips(state, n, **heuristic)
    _check(r1, "heuristic")
    full, _ = _ips(state, n // 4, rollout_depth=-1, **heuristic)
    two, _ = _ips(state, 2 * n, threads=2, **heuristic)
    rows = [
        ("heuristic: iterations/s, 1 thread, rollouts cut at %d actions" % cut, f"{one:,.0f}"),
        ("heuristic: iterations/s, 1 thread, rollouts to the end", f"{full:,.0f}"),
        ("heuristic: iterations/s, 2 threads (root parallel), cut rollouts", f"{two:,.0f}"),
        ("heuristic: 2 threads / 1 thread", f"{two / one:.2f}x"),
        ("heuristic: tree memory per 100,000 iterations", _memory(r1)),
        ("heuristic: cancel latency (median / max of 5)", _latency(_cancel_latency(state, **heuristic))),
    ]
    try:
        Config(evaluator="net").evaluator_info(state.game, 2)
    except SearchError as exc:
        return rows, f"no net rows: {exc}"
    net = {"evaluator": "net"}
    net_one, n1 = _ips(state, n, **net)
    _check(n1, "net")
    net_two, _ = _ips(state, 2 * n, threads=2, **net)
    rows += [
        ("net: iterations/s, 1 thread", f"{net_one:,.0f}"),
        ("net: iterations/s, 2 threads (root parallel)", f"{net_two:,.0f}"),
        ("net: 2 threads / 1 thread", f"{net_two / net_one:.2f}x"),
        ("net / heuristic iterations/s, 1 thread", f"{net_one / one:.2f}x"),
        ("net: tree memory per 100,000 iterations", _memory(n1)),
        ("net: tree memory per iteration / heuristic's",
         f"{(n1.tree_bytes / n1.iterations) / (r1.tree_bytes / r1.iterations):.1f}x"),
        ("net: cancel latency (median / max of 5)", _latency(_cancel_latency(state, **net))),
    ]
    return rows, f"net rows: {n1.evaluator}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench search", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    ap.add_argument("--iterations", type=int, default=100_000, help="iterations of a run (default 100,000)")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if args.iterations < 1000:
        ap.error("--iterations must be at least 1000")
    state = load_game(args.game, 2).new_initial_state(1)
    load = os.getloadavg()[0]
    n = args.iterations
    rows, net_note = measure(state, n)
    for k, v in rows:
        print(f"{k:66s} {v}")
    cmd = "splendor-ai bench search" + (f" --game {args.game}" if args.game != "base" else "") + \
        (f" --iterations {n}" if n != 100_000 else "")
    body = "\n".join([
        f"## Search: speed, scaling, memory, cancellation ({args.game}, 2 players, opening)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Each search sets its evaluator: heuristic (rollouts) or "
        f"the game's shipped net ({net_note}). Best of three runs of {n:,} iterations each (2 threads: "
        f"{2 * n:,}; rollouts to the end: {n // 4:,}). Tree memory "
        "is the search's peak node storage, per 100,000 iterations of one thread. Load average "
        f"{load:.1f} at the start" + (f", the bench run at niceness {os.nice(0)}" if os.nice(0) else "") +
        ": the speeds are the machine's at that load, the memory is not.",
        "",
        "| figure | value |",
        "|---|---|",
        *[f"| {k} | {v} |" for k, v in rows],
    ] + ([
        "",
        "Targets (heuristic): ≥ 100,000 iterations/s on one thread with cut rollouts; 2 threads ≥ 1.8x one; "
        "cancel within 50 ms.",
    ] if args.game == "base" else []))
    report(args, "search" if args.game == "base" else f"search-{args.game}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
