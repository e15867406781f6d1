"""Reasons: which fire, whether they are true, whether they explain, what a hint costs.

    splendor-ai bench reasons [--games 200] [--positions 5000] [--mistakes 200]
                              [--levels 3,5] [--weak 1,1] [--judge-iterations 300]
                              [--games-list base,duel,marvel] [--players 2] [--seed 1] [--write [FILE]]

Per game (base and Marvel with ``--players`` seats, Duel with 2):

(a) **Codes fired**: ``--games`` games of self-play between the ``--levels`` difficulty levels
    (seats in turn), each decision searched from the mover's view with the level's settings; the
    hint of each decision with a choice is ``explain_move`` of the search's first line, with its
    result. The count of each code over those hints.
(b) **Truth**: every reason of the hints of the first ``--positions`` decisions with a choice,
    and every reason of the mistakes of (c), decided again by the brute-force verifier on the
    readable rules (``reasons.verify``, two redraws of what the mover cannot see): the false ones
    must be 0. More games are played if (a)'s do not give that many positions.
(c) **Reasons that explain**: games between the ``--weak`` levels, every decision with a choice
    judged by ``analysis.judge`` at ``--judge-iterations`` until ``--mistakes`` mistakes and
    blunders are found. A mistake's reasons explain when one of them (the search's own claims,
    SEARCH_BEST and PLANS_BUY, aside) is false of the other move: a reason of the better move
    the verifier refutes for the played one, or one of the played move the verifier refutes for
    the better one (target: 80 % or more). Hints: the share of (a)'s hints with a reason
    besides SEARCH_BEST ("the search's choice, win N %"; target: 90 % or more), over every
    decision with a choice and over main actions only.
(d) **Cost**: CPU microseconds of ``explain_move`` (with the search's result) on the base game's
    2-player hints of (a) (mean, median, 90th and 99th percentile, most).

Seeded: the same command gives the same counts (the cost aside). ``--write`` puts the figures in
the "reasons" section of BENCHMARKS.md with the command line.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import TypedDict

from .report import add_write_option, machine_line, report
from .. import analysis
from ..games import load_game
from ..games.state import State
from ..reasons import CODES, Reason, explain_move
from ..reasons.verify import verify
from ..search import Search, choose
from ..search.levels import get_level
from ..search.mcts import SearchResult

GAMES = ("base", "duel", "marvel")
SEARCH_CODES = ("SEARCH_BEST", "PLANS_BUY")  # claims about the search, not the position

# A position's reasons to check: (the mover's view, the move, its reasons, the search's result).
Item = tuple[State, int, list[Reason], SearchResult | None]


class Hints(TypedDict):
    """(a): the codes fired over the hints, the hints (with a reason besides the search's
    choice: ``said``; of main actions: ``main``, ``main_said``), the items of (b) and (d) and
    the games played."""

    codes: Counter[str]
    hints: int
    said: int
    main: int
    main_said: int
    items: list[Item]
    games: int


class Mistakes(TypedDict):
    """(c): the mistakes found (of ``decisions`` judged), those whose reasons explain, those
    with no reason (``empty``), and each reason as an item of (b)."""

    mistakes: int
    explained: int
    decisions: int
    items: list[Item]
    empty: int


def _ints(text: str, name: str, ap) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        ap.error(f"{name} must be integers separated by commas, got {text!r}")
    if not out:
        ap.error(f"{name} is empty")
    return out


def self_play(game: str, players: int, levels: list[int], seed: int,
              decide=None) -> Iterator[tuple[State, State, SearchResult | None, int]]:
    """One game between ``levels`` (seat i plays level ``levels[i % len]``), each decision a
    search of the mover's view with its level's settings. Yields (full state before the move,
    view, result or None when forced, action) for every decision."""
    rng = random.Random(seed)
    state = load_game(game, players).new_initial_state(seed)
    n = 0
    while not state.is_terminal() and n < 3000:
        seat = state.current_player()
        view = state.view(seat)
        legal = view.search_actions()
        if len(legal) == 1:
            yield state, view, None, legal[0]
            state.apply_action(legal[0])
            continue
        settings = get_level(levels[seat % len(levels)]).settings(game)
        config = replace(settings.config, seed=seed * 100_003 + n)
        result = Search(view, settings.limits, config).run()
        action = choose(result, settings.temperature, rng)
        yield state, view, result, action
        state.apply_action(action)
        n += 1


def hints(game: str, players: int, levels: list[int], games: int, positions: int, seed: int) -> Hints:
    """(a) and the positions of (b) and (d): per hint, the view, result and reasons."""
    out: Hints = {"codes": Counter(), "hints": 0, "said": 0, "main": 0, "main_said": 0, "items": [], "games": 0}
    g = 0
    while g < games or len(out["items"]) < positions:
        for _, view, result, _action in self_play(game, players, levels, seed * 7_919 + g):
            if result is None:
                continue
            why = explain_move(view, result.action, result)
            out["codes"].update(r.code for r in why)
            said = any(r.code != "SEARCH_BEST" for r in why)
            out["hints"] += 1
            out["said"] += said
            if view.phase() == "main":
                out["main"] += 1
                out["main_said"] += said
            if len(out["items"]) < positions:
                out["items"].append((view, result.action, why, result))
        g += 1
    out["games"] = g
    return out


class _Capture:
    """``analysis.judge``'s ``run``: runs each search and keeps the first result (the one the
    verdict's best move and reasons come from)."""

    def __init__(self) -> None:
        self.result: SearchResult | None = None

    def __call__(self, search: Search) -> SearchResult:
        result = search.run()
        if self.result is None:
            self.result = result
        return result


def mistakes(game: str, players: int, weak: list[int], wanted: int, iterations: int, seed: int) -> Mistakes:
    """(c): mistakes of games between the weak levels, judged; per mistake, whether its reasons
    explain, and every reason for the truth check."""
    options = analysis.Options(iterations=iterations, seed=seed)
    out: Mistakes = {"mistakes": 0, "explained": 0, "decisions": 0, "items": [], "empty": 0}
    g = 0
    while out["mistakes"] < wanted and g < 50 * wanted:
        for i, (state, view, result, action) in enumerate(self_play(game, players, weak, seed * 104_729 + g)):
            if result is None:
                continue
            out["decisions"] += 1
            run = _Capture()
            verdict = analysis.judge(state, state.action_to_string(action), options, i, run)
            if not verdict["mark"]:
                continue
            out["mistakes"] += 1
            played = view.string_to_action(verdict["move"])
            best = view.string_to_action(verdict["best"])
            why = [Reason.from_dict(d) for d in verdict["reasons"]]
            out["empty"] += not why
            explains = False
            for r in why:
                mine = played if r.move == verdict["move"] else best
                out["items"].append((view, mine, [r.without_move()], run.result))
                if r.code in SEARCH_CODES:
                    continue
                other = best if mine == played else played
                if not verify(view, other, r.without_move(), run.result):
                    explains = True
            out["explained"] += explains
            if out["mistakes"] >= wanted:
                break
        g += 1
    return out


def truth(items: list[Item]) -> tuple[int, int, list[str]]:
    """(reasons checked, false ones, a few of the false ones with their moves)."""
    checked, false = 0, 0
    shown: list[str] = []
    for view, action, why, result in items:
        for r in why:
            checked += 1
            if not verify(view, action, r, result):
                false += 1
                if len(shown) < 5:
                    shown.append(f"{view.action_to_string(action)}: {r}")
    return checked, false, shown


def cost(items: list[Item], repeat: int = 1) -> dict[str, float]:
    """CPU microseconds of explain_move (with the result) over the hints' positions."""
    times = []
    for view, action, _why, result in items:
        t0 = time.process_time()
        for _ in range(repeat):
            explain_move(view, action, result)
        times.append((time.process_time() - t0) / repeat * 1e6)
    times.sort()
    q = lambda p: times[min(len(times) - 1, int(p * len(times)))]  # noqa: E731
    return {"n": len(times), "mean": statistics.mean(times), "median": q(0.5), "p90": q(0.9), "p99": q(0.99),
            "max": times[-1]}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "–"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench reasons", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="self-play games of each game for (a) (default 200)")
    ap.add_argument("--positions", type=int, default=5000, help="hints of each game checked in (b) (default 5000)")
    ap.add_argument("--mistakes", type=int, default=200, help="mistakes of each game for (c) (default 200)")
    ap.add_argument("--levels", default="3,5", help="the self-play levels, seats in turn (default 3,5)")
    ap.add_argument("--weak", default="1,1", help="the levels whose games give the mistakes (default 1,1)")
    ap.add_argument("--judge-iterations", type=int, default=300, help="analysis.judge's budget for (c) (default 300)")
    ap.add_argument("--games-list", default=",".join(GAMES), help="the games (default base,duel,marvel)")
    ap.add_argument("--players", type=int, default=2, help="seats in base and Marvel (default 2)")
    ap.add_argument("--seed", type=int, default=1)
    add_write_option(ap)
    args = ap.parse_args(argv)
    levels, weak = _ints(args.levels, "--levels", ap), _ints(args.weak, "--weak", ap)
    games = [g.strip() for g in args.games_list.split(",") if g.strip()]
    if (any(g not in GAMES for g in games) or args.games < 1 or args.positions < 1 or args.mistakes < 1
            or not 2 <= args.players <= 4 or args.judge_iterations < 10):
        ap.error(f"--games-list among {', '.join(GAMES)}; --games, --positions, --mistakes at least 1; "
                 "--players 2 to 4; --judge-iterations at least 10")
    t0 = time.perf_counter()
    fired, rows, costs, false_shown = {}, [], None, []
    for game in games:
        players = 2 if game == "duel" else args.players
        h = hints(game, players, levels, args.games, args.positions, args.seed)
        fired[game] = h["codes"]
        mk = mistakes(game, players, weak, args.mistakes, args.judge_iterations, args.seed)
        checked, false, shown = truth(h["items"] + mk["items"])
        false_shown += [f"{game}: {s}" for s in shown]
        rows.append((game, players, h, mk, checked, false))
        if game == "base" and players == 2:
            costs = cost(h["items"])
        print(f"{game}: {time.perf_counter() - t0:,.0f} s", file=sys.stderr)
    seconds = time.perf_counter() - t0
    defaults = {"games": 200, "positions": 5000, "mistakes": 200, "levels": "3,5", "weak": "1,1",
                "judge_iterations": 300, "games_list": ",".join(GAMES), "players": 2, "seed": 1}
    cmd = "splendor-ai bench reasons" + "".join(
        f" --{k.replace('_', '-')} {getattr(args, k)}" for k, v in defaults.items() if getattr(args, k) != v)
    lines = [
        "## Reasons: codes fired, truth, reasons that explain, cost",
        "",
        f"Command: `{cmd}` ({machine_line()}; {seconds:,.0f} s). Self-play between levels {args.levels} "
        f"(seats in turn; base and Marvel {args.players} players), each decision searched from the mover's view; "
        "a hint is `explain_move` of the search's first line with its result. Truth: every reason of the first "
        f"{args.positions} hints of each game and of every mistake below, decided again by `reasons.verify` on the "
        f"readable rules. Mistakes: games between levels {args.weak}, judged by `analysis.judge` at "
        f"{args.judge_iterations} iterations; a mistake's reasons explain when one (the search's own claims aside) "
        "is refuted by the verifier for the other move.",
        "",
        "| game | self-play games | hints | reasons checked | false | mistakes | explained | hints with a reason "
        "besides the search's choice | main actions only |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for game, players, h, mk, checked, false in rows:
        lines.append(f"| {game} | {h['games']} | {h['hints']} | {checked} | {false} | {mk['mistakes']} "
                     f"({mk['decisions']} decisions) | {_pct(mk['explained'], mk['mistakes'])} | "
                     f"{_pct(h['said'], h['hints'])} | {_pct(h['main_said'], h['main'])} |")
    lines += ["", "Codes fired over the hints (a):", "",
              "| code | " + " | ".join(g for g in games) + " |", "|---|" + "---|" * len(games)]
    for c in CODES:
        if any(c.name in fired[g] for g in games) or any(g in c.games for g in games):
            lines.append(f"| `{c.name}` | " + " | ".join(
                (str(fired[g].get(c.name, 0)) if g in c.games else "–") for g in games) + " |")
    if costs:
        lines += ["", f"Cost of a hint (d): `explain_move` with the search's result on {costs['n']} base-game "
                      f"2-player positions, CPU time: mean {costs['mean']:,.0f} µs, median {costs['median']:,.0f} µs, "
                      f"90th percentile {costs['p90']:,.0f} µs, 99th {costs['p99']:,.0f} µs, "
                      f"most {costs['max']:,.0f} µs."]
    if false_shown:
        lines += ["", "False reasons (must be none): " + "; ".join(false_shown)]
    report(args, "reasons", "\n".join(lines))
    return 0 if not any(r[5] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
