"""Difficulty levels 1-10 for opponents in frontends.

Each level is a search budget and a move-choice temperature: low levels search little and
sample among the moves the search liked (human-like mistakes: plausible moves, not random
ones); high levels search more and play the most visited move. Their strength is measured
with the arena (``splendor-ai bench levels``) and published in
BENCHMARKS.md, not guessed.
"""
from __future__ import annotations

from dataclasses import dataclass

from .mcts import Config, Limits


@dataclass(frozen=True)
class Level:
    level: int
    iterations: int | None  # a budget in iterations (levels 1-7: reproducible with a seed) ...
    temperature: float
    seconds: float | None = None  # ... or in thinking time per decision (the top levels)

    def limits(self) -> Limits:
        return Limits(iterations=self.iterations, seconds=self.seconds)

    def spec(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations else f"seconds={self.seconds:g}"
        return f"mcts:{budget},temperature={self.temperature:g}"

    def budget(self) -> str:
        return f"{self.iterations} iterations" if self.iterations else f"{self.seconds:g} s"


# The levels search with the game's learned net where one is shipped (Config's "auto"
# evaluator). The top three are defined by thinking time, so that the hardest opponent uses
# what a person is willing to wait for rather than a fixed count that a faster or slower
# evaluation would turn into another strength.
LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 20, 1.0),
        Level(2, 40, 0.8),
        Level(3, 80, 0.6),
        Level(4, 150, 0.5),
        Level(5, 300, 0.4),
        Level(6, 600, 0.3),
        Level(7, 1500, 0.15),
        Level(8, None, 0.0, seconds=0.25),
        Level(9, None, 0.0, seconds=0.75),
        Level(10, None, 0.0, seconds=2.0),
    )
}


def get_level(level: int) -> Level:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"difficulty level must be 1..10, got {level!r}")
    return LEVELS[level]


def level_bot(level: int, seed: int = 0):
    from .bots import MCTSBot

    lv = get_level(level)
    return MCTSBot(lv.limits(), Config(seed=seed), temperature=lv.temperature, seed=seed)
