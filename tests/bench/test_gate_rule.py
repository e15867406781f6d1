"""The ship gate's arithmetic (splendor_ai/bench/gate_rule.py, issue 69): equal-time budgets, the
paired interval and the decision rule, on small synthetic tables (no games)."""
from __future__ import annotations

import math

import pytest

from splendor_ai.bench.gate_rule import decide, equal_time_budgets, paired_interval, pool_costs, t_quantile


# --- equal time ---------------------------------------------------------------------------------

def test_a_net_twice_as_costly_gets_half_the_iterations():
    budgets = equal_time_budgets({"cheap": 5e-6, "costly": 1e-5, "heuristic": 4e-6}, 0.05)
    assert budgets == {"cheap": 10_000, "costly": 5_000, "heuristic": 12_500}
    assert budgets["cheap"] == 2 * budgets["costly"]
    # in general: the budgets in the inverse ratio of the costs, each spending the same time
    costs = {"a": 3.7e-6, "b": 6.1e-6}
    b = equal_time_budgets(costs, 0.2)
    assert b["a"] / b["b"] == pytest.approx(costs["b"] / costs["a"], rel=1e-3)
    assert b["a"] * costs["a"] == pytest.approx(0.2, rel=1e-3) and b["b"] * costs["b"] == pytest.approx(0.2, rel=1e-3)


def test_sides_of_one_shape_share_their_costs_mean_and_so_their_budget():
    measured = {"candidate": 10e-6, "incumbent": 11.5e-6, "older1": 6e-6, "older2": 7e-6, "heuristic": 8e-6}
    classes = {"candidate": ((256, 256), "float32"), "incumbent": ((256, 256), "float32"),
               "older1": ((128, 128), "float32"), "older2": ((128, 128), "int8")}
    costs = pool_costs(measured, classes)
    assert costs["candidate"] == costs["incumbent"] == pytest.approx(10.75e-6)
    assert costs["older1"] == 6e-6 and costs["older2"] == 7e-6  # another precision: a class of its own
    assert costs["heuristic"] == 8e-6  # in no class: its own measurement
    budgets = equal_time_budgets(costs, 0.05)
    assert budgets["candidate"] == budgets["incumbent"] == round(0.05 / 10.75e-6)
    assert pool_costs(measured, {}) == measured


def test_budgets_refuse_nonsense_and_never_go_below_one_iteration():
    assert equal_time_budgets({"slow": 1.0}, 0.01) == {"slow": 1}
    for costs, seconds in (({"x": 0.0}, 0.1), ({"x": -1e-6}, 0.1), ({"x": math.nan}, 0.1), ({"x": 1e-6}, 0.0)):
        with pytest.raises(ValueError):
            equal_time_budgets(costs, seconds)


# --- the interval -------------------------------------------------------------------------------

@pytest.mark.parametrize("df, expected", [(1, 12.7062), (2, 4.3027), (3, 3.1824), (10, 2.2281), (30, 2.0423),
                                          (199, 1.9720)])
def test_t_quantiles_are_the_tabled_ones(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=1e-4)


def test_paired_interval_is_the_t_interval_of_the_mean_difference():
    diffs = [1, 0, 0, -1, 1, 1, 0, 0, 1, 0]
    iv = paired_interval(diffs)
    mean = sum(diffs) / 10
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 9)
    half = 2.2622 * sd / math.sqrt(10)
    assert iv.n == 10 and iv.mean == pytest.approx(0.3)
    assert (iv.lo, iv.hi) == (pytest.approx(mean - half, abs=1e-4), pytest.approx(mean + half, abs=1e-4))
    assert paired_interval([1.0]).lo == -math.inf and paired_interval([]).n == 0
    assert paired_interval([1, -1, 1]).lo >= -1 and paired_interval([1, -1, 1]).hi <= 1  # cut at the bounds


# --- the decision rule --------------------------------------------------------------------------

def table(wins: int, losses: int, n: int) -> list[float]:
    """n paired differences: `wins` deals the candidate won where the incumbent lost (+1), `losses`
    the other way round (-1), the rest alike (0)."""
    return [1.0] * wins + [-1.0] * losses + [0.0] * (n - wins - losses)


def test_a_candidate_worse_against_one_member_fails_even_when_better_overall():
    tables = {"vs incumbent": table(90, 30, 200), "vs older1": table(90, 30, 200),
              "vs heuristic": table(30, 70, 200)}  # -20 points against the heuristic search
    d = decide(tables)
    assert d.pooled.better, "it is better overall, beyond noise"
    assert d.members["vs heuristic"].worse and not d.ship
    assert d.reasons == [r for r in d.reasons if r.startswith("vs heuristic: worse beyond noise")]


def test_a_candidate_better_overall_and_within_noise_everywhere_passes():
    tables = {"vs incumbent": table(60, 30, 200), "vs older1": table(55, 35, 200),
              "vs heuristic": table(40, 45, 200)}  # -2.5 points there: within noise
    d = decide(tables)
    assert not d.members["vs heuristic"].worse and d.members["vs heuristic"].mean < 0
    assert d.pooled.better and d.ship and d.verdict == "ship"


def test_a_candidate_not_better_overall_fails():
    d = decide({"vs incumbent": table(42, 40, 200), "vs older1": table(38, 40, 200),
                "vs heuristic": table(41, 40, 200)})
    assert not any(iv.worse for iv in d.members.values())
    assert not d.ship and d.reasons[0].startswith("pooled: not better beyond noise")
    # with the point rule a mean just above 0 would do; this one is above 0 by a hair
    assert decide({"a": table(42, 40, 200), "b": table(41, 40, 200)}, pooled="point").ship
    assert not decide({"a": table(40, 42, 200), "b": table(40, 40, 200)}, pooled="point").ship


def test_a_member_with_no_deals_fails_the_gate():
    d = decide({"vs incumbent": table(90, 10, 200), "vs older1": []})
    assert not d.ship and "vs older1: no deals played" in d.reasons
