"""The estimated level (splendor_ai/analysis/estimate.py): the model on synthetic decisions, the
shipped fit (levels.json), and its place in the analysis (seat summary, terminal, batch CSV)."""
import csv
import json
import random

import pytest

from splendor_ai import analysis
from splendor_ai.analysis import batch
from splendor_ai.analysis import estimate as E
from splendor_ai.records import save
from splendor_ai.search.arena import run_arena
from splendor_ai.search.mcts import Config, evaluator_info

DROPS = [-0.005, 0.005, 0.01, 0.02, 0.04, 0.07, 0.12, 0.25]
CELLS = E.cells(DROPS)
LEVELS = list(range(1, 11))
ELO = {n: 250.0 * (n - 1) for n in LEVELS}
# A signed drop inside each cell (cell 0: the engine's move).
CELL_DROP = [0.0, -0.02, 0.0, 0.008, 0.015, 0.03, 0.05, 0.09, 0.18, 0.4]


def synthetic_shares(level: int) -> list[float]:
    """Level n plays the engine's move more often and gives away less the higher n is."""
    agree = 0.1 + 0.07 * level
    decay = 0.9 - 0.05 * level  # the higher, the faster the shares of bigger drops fall
    rest = [decay ** k for k in range(CELLS - 1)]
    total = sum(rest)
    return [agree] + [(1 - agree) * r / total for r in rest]


def synthetic_fit(path, temper=1.0, iterations=2000, players=2):
    entry = {"game": "base", "players": players, "levels": LEVELS,
             "shares": [synthetic_shares(n) for n in LEVELS], "temper": temper,
             "elo": {str(n): ELO[n] for n in LEVELS}}
    E._renormalise(entry)
    path.write_text(json.dumps({"format": E.FORMAT, "version": 1, "iterations": iterations, "drops": DROPS,
                                "fits": [entry]}))
    return str(path)


def decision(cell: int, seat: int = 0, forced: bool = False) -> dict:
    signed = CELL_DROP[cell]
    return {"seat": seat, "move": "a" if cell == 0 else "b", "best": "a", "best_value": 0.5,
            "value": 0.5 - signed, "drop": max(0.0, signed), "forced": forced, "mark": ""}


def draw(level: int, n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    cells = rng.choices(range(CELLS), weights=synthetic_shares(level), k=n)
    return [decision(c) for c in cells]


@pytest.fixture
def fit_path(tmp_path):
    E.load.cache_clear()
    E.fit_for.cache_clear()
    yield synthetic_fit(tmp_path / "levels.json")
    E.load.cache_clear()
    E.fit_for.cache_clear()


def test_the_cells_tell_the_engines_move_a_better_one_and_the_drops_apart():
    assert E.cell_of(decision(0), DROPS) == 0
    assert [E.cell_of(decision(c), DROPS) for c in range(1, CELLS)] == list(range(1, CELLS))
    # a move the engine valued higher than its own choice (a clipped drop of 0) is not a small drop
    assert E.cell_of({"move": "b", "best": "a", "best_value": 0.5, "value": 0.52, "drop": 0.0}, DROPS) == 1
    assert E.cell_of({"move": "b", "best": "a", "best_value": 0.5, "value": 0.5, "drop": 0.0}, DROPS) == 2


@pytest.mark.parametrize("level", [2, 5, 8])
def test_a_seat_that_plays_like_a_level_is_estimated_near_it(fit_path, level):
    est = E.estimate(draw(level, 200, seed=level), "base", 2, 2000, fit_path)
    assert abs(est["level"] - level) < 1.0
    assert est["decisions"] == 200 and est["off_budget"] is False and est["calibrated_iterations"] == 2000


def test_the_interval_covers_four_seats_in_five_when_the_model_is_right(fit_path):
    rng = random.Random(11)
    hits = 0
    for k in range(200):
        level = rng.randint(1, 10)
        est = E.estimate(draw(level, 40, seed=k), "base", 2, 2000, fit_path)
        hits += est["level_low"] <= level <= est["level_high"]
    assert 0.72 <= hits / 200 <= 0.9


def test_a_stronger_seat_gets_a_higher_estimate_and_elo(fit_path):
    ests = [E.estimate(draw(n, 80, seed=1), "base", 2, 2000, fit_path) for n in (2, 4, 6, 8)]
    assert [e["level"] for e in ests] == sorted(e["level"] for e in ests)
    assert ests[0]["level"] < ests[-1]["level"] - 3
    assert [e["elo"] for e in ests] == sorted(e["elo"] for e in ests)


def test_the_ends_of_the_range_are_reached_and_nothing_is_reported_beyond_them(fit_path):
    """The grid runs BEYOND past the calibrated levels (a seat may play worse than level 1 or
    better than level 10), so the seats of the ends are not pulled inward; what is reported stays
    within the calibrated range."""
    fit = E.fit_for("base", 2, fit_path)
    assert fit.grid[0][0] == pytest.approx(1 - E.BEYOND) and fit.grid[-1][0] == pytest.approx(10 + E.BEYOND)
    for level, end in ((1, "level_low"), (10, "level_high")):
        ests = [E.estimate(draw(level, 40, seed=k), "base", 2, 2000, fit_path) for k in range(40)]
        assert all(1 <= e["level_low"] <= e["level"] <= e["level_high"] <= 10 for e in ests)
        assert sum(e["level_low"] <= level <= e["level_high"] for e in ests) >= 32  # 80 %, as in the middle
        assert sum(e[end] == level for e in ests) >= 20  # the interval runs to the end of the range
        assert abs(sum(e["level"] for e in ests) / len(ests) - level) < 1.0
    extreme = [decision(9)] * 40  # every decision a blunder: weaker than level 1's shares say
    est = E.estimate(extreme, "base", 2, 2000, fit_path)
    assert est["level"] == est["level_low"] == 1 and est["elo"] == 0


def test_few_decisions_give_a_wider_interval(fit_path):
    many = E.estimate(draw(5, 120, seed=3), "base", 2, 2000, fit_path)
    few = E.estimate(draw(5, 120, seed=3)[:8], "base", 2, 2000, fit_path)
    one = E.estimate(draw(5, 1, seed=3), "base", 2, 2000, fit_path)
    assert one["level_high"] - one["level_low"] > few["level_high"] - few["level_low"] > \
        many["level_high"] - many["level_low"]


def test_the_temper_widens_the_interval(tmp_path):
    sharp = E.Fit(json.loads(open(synthetic_fit(tmp_path / "a.json")).read())["fits"][0], DROPS, 2000)
    counts = E.cell_counts(draw(5, 60, seed=4), DROPS)
    _, lo1, hi1 = sharp.estimate(counts, temper=1)
    _, lo4, hi4 = sharp.estimate(counts, temper=4)
    assert hi4 - lo4 > hi1 - lo1


def test_forced_decisions_are_not_counted(fit_path):
    mine = draw(6, 50, seed=5)
    forced = [dict(decision(CELLS - 1), forced=True) for _ in range(30)]  # would be big drops, were they counted
    assert E.estimate(mine + forced, "base", 2, 2000, fit_path) == E.estimate(mine, "base", 2, 2000, fit_path)
    assert E.estimate(forced, "base", 2, 2000, fit_path) is None
    assert E.seat_figures(forced, "base", 2, 2000) == {"loss_per_decision": None, "estimate": None}


@pytest.mark.parametrize("seed", range(6))
def test_the_interval_holds_the_estimate_and_the_elo_follows_the_level(fit_path, seed):
    rng = random.Random(seed)
    est = E.estimate(draw(rng.randint(1, 10), rng.choice([1, 5, 30, 100]), seed), "base", 2, 2000, fit_path)
    assert 1 <= est["level_low"] <= est["level"] <= est["level_high"] <= 10
    assert est["elo_low"] <= est["elo"] <= est["elo_high"]
    assert abs(est["elo"] - 250 * (est["level"] - 1)) <= 2


def test_another_budget_is_flagged_and_no_fit_gives_no_estimate(fit_path):
    est = E.estimate(draw(5, 30), "base", 2, 500, fit_path)
    assert est["off_budget"] is True and est["calibrated_iterations"] == 2000
    assert "rough at this budget" in E.describe(est)
    assert E.estimate(draw(5, 30), "duel", 2, 2000, fit_path) is None  # no fit for that game
    assert E.estimate(draw(5, 30), "base", 3, 2000, fit_path) is None  # nor that player count
    assert E.estimate(draw(5, 30), None, 2, 2000, fit_path) is None
    assert E.estimate([], "base", 2, 2000, fit_path) is None


def test_the_elo_is_the_ladders_between_levels(tmp_path):
    fit = E.Fit(json.loads(open(synthetic_fit(tmp_path / "a.json")).read())["fits"][0], DROPS, 2000)
    assert fit.elo_at(1) == 0 and fit.elo_at(10) == 2250 and fit.elo_at(4.5) == 875
    assert fit.elo_at(0.5) == 0 and fit.elo_at(11) == 2250


def test_a_fit_is_made_from_counts_with_a_temper_that_covers():
    rng = random.Random(7)
    counts = {}
    for n in (1, 4, 7):
        counts[n] = [E.cell_counts([decision(c) for c in rng.choices(range(CELLS), synthetic_shares(n), k=30)],
                                   DROPS) for _ in range(8)]
    entry = E.make_entry("base", 2, counts, {1: 0, 4: 900, 7: 1800}, DROPS, 2000)
    assert entry["levels"] == [1, 4, 7] and entry["seat_games"] == {"1": 8, "4": 8, "7": 8}
    assert all(abs(sum(s) - 1) < 1e-9 and min(s) > 0 for s in entry["shares"])
    assert entry["temper_coverage"][str(entry["temper"])] >= E.CREDIBLE
    fit = E.Fit(entry, DROPS, 2000)  # a valid fit
    assert fit.estimate(counts[7][0])[0] > fit.estimate(counts[1][0])[0]


def test_a_bad_fit_is_refused():
    entry = {"game": "base", "players": 2, "levels": [1, 2], "shares": [[0.5, 0.5], [0.5, 0.5]], "temper": 1,
             "elo": {"1": 0, "2": 100}}
    with pytest.raises(ValueError, match="one per cell"):
        E.Fit(entry, DROPS, 2000)
    with pytest.raises(ValueError, match="increasing"):
        E.Fit({**entry, "levels": [2, 1]}, DROPS, 2000)


# ------------------------------------------------------------------------------ the shipped fit
CONFIGS = [("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 3), ("marvel", 4)]


def shipped() -> dict:
    E.load.cache_clear()
    return json.loads(E.FIT_FILE.read_text())


def test_the_shipped_fit_covers_every_game_and_player_count():
    data = shipped()
    assert data["format"] == E.FORMAT and data["iterations"] == analysis.Options().iterations
    assert data["analysis"] == analysis.Options(iterations=data["iterations"]).to_dict()
    assert sorted((f["game"], f["players"]) for f in data["fits"]) == sorted(CONFIGS)
    for entry in data["fits"]:
        fit = E.fit_for(entry["game"], entry["players"])
        assert fit is not None and fit.levels[0] == 1 and len(fit.levels) >= 9 and fit.temper >= 1
        assert set(entry["seat_games"]) == {str(n) for n in fit.levels} and min(entry["seat_games"].values()) > 0
        assert all(entry["decisions"][str(n)] > 100 for n in fit.levels)
        assert entry["games"] == sum(last - first for first, last in (m["games"] for m in entry["matches"])) > 0
        assert all(m["command"].startswith("splendor-ai selfplay") for m in entry["matches"])
        assert entry["elo"]["1"] == 0 and sorted(entry["elo"].values()) == [entry["elo"][str(n)] for n in fit.levels]


def test_the_shipped_fit_names_the_nets_that_judged_its_games():
    """A fit holds for the net that analysed its games: a new shipped net needs a new calibration
    (splendor-ai bench estimate --calibrate), and this test says so."""
    for entry in shipped()["fits"]:
        judge = evaluator_info(Config(), entry["game"], entry["players"])
        assert entry["net"] == {"kind": judge.kind, "net": judge.net, "checksum": judge.checksum}, \
            f"{entry['game']}-{entry['players']}p was calibrated with another net: recalibrate"
        assert len(entry["net"]["checksum"]) == 16
        for e in entry["levels_evaluated_with"]:
            assert e["kind"] == "heuristic" or (e["net"], e["checksum"]) == (judge.net, judge.checksum)


def test_the_shipped_fit_estimates_its_own_levels_in_order():
    """Each calibrated level's own shares, as a long game's decisions, come out near that level."""
    for entry in shipped()["fits"]:
        fit = E.fit_for(entry["game"], entry["players"])
        ests = [fit.estimate([round(400 * p) for p in shares])[0] for shares in fit.shares]
        assert all(abs(e - n) <= 1.0 for e, n in zip(ests, fit.levels)), (entry["game"], entry["players"], ests)


# ------------------------------------------------------------------------------ in the analysis
@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("estimate")
    record = run_arena("base", 2, ["greedy", "level:1"], 1, seed=8, processes=1, progress=False).records[0]
    save(record, folder / "game.json")
    return folder, record


def test_the_seat_summary_carries_the_estimate(game):
    _, record = game
    report = analysis.analyze(record, analysis.Options(iterations=30))
    for s in report["summary"]:
        est = s["estimate"]
        assert est["decisions"] == s["decisions"] > 0 and est["off_budget"] is True  # 30 iterations, not 2000
        assert est["level_low"] <= est["level"] <= est["level_high"] and est["elo_low"] <= est["elo"] <= est["elo_high"]
        assert s["loss_per_decision"] == pytest.approx(100 * s["mean_drop"], abs=0.01)
    text = analysis.summary(report)
    assert text.count("plays like level ") == 2 and "Elo (" in text and "rough at this budget" in text
    assert "% of a win a decision" in text and "accuracy" not in text
    old = {**report, "summary": [{k: v for k, v in s.items() if k not in ("estimate", "loss_per_decision")}
                                 for s in report["summary"]]}
    assert "plays like" not in analysis.summary(old) and "% of a win a decision" in analysis.summary(old)


def test_the_batch_summary_has_the_estimate_columns(game, tmp_path):
    folder, _ = game
    assert batch.run([str(folder)], tmp_path, analysis.Options(iterations=30), workers=1).ok
    with open(tmp_path / batch.SUMMARY, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and set(batch.ESTIMATE_COLUMNS) <= set(rows[0])
    report = json.loads((tmp_path / "game.json").read_text())
    assert report["version"] == analysis.VERSION == 4
    for row, s in zip(rows, report["summary"]):
        assert float(row["estimated_level"]) == s["estimate"]["level"]
        assert float(row["estimated_level_low"]) <= float(row["estimated_level"]) <= float(row["estimated_level_high"])
        assert int(row["estimated_elo"]) == s["estimate"]["elo"] and row["estimate_off_budget"] == "1"
        assert float(row["loss_per_decision"]) == s["loss_per_decision"]
    old = {"record": "r", "path": "p", "game": "base", "players": 1, "seats": None, "returns": None,
           "options": {"iterations": 10}, "summary": [{"seat": 0, "decisions": 0, "forced": 0, "accuracy": None,
                                                         "mistakes": 0, "blunders": 0, "mean_drop": None, "agreed": 0}]}
    assert {batch.summary_rows(old)[0][c] for c in batch.ESTIMATE_COLUMNS} == {""}  # a report before version 4
