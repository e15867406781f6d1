"""Measure the difficulty ladder: each level against the one below it, Elo chained upward.

    splendor-ai bench levels [--games 100] [--game base] [--top 10] [--write [FILE]]

Level 1 is the anchor (Elo 0); every level N > 1 plays level N-1, and the Elo of a level is
the sum of the differences below it, each from the win rate of its match (seats rotated,
shared wins split), with a 95 % interval from the Wilson interval of that match. The
ladder is good when every step is positive. For orientation every level also plays the
greedy bot.
"""
from __future__ import annotations

import argparse
import sys

from .report import add_write_option, machine_line, report
from ..search.arena import elo, run_arena, wilson
from ..search.levels import LEVELS


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench levels", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    ap.add_argument("--top", type=int, default=10, help="highest level to measure (1..10)")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if args.games < 2 or not 1 <= args.top <= 10:
        ap.error("--games must be at least 2 and --top 1..10")
    rows, total = [], 0.0
    for lv in range(1, args.top + 1):
        level = LEVELS[lv]
        g = run_arena(args.game, 2, [f"level:{lv}", "greedy"], args.games, seed=200 + lv, progress=False).bots[0]
        if lv == 1:
            step_text = "– | anchor"
        else:
            b = run_arena(args.game, 2, [f"level:{lv}", f"level:{lv - 1}"], args.games, seed=100 + lv,
                          progress=False).bots[0]
            lo, hi = wilson(b.wins, b.seat_games)
            step = elo(b.win_rate)
            total += step
            step_text = f"{b.win_rate:.1%} | {step:+.0f} ({elo(lo):+.0f} .. {elo(hi):+.0f})"
        rows.append(f"| {lv} | {level.budget()} | {level.temperature:g} | {step_text} | {total:+.0f} | "
                    f"{g.win_rate:.1%} |")
        print(rows[-1], flush=True)
    cmd = "splendor-ai bench levels" + (f" --games {args.games}" if args.games != 100 else "") + \
        (f" --game {args.game}" if args.game != "base" else "") + (f" --top {args.top}" if args.top != 10 else "")
    body = "\n".join([
        f"## Difficulty levels ({args.game}, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Each level against the one below, {args.games} games,",
        "seats rotated; Elo relative to level 1. The last column: the same level against the greedy bot.",
        "",
        "| level | budget per decision | temperature | win rate vs level below | Elo step (95 % CI) | Elo | win rate vs greedy |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ])
    report(args, f"levels-{args.game}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
