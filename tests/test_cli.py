"""The command line: the subcommands parse their flags, and bad settings are clear errors."""
import pytest

from splendor_ai import cli
from splendor_ai.bench import BENCHES


def test_bench_lists_the_benches_and_passes_the_rest_to_the_chosen_one(capsys):
    assert cli.main(["bench", "-h"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("core", "search", "strength", "levels", "service"))
    assert cli.main(["bench", "nonsense"]) == 2
    for name in BENCHES:
        with pytest.raises(SystemExit) as exit_:
            cli.main(["bench", name, "-h"])
        assert exit_.value.code == 0 and f"splendor-ai bench {name}" in capsys.readouterr().out


def test_bench_prints_and_writes_benchmarks_md_only_when_asked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["bench", "core", "--game", "duel", "--seconds", "0.05"]) == 0
    assert "## Rules core: random playouts (duel" in capsys.readouterr().out
    assert not (tmp_path / "BENCHMARKS.md").exists()
    assert cli.main(["bench", "core", "--game", "duel", "--seconds", "0.05", "--write"]) == 0
    text = (tmp_path / "BENCHMARKS.md").read_text()
    assert "<!-- bench:core-duel -->" in text and "splendor-ai bench core --game duel" in text


def test_unknown_flags_are_errors(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["demo", "--bogus"])
    assert exit_.value.code == 2 and "--bogus" in capsys.readouterr().err


@pytest.mark.parametrize("argv, env, message", [
    (["serve", "--max-nodes", "5"], {}, "max_nodes"),
    (["serve", "--port", "70000"], {}, "port"),
    (["serve", "--grace", "-1"], {}, "grace"),
    (["serve"], {"SPLENDOR_AI_MAX_SECONDS": "soon"}, "SPLENDOR_AI_MAX_SECONDS"),
])
def test_bad_serve_settings_are_clear_errors(monkeypatch, argv, env, message):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert message in str(exit_.value.code)


def test_serve_settings_come_from_flags_then_environment(monkeypatch):
    monkeypatch.setenv("SPLENDOR_AI_PORT", "50600")
    monkeypatch.setenv("SPLENDOR_AI_MAX_SECONDS", "7.5")
    args = cli.build_parser().parse_args(["serve", "--port", "50601"])
    assert args.port == 50601 and args.max_seconds == 7.5 and args.max_concurrent == 0


def test_a_bad_environment_variable_does_not_break_other_commands(monkeypatch, capsys):
    monkeypatch.setenv("SPLENDOR_AI_PORT", "abc")
    assert cli.main(["demo", "--seed", "1"]) == 0
    assert "winner" in capsys.readouterr().out


def test_selfplay_resumes_a_saved_match_and_refuses_another_one(tmp_path, capsys):
    argv = ["selfplay", "--game", "base", "--bot", "greedy", "--bot", "random", "--seed", "2",
            "--processes", "1", "--quiet", "--records", str(tmp_path)]
    assert cli.main(argv + ["--games", "1"]) == 0
    assert cli.main(argv + ["--games", "2", "--resume"]) == 0
    assert "greedy" in capsys.readouterr().out and len(list(tmp_path.iterdir())) == 2
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv[:3] + ["--bot", "random", "--bot", "greedy"] + argv[7:] + ["--games", "2", "--resume"])
    assert "game-00000.json is not game 0 of this match" in str(exit_.value.code)
    with pytest.raises(SystemExit) as exit_:
        cli.main(["selfplay", "--bot", "greedy", "--resume"])
    assert "--resume needs --records" in str(exit_.value.code)


def test_install_hints_name_the_source_tree_not_pypi():
    """The package is not on PyPI: a hint `pip install 'splendor-ai[extra]'` cannot work."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[1]
    bad = []
    for path in [*root.joinpath("splendor_ai").rglob("*.py"), *root.joinpath("client").rglob("*.py"),
                 *root.joinpath("docs").glob("*.md"), root / "README.md"]:
        if re.search(r"pip install [\"']?splendor-ai\[", path.read_text(encoding="utf-8")):
            bad.append(str(path.relative_to(root)))
    assert not bad, f"hints that install from PyPI: {bad}"
