"""The command line: the subcommands parse their flags, and bad settings are clear errors."""
import pytest

from splendor_ai import cli


def test_bench_passes_everything_to_its_own_parser(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", "-h"])
    assert exit_.value.code == 0 and "splendor-ai bench" in capsys.readouterr().out


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
