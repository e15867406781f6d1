"""``splendor-ai analyze``: a recorded game judged decision by decision, from the mover's view.

One search per decision. The position the mover faced is searched from its view (what it
knew); the move the search would play is the engine's best (``SearchResult.action``: a
proven win, else the most visited move that is not a proven loss), and the value of the move
played is read from the *same* search. A move the search hardly looked at has a noisy value, so when the
played move is not the best and has fewer than ``played_visits`` visits, a second search of
the same position, restricted to the played move (``root_actions``), adds the missing
visits; its statistics for that move are merged with the first search's as root-parallel
trees are merged (visits and value sums added). The drop is the best move's value less the
played move's (0 when the played move is the best or scored at least as well); a drop of
``mistake`` or more is a mistake (``?``), of ``blunder`` or more a blunder (``??``).

Decisions with one legal move are searched (the chart needs every position) but are
``forced``: never marked, and left out of the per-seat figures. docs/analysis.md says what
the numbers mean; ``batch.py`` runs many records at once (local processes or Ray).

Each verdict also says why (``reasons``, splendor_ai/reasons, docs/reasons.md): for a mistake or
a blunder what the best move achieves that the played one does not and what the played move
allows (``explain_mistake``), for any other decision what the played move achieves and allows
(``explain_move``), from the same view and search; the table prints a marked row's first reasons.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

from ..games import SplendorError
from ..games.registry import spec as game_spec
from ..reasons import explain_mistake, explain_move, sentences
from ..records import replay
from ..search import Config, Limits, Search
from .estimate import seat_figures, seat_text

FORMAT = "splendor-ai/analysis"
# 4: per seat the estimated level and loss_per_decision; 3: each decision has `reasons`; 2: accuracy
# is e^-(the drops summed), given_away added; 1 had the share of drops below mistake. Reports of
# another version are analysed again, not resumed.
VERSION = 4
REASONS_SHOWN = 2  # reasons of a marked row the table prints
MARKS = {"mistake": "?", "blunder": "??", "": ""}
EXTRA_SEED = 0x5EED_0F_91A4ED  # xor-ed into a decision's seed for the played move's extra search
TOP = 3  # alternatives reported per decision


class AnalysisError(SplendorError):
    """Bad options of the analysis (thresholds, budget, chart, workers)."""


@dataclass(frozen=True)
class Options:
    iterations: int = 2000  # search budget of each decision
    seed: int = 0  # decision i is searched with seed + i
    threads: int = 1
    mistake: float = 0.10
    blunder: float = 0.25
    played_visits: int = 0  # visits the played move needs before its value counts; 0: iterations // 4

    def check(self) -> None:
        if isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 1:
            raise AnalysisError(f"--iterations must be at least 1, got {self.iterations}")
        if not 1 <= self.threads <= 64:
            raise AnalysisError(f"--threads must be 1..64, got {self.threads}")
        if not 0 <= self.seed < 2**63:
            raise AnalysisError(f"--seed must be 0..2**63-1, got {self.seed}")
        if not 0 < self.mistake <= self.blunder <= 1:
            raise AnalysisError(f"the thresholds need 0 < mistake <= blunder <= 1 "
                                f"(got mistake {self.mistake}, blunder {self.blunder})")
        if not 0 <= self.played_visits <= self.iterations:
            raise AnalysisError(f"--played-visits must be 0 (a quarter of --iterations) up to --iterations "
                                f"({self.iterations}), got {self.played_visits}")

    @property
    def min_played_visits(self) -> int:
        return self.played_visits or max(1, self.iterations // 4)

    def to_dict(self) -> dict:
        return asdict(self)


def _run(search: Search):
    return search.run()


def search_action(state, action: int) -> int:
    """The candidate of the search that stands for ``action``: a buy paid another way than
    the default (gold only for the shortfall) is judged as the same buy paid the default way,
    the one the search considers."""
    if action in state.search_actions():
        return action
    spec = game_spec(state.game)
    if spec.action_kind(action) == "buy":
        return spec.buy_action(spec.split_buy(action)[0])
    return action


def mark_of(drop: float, options: Options) -> str:
    return "blunder" if drop >= options.blunder else "mistake" if drop >= options.mistake else ""


def judge(state, move: str, options: Options, index: int, run=_run) -> dict:
    """The verdict on playing ``move`` (notation) in ``state`` (a full state), decision
    ``index`` of its game. ``run(search)`` runs each search (the service attaches its stopper)."""
    seat = state.current_player()
    action = state.string_to_action(move)
    view = state.view(seat)
    played = search_action(view, action)
    forced = len(view.search_actions()) == 1
    config = Config(seed=options.seed + index, threads=options.threads)
    result = run(Search(view, Limits(iterations=options.iterations), config))
    stats = {a.action: a for a in result.actions}
    best = stats[result.action]
    mine = stats.get(played)
    visits = mine.visits if mine else 0
    value_sum = mine.value * visits if mine else 0.0
    extra = 0
    if played != result.action and visits < options.min_played_visits:
        more = run(Search(view, Limits(iterations=options.min_played_visits - visits),
                          replace(config, seed=(options.seed + index) ^ EXTRA_SEED), root_actions=[played]))
        extra = more.actions[0].visits
        visits += extra
        value_sum += more.actions[0].value * extra
    value = value_sum / visits if visits else 0.0
    drop = 0.0 if played == result.action else max(0.0, best.value - value)
    mark = "" if forced else mark_of(round(drop, 4), options)
    why = explain_mistake(view, action, result.action, result) if mark else explain_move(view, action, result)
    return {
        "index": index,
        "turn": state.to_position()["turn"],
        "seat": seat,
        "move": state.action_to_string(action),
        "best": result.move,
        "value": round(value, 4),
        "best_value": round(best.value, 4),
        "drop": round(drop, 4),
        "mark": mark,
        "forced": forced,
        "visits": visits,
        "extra_visits": extra,
        "top": [{"move": a.move, "visits": a.visits, "value": round(a.value, 4)} for a in result.actions[:TOP]],
        "win_probability": [round(p, 4) for p in result.win_probability],
        "iterations": options.iterations,
        "reasons": [r.to_dict() for r in why],
    }


def decisions(states, moves, options: Options, run=_run):
    """Yields the verdict on each of ``moves``; ``states[i]`` is the position of ``moves[i]``."""
    for i, move in enumerate(moves):
        yield judge(states[i], move, options, i, run)


def accuracy(drops) -> float:
    """The accuracy of a seat's play from the drops of its decisions with a choice: e to the
    minus their sum. A drop is win probability the seat's own move gave away, so the sum is
    the share of a whole win it gave away over the game (docs/analysis.md). 1 when it gave nothing
    away; about 1 - sum while the sum is small; towards 0, never below, as it grows: 0.74
    for 0.3 of a win, 0.37 for a whole one. Unlike a share of decisions below a threshold,
    many small drops count: 40 drops of 2 points are 0.45, not 1."""
    return math.exp(-sum(drops))


def seat_summary(verdicts: list[dict], players: int, options: Options, game: str | None = None) -> list[dict]:
    """Per seat: decisions with a choice, accuracy (``accuracy``: e to the minus the sum of
    their drops), mistakes, blunders, mean drop, moves as the engine would play; and
    (estimate.py) the loss per decision and, given the ``game``, the estimated level."""
    out = []
    for seat in range(players):
        mine = [d for d in verdicts if d["seat"] == seat and not d["forced"]]
        n = len(mine)
        out.append({
            "seat": seat,
            "decisions": n,
            "forced": sum(d["seat"] == seat and d["forced"] for d in verdicts),
            "accuracy": round(accuracy(d["drop"] for d in mine), 4) if n else None,
            "given_away": round(sum(d["drop"] for d in mine), 4) if n else None,
            "mistakes": sum(d["mark"] == "mistake" for d in mine),
            "blunders": sum(d["mark"] == "blunder" for d in mine),
            "mean_drop": round(sum(d["drop"] for d in mine) / n, 4) if n else None,
            "agreed": sum(d["move"] == d["best"] for d in mine),
            **seat_figures(mine, game, players, options.iterations),
        })
    return out


def analyze(record: dict, options: Options = Options(), progress=None, run=_run) -> dict:
    """The analysis report of ``record`` (docs/analysis.md): options, one verdict per
    action, the per-seat summary. ``progress(done, total)`` is called after each decision."""
    options.check()
    states = replay(record)
    moves = record["actions"]
    verdicts = []
    for verdict in decisions(states, moves, options, run):
        verdicts.append(verdict)
        if progress:
            progress(len(verdicts), len(moves))
    final = states[-1]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record["game"],
        "players": record["players"],
        "seats": record.get("seats"),
        "returns": list(final.returns()) if final.is_terminal() else None,
        "options": options.to_dict(),
        "decisions": verdicts,
        "summary": seat_summary(verdicts, record["players"], options, record["game"]),
    }


def table(verdicts: list[dict], game: str | None = None) -> str:
    """The verdicts as text: one row per decision (the best move is the search's choice; the
    percentages are the mover's win probability after each move), mistakes (?) and blunders
    (??) marked, each followed by the engine's top moves in the order it would play them, with
    their share of the search's visits and their win probability, and (given the ``game``) why:
    the sentences of its first reasons."""
    head = (f"{'turn':>4}  {'seat':>4}  {'played':<24} {'best':<24} {'played%':>7} {'best%':>7} "
            f"{'drop':>6}  mark")
    rows = [head, "-" * len(head)]
    for d in verdicts:
        best = "(same)" if d["best"] == d["move"] else d["best"]
        rows.append(f"{d['turn']:>4}  {d['seat']:>4}  {d['move']:<24} {best:<24} {d['value']:>7.1%} "
                    f"{d['best_value']:>7.1%} {d['drop']:>6.1%}  {MARKS[d['mark']]} {d['mark']}".rstrip())
        if d["mark"]:
            total = max(1, d["iterations"])
            rows.append("            top by visits: " + ", ".join(
                f"{t['move']} (visits {t['visits'] / total:.0%}, win {t['value']:.1%})" for t in d["top"]))
            if game and d.get("reasons"):  # reports before version 3 have none
                rows.append("            why: " + sentences(d["reasons"], game, REASONS_SHOWN))
    return "\n".join(rows)


def summary(report: dict) -> str:
    lines = []
    names = report.get("seats") or [None] * report["players"]
    for s in report["summary"]:
        name = f" ({names[s['seat']]})" if names[s["seat"]] else ""
        if not s["decisions"]:
            lines.append(f"seat {s['seat']}{name}: no decision with a choice")
            continue
        lines.append(f"seat {s['seat']}{name}: {seat_text(s)}")
        worst = worst_mistake(report.get("decisions") or [], s["seat"])
        if worst is not None and report.get("game") and worst.get("reasons"):
            lines.append(f"  worst: turn {worst['turn']} {worst['move']} (drop {worst['drop']:.1%}): "
                         + sentences(worst["reasons"], report["game"], REASONS_SHOWN))
    return "\n".join(lines)


def worst_mistake(verdicts: list[dict], seat: int) -> dict | None:
    """The seat's marked decision with the largest drop (the first of equal ones), or None."""
    marked = [d for d in verdicts if d["seat"] == seat and d["mark"]]
    return max(marked, key=lambda d: d["drop"]) if marked else None


class ProgressBar:
    """``analyze``'s progress callback ``(done, total)``: the one progress bar of the commands
    (splendor_ai/progress.py), drawn only on a terminal."""

    def __init__(self, stream=None):
        self.stream = stream
        self._bar = None

    def __call__(self, done: int, total: int) -> None:
        from ..progress import bar

        if self._bar is None:
            self._bar = bar(total, "analyzing", "decision", stream=self.stream)
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()


CHART_SIZE = (1000, 500)  # pixels: 10 x 5 inches at 100 dpi


def need_matplotlib(flag: str = "--out") -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise AnalysisError(f"{flag} needs matplotlib: pip install '.[chart]' in the splendor-ai source tree") from None


def chart(report: dict, path) -> None:
    """Every seat's win probability over the game as a PNG: the mover's mistakes (o, ``?``)
    and blunders (X, ``??``) marked on its curve at the position after them."""
    need_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = report["players"]
    verdicts = report["decisions"]
    n = len(verdicts)
    x = list(range(n + 1))
    curves = [[d["win_probability"][s] for d in verdicts] for s in range(players)]
    end = report["returns"] or (verdicts[-1]["win_probability"] if verdicts else [1 / players] * players)
    for s in range(players):
        curves[s].append(end[s])
    dpi = 100
    fig, ax = plt.subplots(figsize=(CHART_SIZE[0] / dpi, CHART_SIZE[1] / dpi), dpi=dpi)
    names = report.get("seats")
    for s in range(players):
        (line,) = ax.plot(x, curves[s], label=f"seat {s}" + (f" ({names[s]})" if names else ""))
        for kind, marker, size in (("mistake", "o", 40), ("blunder", "X", 90)):
            hits = [i for i, d in enumerate(verdicts) if d["seat"] == s and d["mark"] == kind]
            if hits:
                ax.scatter([i + 1 for i in hits], [curves[s][i + 1] for i in hits], color=line.get_color(),
                           edgecolors="black", zorder=3, label=f"seat {s} {kind}s", marker=marker, s=size)
                for i in hits:
                    ax.annotate(MARKS[kind], (i + 1, curves[s][i + 1]), textcoords="offset points", xytext=(0, 7),
                                ha="center", fontsize=9, fontweight="bold", color=line.get_color())
    ax.set_xlim(0, max(n, 1))
    ax.set_ylim(-0.02, 1.08)
    ax.set_xlabel("decision")
    ax.set_ylabel("win probability")
    ax.set_title(f"Splendor {report['game']} ({players} players): win probability by the engine")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
