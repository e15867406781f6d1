"""Benchmarks of the learned evaluation (docs/learned.md): its cost and its strength.

    splendor-ai bench learned speed [--game G] [--write]
    splendor-ai bench learned strength --game G --players N --seconds S --games K [--write]

`speed`: the cost of one network evaluation in C (features excluded, µs), and iterations per
second on one thread with the net and with the heuristic, in the opening and in a mid-game
position. `strength`: the learned search against the heuristic search at equal wall-clock
time per decision, seats rotated; with more than two players every other seat is a
heuristic search. Results are printed; `--write` also puts them in BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import random
import sys
from array import array

from .report import machine_line, write_section
from ..games import load_game
from ..records import RecordError
from ..search import cores
from ..search.arena import run_arena, wilson
from ..search.mcts import Config, Limits, SearchError, resolve_net, search

TARGETS = {("base", 2): 0.85, ("duel", 2): 0.85, ("marvel", 2): 0.80,
           ("base", 3): 0.55, ("marvel", 3): 0.55, ("base", 4): 0.45, ("marvel", 4): 0.45}


def _positions(game: str):
    """The opening and a mid-game position (20 random-but-plausible decisions in), 2 players."""
    opening = load_game(game, 2).new_initial_state(1)
    mid = opening.clone()
    rng = random.Random(3)
    while mid.to_position()["turn"] < 14 and not mid.is_terminal():
        r = search(mid, Limits(iterations=200), Config(evaluator="heuristic", seed=rng.randrange(1000)))
        mid.apply_action(r.action)
    return [("opening", opening), ("mid-game", mid)]


def speed(game: str, net_path: str | None, write: bool) -> int:
    net = resolve_net(Config(evaluator="net", net=net_path), game, 2)
    core = cores.module(game)
    rows = []
    for name, state in _positions(game):
        feats = array("f", state.features())
        classes = sorted({core.policy_index(a) for a in state.search_actions()})
        reps = 20000
        t = min(net.core.time_evaluations(feats, 2, classes, reps) for _ in range(3)) / reps
        ips = {}
        for ev in ("net", "heuristic"):
            ips[ev] = max(search(state, Limits(seconds=1.0), Config(evaluator=ev, net=net_path, seed=s))
                          .iterations_per_second for s in range(2))
        rows.append((name, t * 1e6, len(classes), ips["net"], ips["heuristic"]))
    lines = [f"{'position':10s} {'eval µs':>8s} {'legal':>6s} {'net it/s':>10s} {'heuristic it/s':>15s} {'ratio':>6s}"]
    for name, us, n, a, b in rows:
        lines.append(f"{name:10s} {us:8.2f} {n:6d} {a:10,.0f} {b:15,.0f} {a / b:6.2f}")
    print("\n".join(lines))
    if write:
        cmd = f"splendor-ai bench learned speed --game {game} --write"
        body = "\n".join([
            f"## Learned evaluation: cost ({game}, 2 players, net generation {net.generation}, hidden {net.file.hidden})",
            "",
            f"Command: `{cmd}` ({machine_line()}). One thread. 'eval': one network evaluation in C "
            "(trunk, value and the legal actions' policy logits; best of 3 x 20,000); iterations/s: best of 2 one-second searches.",
            "",
            "| position | eval (µs) | legal actions | net iterations/s | heuristic iterations/s | net / heuristic |",
            "|---|---|---|---|---|---|",
            *[f"| {name} | {us:.2f} | {n} | {a:,.0f} | {b:,.0f} | {a / b:.2f} |" for name, us, n, a, b in rows],
        ])
        write_section("BENCHMARKS.md", f"learned-speed-{game}", body)
        print("wrote BENCHMARKS.md")
    return 0


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
            f"one thread per search, {processes} games at once; seats rotated; the learned search against {others}.",
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
    sp.add_argument("--write", action="store_true", help="also write the figures to BENCHMARKS.md")
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
            return speed(args.game, args.net, args.write)
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
