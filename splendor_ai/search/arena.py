"""The self-play arena: bots against each other, seats rotated, games in parallel processes."""
from __future__ import annotations

import json
import math
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from .. import progress as _progress
from ..games import load_game
from ..records import load, make_record, save
from .bots import bot_evaluator, make_bot


def lineup(bots: list[str], players: int, game_index: int) -> list[str]:
    """Seat -> bot spec for one game: the bot list (the last one filling any free seats),
    rotated by the game index so that every bot plays every seat equally often."""
    base = list(bots) + [bots[-1]] * (players - len(bots))
    r = game_index % players
    return base[-r:] + base[:-r] if r else base


MAX_ACTIONS = 5000  # a game between bots that has not ended by then counts as a shared draw


def play_game(game: str, players: int, seats: list[str], seed: int) -> dict:
    """One game; returns its record plus points, turns and each decision's seat (movers)."""
    state = load_game(game, players).new_initial_state(seed)
    bots = [make_bot(spec, seed=seed * 31 + i) for i, spec in enumerate(seats)]
    moves: list[str] = []
    movers: list[int] = []
    while not state.is_terminal() and len(moves) < MAX_ACTIONS:
        mover = state.current_player()
        action = bots[mover].choose(state)
        moves.append(state.action_to_string(action))
        movers.append(mover)
        state.apply_action(action)
    finished = state.is_terminal()
    returns = state.returns() if finished else [1.0 / players] * players
    record = make_record(game, players, seed=seed, seats=seats, actions=moves, returns=returns,
                         evaluators=[bot_evaluator(b, game, players) for b in bots])
    record["finished"] = finished
    record["points"] = [state.points(i) for i in range(players)]
    record["turns"] = state.to_position()["turn"]
    record["movers"] = movers
    return record


def move_kind(move: str) -> str:
    """The kind of a move in notation: its verb (`take`, `buy`, `reserve`, `replenish`, ...)."""
    return move.split(maxsplit=1)[0]


def _game_task(args):
    return play_game(*args)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return -400 * math.log10(1 / p - 1)


@dataclass
class BotStats:
    spec: str
    seat_games: int = 0
    wins: float = 0.0
    points: float = 0.0
    moves: Counter = field(default_factory=Counter)  # decisions by kind (move_kind), over all its games

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    def moves_per_game(self) -> dict[str, float]:
        return {k: n / self.seat_games for k, n in sorted(self.moves.items())} if self.seat_games else {}


@dataclass
class ArenaResult:
    game: str
    players: int
    games: int
    bots: list[BotStats]
    mean_rounds: float
    elapsed: float  # seconds of this run (the games read back from records took none)
    records: list[dict] = field(repr=False, default_factory=list)
    resumed: int = 0  # games read back from saved records, not played in this run

    def to_dict(self) -> dict:
        bots = []
        for b in self.bots:
            lo, hi = wilson(b.wins, b.seat_games)
            bots.append({
                "bot": b.spec, "seat_games": b.seat_games, "wins": b.wins, "win_rate": b.win_rate,
                "win_rate_ci95": [lo, hi], "mean_points": b.points / b.seat_games if b.seat_games else 0.0,
                "moves_per_game": b.moves_per_game(),
            })
        out = {
            "game": self.game, "players": self.players, "games": self.games,
            "mean_rounds": self.mean_rounds, "elapsed_seconds": self.elapsed, "resumed_games": self.resumed,
            "bots": bots,
        }
        if len(self.bots) == 2 and self.players == 2:
            p = self.bots[0].win_rate
            lo, hi = wilson(self.bots[0].wins, self.bots[0].seat_games)
            out["elo_difference"] = {"value": elo(p), "ci95": [elo(lo), elo(hi)],
                                     "of": self.bots[0].spec, "over": self.bots[1].spec}
        return out

    def table(self) -> str:
        d = self.to_dict()
        run = f"{self.elapsed:.0f} s" if not self.resumed else \
            f"{self.resumed} games read back from records, {self.games - self.resumed} played in {self.elapsed:.0f} s"
        lines = [f"{self.game}, {self.players} players, {self.games} games, seats rotated; "
                 f"mean length {self.mean_rounds:.1f} rounds; {run}",
                 f"{'bot':40s} {'seat-games':>10s} {'wins':>7s} {'win rate':>9s} {'95% CI':>15s} {'points':>7s}"]
        for b in d["bots"]:
            lines.append(f"{b['bot']:40s} {b['seat_games']:10d} {b['wins']:7.1f} {b['win_rate']:9.1%} "
                         f"{b['win_rate_ci95'][0]:6.1%}-{b['win_rate_ci95'][1]:6.1%} {b['mean_points']:7.1f}")
        if "elo_difference" in d:
            e = d["elo_difference"]
            lines.append(f"Elo difference: {e['value']:+.0f} (95% CI {e['ci95'][0]:+.0f} .. {e['ci95'][1]:+.0f})")
        return "\n".join(lines)

    def moves_table(self) -> str:
        """Each bot's decisions per game, by kind (the verb of the move's notation)."""
        kinds = sorted({k for b in self.bots for k in b.moves})
        width = max([9] + [len(k) for k in kinds])
        lines = ["decisions per game, by kind",
                 f"{'bot':40s}" + "".join(f" {k:>{width}s}" for k in kinds)]
        for b in self.bots:
            per = b.moves_per_game()
            lines.append(f"{b.spec:40s}" + "".join(f" {per.get(k, 0.0):{width}.2f}" for k in kinds))
        return "\n".join(lines)


def run_arena(game: str, players: int, bots: list[str], games: int, seed: int = 1,
              processes: int | None = None, progress: bool = True, record_dir: str | None = None,
              resume: bool = False) -> ArenaResult:
    """``games`` games of ``bots`` (seats rotated), deal i seeded ``seed * 1_000_003 + i``.

    ``record_dir``: each game is saved there as a record (``game-NNNNN.json``) as soon as it
    ends. With ``resume``, the games already saved there are read back instead of played again,
    so that a long match can be stopped and finished later; a saved game that is not this
    match's (other bots, seats or deal) is refused."""
    for spec in bots:
        make_bot(spec)  # fail early on a bad spec, in this process
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots for {players} seats")
    if resume and not record_dir:
        raise ValueError("resume needs a record_dir")
    processes = processes or os.cpu_count() or 1
    tasks = [(game, players, lineup(bots, players, g), seed * 1_000_003 + g) for g in range(games)]
    records: list[dict | None] = [None] * games
    if record_dir:
        os.makedirs(record_dir, exist_ok=True)
    paths = [os.path.join(record_dir, f"game-{i:05d}.json") for i in range(games)] if record_dir else []
    if resume:
        for i, (_, _, seats, deal) in enumerate(tasks):
            if os.path.exists(paths[i]):
                rec = load(paths[i])
                saved = (rec.get("game"), rec.get("players"), rec.get("seats"), rec.get("seed"))
                if saved != (game, players, seats, deal):
                    raise ValueError(f"{paths[i]} is not game {i} of this match (another game, bots or seed): "
                                     "use another folder")
                records[i] = rec
    todo = [i for i in range(games) if records[i] is None]
    t0 = time.perf_counter()
    # On a terminal only (splendor_ai.progress): a redirected log gets no bar.
    bar = _progress.bar(games, "games", "game", enabled=progress, initial=games - len(todo))

    def finished(i: int, rec: dict) -> None:
        records[i] = rec
        if record_dir:
            save(rec, paths[i])
        bar.update(1)

    with bar:
        if processes == 1 or len(todo) <= 1:
            for i in todo:
                finished(i, _game_task(tasks[i]))
        else:
            with ProcessPoolExecutor(max_workers=min(processes, len(todo))) as pool:
                futures = {pool.submit(_game_task, tasks[i]): i for i in todo}
                for fut in as_completed(futures):
                    finished(futures[fut], fut.result())
    stats = {spec: BotStats(spec) for spec in dict.fromkeys(bots)}
    rounds = 0.0
    played = [rec for rec in records if rec is not None]
    assert len(played) == games  # each game played or read back
    for rec in played:
        for seat, spec in enumerate(rec["seats"]):
            st = stats[spec]
            st.seat_games += 1
            st.wins += rec["returns"][seat]
            st.points += rec["points"][seat]
        for move, mover in zip(rec["actions"], rec["movers"]):
            stats[rec["seats"][mover]].moves[move_kind(move)] += 1
        rounds += rec["turns"] / players
    return ArenaResult(game, players, games, list(stats.values()), rounds / max(1, games),
                       time.perf_counter() - t0, played, resumed=games - len(todo))


def arena_json(result: ArenaResult) -> str:
    return json.dumps(result.to_dict(), indent=1)
