"""The benches of issue 50: 'bench search' names the evaluator of every row it measures (its rows
labelled rollouts once timed the learned net), and 'bench analysis --levels' reports accuracy
by level. Small budgets: these check what is measured and how it is labelled, never a speed."""
import math

import pytest

from splendor_ai.analysis import Options
from splendor_ai.bench import analysis as bench_analysis
from splendor_ai.bench import search as bench_search
from splendor_ai.games import load_game


def test_bench_search_measures_each_evaluator_under_its_own_label(tmp_path, capsys):
    out = tmp_path / "BENCHMARKS.md"
    assert bench_search.main(["--iterations", "1000", "--write", str(out)]) == 0
    text = out.read_text()
    rows = dict(line.strip("|").split(" | ", 1) for line in text.splitlines() if line.startswith("| heuristic:")
                or line.startswith("| net"))
    rows = {k.strip(): v.strip(" |") for k, v in rows.items()}
    assert "heuristic: iterations/s, 1 thread, rollouts cut at 20 actions" in rows
    assert "net: iterations/s, 1 thread" in rows and "net / heuristic iterations/s, 1 thread" in rows
    assert "net base-2p.splnn (" in text  # the net that was timed, by name and checksum

    def bytes_per_node(row):
        return int(rows[row].split("(")[1].split(" bytes a node")[0])

    # The net keeps an 8-byte edge per legal action of every node it evaluates: its tree is the bigger.
    assert bytes_per_node("net: tree memory per 100,000 iterations") > \
        2 * bytes_per_node("heuristic: tree memory per 100,000 iterations")


def test_bench_search_refuses_a_search_run_by_the_wrong_evaluator(monkeypatch):
    """measure() checks what each search reports it evaluated with: a heuristic row timed with
    the net (the old bug: no evaluator set, the default searched with the net) fails."""
    real = bench_search.search

    def net_always(state, limits, config):
        from dataclasses import replace
        return real(state, limits, replace(config, evaluator="net"))

    monkeypatch.setattr(bench_search, "search", net_always)
    with pytest.raises(RuntimeError, match="a heuristic row was searched with net base-2p.splnn"):
        bench_search.measure(load_game("base", 2).new_initial_state(1), 1000)


def test_lichess_curve_is_the_published_one():
    assert bench_analysis.lichess(0.0) == pytest.approx(1.0, abs=1e-4)
    assert bench_analysis.lichess(0.01) == pytest.approx((103.1668 * math.exp(-0.04354) - 3.1669) / 100)
    assert bench_analysis.lichess(1.0) == 0.0


def test_accuracy_by_level_gives_a_row_per_seat_game(monkeypatch):
    monkeypatch.setattr(bench_analysis, "LEVEL_MATCHES", {"duel": (2, [(1, 4)], 2)})
    rows = bench_analysis.accuracy_by_level("duel", Options(iterations=20))
    assert set(rows) == {1, 4, 7} and rows[7] == []
    assert len(rows[1]) == len(rows[4]) == 2  # each level held a seat in both games
    for row in rows[1] + rows[4]:
        assert row["accuracy"] == pytest.approx(math.exp(-row["given_away"]), abs=1e-3)
        assert 0 <= row["old"] <= 1 and 0 <= row["per_move"] <= 1 and isinstance(row["won"], bool)
    assert sum(r["won"] for r in rows[1] + rows[4]) <= 2


def test_bench_scaling_compares_budgets_with_a_reference_and_the_reference_with_itself(tmp_path, capsys):
    """'bench scaling' (issue 51: where more search stops paying): a row per budget and one for
    the reference against itself, each with its agreement and regret; seeded, so that the same
    command gives the same table."""
    from splendor_ai.bench import scaling

    out = tmp_path / "BENCHMARKS.md"
    argv = ["--positions", "3", "--budgets", "50,200,200x2", "--reference", "800", "--write", str(out)]
    assert scaling.main(argv) == 0
    rows = [line for line in out.read_text().splitlines() if line.startswith("| ") and "iterations" in line]
    assert [r.split(" | ")[0] for r in rows] == ["| 50 iterations", "| 200 iterations", "| 200 iterations over 2 trees",
                                                 "| 800 iterations, another seed"]
    for r in rows:
        agree, mean, worst = (c.strip() for c in r.strip("| ").split(" | ")[1:])
        assert agree.endswith("of 3)") and 0 <= float(mean.rstrip("%")) <= float(worst.rstrip("%")) <= 100
    first = rows
    assert scaling.main(argv) == 0
    assert [line for line in out.read_text().splitlines() if line.startswith("| ") and "iterations" in line] == first
    with pytest.raises(SystemExit):
        scaling.main(["--budgets", "5000", "--reference", "1000"])
    with pytest.raises(SystemExit):
        scaling.main(["--budgets", "20x40"])


def test_bench_learned_precision_puts_float32_and_int8_side_by_side_for_every_kernel(tmp_path, monkeypatch, capsys):
    """'bench learned precision' (issue 51, a faster net): a row per position and kernel this CPU
    runs, the int8 copy's eval time and iterations/s beside the float net's, with their ratios."""
    from splendor_ai._core import nn as core_nn
    from splendor_ai.bench import learned

    monkeypatch.chdir(tmp_path)
    assert learned.main(["precision", "--game", "duel", "--rounds", "1", "--iterations", "200", "--write"]) == 0
    rows = [ln for ln in (tmp_path / "BENCHMARKS.md").read_text().splitlines()
            if ln.startswith("| opening") or ln.startswith("| mid-game")]
    kernels = [k for k, ok in core_nn.kernels() if ok]
    assert [r.split(" | ")[1] for r in rows] == kernels * 2
    for r in rows:
        f_us, q_us, ratio, f_ips, q_ips, ips_ratio = (c.strip() for c in r.strip("| ").split(" | ")[2:])
        assert math.isclose(float(q_us) / float(f_us), float(ratio), abs_tol=0.011)
        assert float(f_ips.replace(",", "")) > 0 and float(q_ips.replace(",", "")) > 0
    # An int8 copy is what --int8 must be; a float file there is refused, naming the flag.
    from splendor_ai import nn

    assert learned.main(["precision", "--game", "duel", "--int8", str(nn.shipped_path("duel")), "--rounds", "1"]) == 2
    assert "--int8" in capsys.readouterr().err
