"""Difficulty levels 1-10 for opponents in frontends.

Each level is an evaluator, a search budget and a move-choice temperature: low levels search
little and sample among the moves the search liked (human-like mistakes: plausible moves, not
random ones); high levels search more and play the most visited move. The four lowest levels
search with the hand-written heuristic evaluation, the others with the game's learned net:
with a net, 20 iterations play about as well as 150 (its priors already pick good moves),
so a ladder of net searches alone has no easy rungs and its low steps are within the noise.
Their strength is measured with the arena (``splendor-ai bench levels``) and published in
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
    evaluator: str = "auto"  # "heuristic" for the lowest levels; "auto": the game's shipped net

    def config(self, seed: int = 0) -> Config:
        return Config(seed=seed, evaluator=self.evaluator)

    def limits(self) -> Limits:
        return Limits(iterations=self.iterations, seconds=self.seconds)

    def spec(self) -> str:
        budget = f"iterations={self.iterations}" if self.iterations else f"seconds={self.seconds:g}"
        evaluator = "" if self.evaluator == "auto" else f",evaluator={self.evaluator}"
        return f"mcts:{budget},temperature={self.temperature:g}{evaluator}"

    def budget(self) -> str:
        budget = f"{self.iterations} iterations" if self.iterations else f"{self.seconds:g} s"
        return budget + (", heuristic" if self.evaluator == "heuristic" else ", net")


# Levels 1-4 search with the heuristic evaluation, 5-10 with the game's learned net (Config's
# "auto" evaluator: the heuristic where a game ships no net). The top three are defined by
# thinking time, so that the hardest opponent uses what a person is willing to wait for rather
# than a fixed count that a faster or slower evaluation would turn into another strength.
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
    return MCTSBot(lv.limits(), lv.config(seed), temperature=lv.temperature, seed=seed)
