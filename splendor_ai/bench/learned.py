"""Benchmarks of the learned evaluation (docs/learned.md): its cost and its strength.

    splendor-ai bench learned speed [--game G] [--before DIR] [--rounds R] [--write]
    splendor-ai bench learned precision [--game G] [--net F] [--int8 Q] [--rounds R] [--write]
    splendor-ai bench learned strength --game G --players N --seconds S --games K [--write]

`speed`: the cost of one network evaluation in C (features excluded, µs), and iterations per
second on one thread with the net and with the heuristic, in the opening and in a mid-game
position; with `--before DIR` (a checkout of an earlier commit with its cores built in place)
also the same figures of that build, each build measured in a fresh process, the two taking
turns `--rounds` times, and the ratios. Times are CPU time of the measuring thread, so that a
busy machine stretches them less than wall time would. `strength`: the learned search against
the heuristic search at equal wall-clock time per decision, seats rotated; with more than two
players every other seat is a heuristic search. `precision`: the same figures for the float net
and its int8 copy (`--int8`, default: the float net with int8 rounding at load) with each machine
copy of the kernels this CPU runs, all in one process, taking turns `--rounds` times. Results are
printed; `--write` also puts them in BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .report import machine_line, write_section
from ..records import RecordError
from ..search.arena import run_arena, wilson
from ..search.mcts import Config, SearchError, resolve_net

TARGETS = {("base", 2): 0.85, ("duel", 2): 0.85, ("marvel", 2): 0.80,
           ("base", 3): 0.55, ("marvel", 3): 0.55, ("base", 4): 0.45, ("marvel", 4): 0.45}


# Run in a fresh process with a build's root first on sys.path, so that the same measurement
# runs on an earlier build (--before): only APIs every build since the learned evaluation has.
_MEASURE = r"""
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])
from array import array
from splendor_ai.games import load_game
from splendor_ai.search import cores
from splendor_ai.search.mcts import Config, Limits, resolve_net, search
game, net_path, iters = sys.argv[2], sys.argv[3] or None, int(sys.argv[4])
net = resolve_net(Config(evaluator="net", net=net_path), game, 2)
core = cores.module(game)
opening = load_game(game, 2).new_initial_state(1)
mid = opening.clone()
rng = random.Random(3)
while mid.to_position()["turn"] < 14 and not mid.is_terminal():
    r = search(mid, Limits(iterations=200), Config(evaluator="heuristic", seed=rng.randrange(1000)))
    mid.apply_action(r.action)
rows = []
for name, state in (("opening", opening), ("mid-game", mid)):
    feats = array("f", state.features())
    classes = sorted({core.policy_index(a) for a in state.search_actions()})
    reps, best = 20000, 1e9
    for _ in range(5):
        t0 = time.process_time()
        net.core.time_evaluations(feats, 2, classes, reps)
        best = min(best, (time.process_time() - t0) / reps)
    ips = {}
    for ev in ("net", "heuristic"):
        ips[ev] = 0.0
        for _ in range(2):
            t0 = time.process_time()
            res = search(state, Limits(iterations=iters), Config(evaluator=ev, net=net_path, seed=1, threads=1))
            ips[ev] = max(ips[ev], res.iterations / (time.process_time() - t0))
    rows.append({"position": name, "eval_us": best * 1e6, "legal": len(classes), "net": ips["net"],
                 "heuristic": ips["heuristic"], "features": hashlib.sha256(bytes(feats)).hexdigest()[:16]})
print(json.dumps({"generation": net.generation, "hidden": net.file.hidden, "rows": rows}))
"""


def _measure(root: str, game: str, net_path: str | None, iterations: int) -> dict:
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", _MEASURE, root, game, net_path or "", str(iterations)],
                         capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise ValueError(f"measuring the build in {root} failed: {out.stderr.strip()[-800:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def speed(game: str, net_path: str | None, write: bool, before: str | None = None, rounds: int = 1,
          iterations: int = 20000) -> int:
    from pathlib import Path

    here = str(Path(__file__).resolve().parents[2])
    runs: dict[str, list[dict]] = {"after": [], "before": []}
    for _ in range(rounds):
        if before:
            runs["before"].append(_measure(before, game, net_path, iterations))
        runs["after"].append(_measure(here, game, net_path, iterations))
    best = {k: _best(v) for k, v in runs.items() if v}
    now = best["after"]
    if before and [r["features"] for r in best["before"]["rows"]] != [r["features"] for r in now["rows"]]:
        raise ValueError("the two builds measured different positions (their heuristic searches differ)")
    lines = [f"{'position':10s} {'eval µs':>8s} {'legal':>6s} {'net it/s':>10s} {'heuristic it/s':>15s} {'ratio':>6s}"]
    for r in now["rows"]:
        lines.append(f"{r['position']:10s} {r['eval_us']:8.2f} {r['legal']:6d} {r['net']:10,.0f} "
                     f"{r['heuristic']:15,.0f} {r['net'] / r['heuristic']:6.2f}")
    compare = []
    if before:
        compare = ["| position | eval before (µs) | eval after (µs) | after / before | net it/s before | "
                   "net it/s after | after / before |", "|---|---|---|---|---|---|---|"]
        for b, a in zip(best["before"]["rows"], now["rows"]):
            compare.append(f"| {a['position']} | {b['eval_us']:.2f} | {a['eval_us']:.2f} | "
                           f"{a['eval_us'] / b['eval_us']:.2f} | {b['net']:,.0f} | {a['net']:,.0f} | "
                           f"{a['net'] / b['net']:.2f} |")
            lines.append(f"before: {b['position']:10s} eval {b['eval_us']:.2f} µs, net {b['net']:,.0f} it/s; "
                         f"after / before: eval {a['eval_us'] / b['eval_us']:.2f}, it/s {a['net'] / b['net']:.2f}")
    print("\n".join(lines))
    if write:
        cmd = (f"splendor-ai bench learned speed --game {game}" + (" --before DIR" if before else "")
               + (f" --rounds {rounds}" if rounds != 1 else "") + " --write")
        body = "\n".join([
            f"## Learned evaluation: cost ({game}, 2 players, net generation {now['generation']}, "
            f"hidden {now['hidden']})",
            "",
            f"Command: `{cmd}` ({machine_line()}). One thread, CPU time of the measuring thread (a busy machine "
            "stretches it less than wall time). 'eval': one network evaluation in C (trunk, value and the legal "
            f"actions' policy logits; best of 5 x 20,000); iterations/s: a seeded {iterations:,}-iteration search, "
            "best of 2.",
            "",
            "| position | eval (µs) | legal actions | net iterations/s | heuristic iterations/s | net / heuristic |",
            "|---|---|---|---|---|---|",
            *[f"| {r['position']} | {r['eval_us']:.2f} | {r['legal']} | {r['net']:,.0f} | {r['heuristic']:,.0f} | "
              f"{r['net'] / r['heuristic']:.2f} |" for r in now["rows"]],
            *([] if not before else [
                "",
                f"Against the build in DIR (`--before`: {_commit(before)}, cores built in place), each build in a "
                "fresh "
                f"process, the two taking turns {rounds} times, best of the rounds. The eval column repeats one input, "
                "whose pattern of zeros a CPU's branch predictor learns; a search's iterations/s shows what a change "
                "to the kernels' branches is worth:",
                "",
                *compare]),
        ])
        write_section("BENCHMARKS.md", f"learned-speed-{game}", body)
        print("wrote BENCHMARKS.md")
    return 0


def _positions(game: str):
    """The opening and a mid-game position (turn 14 of a seeded heuristic game), as _MEASURE's."""
    import random

    from ..games import load_game
    from ..search.mcts import Limits, search

    opening = load_game(game, 2).new_initial_state(1)
    mid = opening.clone()
    rng = random.Random(3)
    while mid.to_position()["turn"] < 14 and not mid.is_terminal():
        r = search(mid, Limits(iterations=200), Config(evaluator="heuristic", seed=rng.randrange(1000)))
        mid.apply_action(r.action)
    return [("opening", opening), ("mid-game", mid)]


def precision(game: str, net_path: str | None, int8_path: str | None, write: bool, rounds: int = 2,
              iterations: int = 20000) -> int:
    """Eval µs and net iterations/s of the float net and its int8 copy, per kernel, interleaved."""
    import os
    import time
    from array import array

    from .. import nn
    from .._core import nn as core_nn
    from ..nn import weights as W
    from ..search import cores
    from ..search.mcts import Limits, search

    float_net = resolve_net(Config(evaluator="net", net=net_path), game, 2)
    if float_net.core.precision != "float32":
        raise ValueError(f"--net: {float_net.name} is a {float_net.core.precision} net; give the float one")
    int8_file = W.read(int8_path) if int8_path else W.with_precision(float_net.file, "int8")
    if int8_file.info.get("precision") != "int8":
        raise ValueError(f"--int8: {int8_path} does not ask for int8 (header.info.precision)")
    core = cores.module(game)
    positions = _positions(game)
    kernels = [k for k, ok in core_nn.kernels() if ok]
    saved = os.environ.get(core_nn.KERNEL_ENV)
    nets = {}
    try:
        for k in kernels:
            os.environ[core_nn.KERNEL_ENV] = k
            nets[(k, "float32")] = nn.load(float_net.file, game)
            nets[(k, "int8")] = nn.load(int8_file, game)
    finally:
        if saved is None:
            os.environ.pop(core_nn.KERNEL_ENV, None)
        else:
            os.environ[core_nn.KERNEL_ENV] = saved
    best: dict = {}
    for _ in range(rounds):
        for pname, state in positions:
            feats = array("f", state.features())
            classes = sorted({core.policy_index(a) for a in state.search_actions()})
            for key, net in nets.items():
                cell = best.setdefault((pname,) + key, {"eval_us": 1e9, "ips": 0.0, "legal": len(classes)})
                for _ in range(3):
                    t0 = time.process_time()
                    net.core.time_evaluations(feats, 2, classes, 20000)
                    cell["eval_us"] = min(cell["eval_us"], (time.process_time() - t0) / 20000 * 1e6)
                t0 = time.process_time()
                res = search(state, Limits(iterations=iterations), Config(evaluator="net", net=net, seed=1, threads=1))
                cell["ips"] = max(cell["ips"], res.iterations / (time.process_time() - t0))
    rows = []
    for pname, _ in positions:
        for k in kernels:
            f, q = best[(pname, k, "float32")], best[(pname, k, "int8")]
            rows.append((pname, k, f, q))
    lines = [f"{'position':9s} {'kernel':8s} {'float µs':>9s} {'int8 µs':>8s} {'ratio':>6s} {'float it/s':>11s} "
             f"{'int8 it/s':>10s} {'ratio':>6s}"]
    for pname, k, f, q in rows:
        lines.append(f"{pname:9s} {k:8s} {f['eval_us']:9.2f} {q['eval_us']:8.2f} {q['eval_us'] / f['eval_us']:6.2f} "
                     f"{f['ips']:11,.0f} {q['ips']:10,.0f} {q['ips'] / f['ips']:6.2f}")
    print("\n".join(lines))
    if write:
        cmd = (f"splendor-ai bench learned precision --game {game}" + (" --net F" if net_path else "")
               + (f" --int8 {Path(int8_path).name}" if int8_path else "") + f" --rounds {rounds} --write")
        body = "\n".join([
            f"## Learned evaluation: int8 against float32 ({game}, hidden {float_net.file.hidden})",
            "",
            f"Command: `{cmd}` ({machine_line()}). The float net {float_net.name} (generation "
            f"{float_net.generation}) and its int8 copy "
            f"({Path(int8_path).name if int8_path else 'rounded at load'}), loaded once for each machine copy "
            "of the kernels this CPU runs, all in one process, taking turns "
            f"{rounds} times (best of the rounds). One thread, CPU time. 'eval': one network evaluation in C "
            "(trunk, value and the legal actions' policy logits; best of 3 x 20,000); iterations/s: a seeded "
            f"{iterations:,}-iteration search.",
            "",
            "| position | kernel | eval float32 (µs) | eval int8 (µs) | int8 / float32 | net it/s float32 | "
            "net it/s int8 | int8 / float32 |",
            "|---|---|---|---|---|---|---|---|",
            *[f"| {pname} ({f['legal']} legal) | {k} | {f['eval_us']:.2f} | {q['eval_us']:.2f} | "
              f"{q['eval_us'] / f['eval_us']:.2f} | {f['ips']:,.0f} | {q['ips']:,.0f} | {q['ips'] / f['ips']:.2f} |"
              for pname, k, f, q in rows],
        ])
        write_section("BENCHMARKS.md", f"learned-int8-{game}", body)
        print("wrote BENCHMARKS.md")
    return 0


def _commit(root: str) -> str:
    """The commit checked out in `root` (short hash), or 'an earlier build' where git cannot tell."""
    import subprocess

    try:
        out = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             timeout=30)
    except OSError:
        return "an earlier build"
    return f"commit {out.stdout.strip()}" if out.returncode == 0 and out.stdout.strip() else "an earlier build"


def _best(measures: list[dict]) -> dict:
    """Per position, the lowest eval time and the highest iterations/s over the rounds."""
    out = dict(measures[0], rows=[dict(r) for r in measures[0]["rows"]])
    for m in measures[1:]:
        for mine, r in zip(out["rows"], m["rows"]):
            mine["eval_us"] = min(mine["eval_us"], r["eval_us"])
            mine["net"] = max(mine["net"], r["net"])
            mine["heuristic"] = max(mine["heuristic"], r["heuristic"])
    return out


def strength(game: str, players: int, seconds: float, games: int, net_path: str | None, processes: int,
             seed: int, write: bool, records: str | None = None) -> int:
    net = resolve_net(Config(evaluator="net", net=net_path), game, players)
    learned = f"mcts:seconds={seconds:g},evaluator=net" + (f",net={net_path}" if net_path else "")
    heuristic = f"mcts:seconds={seconds:g},evaluator=heuristic"
    result = run_arena(game, players, [learned, heuristic], games, seed=seed, processes=processes,
                       record_dir=records, resume=records is not None)
    print(result.table())
    me = result.bots[0]
    lo, hi = wilson(me.wins, me.seat_games)
    target = TARGETS.get((game, players))
    verdict = "" if target is None else (f"target ≥ {target:.0%}: " + ("met" if me.win_rate >= target else "not met"))
    print(f"learned search win rate {me.win_rate:.1%} (95% CI {lo:.1%}-{hi:.1%}) {verdict}")
    if write:
        cmd = (f"splendor-ai bench learned strength --game {game} --players {players} "
               f"--seconds {seconds:g} --games {games} --processes {processes} --seed {seed}"
               + (f" --records {records}" if records else "") + " --write")
        others = "the heuristic search" if players == 2 else f"{players - 1} heuristic searches"
        body = "\n".join([
            f"## Learned vs heuristic search: {game}, {players} players, {seconds:g} s per decision",
            "",
            f"Command: `{cmd}` ({machine_line()}). Net generation {net.generation} (hidden {net.file.hidden}); "
            f"one thread per search, {processes} games at once; seats rotated; the learned search against {others}, "
            f"at equal time ({seconds:g} s a decision each side).",
            "",
            "```text",
            result.table(),
            "```",
            "",
            f"Learned search: **{me.win_rate:.1%}** of {me.seat_games} games (95% CI {lo:.1%}-{hi:.1%}). {verdict}",
        ])
        write_section("BENCHMARKS.md", f"learned-strength-{game}-{players}p-{seconds:g}s", body)
        print("wrote BENCHMARKS.md")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench learned", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    sp.add_argument("--net", default=None, help="a weights file (default: the shipped net)")
    sp.add_argument("--before", metavar="DIR", default=None,
                    help="also measure the build in DIR (a checkout of an earlier commit, cores built in place), "
                         "taking turns with this one, and print the ratios")
    sp.add_argument("--rounds", type=int, default=1, help="turns of each build (default 1); the best counts")
    sp.add_argument("--iterations", type=int, default=20000, help="iterations of each timed search (default 20000)")
    sp.add_argument("--write", action="store_true", help="also write the figures to BENCHMARKS.md")
    pr = sub.add_parser("precision")
    pr.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    pr.add_argument("--net", default=None, help="the float weights file (default: the shipped net)")
    pr.add_argument("--int8", default=None, metavar="FILE",
                    help="its int8 copy (default: the float net, rounded to int8 at load)")
    pr.add_argument("--rounds", type=int, default=2, help="turns of every net and kernel (default 2); the best counts")
    pr.add_argument("--iterations", type=int, default=20000, help="iterations of each timed search (default 20000)")
    pr.add_argument("--write", action="store_true", help="also write the figures to BENCHMARKS.md")
    st = sub.add_parser("strength")
    st.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    st.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    st.add_argument("--seconds", type=float, default=1.0, help="thinking time per decision (default 1.0)")
    st.add_argument("--games", type=int, default=200)
    st.add_argument("--net", default=None, help="a weights file (default: the shipped net)")
    st.add_argument("--processes", type=int, default=1, help="games at once (default 1: one core per search)")
    st.add_argument("--seed", type=int, default=1)
    st.add_argument("--records", metavar="DIR", default=None,
                    help="save each game in DIR as it ends; run again with the same arguments, the games "
                         "already there are read back and only the others played (a 200-game match in parts)")
    st.add_argument("--write", action="store_true", help="also write the result to BENCHMARKS.md")
    args = ap.parse_args(argv)
    try:
        if args.what == "speed":
            if args.rounds < 1 or args.iterations < 1:
                ap.error("--rounds and --iterations must be at least 1")
            return speed(args.game, args.net, args.write, args.before, args.rounds, args.iterations)
        if args.what == "precision":
            if args.rounds < 1 or args.iterations < 1:
                ap.error("--rounds and --iterations must be at least 1")
            return precision(args.game, args.net, args.int8, args.write, args.rounds, args.iterations)
        if args.games < 1 or not args.seconds > 0:
            ap.error("--games must be at least 1 and --seconds positive")
        if args.game == "duel" and args.players != 2:
            ap.error("duel is a two-player game")
        return strength(args.game, args.players, args.seconds, args.games, args.net, args.processes,
                        args.seed, args.write, args.records)
    except (SearchError, ValueError, RecordError) as exc:
        print(f"learned_bench: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
