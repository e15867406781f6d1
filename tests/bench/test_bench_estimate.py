"""``splendor-ai bench estimate``: the calibration's matches, and a calibration and its evaluation
end to end on a tiny match (the real one is hours of CPU: never in tests)."""
import json
from collections import Counter

import pytest

from splendor_ai.bench import estimate as bench


def test_the_two_player_matches_are_the_ladders_own():
    """Named and seeded as ``splendor-ai bench levels`` saves them, so its records are read back."""
    for game in ("base", "duel", "marvel"):
        ms = bench.matches(game, 2)
        assert [(m.name, m.levels, m.seed) for m in ms] == [
            (f"{game}-L{n}-vs-L{n - 1}", (n, n - 1), 100 + n) for n in range(2, 11)]


@pytest.mark.parametrize("players", [3, 4])
def test_every_level_plays_as_often_against_several_opponents(players):
    ms = bench.matches("marvel", players)
    seats = Counter(n for m in ms for n in m.levels)
    assert set(seats) == set(range(1, 10)) and set(seats.values()) == {players}
    assert all(len(set(m.levels)) == players for m in ms) and len({m.seed for m in ms}) == len(ms)
    for n in range(1, 10):
        opponents = {o for m in ms if n in m.levels for o in m.levels if o != n}
        assert any(o < n for o in opponents) or n == 1
        assert len(opponents) >= 4


def test_the_calibration_and_the_evaluation_use_other_games():
    for players, (cal, ev) in bench.GAMES.items():
        assert cal > 0 and ev > 0
    entry = {"matches": [{"match": "m", "games": [0, 4]}]}
    bench.held_out(entry, {"matches": [{"match": "m", "games": [4, 6]}]})
    with pytest.raises(SystemExit, match="used by the fit"):
        bench.held_out(entry, {"matches": [{"match": "m", "games": [3, 6]}]})


def test_configs_are_checked():
    assert bench.parse_configs("base-3p,duel-2p") == [("base", 3), ("duel", 2)]
    with pytest.raises(SystemExit, match="not one of"):
        bench.parse_configs("duel-3p")


def test_a_tiny_calibration_then_its_evaluation(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench, "GAMES", {2: (3, 2)})
    monkeypatch.setattr(bench, "matches", lambda game, players: [bench.Match("base-L2-vs-L1", "base", 2, (2, 1), 102)])
    records, fit = tmp_path / "records", tmp_path / "levels.json"
    argv = ["--records", str(records), "--configs", "base-2p", "--fit", str(fit), "--iterations", "20",
            "--processes", "1"]
    assert bench.main(["--calibrate", *argv]) == 0
    data = json.loads(fit.read_text())
    (entry,) = data["fits"]
    assert data["iterations"] == 20 and entry["levels"] == [1, 2] and entry["games"] == 3
    assert entry["matches"][0]["games"] == [0, 3] and entry["seat_games"] == {"1": 3, "2": 3}
    assert entry["net"]["net"] == "base-2p.splnn" and len(entry["net"]["checksum"]) == 16
    kept = sorted(p.name for p in (records / "base-L2-vs-L1").glob("*.json"))
    assert kept == [f"game-{i:05d}.json" for i in range(3)]
    capsys.readouterr()
    out = tmp_path / "BENCHMARKS.md"
    assert bench.main([*argv[:-4], "--processes", "1", "--write", str(out)]) == 0
    text = capsys.readouterr().out
    assert "games 3-4" in text and "| base | 2 | 1-2 |" in text
    assert "<!-- bench:analysis-estimate -->" in out.read_text()
    assert len(list((records / "base-L2-vs-L1").glob("*.json"))) == 5  # the two evaluation games added
