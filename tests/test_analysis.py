"""``splendor-ai analyze`` on recorded games, its marks, its chart and its errors; record checks."""
import json
import struct

import pytest

from splendor_ai import analysis, cli
from splendor_ai.records import RecordError, check, load, make_record, replay, save
from splendor_ai.search.arena import run_arena


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A whole base game between greedy and a level-1 search, saved by the arena."""
    result = run_arena("base", 2, ["greedy", "level:1"], 1, seed=4, processes=1, progress=False)
    path = tmp_path_factory.mktemp("records") / "game.json"
    save(result.records[0], path)
    return path


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_analyze_prints_a_row_per_decision_draws_the_chart_and_saves_evaluations(recorded, tmp_path, capsys):
    chart, out = tmp_path / "report.png", tmp_path / "analysed.json"
    assert cli.main(["analyze", str(recorded), "--iterations", "20", "--out", str(chart),
                     "--record-out", str(out)]) == 0
    text = capsys.readouterr().out
    record = load(recorded)
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == len(record["actions"])
    assert [row.split()[2] + " " + row.split()[3] for row in rows[:3]] == record["actions"][:3]
    assert "seat 0:" in text and "seat 1:" in text
    assert png_size(chart) == analysis.CHART_SIZE

    analysed = load(out)
    evals = analysed["evaluations"]
    assert len(evals) == len(record["actions"]) and replay(analysed)[-1].is_terminal()
    states = replay(record)
    for i, e in enumerate(evals):
        assert e["seat"] == states[i].current_player() and e["move"] == record["actions"][i]
        assert abs(sum(e["win_probability"]) - 1) < 0.02 and e["mark"] in ("", "mistake", "blunder")
    assert evals[-1]["after"] == record["returns"]


def test_marks_follow_the_thresholds(monkeypatch):
    record = make_record("base", 2, seed=1, actions=["take wug", "take rku", "take wug"])
    # Win probability of seat 0 by position: 0.5, then 0.38 after its move (a mistake),
    # then unchanged, then 0.05 after its second move (a blunder).
    script = iter([([0.5, 0.5], "take wur"), ([0.38, 0.62], "take rku"), ([0.38, 0.62], "take rku"),
                   ([0.05, 0.95], "take wug")])
    monkeypatch.setattr(analysis, "_evaluate", lambda state, options, i: next(script))
    evals = analysis.analyze(record, analysis.Options(iterations=1, mistake=0.1, blunder=0.25))
    assert [e["mark"] for e in evals] == ["mistake", "", "blunder"]
    assert [e["seat"] for e in evals] == [0, 1, 0]
    assert evals[0]["drop"] == pytest.approx(0.12) and evals[2]["drop"] == pytest.approx(0.33)
    table = analysis.table(evals)
    assert "? mistake" in table and "?? blunder" in table and "(same)" in table


@pytest.mark.parametrize("args, message", [
    (["--mistake", "0.3", "--blunder", "0.2"], "0 < mistake <= blunder <= 1"),
    (["--iterations", "0"], "--iterations must be at least 1"),
])
def test_bad_options_exit_2(recorded, capsys, args, message):
    assert cli.main(["analyze", str(recorded), *args]) == 2
    assert message in capsys.readouterr().err


def test_bad_records_exit_2_naming_the_problem(tmp_path, capsys):
    missing = tmp_path / "missing.json"
    assert cli.main(["analyze", str(missing)]) == 2
    assert "missing.json" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(make_record("base", 2, seed=1, actions=["take wug", "buy 99"])))
    assert cli.main(["analyze", str(bad)]) == 2
    assert "actions[1] 'buy 99'" in capsys.readouterr().err


@pytest.mark.parametrize("change, message", [
    ({"format": "other"}, "not a splendor-ai/record record"),
    ({"version": 2}, "version 2 is not supported"),
    ({"actions": "take wug"}, "'actions' must be a list"),
    ({"evaluations": [None]}, "one entry per action"),
    ({"seats": ["human"]}, "one name per player"),
    ({"seed": None}, "a seed or an initial_position"),
])
def test_check_names_the_bad_field(change, message):
    record = {**make_record("base", 2, seed=1, actions=["take wug", "take rku"]), **change}
    with pytest.raises(RecordError, match=message):
        check(record) if change.get("seed", 1) is not None else replay(record)
