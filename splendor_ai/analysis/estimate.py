"""The estimated level of a seat: which difficulty level plays like its decisions.

The model (docs/analysis.md, "Estimated level"). Each decision with a choice falls in one cell:
the seat played the engine's best move, or another whose signed drop (the best move's value less
the played one's, before clipping at 0) lies in one of the bins ``drops`` (their upper edges, in
win probability). A fit holds, for a game and player count, each calibrated level's share of
decisions in each cell, measured on games between those levels analysed at ``iterations`` a
decision. Between two calibrated levels the shares are interpolated geometrically (log-linearly,
then renormalised), on a grid of fractional levels. A seat's decisions are scored by their
likelihood under each grid level, raised to 1 / ``temper`` (the decisions of one game are not
independent: a seat's game carries less evidence than as many decisions drawn apart, and
``temper`` is fitted on the calibration games so that the 80 % intervals cover), against a flat
prior over the calibrated range. The estimate is the posterior's median, the interval its
shortest 80 % credible interval, and the Elo the ladder's Elo (BENCHMARKS.md, levels-GAME;
level 1 = 0) interpolated at those levels.

The fit is package data (``levels.json``), written by ``splendor-ai bench estimate
--calibrate`` and read here; nothing is refitted at serving time.
"""
from __future__ import annotations

import bisect
import functools
import json
import math
from pathlib import Path

FIT_FILE = Path(__file__).with_name("levels.json")
FORMAT = "splendor-ai/level-estimate"
CREDIBLE = 0.80  # the interval's probability
# The leave-one-out coverage a fit's temper is chosen for: a little above CREDIBLE, a margin for the
# games a fit never saw (chosen for 80 %, the held-out seats were covered 78-82 %).
TEMPER_COVERAGE = 0.82
GRID_STEP = 0.05  # levels between two grid points
SMOOTHING = 0.5  # added to every cell's count when a fit is made (a cell never seen is not impossible)
# The grid reaches this far beyond the calibrated levels (their shares extrapolated): a seat weaker
# than the lowest level or stronger than the highest is possible, and a posterior cut at the range's
# end would pull every estimate there inward and keep its interval off the end. What is reported is
# clipped to the calibrated range.
BEYOND = 0.5
TEMPERS = (1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 5, 6, 8, 10, 12, 16, 24, 32)  # tried in turn by make_entry


# ------------------------------------------------------------------------------ features
def cell_of(decision: dict, drops: list[float]) -> int:
    """The cell of a decision: 0 when the move played was the engine's best, else 1 + the bin of
    its signed drop, the best move's value less the played one's before the drop is clipped at 0
    (bin k holds signed drops up to ``drops[k]``, the last bin everything above the last edge): a
    move the engine did not choose but valued higher is told from one it valued lower."""
    if decision["move"] == decision["best"]:
        return 0
    if "value" in decision and "best_value" in decision:
        signed = round(decision["best_value"] - decision["value"], 4)
    else:  # a verdict without the two values: its clipped drop
        signed = decision["drop"]
    return 1 + bisect.bisect_left(drops, signed)


def counted(decisions: list[dict]) -> list[dict]:
    """The decisions an estimate counts: those with a choice (forced ones say nothing)."""
    return [d for d in decisions if not d.get("forced")]


def cells(drops: list[float]) -> int:
    """How many cells the bin edges ``drops`` make: the engine's move, and one more than the edges."""
    return len(drops) + 2


def cell_counts(decisions: list[dict], drops: list[float]) -> list[int]:
    counts = [0] * cells(drops)
    for d in counted(decisions):
        counts[cell_of(d, drops)] += 1
    return counts


# ------------------------------------------------------------------------------ a fit
class Fit:
    """One game and player count's fit: cell shares per calibrated level, the temper, the Elo."""

    def __init__(self, entry: dict, drops: list[float], iterations: int):
        self.game = entry["game"]
        self.players = entry["players"]
        self.levels = [int(x) for x in entry["levels"]]
        self.shares = [list(map(float, s)) for s in entry["shares"]]
        self.temper = float(entry["temper"])
        self.elo = {int(k): float(v) for k, v in entry["elo"].items()}
        self.drops = list(drops)
        self.iterations = iterations
        if sorted(self.levels) != self.levels or len(self.shares) != len(self.levels) or len(self.levels) < 2:
            raise ValueError(f"fit {self.game}-{self.players}p: levels must be increasing, one share list each")
        for s in self.shares:
            if len(s) != cells(self.drops) or min(s) <= 0 or abs(sum(s) - 1) > 1e-6:
                raise ValueError(f"fit {self.game}-{self.players}p: shares must be positive, sum to 1, one per cell")
        self.grid = self._grid()

    def _grid(self) -> list[tuple[float, list[float]]]:
        """(level, log shares) at every grid point of the calibrated range."""
        lo, hi = self.levels[0] - BEYOND, self.levels[-1] + BEYOND
        steps = round((hi - lo) / GRID_STEP)
        out = []
        for k in range(steps + 1):
            x = lo + k * GRID_STEP
            out.append((round(x, 4), self.log_shares(x)))
        return out

    def log_shares(self, x: float) -> list[float]:
        """The log cell shares at level ``x``: geometric interpolation between the calibrated
        levels on either side (renormalised)."""
        i = min(max(bisect.bisect_right(self.levels, x) - 1, 0), len(self.levels) - 2)
        a, b = self.levels[i], self.levels[i + 1]
        t = (x - a) / (b - a)  # below 0 or above 1 beyond the calibrated range: extrapolated
        logs = [(1 - t) * math.log(p) + t * math.log(q) for p, q in zip(self.shares[i], self.shares[i + 1])]
        norm = math.log(sum(math.exp(v) for v in logs))
        return [v - norm for v in logs]

    def elo_at(self, x: float) -> float:
        """The ladder's Elo at level ``x``, linear between the levels (beyond them: the end's)."""
        levels = sorted(self.elo)
        if x <= levels[0]:
            return self.elo[levels[0]]
        if x >= levels[-1]:
            return self.elo[levels[-1]]
        i = bisect.bisect_right(levels, x) - 1
        a, b = levels[i], levels[i + 1]
        return self.elo[a] + (x - a) / (b - a) * (self.elo[b] - self.elo[a])

    def posterior(self, counts: list[int], temper: float | None = None) -> list[tuple[float, float]]:
        """(level, posterior probability) on the grid for a seat's cell counts."""
        temper = self.temper if temper is None else temper
        scores = [sum(c * v for c, v in zip(counts, logs)) / temper for _, logs in self.grid]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return [(x, w / total) for (x, _), w in zip(self.grid, weights)]

    def estimate(self, counts: list[int], temper: float | None = None) -> tuple[float, float, float]:
        """(level, low, high): the posterior's median (the estimate with the least expected absolute
        error) and its shortest 80 % interval (which reaches the end of the range when the
        posterior piles up there: a level-1 seat's interval can hold level 1, where a central
        interval, 10 % cut off either side, never would). The median lies in the interval but
        for a posterior with two humps far apart; the interval is then widened to hold it."""
        post = self.posterior(counts, temper)
        point = quantile(post, 0.5)
        lo, hi = hpd(post, CREDIBLE)
        first, last = self.levels[0], self.levels[-1]
        point, lo, hi = (min(max(v, first), last) for v in (point, min(lo, point), max(hi, point)))
        return point, lo, hi


def hpd(post: list[tuple[float, float]], mass: float) -> tuple[float, float]:
    """The shortest run of grid points holding ``mass`` of the posterior: its first and last level."""
    best = None
    n = len(post)
    j, acc = 0, 0.0
    for i in range(n):
        while j < n and acc < mass:
            acc += post[j][1]
            j += 1
        if acc >= mass and (best is None or post[j - 1][0] - post[i][0] < best[1] - best[0]):
            best = (post[i][0], post[j - 1][0])
        acc -= post[i][1]
    return best or (post[0][0], post[-1][0])


def quantile(post: list[tuple[float, float]], q: float) -> float:
    """The level below which ``q`` of the posterior lies, linear within a grid step (each grid
    point's mass spread over the half steps either side of it)."""
    acc = 0.0
    for x, p in post:
        if acc + p >= q:
            frac = (q - acc) / p if p > 0 else 0.5
            lo, hi = post[0][0], post[-1][0]
            return min(max(x - GRID_STEP / 2 + frac * GRID_STEP, lo), hi)
        acc += p
    return post[-1][0]


# ------------------------------------------------------------------------------ the package's fits
@functools.lru_cache(maxsize=4)
def load(path: str | None = None) -> dict:
    """The fit file (``levels.json`` of the package unless ``path``), checked."""
    data = json.loads(Path(path or FIT_FILE).read_text())
    if data.get("format") != FORMAT:
        raise ValueError(f"{path or FIT_FILE}: not a {FORMAT} file")
    return data


@functools.lru_cache(maxsize=32)
def fit_for(game: str, players: int, path: str | None = None) -> Fit | None:
    """The fit of ``game`` with ``players`` players, or None where none was calibrated."""
    try:
        data = load(path)
    except FileNotFoundError:
        return None
    for entry in data["fits"]:
        if entry["game"] == game and entry["players"] == players:
            return Fit(entry, data["drops"], data["iterations"])
    return None


def estimate(decisions: list[dict], game: str | None, players: int, iterations: int,
             path: str | None = None) -> dict | None:
    """A seat's estimated level from its decisions (the analysis's verdicts; forced ones are
    left out), or None without a fit for the game and player count or without a decision with a
    choice. ``iterations``: the analysis's budget; the fit holds at its own (``calibrated_iterations``),
    and ``off_budget`` says when the two differ (the estimate is then only rough)."""
    fit = fit_for(game, players, path) if game else None
    mine = counted(decisions)
    if fit is None or not mine:
        return None
    level, low, high = fit.estimate(cell_counts(mine, fit.drops))
    return {
        "level": round(level, 2),
        "level_low": round(low, 2),
        "level_high": round(high, 2),
        "elo": round(fit.elo_at(level)),
        "elo_low": round(fit.elo_at(low)),
        "elo_high": round(fit.elo_at(high)),
        "decisions": len(mine),
        "calibrated_iterations": fit.iterations,
        "off_budget": iterations != fit.iterations,
    }


def describe(est: dict | None) -> str:
    """``plays like level 6.3 (5.1-7.4), about +1980 Elo (+1862..+2154)`` (empty without an estimate)."""
    if not est:
        return ""
    text = (f"plays like level {est['level']:.1f} ({est['level_low']:.1f}-{est['level_high']:.1f}), "
            f"about {est['elo']:+.0f} Elo ({est['elo_low']:+.0f}..{est['elo_high']:+.0f})")
    if est.get("off_budget"):
        text += f" [calibrated at {est['calibrated_iterations']} iterations a decision: rough at this budget]"
    return text


# ------------------------------------------------------------------------------ the seat summary's figures
def seat_figures(decisions: list[dict], game: str | None, players: int, iterations: int) -> dict:
    """What ``analysis.seat_summary`` adds per seat from this module, over the seat's decisions:
    ``loss_per_decision``, the win probability its decisions with a choice gave away on average
    against the engine's choice, in percentage points (0 when it played as the engine would;
    lower is better; None without a decision with a choice), and ``estimate``, the estimated
    level (``estimate``; None without a fit or a decision)."""
    mine = counted(decisions)
    return {
        "loss_per_decision": round(100 * sum(d["drop"] for d in mine) / len(mine), 2) if mine else None,
        "estimate": estimate(mine, game, players, iterations),
    }


def seat_text(s: dict) -> str:
    """A seat's summary line after ``seat N (name): `` (reports of version 2, without the
    estimate and the loss per decision, read too)."""
    loss = s.get("loss_per_decision")
    if loss is None:
        loss = 100 * s["mean_drop"]
    head = describe(s.get("estimate"))
    return ((head + "; " if head else "")
            + f"gives away {loss:.2f} % of a win a decision over {s['decisions']} decisions "
            f"({s['given_away']:.2f} of a win in all), {s['mistakes']} mistakes, {s['blunders']} blunders, "
            f"{s['agreed']} as the engine would play" + (f", {s['forced']} forced" if s["forced"] else ""))


# ------------------------------------------------------------------------------ making a fit
def shares_of(rows: list[list[int]], cells: int) -> list[float]:
    """A level's cell shares from its seat-games' cell counts, each cell's count smoothed."""
    totals = [sum(r[k] for r in rows) + SMOOTHING for k in range(cells)]
    n = sum(totals)
    return [t / n for t in totals]


def make_entry(game: str, players: int, counts_by_level: dict[int, list[list[int]]], elo: dict[int, float],
               drops: list[float], iterations: int, tempers=None) -> dict:
    """A fit's entry from the calibration: per level, the cell counts of each of its seat-games.
    The temper is the smallest of ``tempers`` whose 80 % intervals, each seat-game estimated by a
    fit without its own game's level counts (leave one seat-game out), hold the seat's level at
    least ``TEMPER_COVERAGE`` of the time."""
    levels = sorted(counts_by_level)
    n_cells = cells(drops)
    entry = {"game": game, "players": players, "levels": levels,
             "shares": [[round(s, 6) for s in shares_of(counts_by_level[n], n_cells)] for n in levels],
             "temper": 1.0, "elo": {str(n): elo[n] for n in levels},
             "seat_games": {str(n): len(counts_by_level[n]) for n in levels},
             "decisions": {str(n): sum(map(sum, counts_by_level[n])) for n in levels}}
    _renormalise(entry)
    tempers = tempers or TEMPERS
    cover = {}
    for temper in tempers:
        hits = total = 0
        for n in levels:
            for i, row in enumerate(counts_by_level[n]):
                fit = Fit(_without(entry, counts_by_level, n, i, n_cells), drops, iterations)
                _, low, high = fit.estimate(row, temper)
                hits += low <= n <= high
                total += 1
        cover[temper] = hits / total
        if hits / total >= TEMPER_COVERAGE:
            break
    entry["temper"] = next((t for t in tempers if cover.get(t, 0) >= TEMPER_COVERAGE), tempers[-1])
    entry["temper_coverage"] = {str(t): round(c, 4) for t, c in cover.items()}
    return entry


def _renormalise(entry: dict) -> None:
    """Rounded shares summed to exactly 1 again (the largest cell takes the rounding)."""
    for s in entry["shares"]:
        k = s.index(max(s))
        s[k] = round(s[k] + 1 - sum(s), 6)


def _without(entry: dict, counts_by_level, level: int, i: int, n_cells: int) -> dict:
    rows = counts_by_level[level][:i] + counts_by_level[level][i + 1:]
    out = dict(entry)
    k = entry["levels"].index(level)
    out["shares"] = list(entry["shares"])
    out["shares"][k] = shares_of(rows, n_cells)
    return out
