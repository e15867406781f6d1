"""``splendor-ai bench reasons`` runs at a tiny size, prints its figures and writes its section
of BENCHMARKS.md only when asked."""
from __future__ import annotations

from splendor_ai.bench import main as bench_main

ARGS = ["reasons", "--games", "1", "--positions", "30", "--mistakes", "2", "--games-list", "base"]


def test_the_bench_prints_its_figures_and_writes_only_when_asked(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert bench_main(ARGS) == 0
    out = capsys.readouterr().out
    assert "## Reasons: codes fired, truth, reasons that explain, cost" in out
    assert "| base |" in out and "`TOWARD_CARD`" in out and "Cost of a hint (d)" in out
    row = next(line for line in out.splitlines() if line.startswith("| base |"))
    assert row.split("|")[5].strip() == "0", "no false reason"
    assert not (tmp_path / "BENCHMARKS.md").exists()
    assert bench_main(ARGS + ["--write", str(tmp_path / "B.md")]) == 0
    text = (tmp_path / "B.md").read_text()
    assert "<!-- bench:reasons -->" in text and "--games-list base" in text
