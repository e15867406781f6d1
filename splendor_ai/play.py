"""``splendor-ai play``: a person against AI seats in the terminal, through the service.

The game is kept here as a full state plus the moves in notation (a record, docs/records.md);
the engine's side goes through the client: GetMove (with a difficulty level) for the AI's
turns, LegalActions for ``help``, ApplyActions to check and apply the person's moves, and
Analyze for ``hint``. With no ``--server`` a server is started in this process on a free
local port. The game is saved as a record when it ends, on ``quit`` and on Ctrl-C.
"""
from __future__ import annotations

import functools
import os
import random
import re
import select
import signal
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from .games import SplendorError, load_game
from .records import make_record, save
from .render import render, use_color

HINT_REASONS = 2  # reasons shown under each of a hint's moves
COMMANDS = "help (legal moves), hint (the engine's top 3), undo, board, quit"


class PlayError(SplendorError):
    """A problem with the options of ``play`` (the server, the seats)."""


@dataclass
class Remote:
    """How to reach a running server (``--server``): TLS (``--ca``, or ``--tls`` for the
    system's CAs; ``--cert``/``--key`` for mutual TLS; ``--server-name``) and a bearer token
    (``SPLENDOR_AI_TOKEN`` or ``--token-file``)."""

    ca: str | None = None
    tls: bool = False
    cert: str | None = None
    key: str | None = None
    server_name: str | None = None
    token_file: str | None = None

    @property
    def secure(self) -> bool:
        return bool(self.tls or self.ca or self.cert)

    def given(self) -> list[str]:
        flags = (("--ca", self.ca), ("--tls", self.tls), ("--cert", self.cert), ("--key", self.key),
                 ("--server-name", self.server_name), ("--token-file", self.token_file))
        return [flag for flag, value in flags if value]

    def token(self, environ=os.environ) -> tuple[str | None, str]:
        """(the token, where it came from): ``--token-file`` (its first line that is not blank
        or a ``#`` comment), else ``$SPLENDOR_AI_TOKEN``, else none."""
        if self.token_file:
            try:
                with open(self.token_file, encoding="utf-8") as f:
                    lines = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
            except (OSError, UnicodeDecodeError) as exc:
                raise PlayError(f"--token-file: cannot read {self.token_file}: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
            if not lines:
                raise PlayError(f"--token-file: {self.token_file} holds no token (one line, the token)")
            return lines[0], f"--token-file {self.token_file}"
        if environ.get("SPLENDOR_AI_TOKEN"):
            return environ["SPLENDOR_AI_TOKEN"].strip(), "$SPLENDOR_AI_TOKEN"
        return None, ""

    def check(self) -> None:
        if bool(self.cert) != bool(self.key):
            raise PlayError("--cert and --key (this client's certificate, for mutual TLS) go together")
        if self.server_name and not self.secure:
            raise PlayError("--server-name is the name in a TLS server's certificate: give --ca (or --tls) too")


def _connection_problem(exc, server: str, remote: Remote, token_from: str) -> str:
    """What went wrong reaching ``server`` and how to fix it: "unreachable" (nothing answered)
    told apart from "refused" (a server answered and turned this client away)."""
    import grpc

    code, text = exc.code, exc.message or ""
    low = text.lower()
    host = server.rpartition(":")[0].strip("[]") or server
    refused = f"the server at {server} refused this client"
    if code == grpc.StatusCode.UNAUTHENTICATED:
        if token_from:
            return f"{refused}: it does not accept the bearer token from {token_from} (check the token)"
        return (f"{refused}: it wants a bearer token: put it in $SPLENDOR_AI_TOKEN or in a file given with "
                "--token-file FILE")
    if code == grpc.StatusCode.PERMISSION_DENIED:
        return f"{refused}: permission denied ({text})"
    if code == grpc.StatusCode.UNAVAILABLE:
        if "hostname verification" in low or "peer name" in low:
            name = remote.server_name or host
            return (f"{refused}: its TLS certificate does not carry the name {name}: give --server-name NAME, "
                    "a name the certificate carries")
        if "wrong_version_number" in low:
            return (f"{refused}: the TLS handshake failed: it does not speak TLS (leave out --ca, --tls and "
                    "--server-name, or start it with --tls-cert and --tls-key)")
        if "certificate_verify_failed" in low or "certificate verify" in low:
            return (f"{refused}: its TLS certificate is not signed by a CA this client trusts: give --ca with "
                    "the CA that signed it")
        if "handshake" in low or "ssl" in low or "tls" in low:
            return f"{refused}: the TLS handshake failed ({text})"
        if "socket closed" in low or "connection reset" in low:
            if remote.secure:
                return (f"{refused}: it closed the TLS handshake, as a server with mutual TLS does without a "
                        "client certificate it trusts: give --cert and --key signed by its client CA")
            return (f"{refused}: it closed the connection at once, as a TLS server does to a plaintext client: "
                    "give --ca with the CA that signed its certificate (or --tls for a public CA)")
        if "connection refused" in low:
            return (f"no splendor-ai server reachable at {server}: connection refused (nothing listens on that "
                    "port): start one with 'splendor-ai serve', or check HOST:PORT")
        if "resolv" in low or "dns" in low or "name not found" in low:
            return (f"no splendor-ai server reachable at {server}: the name {host} does not resolve (DNS): "
                    "check HOST")
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return (f"no splendor-ai server reachable at {server}: {text or code.name} (start one with "
                "'splendor-ai serve', or check HOST:PORT and the network)")
    return f"the server at {server} failed ({code.name}): {text}"


@contextmanager
def connect(server: str | None, timeout: float = 5.0, remote: Remote | None = None, game: str = "base"):
    """A client of ``server`` (HOST:PORT), or of one started here when it is None. A remote
    server is asked for its catalogue first, so that a server that cannot be reached, or that
    turns this client away (TLS, token), is named with the fix before the game starts."""
    import grpc
    from splendor_ai_client import Client
    from splendor_ai_client.errors import ServiceError

    remote = remote or Remote()
    remote.check()
    local = None
    token, token_from = None, ""
    if server is None:
        if remote.given():
            raise PlayError(f"{', '.join(remote.given())}: for a running server (--server HOST:PORT)")
        from .service.server import Server
        from .service.settings import Settings

        local = Server(Settings(host="127.0.0.1", port=0, max_concurrent=2, grace=0.5))
        server = f"127.0.0.1:{local.start()}"
    else:
        token, token_from = remote.token()
    try:
        connect_to = functools.partial(Client, server, secure=remote.secure, root_certificates=remote.ca,
                                       private_key=remote.key, certificate_chain=remote.cert, token=token,
                                       server_name=remote.server_name)
        try:
            probe = connect_to(retries=0)
        except ValueError as exc:  # a file that cannot be read, a token that cannot be sent
            text = str(exc)
            flags = (("root_certificates", "--ca"), ("private_key", "--key"), ("certificate_chain", "--cert"))
            for name, flag in flags:
                text = text.replace(f"{name}: ", f"{flag}: ")
            where = f" (the token from {token_from})" if text.startswith("token") else ""
            raise PlayError(f"{text}{where}") from None
        with probe:
            try:
                probe.catalog(game, timeout=timeout)
            except ServiceError as exc:
                if exc.code != grpc.StatusCode.RESOURCE_EXHAUSTED:  # busy, but there and willing
                    raise PlayError(_connection_problem(exc, server, remote, token_from)) from None
        client = connect_to()
        try:
            yield client
        finally:
            client.close()
    finally:
        if local is not None:
            local.shutdown(0.5)


# When the server is at its limit of concurrent searches it answers RESOURCE_EXHAUSTED at
# once (no queue): play waits and tries again, saying so, for about two minutes in all.
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0) + (8.0,) * 14


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Engine:
    """The service's side of the game: every call takes the current full state (the server
    searches the view of the seat to act, so the AI does not see hidden cards). A call the
    server turns away because it is busy is tried again after a pause, with a message
    (``notice``), up to ``len(delays)`` times."""

    def __init__(self, client, notice=_stderr, delays=RETRY_DELAYS):
        self.client = client
        self.notice = notice
        self.delays = tuple(delays)

    def _call(self, fn, *args, **kwargs):
        import grpc
        from splendor_ai_client.errors import ServiceError

        for delay in (*self.delays, None):
            try:
                return fn(*args, **kwargs)
            except ServiceError as exc:
                if exc.code != grpc.StatusCode.RESOURCE_EXHAUSTED or delay is None:
                    raise
                self.notice(f"the server is busy ({exc.message}); trying again in {delay:g} s "
                            "(Ctrl-C to stop)")
                time.sleep(delay)

    @staticmethod
    def _position(state):
        from .service.convert import encode_position

        return encode_position(state)

    def legal(self, state) -> list[str]:
        return [m.notation for m in self._call(self.client.legal_actions, self._position(state)).moves]

    def apply(self, state, text: str) -> list[str]:
        """The move ``text`` checked by the server, in its canonical notation."""
        return [m.notation for m in self._call(self.client.apply_actions, self._position(state), [text]).moves]

    def ai_turn(self, state, level: int, seed: int) -> list[str]:
        return [m.notation for m in self._call(self.client.get_move, self._position(state), level, seed=seed).moves]

    def hint(self, state, iterations: int, seed: int, lines: int = 3) -> list[tuple[str, float, float, list[str]]]:
        """The engine's top ``lines`` moves as (move, share of the search's visits, win
        probability, why: its reasons' sentences), in the order the search would play them (most
        visited first, a proven win before them, a proven loss after): the search plays the
        first, and a move it visited less has a less certain win probability, which may be
        higher. One thread and a fixed seed, so the same position and seed always give the same
        hint."""
        def analyze():
            return self.client.analyze(self._position(state), iterations=iterations, threads=1, seed=seed,
                                       lines=lines).result()

        report = self._call(analyze)
        total = max(1, report.stats.iterations)
        return [(line.move.notation, line.visits / total, line.win_probability, [r.text for r in line.reasons])
                for line in report.stats.lines[:lines]]


@dataclass
class Game:
    """The game being played: the start, the moves so far and who made them."""

    name: str
    players: int
    seed: int
    human: int
    level: int
    actions: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)

    def __post_init__(self):
        self.rules = load_game(self.name, self.players)
        self.state = self.rules.new_initial_state(self.seed)

    def names(self) -> list[str]:
        return ["you" if s == self.human else f"AI level {self.level}" for s in range(self.players)]

    def seats(self) -> list[str]:
        return ["human" if s == self.human else f"level:{self.level}" for s in range(self.players)]

    def apply(self, move: str) -> None:
        self.movers.append(self.state.current_player())
        self.state.apply_action(self.state.string_to_action(move))
        self.actions.append(move)

    def undo(self) -> bool:
        """Back to the person's last decision (taking back the AI's replies); False if none."""
        mine = [i for i, seat in enumerate(self.movers) if seat == self.human]
        if not mine:
            return False
        keep = self.actions[:mine[-1]]
        self.actions, self.movers = [], []
        self.state = self.rules.new_initial_state(self.seed)
        for move in keep:
            self.apply(move)
        return True

    def record(self) -> dict:
        done = self.state.is_terminal()
        rec = make_record(self.name, self.players, seed=self.seed, seats=self.seats(), actions=self.actions,
                          returns=self.state.returns() if done else None)
        rec["finished"] = done
        return rec


class LineReader:
    """Lines of a file descriptor, read so that Ctrl-C always interrupts the wait.

    ``input()`` blocks in read(2), which a SIGINT handled by another thread (the gRPC threads
    of the in-process server) does not interrupt: Ctrl-C would wait for the next line. Here
    the wait is a select(2) on the input and on the signal wake-up descriptor.
    """

    def __init__(self, fd: int, out):
        self.fd, self.out, self.buffer = fd, out, b""
        self.wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        try:
            signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: signals reach it directly anyway
            pass

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.fd, self.wake_r], [], [])
            if self.wake_r in ready:
                os.read(self.wake_r, 512)  # the signal's handler runs now (KeyboardInterrupt)
            if self.fd in ready:
                data = os.read(self.fd, 4096)
                if not data:
                    if self.buffer:
                        break
                    raise EOFError
                self.buffer += data
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


def read_line(prompt: str) -> str:
    """A line of standard input (through one LineReader, made on first use)."""
    global _reader
    if _reader is None:
        _reader = LineReader(sys.stdin.fileno(), sys.stdout)
    return _reader(prompt)


_reader: LineReader | None = None


class Terminal:
    """The loop: draw, ask, answer. Bad input gets a message and a new prompt."""

    def __init__(self, game: Game, engine: Engine, hint_iterations: int, out=None, color=None):
        self.game = game
        self.engine = engine
        self.hint_iterations = hint_iterations
        self.out = out or sys.stdout
        self.color = use_color(self.out) if color is None else color
        self.rng = random.Random(game.seed)
        self.engine.notice = self.say

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def board(self) -> None:
        """What the person may see: their view while the game runs, everything at the end."""
        g = self.game
        state = g.state if g.state.is_terminal() else g.state.view(g.human)
        self.say()
        self.say(render(state, g.names(), self.color))

    def run(self) -> str:
        """Plays until the end or ``quit``; returns "finished" or "quit"."""
        g = self.game
        self.say(f"Splendor ({g.name}, {g.players} players): you are seat {g.human}. "
                 f"Type a move in notation, or {COMMANDS}.")
        self.board()
        while not g.state.is_terminal():
            if g.state.current_player() != g.human:
                self.ai_turn()
                continue
            if self.ask() == "quit":
                return "quit"
        self.board()
        self.say(self.result())
        return "finished"

    def ai_turn(self) -> None:
        g = self.game
        seat = g.state.current_player()
        moves = self.engine.ai_turn(g.state, g.level, self.rng.randrange(2**31))
        if not moves:
            raise PlayError(f"the server gave no move for seat {seat}")
        for move in moves:
            if g.state.is_terminal() or g.state.current_player() != seat:
                break
            g.apply(move)
            self.say(f"seat {seat} ({g.names()[seat]}) plays: {move}")
        if not g.state.is_terminal() and g.state.current_player() == g.human:
            self.board()

    def ask(self) -> str | None:
        from splendor_ai_client.errors import ServiceError

        g = self.game
        try:
            text = read_line(f"seat {g.human}> ").strip()
        except EOFError:
            self.say()
            return "quit"
        command = text.lower()
        if not text:
            return None
        if command == "quit":
            return "quit"
        if command in ("help", "?"):
            legal = self.engine.legal(g.state)
            self.say(f"commands: {COMMANDS}")
            self.say(f"legal moves ({len(legal)}):")
            self.say(columns(legal))
        elif command == "hint":
            self.say(f"thinking ({self.hint_iterations} iterations)...")
            try:
                # Seeded by the game's seed and the move number (not drawn from self.rng, so that
                # asking for a hint never changes the AI's moves): reproducible.
                hints = self.engine.hint(g.state, self.hint_iterations, (g.seed * 1_000_003 + len(g.actions)) % 2**31)
            except ServiceError as exc:
                self.say(f"no hint: the server answered {exc.code.name}: {exc.message}")
                return None
            self.say("  ranked by the search's visits (the engine would play the first):")
            for move, share, p, why in hints:
                self.say(f"  {move:<28} visits {share:6.1%}   win probability {p:6.1%}")
                if why:
                    self.say(f"    why: {'; '.join(why[:HINT_REASONS])}")
        elif command == "undo":
            if g.undo():
                self.say("undone: back to your last move")
                self.board()
            else:
                self.say("nothing to undo: you have not moved yet")
        elif command == "board":
            self.board()
        else:
            try:
                moves = self.engine.apply(g.state, text)
            except ServiceError as exc:
                reason = exc.precondition_violations[0].description if exc.precondition_violations else exc.message
                reason = re.sub(r"^moves\[0\][\w.]*: ", "", reason)
                self.say(f"not a legal move: {text!r}: {reason} (type 'help' for the legal moves)")
                return None
            for move in moves:
                g.apply(move)
            if moves and moves[0] != text:
                self.say(f"you play: {moves[0]}")
        return None

    def result(self) -> str:
        g = self.game
        returns = g.state.returns()
        points = [g.state.points(s) for s in range(g.players)]
        winners = [s for s, r in enumerate(returns) if r > 0]
        score = ", ".join(f"seat {s} {p} pts" for s, p in enumerate(points))
        if g.human in winners:
            verdict = "you win" if len(winners) == 1 else "you share the win"
        else:
            verdict = "you lose"
        return f"game over: {verdict} ({score})"


def columns(moves: list[str], width: int = 100) -> str:
    """The moves in lines of at most ``width`` characters, never breaking a move."""
    lines, line = [], "  "
    for move in moves:
        if len(line) + len(move) > width and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += move + "  "
    lines.append(line.rstrip())
    return "\n".join(lines)


def default_record_path(game: str) -> str:
    return time.strftime(f"splendor-{game}-%Y%m%d-%H%M%S.json")


def main(game: str, players: int, level: int, server: str | None = None, seat: int = 0, seed: int | None = None,
         record_path: str | None = None, hint_iterations: int = 3000, remote: Remote | None = None) -> int:
    from splendor_ai_client.errors import ServiceError

    if game == "duel" and players != 2:
        raise PlayError("duel is a two-player game (--players 2)")
    if not 0 <= seat < players:
        raise PlayError(f"--seat must be 0..{players - 1} for {players} players, got {seat}")
    if hint_iterations < 1:
        raise PlayError("--hint-iterations must be at least 1")
    seed = random.randrange(2**31) if seed is None else seed
    # Ctrl-C must reach the game (to save it) even when started with SIGINT ignored (e.g. `cmd &`).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    g = Game(game, players, seed, seat, level)
    path = record_path or default_record_path(game)
    code, started = 0, False
    try:
        with connect(server, remote=remote, game=game) as client:
            started = True
            term = Terminal(g, Engine(client), hint_iterations)
            try:
                term.run()
            except KeyboardInterrupt:
                term.say("\ninterrupted")
                code = 130
            except ServiceError as exc:
                raise PlayError(f"the server failed ({exc.code.name}): {exc.message}") from None
    finally:
        if started:
            save(g.record(), path)
            print(f"game saved to {path} ({len(g.actions)} moves; "
                  f"replay: splendor-ai analyze {path})", flush=True)
    return code
