"""Difficulty levels 1-10 for opponents in frontends.

Each level is a search budget and a move-choice temperature: low levels search little and
sample among the moves the search liked (human-like mistakes: plausible moves, not random
ones); high levels search more and play the most visited move. Their strength is measured
with the arena (``python -m splendor_ai.search.levels_bench``) and published in
BENCHMARKS.md, not guessed.
"""
from __future__ import annotations

from dataclasses import dataclass

from .mcts import Config, Limits


@dataclass(frozen=True)
class Level:
    level: int
    iterations: int
    temperature: float

    def limits(self) -> Limits:
        return Limits(iterations=self.iterations)

    def spec(self) -> str:
        return f"mcts:iterations={self.iterations},temperature={self.temperature:g}"


LEVELS: dict[int, Level] = {
    lv.level: lv
    for lv in (
        Level(1, 20, 1.0),
        Level(2, 40, 0.8),
        Level(3, 80, 0.6),
        Level(4, 150, 0.5),
        Level(5, 300, 0.4),
        Level(6, 600, 0.3),
        Level(7, 1200, 0.2),
        Level(8, 2500, 0.1),
        Level(9, 5000, 0.0),
        Level(10, 10000, 0.0),
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
