"""``splendor-ai analyze RECORDS... --out-dir DIR``: many records in parallel, a report per
game, the summary table, resuming, bad records skipped, and the same run on a local Ray."""
import csv
import io
import json
import shutil

import pytest

from splendor_ai import cli
from splendor_ai.analysis import Options, batch
from splendor_ai.records import make_record, save
from splendor_ai.search.arena import run_arena

OPTIONS = Options(iterations=40, seed=5)
FLAGS = ["--iterations", "40", "--seed", "5"]


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """Three short greedy games in a folder."""
    folder = tmp_path_factory.mktemp("season")
    result = run_arena("base", 2, ["greedy"], 3, seed=11, processes=1, progress=False)
    for i, record in enumerate(result.records):
        save(record, folder / f"game-{i}.json")
    return folder


def reports(out_dir):
    return {p.name: json.loads(p.read_text()) for p in sorted(out_dir.glob("*.json"))}


def summary(out_dir):
    with open(out_dir / "summary.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_a_folder_and_a_glob_give_a_report_per_game_and_a_summary_row_per_seat(season, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["analyze", str(season), str(season / "game-*.json"), "--out-dir", str(out), "--workers", "1",
                     *FLAGS]) == 0
    assert "3 games analysed" in capsys.readouterr().out
    got = reports(out)
    assert set(got) == {"game-0.json", "game-1.json", "game-2.json"}
    for name, report in got.items():
        record = json.loads((season / name).read_text())
        assert report["record"] == name[:-5] and report["format"] == "splendor-ai/analysis"
        assert len(report["decisions"]) == len(record["actions"]) and report["returns"] == record["returns"]
        assert report["options"] == OPTIONS.to_dict()
    rows = summary(out)
    assert [(r["record"], r["seat"]) for r in rows] == [(f"game-{i}", s) for i in range(3) for s in "01"]
    first = got["game-0.json"]["summary"][1]
    assert rows[1]["accuracy"] == str(first["accuracy"]) and rows[1]["mistakes"] == str(first["mistakes"])
    assert rows[1]["result"] == str(got["game-0.json"]["returns"][1]) and rows[1]["player"] == "greedy"


def test_two_workers_give_the_same_reports_as_one(season, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    batch.run([str(season)], one, OPTIONS, workers=1)
    outcome = batch.run([str(season)], two, OPTIONS, workers=2)
    assert sorted(outcome.analysed) == ["game-0", "game-1", "game-2"] and outcome.ok
    assert reports(one) == reports(two)
    assert (one / "summary.csv").read_text() == (two / "summary.csv").read_text()


def test_bad_records_are_named_and_skipped_and_the_run_goes_on(season, tmp_path, capsys):
    folder = tmp_path / "mixed"
    shutil.copytree(season, folder)
    (folder / "broken.json").write_text("{ not json")
    save(make_record("base", 2, seed=1, actions=["take wug", "buy 99"]), folder / "illegal.json")
    (folder / "other.json").write_text(json.dumps({"format": "something else"}))
    out = tmp_path / "out"
    assert cli.main(["analyze", str(folder), str(tmp_path / "missing.json"), str(tmp_path / "none-*.json"),
                     "--out-dir", str(out), "--workers", "2", *FLAGS]) == 1
    captured = capsys.readouterr()
    err = captured.err
    assert "skipped " + str(folder / "broken.json") + ": not JSON" in err
    assert "skipped " + str(folder / "illegal.json") + ": actions[1] 'buy 99'" in err
    assert "skipped " + str(folder / "other.json") + ": not a splendor-ai/record record" in err
    assert "skipped " + str(tmp_path / "missing.json") in err
    assert "skipped " + str(tmp_path / "none-*.json") + ": no file matches" in err
    assert "3 games analysed" in captured.out and "5 skipped" in captured.out
    assert set(reports(out)) == {"game-0.json", "game-1.json", "game-2.json"}
    assert len(summary(out)) == 6


def test_a_second_run_resumes_and_redoes_only_what_changed(season, tmp_path):
    folder = tmp_path / "records"
    shutil.copytree(season, folder)
    out = tmp_path / "out"
    first = batch.run([str(folder)], out, OPTIONS, workers=1)
    assert len(first.analysed) == 3
    before = reports(out)
    again = batch.run([str(folder)], out, OPTIONS, workers=1)
    assert again.analysed == [] and sorted(again.resumed) == ["game-0", "game-1", "game-2"]
    assert reports(out) == before and len(summary(out)) == 6
    record = json.loads((folder / "game-1.json").read_text())
    record["actions"] = record["actions"][:10]  # the record changed: its report is stale
    record["returns"] = None
    save(record, folder / "game-1.json")
    (out / "game-2.json").write_text('{"half-written')  # a run stopped while writing
    third = batch.run([str(folder)], out, OPTIONS, workers=1)
    assert sorted(third.analysed) == ["game-1", "game-2"] and third.resumed == ["game-0"]
    assert len(reports(out)["game-1.json"]["decisions"]) == 10
    other = batch.run([str(folder)], out, Options(iterations=41, seed=5), workers=1)
    assert len(other.analysed) == 3  # other options: nothing is reused


def test_records_with_the_same_name_in_two_folders_get_two_reports(season, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    shutil.copy(season / "game-0.json", a / "game.json")
    shutil.copy(season / "game-1.json", b / "game.json")
    outcome = batch.run([str(a), str(b)], tmp_path / "out", OPTIONS, workers=1)
    assert len(outcome.analysed) == 2 and len(set(outcome.analysed)) == 2
    assert all(name.startswith("game-") for name in outcome.analysed)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_counts_games_and_decisions(season, tmp_path):
    stream = _Terminal()  # a bar is drawn on a terminal only (tests/test_progress.py)
    batch.run([str(season)], tmp_path / "out", OPTIONS, workers=2, progress=True, stream=stream)
    total = sum(len(json.loads(p.read_text())["actions"]) for p in season.glob("*.json"))
    lines = stream.getvalue().split("\r")
    assert lines[-1].startswith("analyzing: 100%") and f"{total}/{total}" in lines[-1] and "3/3 games" in lines[-1]
    assert any(f" 0/{total} " in line for line in lines[:-1])  # drawn empty at the start


def test_charts_are_drawn_per_game(season, tmp_path):
    pytest.importorskip("matplotlib")
    batch.run([str(season / "game-0.json")], tmp_path, OPTIONS, workers=1, charts=True)
    assert (tmp_path / "game-0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["--workers", "0"], "--workers must be at least 1"),
    (["--workers", "2", "--ray", "auto"], "--workers and --ray exclude each other"),
    (["--out", "x.png"], "--out is for one record without --out-dir"),
])
def test_bad_batch_options_exit_2(season, tmp_path, capsys, argv, message):
    assert cli.main(["analyze", str(season), "--out-dir", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err


def test_without_ray_installed_ray_is_a_clear_error(season, tmp_path, capsys):
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed here; this checks the message given without it")
    assert cli.main(["analyze", str(season), "--out-dir", str(tmp_path), "--ray", "local", *FLAGS]) == 2
    assert "--ray needs ray: pip install '.[ray]' in the splendor-ai source tree" in capsys.readouterr().err


def test_a_local_ray_instance_gives_the_same_reports_as_the_local_run(season, tmp_path):
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install '.[ray]' in the source tree)")
    local = tmp_path / "local"
    batch.run([str(season)], local, OPTIONS, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    try:
        outcome = batch.run([str(season)], tmp_path / "ray", OPTIONS, ray_address="auto")
    finally:
        ray.shutdown()
    assert sorted(outcome.analysed) == ["game-0", "game-1", "game-2"] and outcome.ok
    assert reports(tmp_path / "ray") == reports(local)
    assert (tmp_path / "ray" / "summary.csv").read_text() == (local / "summary.csv").read_text()


def test_the_benchmark_prints_its_figures_and_writes_only_when_asked(tmp_path, capsys):
    from splendor_ai.bench import analysis as bench

    out = tmp_path / "BENCHMARKS.md"
    argv = ["--games", "2", "--iterations", "10", "--no-ray", "--out", str(out)]
    assert bench.main(argv) == 0
    text = capsys.readouterr().out
    assert "| 2 local workers |" in text and "| old: two independent searches" in text and not out.exists()
    assert bench.main([*argv, "--write"]) == 0
    assert "<!-- bench:analysis -->" in out.read_text() and "| new: one search" in out.read_text()


def test_docs_analysis_md_describes_every_key_of_the_reports(season, tmp_path):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text()
    batch.run([str(season / "game-0.json")], tmp_path, OPTIONS, workers=1)
    report = json.loads((tmp_path / "game-0.json").read_text())
    documented = lambda key: f"`{key}`" in doc  # noqa: E731
    assert all(documented(k) for k in report), [k for k in report if not documented(k)]
    assert all(documented(k) for k in report["decisions"][0]), report["decisions"][0].keys()
    assert all(documented(k) for k in report["summary"][0] if k != "seat")
    assert all(documented(c) for c in batch.COLUMNS), [c for c in batch.COLUMNS if not documented(c)]
    for flag in ["--iterations", "--played-visits", "--seed", "--mistake", "--blunder", "--out-dir", "--workers",
                 "--threads", "--ray", "--charts", "--out"]:
        assert f"`{flag}" in doc, flag
