"""``splendor-ai play`` driven for real through a pseudo-terminal: moves, help, hint, a bad
move, undo, quitting, Ctrl-C and a whole game; every saved record must replay."""
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import splendor_ai
import splendor_ai_client
from splendor_ai.games import load_game
from splendor_ai.records import load, replay
from splendor_ai.render import strip_ansi

PROMPT = "seat 0> "


def _env():
    roots = {str(Path(m.__file__).resolve().parent.parent) for m in (splendor_ai, splendor_ai_client)}
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = os.pathsep.join(sorted(roots))
    return env


class Terminal:
    """A process on a pseudo-terminal: type lines, wait for text."""

    def __init__(self, args, cwd):
        master, slave = os.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "splendor_ai.cli", "play", *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=cwd, env=_env(), close_fds=True)
        os.close(slave)
        self.fd = master
        self.raw = ""  # everything read, colours included
        self.seen = 0  # how much of the ANSI-free text expect() has consumed

    def _read(self, deadline):
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:  # the process exited and closed the terminal
                    return False
                if not data:
                    return False
                self.raw += data.decode("utf-8", "replace")
                return True
            if self.proc.poll() is not None:
                return False
        return False

    def expect(self, pattern, timeout=30.0):
        """The match of ``pattern`` in the text after the previous match (colours stripped)."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern, re.S)
        while True:
            text = strip_ansi(self.raw).replace("\r", "")
            m = regex.search(text, self.seen)
            if m:
                self.seen = m.end()
                return m
            if not self._read(deadline):
                raise AssertionError(f"{pattern!r} not seen; the terminal shows:\n{text[-3000:]}")

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(*args):
        t = Terminal(args, tmp_path)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def legal_from_help(term):
    term.send("help")
    m = term.expect(r"legal moves \((\d+)\):\n(.*?)\n" + re.escape(PROMPT))
    moves = re.split(r"\s{2,}", m.group(2).strip())
    assert len(moves) == int(m.group(1))
    return moves


def test_play_moves_help_hint_bad_move_undo_and_quit(terminal, tmp_path):
    record_path = tmp_path / "game.json"
    term = terminal("--game", "base", "--level", "1", "--seed", "3", "--hint-iterations", "50",
                    "--record", str(record_path))
    board = term.expect(r"Splendor 2p.*?" + re.escape(PROMPT)).group(0)
    assert "L1 (36)" in board and "> seat 0 (you):" in board and "seat 1 (AI level 1):" in board
    assert "\033[" in term.raw  # a terminal gets colours

    state = load_game("base", 2).new_initial_state(3)
    expected = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert sorted(legal_from_help(term)) == expected

    term.send("hint")
    hints = term.expect(r"thinking.*?\n(.*?)" + re.escape(PROMPT)).group(1)
    assert "ranked by the search's visits" in hints
    lines = re.findall(r"^\s+(.+?)\s+visits\s+([\d.]+)%\s+win probability\s+([\d.]+)%$", hints, re.M)
    assert len(lines) == 3 and all(mv in expected and 0 <= float(p) <= 100 for mv, _, p in lines)
    shares = [float(share) for _, share, _ in lines]
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 100.05  # most visited first
    assert re.search(r"^    why: \S", hints, re.M), hints  # each hint says why (its reasons' sentences)

    term.send("take xyz")
    term.expect(r"not a legal move: 'take xyz': .*?unknown token letter.*?" + re.escape(PROMPT))
    term.send("undo")
    term.expect(r"nothing to undo.*?" + re.escape(PROMPT))

    term.send("take wug")
    term.expect(r"seat 1 \(AI level 1\) plays: .*?" + re.escape(PROMPT))
    term.send("undo")
    term.expect(r"undone.*?turn 0 .*?" + re.escape(PROMPT))
    term.send("take wur")
    ai_move = term.expect(r"seat 1 \(AI level 1\) plays: (.+?)\n").group(1)
    term.expect(re.escape(PROMPT))
    term.send("quit")
    term.expect(r"game saved to .*game\.json \((\d+) moves")
    assert term.proc.wait(10) == 0

    record = load(record_path)
    assert record["seats"] == ["human", "level:1"] and record["finished"] is False and record["returns"] is None
    assert record["actions"][:2] == ["take wur", ai_move]
    states = replay(record)
    assert states[-1].current_player() == 0 and not states[-1].is_terminal()
    assert states[-1].to_position()["seats"][0]["tokens"][:5] == [1, 1, 0, 1, 0]  # w, u, r taken; g kept


def test_ctrl_c_saves_the_game(terminal, tmp_path):
    record_path = tmp_path / "interrupted.json"
    term = terminal("--game", "duel", "--level", "1", "--seed", "5", "--record", str(record_path))
    term.expect(r"Splendor Duel.*?" + re.escape(PROMPT))
    move = legal_from_help(term)[0]
    term.send(move)
    term.expect(r"plays: .*?" + re.escape(PROMPT))
    term.proc.send_signal(signal.SIGINT)
    term.expect(r"interrupted.*game saved to")
    assert term.proc.wait(10) == 130
    record = load(record_path)
    assert record["game"] == "duel" and record["actions"][0] == move
    replay(record)


@pytest.mark.parametrize("game", ["base", "marvel"])
def test_a_whole_game_to_the_end(terminal, tmp_path, game):
    record_path = tmp_path / f"{game}.json"
    term = terminal("--game", game, "--level", "1", "--seed", "11", "--record", str(record_path))
    rng = random.Random(1)
    for _ in range(400):
        m = term.expect(r"(" + re.escape(PROMPT) + r"|game over: .*?\n)")
        if m.group(1).startswith("game over"):
            break
        moves = legal_from_help(term)
        buys = [mv for mv in moves if mv.startswith("buy")]
        term.send(rng.choice(buys or moves))
    else:
        pytest.fail("the game did not end")
    assert re.search(r"you (win|lose|share the win) \(seat 0 \d+ pts, seat 1 \d+ pts\)", m.group(1))
    term.expect(r"game saved to")
    assert term.proc.wait(10) == 0
    record = load(record_path)
    assert record["finished"] is True
    final = replay(record)[-1]
    assert final.is_terminal() and list(final.returns()) == record["returns"]


def test_bad_options_are_named_with_exit_code_2(tmp_path):
    run = [sys.executable, "-m", "splendor_ai.cli", "play", "--record", str(tmp_path / "x.json")]
    for extra, message in ((["--server", "127.0.0.1:1"], "no splendor-ai server reachable at 127.0.0.1:1"),
                           (["--game", "duel", "--players", "3"], "duel is a two-player game"),
                           (["--seat", "2"], "--seat must be 0..1"),
                           (["--level", "11"], "--level: invalid choice")):
        proc = subprocess.run(run + extra, env=_env(), cwd=tmp_path, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=30)
        assert proc.returncode == 2, proc.stderr
        assert message in proc.stderr
    assert not (tmp_path / "x.json").exists()


def test_play_against_a_running_server(terminal, tmp_path):
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1",
                                   "--port", "0", "--max-concurrent", "1", "--grace", "1"],
                                  stdout=log, stderr=subprocess.STDOUT, env=_env(), cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while not (m := re.search(r"listening on \S+:(\d+)", log_path.read_text())):
            assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        record_path = tmp_path / "remote.json"
        term = terminal("--game", "marvel", "--level", "1", "--seed", "2", "--server", f"127.0.0.1:{m.group(1)}",
                        "--hint-iterations", "30", "--record", str(record_path))
        term.expect(r"Splendor: Marvel.*?" + re.escape(PROMPT))
        move = legal_from_help(term)[-1]
        term.send("hint")
        term.expect(r"win probability.*?" + re.escape(PROMPT))
        term.send(move)
        term.expect(r"plays: .*?" + re.escape(PROMPT))
        term.send("quit")
        term.expect(r"game saved to")
        assert term.proc.wait(10) == 0
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    # The server did the work: it logged the searches of the AI's move and of the hint.
    assert "GetMove" in log_path.read_text() and "Analyze" in log_path.read_text()
    record = load(record_path)
    assert record["actions"][0] == move and len(replay(record)) == len(record["actions"]) + 1


def test_a_failing_server_gets_a_message_not_a_traceback(monkeypatch, capsys, tmp_path):
    import grpc
    from splendor_ai_client.errors import ServiceError

    from splendor_ai import play

    class Failing:
        def hint(self, state, iterations, seed):
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "all 2 search slots are busy")

        def apply(self, state, text):
            return [text]

        def ai_turn(self, state, level, seed):
            raise ServiceError(grpc.StatusCode.UNAVAILABLE, "connection refused")

    game = play.Game("base", 2, seed=3, human=0, level=1)
    term = play.Terminal(game, Failing(), hint_iterations=10, color=False)
    lines = iter(["hint", "take wug"])
    monkeypatch.setattr(play, "read_line", lambda prompt: next(lines))
    with pytest.raises(ServiceError):
        term.run()  # play.main turns this into a PlayError (exit code 2) after saving the game
    out = capsys.readouterr().out
    assert "no hint: the server answered RESOURCE_EXHAUSTED: all 2 search slots are busy" in out
    assert game.actions == ["take wug"] and game.record()["actions"] == ["take wug"]

    # The whole command: the game is saved, then the failure is reported (exit code 2 in the CLI).
    from contextlib import nullcontext

    monkeypatch.setattr(play, "connect", lambda server, **options: nullcontext(None))
    monkeypatch.setattr(play, "Engine", lambda client: Failing())
    lines = iter(["take wug"])
    path = tmp_path / "failed.json"
    with pytest.raises(play.PlayError, match=r"the server failed \(UNAVAILABLE\): connection refused"):
        play.main("base", 2, 1, seed=3, record_path=str(path))
    assert load(path)["actions"] == ["take wug"]


@pytest.fixture
def busy_server():
    """A real server that runs one search at a time (a second gets RESOURCE_EXHAUSTED)."""
    from splendor_ai.service.server import Server
    from splendor_ai.service.settings import Settings
    from splendor_ai_client import Client

    server = Server(Settings(host="127.0.0.1", port=0, max_concurrent=1, grace=0.5))
    port = server.start()
    try:
        with Client(f"127.0.0.1:{port}", retries=0) as client:  # play's own waiting, not the client's retries
            client.wait_ready(10)
            yield client
    finally:
        server.shutdown(0.5)


def test_hint_is_reproducible_for_a_seed(busy_server):
    from splendor_ai.play import Engine

    state = load_game("base", 2).new_initial_state(7)
    engine = Engine(busy_server)
    first = engine.hint(state, 300, seed=5)
    assert len(first) == 3 and engine.hint(state, 300, seed=5) == first


def test_a_busy_server_is_waited_for_with_a_message(busy_server):
    import threading

    from splendor_ai.play import Engine
    from splendor_ai.service.convert import encode_position

    state = load_game("base", 2).new_initial_state(7)
    searching = threading.Event()

    def occupy():  # the one search slot, for about 1.5 s
        for _ in busy_server.analyze(encode_position(state), time_ms=1500, report_every_ms=100):
            searching.set()

    other = threading.Thread(target=occupy)
    other.start()
    assert searching.wait(30)
    notices = []
    hints = Engine(busy_server, notice=notices.append, delays=(0.3,) * 40).hint(state, 200, seed=1)
    other.join()
    assert len(hints) == 3
    assert notices and all("server is busy" in n and "trying again in 0.3 s" in n for n in notices)
