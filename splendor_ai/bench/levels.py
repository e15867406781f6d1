"""Measure the difficulty ladder: each level against the one below it, Elo chained upward.

    splendor-ai bench levels [--games 100] [--greedy-games N] [--greedy-top N] [--game base] [--top 10]
                             [--processes N] [--records DIR] [--write [FILE]]
    splendor-ai bench levels --turns [--positions 6] [--write [FILE]]

Level 1 is the anchor (Elo 0); every level N > 1 plays level N-1, and the Elo of a level is
the sum of the differences below it, each from the win rate of its match (seats rotated,
shared wins split), with a 95 % interval from the Wilson interval of that match. The
ladder is good when every step is positive. For orientation every level also plays the
greedy bot.

``--turns``: what each level searches per whole turn, in every game, on the machine as it is
and with two busy processes on the same cores (``busy``): iterations per turn (median) and
time per turn (median, max), each level's turn played through ``Level.settings()`` from the
same positions, the two passes interleaved game by game. A level counted in iterations keeps
its iterations under load; one that stopped on its time bound shows it in the "time stops"
column.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time

from .report import add_write_option, machine_line, report
from ..search.arena import elo, run_arena, wilson
from ..games import load_game
from ..search import cores
from ..search.levels import LEVELS


def _spin(stop) -> None:  # a busy process: burns its core until told to stop
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x += 1


class busy:
    """``with busy(2):`` two processes burning a core each while the block runs."""

    def __init__(self, n: int):
        self.n = n

    def __enter__(self):
        ctx = multiprocessing.get_context("spawn")
        self.stop = ctx.Event()
        self.procs = [ctx.Process(target=_spin, args=(self.stop,), daemon=True) for _ in range(self.n)]
        for p in self.procs:
            p.start()
        time.sleep(0.5)  # let them get going
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for p in self.procs:
            p.join(5)
            if p.is_alive():
                p.terminate()


def positions(game: str, n: int, seed: int = 3) -> list:
    """``n`` positions spread over one game of level-5 self-play (2 players), each with a choice."""
    settings = LEVELS[5].settings(game, seed=seed)
    s = cores.to_core(load_game(game, 2).new_initial_state(seed))
    states = []
    while not s.is_terminal():
        if len(s.search_actions()) > 1:
            states.append(s.clone())
        s = settings.turn(s).state
    step = max(1, len(states) // n)
    return states[::step][:n]


def measure_turns(game: str, levels, states) -> dict[int, list]:
    """Per level: (iterations, seconds, stopped by time) of its turn in each of ``states``."""
    out = {}
    for lv in levels:
        rows = []
        for i, s in enumerate(states):
            turn = LEVELS[lv].settings(game, seed=i).turn(s)
            searched = [d for d in turn.decisions if not d.forced]
            rows.append((sum(d.result.iterations for d in searched), turn.elapsed,
                         any(d.stop == "time" for d in searched)))
        out[lv] = rows
    return out


def turns_main(args) -> int:
    levels = range(1, 11)
    rows = []
    low = []
    t0 = time.perf_counter()
    load_before = os.getloadavg()
    loads = []
    for game in ("base", "duel", "marvel"):
        states = positions(game, args.positions)
        idle = measure_turns(game, levels, states)
        load_idle = os.getloadavg()[0]
        with busy(2):
            loaded = measure_turns(game, levels, states)
            load_busy = os.getloadavg()[0]
        loads.append(f"{game} {load_idle:.1f} / {load_busy:.1f}")
        for lv in levels:
            a, b = idle[lv], loaded[lv]
            ia = statistics.median(r[0] for r in a)
            ib = statistics.median(r[0] for r in b)
            ratio = ib / ia if ia else 1.0
            if lv >= 8 and ratio < 0.9:
                low.append(f"{game} level {lv}")
            rows.append(f"| {game} | {lv} | {LEVELS[lv].budget(game)} | {ia:,.0f} | "
                        f"{statistics.median(r[1] for r in a):.3f} / {max(r[1] for r in a):.3f} | {ib:,.0f} | "
                        f"{statistics.median(r[1] for r in b):.3f} / {max(r[1] for r in b):.3f} | {ratio:.2f} | "
                        f"{sum(r[2] for r in a)} / {sum(r[2] for r in b)} |")
            print(rows[-1], flush=True)
    cmd = "splendor-ai bench levels --turns" + (f" --positions {args.positions}" if args.positions != 6 else "")
    body = "\n".join([
        "## Difficulty levels: iterations and time per turn (2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}; {time.perf_counter() - t0:.0f} s; load average "
        f"{load_before[0]:.1f} when it started). Each level's whole turn (`Level.settings()`, seed = the "
        f"position's index) from the same {args.positions} positions of each game (a level-5 self-play game), "
        "first on the machine as it was, then with two busy processes on its cores; medians over the "
        "positions. Levels 8-10 must keep at least 90 % of their iterations under that load.",
        "",
        "| game | level | budget | iterations per turn | seconds per turn (median / max) | iterations, busy "
        "| seconds, busy | busy / as is | time stops (as is / busy) |",
        "|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "Load average (1 min) after each pass, as is / busy: " + "; ".join(loads) + ". "
        + ("Every top level kept 90 % of its iterations under load." if not low else
           "Below 90 % under load (their turn's time bound stopped them): " + ", ".join(low) + "."),
    ])
    report(args, "levels-turns", body)
    return 0


def ladder_match(args, bots: list[str], seed: int, games: int, name: str):
    """One match of the ladder, saved game by game under ``--records`` (and resumed from there)."""
    rec = os.path.join(args.records, f"{args.game}-{name}") if args.records else None
    return run_arena(args.game, 2, bots, games, seed=seed, processes=args.processes, progress=False,
                     record_dir=rec, resume=bool(rec)).bots[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench levels", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games of each level against the one below")
    ap.add_argument("--greedy-games", type=int, default=None,
                    help="games of each level against the greedy bot (default: --games; 0: leave the column out)")
    ap.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    ap.add_argument("--top", type=int, default=10, help="highest level to measure (1..10)")
    ap.add_argument("--greedy-top", type=int, default=None,
                    help="highest level that also plays the greedy bot (default: --top)")
    ap.add_argument("--processes", type=int, default=None, help="games played at once (default: one per core)")
    ap.add_argument("--records", metavar="DIR", default=None,
                    help="save every game under DIR (a folder per match) and read back the games already there, "
                         "so that a long ladder can be stopped and finished later")
    ap.add_argument("--turns", action="store_true",
                    help="instead of the ladder: iterations and time per turn of every level in every game, "
                         "as the machine is and with two busy processes")
    ap.add_argument("--positions", type=int, default=6, help="--turns: positions per game")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if args.turns:
        if args.positions < 1:
            ap.error("--positions must be at least 1")
        return turns_main(args)
    if args.games < 2 or not 1 <= args.top <= 10:
        ap.error("--games must be at least 2 and --top 1..10")
    greedy_games = args.games if args.greedy_games is None else args.greedy_games
    if greedy_games < 0 or greedy_games == 1:
        ap.error("--greedy-games must be 0 (no greedy column) or at least 2")
    greedy_top = args.top if args.greedy_top is None else args.greedy_top
    if not 1 <= greedy_top <= 10:
        ap.error("--greedy-top must be 1..10")
    if args.processes is not None and args.processes < 1:
        ap.error("--processes must be at least 1")
    rows, total, t0 = [], 0.0, time.perf_counter()
    for lv in range(1, args.top + 1):
        level = LEVELS[lv]
        greedy_text = " – |" if greedy_games else ""
        if greedy_games and lv <= greedy_top:
            g = ladder_match(args, [f"level:{lv}", "greedy"], 200 + lv, greedy_games, f"L{lv}-vs-greedy")
            greedy_text = f" {g.win_rate:.1%} |"
        if lv == 1:
            step_text = "– | anchor"
        else:
            b = ladder_match(args, [f"level:{lv}", f"level:{lv - 1}"], 100 + lv, args.games, f"L{lv}-vs-L{lv - 1}")
            lo, hi = wilson(b.wins, b.seat_games)
            step = elo(b.win_rate)
            total += step
            step_text = (f"{b.win_rate:.1%} ({b.wins:g} of {b.seat_games}) "
                         f"| {step:+.0f} ({elo(lo):+.0f} .. {elo(hi):+.0f})")
        rows.append(f"| {lv} | {level.budget(args.game)} | {level.temperature:g} | {step_text} | {total:+.0f} "
                    f"|{greedy_text}")
        print(rows[-1], flush=True)
    seconds = time.perf_counter() - t0
    cmd = "splendor-ai bench levels" + (f" --game {args.game}" if args.game != "base" else "") + \
        (f" --games {args.games}" if args.games != 100 else "") + \
        (f" --greedy-games {args.greedy_games}" if args.greedy_games is not None else "") + \
        (f" --greedy-top {args.greedy_top}" if args.greedy_top is not None else "") + \
        (f" --top {args.top}" if args.top != 10 else "")
    greedy_head = (" win rate vs greedy |", "---|") if greedy_games else ("", "")
    body = "\n".join([
        f"## Difficulty levels ({args.game}, 2 players)",
        "",
        f"Command: `{cmd}` ({machine_line()}; {seconds:,.0f} s). Each level against the one below, "
        f"{args.games} games, seats rotated, shared wins split; Elo relative to level 1. Each level at its own "
        f"budget (iterations: neither equal time nor equal iterations, a level is its budget)."
        + (f" The last column: the same level against the greedy bot, {greedy_games} games"
           + (f" (levels 1-{greedy_top})." if greedy_top < args.top else ".") if greedy_games else ""),
        "",
        "| level | budget per decision | temperature | win rate vs level below | Elo step (95 % CI) | Elo |"
        + greedy_head[0],
        "|---|---|---|---|---|---|" + greedy_head[1],
        *rows,
    ])
    report(args, f"levels-{args.game}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
