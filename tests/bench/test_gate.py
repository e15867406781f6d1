"""The ship gate (issue 69) with games: the measurement of a net's cost, the tables and their
pairing, the choice of older nets, and the gate end to end at a toy size (a few games of a hundred
or so iterations a move). The arithmetic's own tests: test_gate_rule.py."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from splendor_ai.bench import gate
from splendor_ai.nn import versions
from splendor_ai.bench.gate_rule import equal_time_budgets
from splendor_ai.bench.report import machine_line
from splendor_ai.search.mcts import Config

ROOT = Path(__file__).resolve().parents[2]
NET_384 = ROOT / "splendor_ai" / "nets" / "base-2p.splnn"  # 384x384, shipped for 2 players
NET_256 = ROOT / "training" / "reference" / "base-2p.splnn"  # 256x256, the net it replaced
NET_OLD = ROOT / "training" / "reference" / "base.splnn"  # 256x256, 2-4 players


def test_the_bigger_net_measures_costlier_per_iteration():
    """Measured as the gate measures: CPU time of seeded searches on the game's positions, best of
    three rounds. The 384x384 net costs about 1.5x the 256x256 one per iteration (BENCHMARKS.md:
    0.60-0.67x the iterations a second)."""
    positions = gate.game_positions("base", 2, count=4)
    assert len(positions) == 4 and len({p.to_position()["turn"] for p in positions}) > 1
    costs = gate.measure_costs({"384": Config(evaluator="net", net=str(NET_384)),
                                "256": Config(evaluator="net", net=str(NET_256))}, positions, 1500, rounds=3)
    assert costs["384"] > 1.15 * costs["256"], costs
    budgets = equal_time_budgets(costs, 0.05)
    assert budgets["384"] < budgets["256"]


# --- the tables and their pairing ---------------------------------------------------------------

def test_mixed_tables_are_played_in_every_seat_arrangement():
    seatings = gate.arrangements(3, ["older1", "heuristic"])
    assert len(seatings) == 6 and len(set(seatings)) == 6
    assert Counter(seat for seat, _ in seatings) == {0: 2, 1: 2, 2: 2}
    # the seat after the focal one (the next to move) holds each opponent equally often
    after = Counter(gate.seats_of(3, seat, others)[(seat + 1) % 3] for seat, others in seatings)
    assert after == {"older1": 3, "heuristic": 3}
    assert len(gate.arrangements(4, ["older1", "heuristic", "incumbent"])) == 24
    assert len(gate.arrangements(3, ["incumbent", "incumbent"])) == 3
    assert gate.Table(4, ("older1", "heuristic")).filled() == ["older1", "heuristic", "heuristic"]


def test_the_default_pool_has_pure_and_mixed_tables():
    t3 = gate.default_tables([3], ["older1", "older2"], None)
    assert [t.label for t in t3] == ["incumbent x2", "older1 x2", "older2 x2", "heuristic x2",
                                     "older1 + heuristic", "older2 + heuristic"]
    t4 = gate.default_tables([2, 4], ["older1", "older2"], None)
    assert [t.label for t in t4 if t.players == 2] == ["incumbent", "older1", "older2", "heuristic"]
    assert "older1 + heuristic + incumbent" in [t.label for t in t4 if t.players == 4]


def test_candidate_and_incumbent_play_the_same_deals_in_the_same_seats():
    sides = {k: gate.Side(k, None if k == "heuristic" else f"/nets/{k}.splnn", k)
             for k in ("candidate", "incumbent", "older1", "heuristic")}
    budgets = {3: {"candidate": 700, "incumbent": 900, "older1": 1200, "heuristic": 1000}}
    tables = [gate.Table(3, ("incumbent",)), gate.Table(3, ("older1", "heuristic"))]
    games = gate.plan("base", tables, sides, budgets, deals=12, seed=5)
    assert len(games) == 2 * 12 * 2
    by = {(t, i, who): (seat, task) for t, i, who, seat, task in games}
    seeds = set()
    for t in tables:
        for i in range(12):
            (s1, c), (s2, inc) = by[(t, i, "candidate")], by[(t, i, "incumbent")]
            assert s1 == s2 and c[3] == inc[3]  # same seat, same deal
            assert c[2][s1] == "mcts:iterations=700,evaluator=net,net=/nets/candidate.splnn"
            assert inc[2][s1] == "mcts:iterations=900,evaluator=net,net=/nets/incumbent.splnn"
            assert [x for k, x in enumerate(c[2]) if k != s1] == [x for k, x in enumerate(inc[2]) if k != s1]
            seeds.add(c[3])
    assert len(seeds) == 24  # every table has deals of its own


# --- end to end, at a toy size ------------------------------------------------------------------

def test_the_gate_runs_resumes_and_writes_its_table(tmp_path, capsys):
    records, bench_md, history = tmp_path / "gate", tmp_path / "BENCHMARKS.md", tmp_path / "history.md"
    history.write_text("# Training history: base, players 2\n\nThe run's own table.\n")
    argv = ["--game", "base", "--players", "2", "--candidate", str(NET_384), "--incumbent", str(NET_256),
            "--older", str(NET_OLD), "--deals", "2", "--seconds", "0.001", "--positions", "2", "--rounds", "1",
            "--records", str(records), "--write", str(bench_md), "--history", str(history)]
    assert gate.main(argv) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "## Ship gate at equal time: base, 2 players" in out and "12 games played" in out
    # stderr is no terminal here: no bar, but a line at each tenth of the 12 games (1, 2, 3, 4, 6, ... 10)
    lines = [line for line in captured.err.splitlines() if "games played (" in line]
    assert [line.split(" of ")[0] for line in lines] == [f"gate: {n:,}" for n in (1, 2, 3, 4, 6, 7, 8, 9, 10)]
    assert all("of 12 games played" in line and "complete in every table" in line for line in lines)
    assert "a check that the gate runs, not a measurement" in out
    assert "--positions 2 --rounds 1 --records" in out  # the command as given again reads its records back
    budgets = json.loads((records / "budgets.json").read_text())["budgets"]["2"]
    assert set(budgets) == {"candidate", "incumbent", "older1", "heuristic"}
    assert budgets["candidate"] < budgets["incumbent"]  # the 384x384 net gets fewer iterations
    assert budgets["incumbent"] == budgets["older1"]  # both 256x256 float32: one shared cost
    assert "share their costs' mean" in out
    assert "measured in this run on this machine" in out
    saved = json.loads((records / "budgets.json").read_text())
    assert saved["machine"] == machine_line()  # where they were measured goes with the records
    text = bench_md.read_text()
    assert "<!-- bench:gate-base-2p -->" in text and "Command: `splendor-ai bench gate --game base" in text
    assert "| 2p vs heuristic |" in text and "| **pooled** |" in text and "equal time" in text
    hist = history.read_text()
    assert hist.startswith("# Training history: base, players 2\n\nThe run's own table.\n")
    assert "### Ship gate at equal time" in hist
    summary = json.loads((records / "gate.json").read_text())
    assert len(summary["tables"]) == 3 and isinstance(summary["decision"]["ship"], bool)

    # again: every game read back, the budgets too, the history's section replaced, not doubled
    assert gate.main(argv) == 0
    out = capsys.readouterr().out
    assert "0 games played" in out and "12 read back from records" in out
    # the costs are the records' (perhaps another machine's), and the table says whose
    assert "measured in this run" not in out
    assert f"measured where these records began ({saved['machine']}; read back from their budgets.json)" in out
    assert history.read_text().count("### Ship gate at equal time") == 1
    # records unpacked in another folder (`records.py get NAME DIR`) with the candidate named by
    # another path: the same games, read back (a record names its nets by file, the gate by checksum)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(records, elsewhere)
    shutil.copy(NET_384, tmp_path / "candidate.splnn")
    moved = [*argv[:argv.index("--records")], "--records", str(elsewhere)]
    moved[moved.index(str(NET_384))] = str(tmp_path / "candidate.splnn")
    assert gate.main(moved) == 0
    assert "0 games played" in capsys.readouterr().out
    # but a game whose seat played another net is not this gate's
    one = next((elsewhere / "2p-older1").glob("candidate-*.json"))
    rec = json.loads(one.read_text())
    rec["evaluators"][[e["kind"] for e in rec["evaluators"]].index("net")]["checksum"] = "0" * 16
    one.write_text(json.dumps(rec))
    assert gate.main(moved) == 2
    assert "is not this gate's game" in capsys.readouterr().err
    # another time a move does not mix with these games
    assert gate.main([*argv[:-6], "--seconds", "0.002", "--records", str(records)]) == 2
    assert "holds budgets measured for another gate" in capsys.readouterr().err
    # budgets measured before costs were pooled (no "pooled" in the file) are read back as they
    # are, and the table does not claim the pooling
    saved = json.loads((records / "budgets.json").read_text())
    del saved["pooled"], saved["machine"]
    (records / "budgets.json").write_text(json.dumps(saved))
    assert gate.main(argv) == 0
    out = capsys.readouterr().out
    assert "12 read back from records" in out and "share their costs' mean" not in out
    assert "read back from their budgets.json, which does not name the machine" in out


def test_the_progress_log_says_the_deals_complete_the_time_left_and_the_pooled_difference_so_far():
    tables = [gate.Table(3, ("incumbent",)), gate.Table(3, ("heuristic",))]
    now, lines = [100.0], []
    report = gate.ProgressLog(tables, deals=4, confidence=0.95, log=lines.append, clock=lambda: now[0])
    results = {}
    # deals 0-2 played by both nets at the first table, deals 0-1 at the second; the candidate
    # wins every one of them and the incumbent none: +100 points over 5 deals
    for t, deals in ((tables[0], 3), (tables[1], 2)):
        for i in range(deals):
            results[(t, i, "candidate")], results[(t, i, "incumbent")] = 1.0, 0.0
    results[(tables[1], 2, "candidate")] = 1.0  # the incumbent has not played it yet: not paired
    now[0] = 100.0 + 600
    report(10, 40, results)
    assert lines == []  # 10 is no tenth of 40 (4, 8, 12, ...)
    report(12, 40, results)
    assert lines == ["12 of 40 games played (30%) in 10 min, about 23 min to go; 2 deals complete in every "
                     "table; pooled so far +100.0 (+100.0 .. +100.0) points over 5 deals"]
    report(40, 40, results)  # the end: the table follows, no line
    assert len(lines) == 1
    now[0] = 100.0 + 6 * 3600
    report(36, 40, results)
    assert "in 6.0 h, about 40 min to go" in lines[-1]


def test_the_gate_refuses_a_candidate_that_is_its_incumbent(tmp_path, capsys):
    argv = ["--game", "base", "--players", "2", "--candidate", str(NET_384), "--deals", "1"]
    assert gate.main(argv) == 2
    assert "the candidate is the incumbent" in capsys.readouterr().err


def test_the_gate_takes_the_newest_distinct_older_nets_that_cover_the_players(monkeypatch):
    V = versions.NetVersion

    def v(commit, when, weights, players=(2, 3, 4), path="splendor_ai/nets/base.splnn"):
        return V(commit, "2026-11-01", when, "", path, commit * 2, weights, (256, 256), players, {})

    history = {"base.splnn": [v("e0", 90, "W3", (3, 4)), v("0a", 89, "W3", (3, 4)), v("4d", 80, "W2"),
                              v("f9", 70, "W1"), v("f8", 69, "W1"), v("fc", 60, "W0"),
                              v("c5", 50, "Wx")],
               "base-2p.splnn": [v("d6", 95, "P2", (2,), "splendor_ai/nets/base-2p.splnn"),
                                 v("0c", 85, "P1", (2,), "splendor_ai/nets/base-2p.splnn")]}
    monkeypatch.setattr(gate.versions, "versions", lambda f: history[Path(f).name])
    # 3-4 players, the shipped W3 the incumbent: the two before it, one a weights
    assert gate.default_older("base", [3, 4], {"W3", "C"}, "W3", 2) == ["4d:splendor_ai/nets/base.splnn",
                                                                        "f9:splendor_ai/nets/base.splnn"]
    # a re-gate: W3 the candidate, W2 (the net it replaced) the incumbent; f8 is f9's weights
    # under an older header, so not a net of its own
    assert gate.default_older("base", [3], {"W3", "W2"}, "W2", 2) == ["f9:splendor_ai/nets/base.splnn",
                                                                      "fc:splendor_ai/nets/base.splnn"]
    # 2 players: the per-count file's history and the game net's versions that cover 2 players,
    # in time order; the 3-4 player net (W3) does not cover 2
    assert gate.default_older("base", [2], {"P2", "C"}, "P2", 3) == ["0c:splendor_ai/nets/base-2p.splnn",
                                                                     "4d:splendor_ai/nets/base.splnn",
                                                                     "f9:splendor_ai/nets/base.splnn"]
    # an incumbent history lacks: the newest ones, the candidate's weights left out
    assert gate.default_older("base", [3], {"W2", "N"}, "N", 2)[0] == "e0:splendor_ai/nets/base.splnn"
