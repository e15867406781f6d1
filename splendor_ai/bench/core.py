"""The rules-core benchmark: random playouts through the Cython core and the reference.

    splendor-ai bench core [--game base|duel|marvel] [--seconds S] [--write [FILE]]

Prints, per player count, random playouts per second and actions per second (legal moves +
a uniform random pick + apply) on one core, for the core's C loop, the core through its
Python API, and the pure-Python reference; then the ratio core/reference. Random actions are
drawn from ``search_actions`` (gold spent only for the shortfall) in every implementation.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from .report import add_write_option, machine_line, report
from ..games import load_game
from ..search import cores


PLAYERS = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}


def _time_c_loop(name: str, players: int, seconds: float) -> tuple[float, float]:
    start = load_game(name, players).new_initial_state(seed=1)
    core = cores.module(name)
    games = actions = 0
    t0 = time.perf_counter()
    batch = 200
    while time.perf_counter() - t0 < seconds:
        actions += core.random_playouts(start, batch, games + 7)
        games += batch
    dt = time.perf_counter() - t0
    return games / dt, actions / dt


def _time_python_api(name: str, players: int, impl: str, seconds: float) -> tuple[float, float]:
    game = load_game(name, players, impl=impl)
    rng = random.Random(3)
    games = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state(seed=games)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.search_actions()))
            actions += 1
        games += 1
    dt = time.perf_counter() - t0
    return games / dt, actions / dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench core", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(PLAYERS), default="base")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if args.seconds <= 0:
        ap.error("--seconds must be positive")
    rows = []
    for players in PLAYERS[args.game]:
        c_games, c_actions = _time_c_loop(args.game, players, args.seconds)
        p_games, p_actions = _time_python_api(args.game, players, "core", args.seconds)
        r_games, r_actions = _time_python_api(args.game, players, "reference", args.seconds)
        row = (players, c_games, c_actions, p_actions, r_games, r_actions, c_actions / r_actions)
        rows.append(row)
        print(
            f"{players}p: core C loop {c_games:,.0f} playouts/s {c_actions:,.0f} actions/s | "
            f"core via Python API {p_actions:,.0f} actions/s | reference {r_games:,.1f} playouts/s "
            f"{r_actions:,.0f} actions/s | core/reference {row[-1]:,.0f}x",
            flush=True,
        )
    cmd = "splendor-ai bench core" + (f" --game {args.game}" if args.game != "base" else "") + \
        (f" --seconds {args.seconds:g}" if args.seconds != 3.0 else "")
    lines = [
        f"## Rules core: random playouts ({args.game}, one core)",
        "",
        f"Command: `{cmd}` ({machine_line()}).",
        "Actions = legal moves + uniform random pick + apply; picks from `search_actions`.",
        "",
        "| players | core C loop playouts/s | core C loop actions/s | core via Python API actions/s "
        "| reference playouts/s | reference actions/s | core / reference |",
        "|---|---|---|---|---|---|---|",
    ]
    for p, cg, ca, pa, rg, ra, ratio in rows:
        lines.append(f"| {p} | {cg:,.0f} | {ca:,.0f} | {pa:,.0f} | {rg:,.1f} | {ra:,.0f} | {ratio:,.0f}x |")
    lines.append("")
    if args.game == "base":
        lines.append("Target: core ≥ 2,000,000 actions/s for 2 players and ≥ 50x the reference.")
    report(args, "core" if args.game == "base" else f"core-{args.game}", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
