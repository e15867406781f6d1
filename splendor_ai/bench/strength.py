"""The strength benchmark: arena matches with seats rotated, written to BENCHMARKS.md.

    splendor-ai bench strength [--game base|duel|marvel] [--games 200] [--skip-long] [--write [FILE]]

Matches: MCTS 1,000 iterations vs greedy (2 players); MCTS 10,000 vs MCTS 1,000 (2 players);
MCTS 1,000 against greedy in every other seat (3 and 4 players, where the game has them);
and the mean length of MCTS self-play in rounds. Greedy is the hand-written bot in the base
game and the one-ply bot (the game's own evaluation) in Duel and Marvel.
"""
from __future__ import annotations

import argparse
import sys

from .report import add_write_option, machine_line, report
from ..search.arena import run_arena, wilson

PLAYERS = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}


def matches(game: str):
    out = [(game, 2, ["mcts:iterations=1000", "greedy"], "≥ 90 %")]
    out += [(game, n, ["mcts:iterations=1000", "greedy"], "≥ 60 %") for n in PLAYERS[game] if n > 2]
    out.append((game, 2, ["mcts:iterations=1000", "mcts:iterations=1000"], "self-play length"))
    out.append((game, 2, ["mcts:iterations=10000", "mcts:iterations=1000"], "≥ 65 %"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench strength", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(PLAYERS), default="base")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--skip-long", action="store_true", help="leave out MCTS 10,000 vs 1,000")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error("--games must be at least 2")
    rows = []
    for game, players, bots, target in matches(args.game):
        if args.skip_long and "10000" in bots[0]:
            continue
        if bots[0] == bots[1]:
            r = run_arena(game, players, bots[:1] * 2, max(2, args.games // 4), seed=11, progress=False)
            rows.append(f"| {game} {players}p | {bots[0]} self-play | {r.games} | – | – | "
                        f"{r.mean_rounds:.1f} rounds | {target} |")
            print(rows[-1], flush=True)
            continue
        r = run_arena(game, players, bots, args.games, seed=7, progress=False)
        first = r.bots[0]
        lo, hi = wilson(first.wins, first.seat_games)
        rows.append(f"| {game} {players}p | {bots[0]} vs {bots[1]}{' (all other seats)' if players > 2 else ''} | "
                    f"{r.games} | {first.win_rate:.1%} | {lo:.1%}–{hi:.1%} | {r.mean_rounds:.1f} rounds | {target} |")
        print(rows[-1], flush=True)
    cmd = "splendor-ai bench strength" + (f" --game {args.game}" if args.game != "base" else "") + \
        (f" --games {args.games}" if args.games != 200 else "") + \
        (" --skip-long" if args.skip_long else "")
    body = "\n".join([
        f"## Search: strength ({args.game}; arena, seats rotated)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Win rate of the first bot (shared wins split), "
        "Wilson 95 % interval. Default search settings (docs/search.md). Budgets in iterations as each match "
        "names them, not equal time (the greedy bot does not search).",
        "",
        "| game | match | games | win rate | 95 % CI | mean length | target |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ])
    report(args, "strength" if args.game == "base" else f"strength-{args.game}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
