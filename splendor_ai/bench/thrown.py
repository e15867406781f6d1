"""Thrown wins: does the search play a win it has proven, at every level and budget?

    splendor-ai bench thrown [--positions 3000] [--top 1000,200,50] [--budgets 50,100,400]
                             [--games base,duel,marvel] [--players 2] [--every-last-turn]
                             [--seed 1] [--write [FILE]]

Positions: one from each of many quick games (the game's one-ply move, else a random one: each
seat at its own share of random moves, drawn per game, 20 % on average), full states, the
mover to act:

- base and Marvel: the **last turn** of the game (the final round's last seat: every move of
  its turn ends the game) where the mover can win. The last seat of such quick games can win
  in only about 2 % of base last turns (5-10 % in Marvel), so the others are skipped unless
  ``--every-last-turn`` asks for every last turn;
- Duel: a turn whose mover can **win within the turn** (20 points, 10 crowns or 10 points of one
  colour); those where a single action wins at once are the "immediate wins".

"Can win": the mover can force a win within its turn, by an exhaustive look at its own
decisions of the turn on the full state.

Each position is played as the service plays a turn (``turns.play_turn``, each decision searched
from the mover's view, the moves applied to the full state) by each difficulty level (its
settings, temperature included) and by the net search at each of ``--budgets`` iterations
(temperature 0). Per row:

- **win proven**: turns with a decision whose search proved a win (a move that ends the game
  with a win for the mover in every visit: ``ActionStats.proven``);
- **thrown**: of those, turns where a decision with a proven win played another move: must be 0;
- **by visits alone**: what the choice before proven results (most visits, or sampling by
  visits at the level's temperature) would have thrown on the same searches (expected count);
- **won / win available**: turns that won, of those where the mover could force a win within
  the turn (an exhaustive look at its own decisions, on the full state). A win the search never
  visited is missed, not thrown: a low level's budget may not reach it.

Levels 8-10 search 6,000 to 200,000 iterations a decision, so they play only the first
``--top`` positions of each game (levels 8, 9, 10). Seeded: the same command gives the same
table. ``--write`` puts it in the "thrown-wins" section of BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from .report import add_write_option, machine_line, report
from ..games import load_game
from ..search import cores
from ..search.levels import LEVELS
from ..search.mcts import Config, Limits, SearchResult
from ..search.turns import play_turn

GAMES = ("base", "duel", "marvel")
DEFAULT_TOP = "1000,200,50"
DEFAULT_BUDGETS = "50,100,400"
RANDOM_SHARE = 0.2  # of the moves that lead to a position, on average: a random one, not the one-ply choice


def _turn(s) -> int:
    return s.to_position()["turn"]


def _last_seat(s) -> bool:
    pos = s.to_position()
    return bool(pos.get("final_round")) and pos["current"] == (pos["start_seat"] - 1) % pos["players"]


def winning_moves(state, depth: int = 6) -> tuple[set[int], set[int]]:
    """The mover's root moves (search actions) from which it can force a win within its turn,
    and those that win at once (the game over right after them, the mover winning): an
    exhaustive look at the mover's own later decisions of the same turn, on a full state
    (positions met twice, as Duel's privileges used in another order, are looked at once)."""
    seat, turn = state.current_player(), _turn(state)
    seen: dict[bytes, bool] = {}

    def wins(s, left: int) -> bool:
        key = s._state_bytes()
        if key not in seen:
            seen[key] = False
            for a in s.search_actions():
                t = s.clone()
                t.apply_action(a)
                if t.is_terminal():
                    if t.returns()[seat] >= 1.0:
                        seen[key] = True
                        break
                elif left > 0 and t.current_player() == seat and _turn(t) == turn and wins(t, left - 1):
                    seen[key] = True
                    break
        return seen[key]

    forced, at_once = set(), set()
    for a in state.search_actions():
        t = state.clone()
        t.apply_action(a)
        if t.is_terminal():
            if t.returns()[seat] >= 1.0:
                forced.add(a)
                at_once.add(a)
        elif t.current_player() == seat and _turn(t) == turn and wins(t, depth):
            forced.add(a)
    return forced, at_once


def _immediate_win(state) -> bool:
    """Whether one of the mover's actions ends the game at once with its win (cheap: one ply)."""
    seat = state.current_player()
    for a in state.search_actions():
        t = state.clone()
        t.apply_action(a)
        if t.is_terminal() and t.returns()[seat] >= 1.0:
            return True
    return False


def positions(game: str, n: int, players: int = 2, seed: int = 1, winnable_only: bool = True) -> list:
    """``n`` full states, one a game (see the module's docstring): base and Marvel at their last
    turn (only those where the mover can win, unless not ``winnable_only``), Duel at a turn
    whose mover can win within it."""
    from .._core import search as _search

    out: list = []
    deal = seed * 1_000_003
    g = load_game(game, players)
    gdef = cores.game_def(game)
    while len(out) < n:
        rng = random.Random(deal)
        s = cores.to_core(g.new_initial_state(deal))
        deal += 1
        # each seat its own share of random moves, drawn per game: games of varied balance
        share = [rng.uniform(0.0, 2 * RANDOM_SHARE) for _ in range(players)]
        for _ in range(3000):
            if s.is_terminal():
                break
            if s.phase() == "main":
                if game == "duel":
                    if _immediate_win(s) or (_near_duel_win(s) and winning_moves(s)[0]):
                        out.append(s)
                        break
                elif _last_seat(s):
                    if not winnable_only or winning_moves(s)[0]:
                        out.append(s)
                    break
            legal = s.search_actions()
            if rng.random() < share[s.current_player()]:
                s.apply_action(rng.choice(legal))
            else:
                s.apply_action(_search.one_ply_action(gdef, s._state_bytes()))
    return out


def _near_duel_win(s) -> bool:
    """A cheap filter before the exhaustive look: the Duel mover is within a turn's reach of a
    victory condition (a card and a royal of points, three crowns, a card of one colour)."""
    from ..games.duel import spec

    seat = s.to_position()["seats"][s.current_player()]
    return (spec.seat_points(seat) >= spec.WIN_POINTS - 8 or spec.seat_crowns(seat) >= spec.WIN_CROWNS - 3
            or max(spec.color_points(seat)) >= spec.WIN_COLOR_POINTS - 5)


def _old_throw(result: SearchResult, temperature: float) -> float:
    """The chance that the choice before proven results (most visits, ties to the higher mean
    and then the lower id; else visits ** (1/T) sampling over every move) plays no proven win."""
    acts = result.actions
    wins = {a.action for a in acts if a.proven is not None and a.proven >= 1.0}
    if temperature <= 0 or len(acts) == 1:
        best = min(acts, key=lambda a: (-a.visits, -a.value, a.action))
        return 0.0 if best.action in wins else 1.0
    weights = {a.action: a.visits ** (1.0 / temperature) for a in acts}
    return 1.0 - sum(weights[a] for a in wins) / sum(weights.values())


def play(state, limits: Limits, config: Config, temperature: float, rng: random.Random) -> dict:
    """One turn from ``state`` (each decision searched from the mover's view): whether a win was
    proven, thrown, what the old choice would have thrown, and whether the turn won."""
    seat = state.current_player()
    turn = play_turn(state, limits, config, temperature, rng, searched_of=lambda s: s.view(s.current_player()))
    proven = thrown = False
    old = 0.0
    for d in turn.decisions:
        if d.forced:
            continue
        wins = {a.action for a in d.result.actions if a.proven is not None and a.proven >= 1.0}
        if wins:
            proven = True
            thrown = thrown or d.action not in wins
            old = max(old, _old_throw(d.result, temperature))
    end = turn.state
    won = end.is_terminal() and end.returns()[seat] >= 1.0
    return {"proven": proven, "thrown": thrown, "old": old, "won": won}


def measure(states, limits: Limits, config_of, temperature: float, seed: int) -> list[dict]:
    """``play`` on each of ``states``, the i-th with seed ``seed + i``."""
    return [play(s, limits, config_of(seed + i), temperature, random.Random(seed + i)) for i, s in enumerate(states)]


def tally(plays: list[dict], available: list[bool]) -> dict:
    """A row's counts over ``plays`` (``available[i]``: position i's mover could win in its turn)."""
    return {"n": len(plays), "available": sum(available[:len(plays)]),
            "won": sum(p["won"] and a for p, a in zip(plays, available)),
            "proven": sum(p["proven"] for p in plays), "thrown": sum(p["thrown"] for p in plays),
            "old": sum(p["old"] for p in plays)}


def _ints(text: str, name: str, ap) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        ap.error(f"{name} must be integers separated by commas, got {text!r}")
    if not out or any(x < 1 for x in out):
        ap.error(f"{name} must be positive integers, got {text!r}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench thrown", description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=3000, help="positions of each game (levels 1-7 and budgets)")
    ap.add_argument("--top", default=DEFAULT_TOP,
                    help="positions of each game for levels 8, 9, 10 (at most --positions)")
    ap.add_argument("--budgets", default=DEFAULT_BUDGETS, help="net-search iterations per decision, comma-separated")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--players", type=int, default=2, help="seats in base and Marvel (Duel has 2)")
    ap.add_argument("--every-last-turn", action="store_true",
                    help="base and Marvel: every last turn, not only those where the mover can win")
    ap.add_argument("--seed", type=int, default=1)
    add_write_option(ap)
    args = ap.parse_args(argv)
    top = _ints(args.top, "--top", ap)
    budgets = _ints(args.budgets, "--budgets", ap)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if len(top) != 3 or args.positions < 1 or any(g not in GAMES for g in games) or not 2 <= args.players <= 4:
        ap.error("--top needs three counts (levels 8, 9, 10), --positions at least 1, --games among "
                 f"{', '.join(GAMES)}, --players 2 to 4")
    t0 = time.perf_counter()
    lines = ["| game | search | positions | win available | won | win proven | thrown | by visits alone |",
             "|---|---|---|---|---|---|---|---|"]
    notes = []
    for game in games:
        players = 2 if game == "duel" else args.players
        states = positions(game, args.positions, players, args.seed, not args.every_last_turn)
        found = [winning_moves(s) for s in states]
        available = [bool(f[0]) for f in found]
        immediate = [bool(f[1]) for f in found]
        if game == "duel":
            notes.append(f"Duel: {sum(immediate)} of the {len(states)} positions have an immediate win")
        rows = []

        def add(name, plays):
            rows.append((name, tally(plays, available)))
            if game == "duel":  # the positions with an immediate win, from the same turns
                sub = [i for i in range(len(plays)) if immediate[i]]
                rows.append((f"{name}, immediate wins", tally([plays[i] for i in sub], [True] * len(sub))))

        for level, lv in sorted(LEVELS.items()):
            n = len(states) if level < 8 else min(len(states), top[level - 8])
            settings = lv.settings(game)
            cfg = lambda seed, c=settings.config: Config(**{**c.__dict__, "seed": seed})  # noqa: E731
            add(f"level {level}", measure(states[:n], settings.limits, cfg, settings.temperature,
                                          args.seed * 7_919 + level))
        for its in budgets:
            add(f"{its} iterations", measure(states, Limits(iterations=its), lambda seed: Config(seed=seed), 0.0,
                                             args.seed * 104_729 + its))
        for name, r in rows:
            lines.append(f"| {game} | {name} | {r['n']} | {r['available']} | {r['won']} | {r['proven']} "
                         f"| {r['thrown']} | {r['old']:.1f} |")
        print(f"{game}: {time.perf_counter() - t0:,.0f} s", file=sys.stderr)
    seconds = time.perf_counter() - t0
    cmd = "splendor-ai bench thrown" + (f" --positions {args.positions}" if args.positions != 3000 else "") + \
        (f" --top {args.top}" if args.top != DEFAULT_TOP else "") + \
        (f" --budgets {args.budgets}" if args.budgets != DEFAULT_BUDGETS else "") + \
        (f" --games {args.games}" if games != list(GAMES) else "") + \
        (f" --players {args.players}" if args.players != 2 else "") + \
        (" --every-last-turn" if args.every_last_turn else "") + \
        (f" --seed {args.seed}" if args.seed != 1 else "")
    body = "\n".join([
        "## Thrown wins: proven results in the choice",
        "",
        f"Command: `{cmd}` ({machine_line()}; {seconds:,.0f} s). Base and Marvel ({args.players} players): the "
        "last turn of a game (the final round's last seat)"
        + ("" if args.every_last_turn else " where the mover can win") +
        "; Duel: a turn whose mover can win within it. One "
        "position a game, from quick games of the one-ply move (else a random one, each seat at its own share "
        "of random moves, 20 % on average). Each turn is "
        "played as the service plays it (each decision searched from the mover's view) by each level (its "
        "temperature included) and by the net search at each budget (temperature 0). Levels 8, 9 and 10 play "
        f"only the first {top[0]}, {top[1]} and {top[2]} positions of each game. Win available: the mover can "
        "force a win within the turn (an exhaustive look on the full state). Win proven: a decision's search "
        "proved a move that ends the game with the mover's win. Thrown: a turn that played another move where a "
        "win was proven (must be 0). By visits alone: what the choice before proven results (most visits, or "
        "sampling by visits at the level's temperature) would have thrown on the same searches (expected).",
        "",
        *lines,
        "",
        ("; ".join(notes) + ".") if notes else "",
    ])
    report(args, "thrown-wins", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
