"""Decisions per turn, per game and phase: the table behind ``EXPECTED_FOLLOW_UPS`` in
splendor_ai/search/turns.py (the time split of a whole turn).

    splendor-ai bench turns [--games 20] [--iterations 200] [--write]
"""
from __future__ import annotations

import argparse
import random
import time

from ..games import load_game
from ..search import cores
from ..search.mcts import Config, Limits
from ..search.turns import play_turn, time_share
from .report import machine_line, write_section


def measure(game: str, players: int, games: int, iterations: int = 200, seed: int = 1) -> dict:
    """Per phase: searched decisions, and how many more searched decisions their turn had,
    over self-play games of MCTS at ``iterations`` per decision. Also the turn count and the
    forced decisions."""
    rng = random.Random(seed)
    rest: dict[str, list[int]] = {}
    turns = forced = 0
    for g in range(games):
        s = cores.to_core(load_game(game, players).new_initial_state(seed * 100_003 + g))
        while not s.is_terminal():
            t = play_turn(s, Limits(iterations=iterations), Config(seed=rng.getrandbits(63)))
            phases = []
            probe = s.clone()
            for d in t.decisions:
                if d.forced:
                    forced += 1
                else:
                    phases.append(probe.phase())
                probe.apply_action(d.action)
            for i, phase in enumerate(phases):
                rest.setdefault(phase, []).append(len(phases) - i - 1)
            s = t.state
            turns += 1
    return {"turns": turns, "forced": forced,
            "phases": {p: (len(v), sum(v) / len(v)) for p, v in sorted(rest.items())}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench turns",
                                 description="Decisions per turn, per game and phase: the table behind "
                                             "EXPECTED_FOLLOW_UPS (the time split of a whole turn).")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--write", action="store_true", help="write the section to --out")
    ap.add_argument("--out", default="BENCHMARKS.md")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    lines = ["| game | phase | searched decisions | searched decisions still to come in the turn (mean) "
             "| time share |", "|---|---|---|---|---|"]
    notes = []
    for game in ("base", "duel", "marvel"):
        m = measure(game, 2, args.games, args.iterations)
        notes.append(f"{game}: {m['turns']} turns, {m['forced']} forced decisions (not searched)")
        for phase, (n, mean) in m["phases"].items():
            lines.append(f"| {game} | {phase} | {n} | {mean:.2f} | {time_share(game, phase):.2f} |")
    body = "\n".join([
        "## Decisions per turn (2 players, MCTS self-play)", "",
        f"`splendor-ai bench turns --games {args.games} --iterations {args.iterations} --write` "
        f"({machine_line()}; {time.perf_counter() - t0:.0f} s). The means are the table "
        "`EXPECTED_FOLLOW_UPS` of `splendor_ai/search/turns.py` (rounded); the time share is what "
        "a decision in that phase gets of the turn's time left, with the table as committed.", "",
        *lines, "", "; ".join(notes) + ".",
    ])
    print(body)
    if args.write:
        write_section(args.out, "turns", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
