"""The progress bars (splendor_ai.progress): drawn on a terminal, absent from logs and pipes."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from splendor_ai import progress
from splendor_ai.analysis import batch

ROOT = Path(__file__).resolve().parents[1]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_bar_draws_on_a_terminal_and_writes_nothing_elsewhere():
    for stream, drawn in ((Terminal(), True), (io.StringIO(), False)):
        with progress.bar(5, "games", "game", stream=stream) as bar:
            for _ in range(5):
                bar.update(1)
        out = stream.getvalue()
        assert ("\r" in out and "5/5" in out) if drawn else out == ""
    quiet = Terminal()
    with progress.bar(5, "games", "game", stream=quiet, enabled=False) as bar:
        bar.update(5)
    assert quiet.getvalue() == ""


def test_a_closed_or_odd_stream_is_no_terminal():
    closed = io.StringIO()
    closed.close()
    assert not progress.on_terminal(closed)
    assert not progress.on_terminal(object())


def test_the_batch_bar_counts_decisions_and_games_on_a_terminal_only():
    stream = Terminal()
    bar = batch.BatchProgress(3, 40, stream)
    bar(0, 0)
    bar(1, 15)
    bar(3, 40)
    bar.close()
    last = stream.getvalue().split("\r")[-1]
    assert "40/40" in last and "3/3 games" in last
    piped = io.StringIO()
    bar = batch.BatchProgress(3, 40, piped)
    bar(3, 40)
    bar.close()
    assert piped.getvalue() == ""


def _cli(*args, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ)  # the installed package: the source tree has no built cores in CI
    return subprocess.run([sys.executable, "-c", "import sys; from splendor_ai.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=300, env=env, cwd=cwd)


def test_selfplay_and_analyze_write_no_carriage_returns_into_a_pipe(tmp_path):
    # stderr is a pipe here, as in a log file or CI: the progress is not wanted there.
    records = tmp_path / "records"
    play = _cli("selfplay", "--game", "base", "--bot", "greedy", "--bot", "random", "--games", "3",
                "--seed", "4", "--processes", "1", "--records", str(records), cwd=tmp_path)
    assert play.returncode == 0, play.stderr
    assert "greedy" in play.stdout
    assert "\r" not in play.stderr and "\r" not in play.stdout
    analysed = _cli("analyze", str(records), "--out-dir", str(tmp_path / "out"), "--iterations", "30",
                    "--workers", "1", cwd=tmp_path)
    assert analysed.returncode == 0, analysed.stderr
    assert "3 games analysed" in analysed.stdout
    assert "\r" not in analysed.stderr and "\r" not in analysed.stdout


def test_a_single_analysis_draws_the_shared_bar_only_on_a_terminal():
    import io

    from splendor_ai.analysis import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    piped, terminal = io.StringIO(), Terminal()
    for stream in (piped, terminal):
        progress = ProgressBar(stream)
        for done in range(1, 6):
            progress(done, 5)
    assert piped.getvalue() == ""
    assert "analyzing" in terminal.getvalue() and "5/5" in terminal.getvalue()
