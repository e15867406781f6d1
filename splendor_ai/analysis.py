"""``splendor-ai analyze``: a recorded game, decision by decision, from the mover's point of view.

Every position of the game is searched from the view of the seat to act (what it knew); the
search gives each seat's win probability and the engine's best move. For each decision the
mover's win probability before (the search of the position it faced) and after (the search
of the next position, or the result once the game is over) are compared: a drop beyond
``mistake`` is a mistake, beyond ``blunder`` a blunder. The drop includes search noise: the
bigger the budget (``iterations``), the more the marks mean.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from .games import SplendorError
from .records import replay
from .search import Config, Limits, search


class AnalysisError(SplendorError):
    """Bad options of the analysis (thresholds, budget, chart)."""


@dataclass(frozen=True)
class Options:
    iterations: int = 2000
    seed: int = 0
    threads: int = 1
    mistake: float = 0.10
    blunder: float = 0.25

    def check(self) -> None:
        if self.iterations < 1:
            raise AnalysisError(f"--iterations must be at least 1, got {self.iterations}")
        if self.threads < 1:
            raise AnalysisError(f"--threads must be at least 1, got {self.threads}")
        if not 0 < self.mistake <= self.blunder <= 1:
            raise AnalysisError(f"the thresholds need 0 < mistake <= blunder <= 1 "
                                f"(got mistake {self.mistake}, blunder {self.blunder})")


def _evaluate(state, options: Options, index: int):
    """(win probability per seat, best move) of a position; the returns once it is over."""
    if state.is_terminal():
        return list(state.returns()), None
    seat = state.current_player()
    result = search(state.view(seat), Limits(iterations=options.iterations),
                    Config(seed=options.seed + index, threads=options.threads))
    return list(result.win_probability), result.move


def analyze(record: dict, options: Options = Options(), progress=None) -> list[dict]:
    """One evaluation per action of ``record`` (the record's ``evaluations`` entries).

    ``progress(done, total)`` is called after each position searched.
    """
    options.check()
    states = replay(record)
    evals = []
    for i, state in enumerate(states):
        evals.append(_evaluate(state, options, i))
        if progress:
            progress(i + 1, len(states))
    out = []
    for i, move in enumerate(record["actions"]):
        seat = states[i].current_player()
        before, best = evals[i]
        after = evals[i + 1][0]
        drop = before[seat] - after[seat]
        mark = "blunder" if drop >= options.blunder else "mistake" if drop >= options.mistake else ""
        if move == best or len(states[i].legal_actions()) == 1:
            mark = ""  # the engine's own choice, or no choice at all: noise, not an error
        out.append({"seat": seat, "turn": states[i].to_position()["turn"], "move": move, "best": best,
                    "win_probability": [round(p, 4) for p in before], "after": [round(p, 4) for p in after],
                    "drop": round(drop, 4), "mark": mark, "iterations": options.iterations})
    return out


MARKS = {"mistake": "?", "blunder": "??", "": ""}


def table(evaluations: list[dict]) -> str:
    """The analysis as text: one row per decision, mistakes (?) and blunders (??) marked."""
    head = f"{'turn':>4}  {'seat':>4}  {'played':<24} {'best':<24} {'before':>7} {'after':>7} {'drop':>6}  mark"
    rows = [head, "-" * len(head)]
    for e in evaluations:
        seat = e["seat"]
        best = "(same)" if e["best"] == e["move"] else e["best"]
        rows.append(f"{e['turn']:>4}  {seat:>4}  {e['move']:<24} {best:<24} {e['win_probability'][seat]:>7.1%} "
                    f"{e['after'][seat]:>7.1%} {e['drop']:>+6.1%}  {MARKS[e['mark']]} {e['mark']}".rstrip())
    return "\n".join(rows)


def summary(evaluations: list[dict], players: int) -> str:
    lines = []
    for seat in range(players):
        mine = [e for e in evaluations if e["seat"] == seat]
        agree = sum(e["best"] == e["move"] for e in mine)
        lines.append(f"seat {seat}: {len(mine)} decisions, {agree} as the engine would play, "
                     f"{sum(e['mark'] == 'mistake' for e in mine)} mistakes, "
                     f"{sum(e['mark'] == 'blunder' for e in mine)} blunders")
    return "\n".join(lines)


class ProgressBar:
    """``analyzing [#######.........]  12/40`` on one line of ``stream``."""

    def __init__(self, stream=None, width: int = 30):
        self.stream = stream if stream is not None else sys.stderr
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        self.stream.write(f"\ranalyzing [{'#' * filled}{'.' * (self.width - filled)}] {done:>4}/{total}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


CHART_SIZE = (1000, 500)  # pixels: 10 x 5 inches at 100 dpi


def chart(record: dict, evaluations: list[dict], path: str) -> None:
    """Every seat's win probability over the game, mistakes and blunders marked, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AnalysisError("--out needs matplotlib: pip install 'splendor-ai[chart]'") from None
    players = record["players"]
    n = len(evaluations)
    x = list(range(n + 1))
    curves = [[e["win_probability"][s] for e in evaluations] for s in range(players)]
    if evaluations:
        for s in range(players):
            curves[s].append(evaluations[-1]["after"][s])
    dpi = 100
    fig, ax = plt.subplots(figsize=(CHART_SIZE[0] / dpi, CHART_SIZE[1] / dpi), dpi=dpi)
    for s in range(players):
        (line,) = ax.plot(x, curves[s], label=f"seat {s}" + (f" ({record['seats'][s]})" if record.get("seats") else ""))
        for kind, style in (("mistake", dict(marker="o", s=40)), ("blunder", dict(marker="X", s=90))):
            hits = [i for i, e in enumerate(evaluations) if e["seat"] == s and e["mark"] == kind]
            if hits:
                ax.scatter([i + 1 for i in hits], [curves[s][i + 1] for i in hits], color=line.get_color(),
                           edgecolors="black", zorder=3, label=f"seat {s} {kind}s", **style)
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("decision")
    ax.set_ylabel("win probability")
    ax.set_title(f"Splendor {record['game']} ({players} players): win probability by the engine")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
