"""Difficulty levels 1-10 for opponents in frontends: the one definition of a level.

A level is an evaluator, a search budget in iterations per searched decision, a move-choice
temperature and, for the top levels, an upper bound on a whole turn's time. Low levels search
little and sample among the moves the search liked (human-like mistakes: plausible moves, not
random ones; never a proven loss, and a proven win always: ``mcts.choose``); high levels search
more and play the search's choice (a proven win, else the most visited move). The four lowest levels
search with the hand-written heuristic evaluation, the others with the game's learned net:
with a net, 20 iterations play about as well as 150 (its priors already pick good moves), so
a ladder of net searches alone has no easy rungs and its low steps are within the noise.

Every level is a count of iterations, so it plays the same on a busy machine as on an idle
one; the top three were calibrated to the time they used to advertise on an idle core (2 s
for level 10 in the base game; BENCHMARKS.md, "Difficulty levels: iterations and time per
turn") and their ``seconds`` only bounds a turn on a machine too loaded to reach the count
(the search then stops with reason "time"). They are spaced about 4x, 4x and 8x apart: at the
top, 3x more search was a step 40 games could not show (BENCHMARKS.md). A level's count may
differ by game (``Level.by_game``) where the same count would take a game's turn past its
bound on an idle core: Duel's level 10 searches 100,000 iterations a decision, not 200,000,
since a Duel turn often has two searched decisions and its net is slower per iteration.

A level is applied whole through ``Level.settings()`` (limits, config with the level's
evaluator and a fresh seed unless one is given, temperature): the service, ``play_turn``,
the arena's ``level:N`` bots and the benches all go through it. Strength is measured with the
arena (``splendor-ai bench levels``) and published in BENCHMARKS.md, not guessed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..games import GAMES
from .mcts import Config, Limits
from .turns import Turn, play_turn


@dataclass(frozen=True)
class LevelSettings:
    """Everything a level searches with: pass all three on (``turn`` does)."""

    limits: Limits  # iterations per searched decision; seconds: the turn's upper bound (top levels)
    config: Config  # the level's evaluator, threads and seed (None: a fresh seed per search)
    temperature: float

    def turn(self, state, rng: random.Random | None = None, **kw) -> Turn:
        """The seat to act's whole turn at this level (``turns.play_turn``; ``kw``: its
        ``searched_of``, ``started``, ``deadline``)."""
        return play_turn(state, self.limits, self.config, self.temperature, rng, **kw)


@dataclass(frozen=True)
class Level:
    level: int
    iterations: int  # per searched decision (every game's, unless by_game gives the game another)
    temperature: float
    evaluator: str = "auto"  # "heuristic" for the lowest levels; "auto": the game's shipped net
    seconds: float | None = None  # the top levels: an upper bound on a whole turn's time
    by_game: tuple[tuple[str, int], ...] = ()  # (game, iterations) where a game's count differs

    def iterations_for(self, game: str) -> int:
        """The iterations per searched decision in ``game`` (a game name, as ``state.game``)."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r} (one of {', '.join(GAMES)})")
        return dict(self.by_game).get(game, self.iterations)

    def settings(self, game: str, seed: int | None = None, threads: int = 1) -> LevelSettings:
        """The level's limits in ``game``, its config and temperature. ``seed`` None: every
        search draws a fresh seed (calling this for every move never replays one); a seed
        repeats a turn."""
        config = Config(seed=seed, evaluator=self.evaluator, threads=threads)
        return LevelSettings(Limits(iterations=self.iterations_for(game), seconds=self.seconds), config,
                             self.temperature)

    def budget(self, game: str) -> str:
        """The budget in ``game`` in words: ``6000 iterations (at most 1 s a turn), net``."""
        bound = f" (at most {self.seconds:g} s a turn)" if self.seconds else ""
        return (f"{self.iterations_for(game)} iterations{bound}, "
                + ("heuristic" if self.evaluator == "heuristic" else "net"))


# Levels 1-4 search with the heuristic evaluation, 5-10 with the game's learned net (Config's
# "auto" evaluator: the heuristic where a game ships no net). Levels 8-10: iterations
# calibrated on an idle core (net search, one thread: about 110k iterations a second in the
# base game, 140k in Duel, 180k in Marvel; measured 2026-11-28), the time a bound at 5x or
# more the base game's typical turn on an idle core: on this shared 2-core machine two busy
# processes made turns up to 3-5x slower, and the count must hold there
# (``splendor-ai bench levels --turns``). Duel's level 10: half the count, since with the
# 256x256 Duel net (session 43) its turns of two searched decisions at 200,000 took 5-10 s on
# an idle core and one reached the 10 s bound (BENCHMARKS.md, 2026-11-29). Two search threads
# were not stronger at equal time (45.8 % of 24 games at 0.1 s a decision; BENCHMARKS.md):
# every level searches with one.
LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 20, 1.0, evaluator="heuristic"),
        Level(2, 80, 0.6, evaluator="heuristic"),
        Level(3, 300, 0.4, evaluator="heuristic"),
        Level(4, 1200, 0.2, evaluator="heuristic"),
        Level(5, 100, 0.25),
        Level(6, 400, 0.2),
        Level(7, 1500, 0.1),
        Level(8, 6_000, 0.0, seconds=1.0),
        Level(9, 25_000, 0.0, seconds=3.0),
        Level(10, 200_000, 0.0, seconds=10.0, by_game=(("duel", 100_000),)),
    )
}


def get_level(level: int) -> Level:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"difficulty level must be 1..10, got {level!r}")
    return LEVELS[level]
