"""The ship gate's arithmetic, pure functions: equal-time budgets, paired intervals, the decision.

`bench gate` (gate.py) plays the games; everything that turns measurements into budgets and
results into a verdict is here, with no games, files or clocks, so that tests can hand it small
synthetic tables.

Equal time. A side's budget is iterations (as a frontend's level is), set so that every side
spends the same CPU time a move: `iterations = seconds / cost`, its cost per iteration measured on
this machine in the same run. A net twice as costly gets half the iterations.

The paired difference. For one pool member (one table: the opponents in the other seats), the
candidate and the net it would replace (the incumbent) play the same deals in the same seats
against the same opponents with the same search seeds; only the net in the seat changes. Deal i
gives d_i = (candidate's result) - (incumbent's result), each a share of the win in [0, 1] (a
shared win split), so d_i lies in [-1, 1]. The deals are independent draws, and the question is
the mean of d over deals, so the interval is Student's t interval of the mean paired difference,
mean +- t(1 - a/2, n - 1) * sd / sqrt(n), 95 % by default: the usual interval for a mean of
independent paired differences of unknown spread, which pairing makes much narrower than the
difference of two independent win rates (the deal's luck and the seat's advantage cancel), and
whose t quantile keeps it honest at the few deals of a partial run (at 200 deals it is the normal
interval). The differences are bounded, so the mean's distribution is close to normal long before
200 deals.

The rule (`decide`): ship only if (1) against no pool member the candidate is worse beyond noise,
that is no member's interval lies wholly below 0, and (2) it is better overall: the pooled paired
difference (every table's deals together, each deal one unit) has its interval wholly above 0
(`pooled="interval"`, the default: better beyond noise), or, with `pooled="point"`, just its mean
above 0. (1) is one test a member at 95 %: with six members an equal candidate fails one of them
about one time in seven by chance; a better candidate rarely does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Mapping, Sequence


def equal_time_budgets(costs: Mapping[str, float], seconds: float) -> dict[str, int]:
    """Iterations a move for each side so that each spends `seconds` of CPU a move: `costs` are
    seconds per iteration (measured); each side gets round(seconds / cost), at least 1."""
    if not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds a move must be a positive number, got {seconds!r}")
    out = {}
    for side, cost in costs.items():
        if not (cost > 0 and math.isfinite(cost)):
            raise ValueError(f"{side}: a cost per iteration must be a positive number, got {cost!r}")
        out[side] = max(1, round(seconds / cost))
    return out


def pool_costs(costs: Mapping[str, float], classes: Mapping[str, object]) -> dict[str, float]:
    """Costs with every side of one class given the class's mean: sides whose nets have the same
    shape and precision do the same work an iteration, so what their measurements differ by is the
    machine's noise (their budgets were 9-15 % apart on one noisy measurement), and one shared
    figure leaves the pairing of the candidate with an incumbent of its shape to the net alone.
    `classes` maps a side to its class; a side it does not name keeps its own cost."""
    groups: dict[object, list[str]] = {}
    for side in costs:
        if side in classes:
            groups.setdefault(classes[side], []).append(side)
    out = dict(costs)
    for members in groups.values():
        mean = sum(costs[k] for k in members) / len(members)
        out.update((k, mean) for k in members)
    return out


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (Lentz's method)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with `df` degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom (bisection on t_cdf)."""
    if not 0.0 < p < 1.0 or not df > 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p!r}, df={df!r}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, max(1.0, NormalDist().inv_cdf(p))
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Interval:
    """The mean of paired differences and its interval; with fewer than 2 deals the interval is
    unbounded (nothing is known beyond noise)."""

    n: int
    mean: float
    lo: float
    hi: float
    sd: float

    @property
    def worse(self) -> bool:
        """Worse beyond noise: the whole interval below 0."""
        return self.hi < 0

    @property
    def better(self) -> bool:
        """Better beyond noise: the whole interval above 0."""
        return self.lo > 0


def paired_interval(diffs: Sequence[float], confidence: float = 0.95) -> Interval:
    """Student's t interval of the mean of `diffs` (the paired differences, one a deal, each in
    [-1, 1]). Its width comes from the deals' spread: a handful of deals that all came out alike
    gives a narrow interval that means little, so a gate plays 200 or more."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    n = len(diffs)
    if n == 0:
        return Interval(0, 0.0, -math.inf, math.inf, 0.0)
    mean = math.fsum(diffs) / n
    if n == 1:
        return Interval(1, mean, -math.inf, math.inf, 0.0)
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = t_quantile(1 - (1 - confidence) / 2, n - 1) * sd / math.sqrt(n)
    # A paired difference lies in [-1, 1], and so does its mean: the interval is cut there.
    return Interval(n, mean, max(-1.0, mean - half), min(1.0, mean + half), sd)


POOLED_RULES = ("interval", "point")


@dataclass(frozen=True)
class Decision:
    ship: bool
    members: dict[str, Interval]  # per table (pool member), in the order given
    pooled: Interval
    reasons: list[str] = field(default_factory=list)  # why not, or why (one line each)
    confidence: float = 0.95
    pooled_rule: str = "interval"

    @property
    def verdict(self) -> str:
        return "ship" if self.ship else "do not ship"


def decide(comparisons: Mapping[str, Sequence[float]], confidence: float = 0.95,
           pooled: str = "interval") -> Decision:
    """The gate's decision from each pool member's paired differences (candidate minus incumbent,
    one a deal): ship only if no member's interval lies wholly below 0 and the pooled difference is
    better (its interval wholly above 0; `pooled="point"`: its mean above 0). A table with no deals
    counts as unmeasured, and an unmeasured member fails the gate."""
    if pooled not in POOLED_RULES:
        raise ValueError(f"pooled must be one of {', '.join(POOLED_RULES)}, got {pooled!r}")
    if not comparisons:
        raise ValueError("no pool members to decide on")
    members = {name: paired_interval(list(d), confidence) for name, d in comparisons.items()}
    everything = [x for d in comparisons.values() for x in d]
    pool = paired_interval(everything, confidence)
    pct = f"{confidence:.0%}"
    reasons = []
    for name, iv in members.items():
        if iv.n == 0:
            reasons.append(f"{name}: no deals played")
        elif iv.worse:
            reasons.append(f"{name}: worse beyond noise ({fmt_difference(iv)}, its {pct} interval below 0)")
    if pooled == "interval" and not pool.better:
        reasons.append(f"pooled: not better beyond noise ({fmt_difference(pool)}, its {pct} interval reaches 0)")
    elif pooled == "point" and not pool.mean > 0:
        reasons.append(f"pooled: not better ({fmt_difference(pool)}, its mean not above 0)")
    ship = not reasons
    if ship:
        reasons = [f"no pool member worse beyond noise; pooled {fmt_difference(pool)}"
                   + (f", its {pct} interval above 0" if pooled == "interval" else ", its mean above 0")]
    return Decision(ship, members, pool, reasons, confidence, pooled)


def fmt_difference(iv: Interval) -> str:
    """A paired difference in points of win share: +2.5 (-1.0 .. +6.0) over N deals."""
    if iv.n < 2:
        return f"{100 * iv.mean:+.1f} over {iv.n} deal{'s' if iv.n != 1 else ''}"
    return f"{100 * iv.mean:+.1f} ({100 * iv.lo:+.1f} .. {100 * iv.hi:+.1f}) points over {iv.n} deals"
