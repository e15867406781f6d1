"""Everything between the wire and the domain, and ALL validation of requests.

Positions: a ``Position`` message becomes the game's position dictionary
(docs/positions.md, docs/duel.md, docs/marvel.md), which the game's own ``validate_position``
checks; a PositionError's field is turned into the request's path (``seats[1].tokens[3]`` ->
``position.base.seats[1].tokens.red``, ``board[0][3]`` -> ``position.duel.board[3]``). Moves:
notation or structured form in, both out. Search options: defaults, ranges and the server's
maxima. Nothing here touches the network.

This module holds what every game shares; each game's messages are translated by its own
module (convert_base, convert_duel, convert_marvel), all with the same functions: ``decode``,
``encode``, ``proto_path``, ``encode_move``, ``structured_notation`` and ``catalog``.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from dataclasses import field as dc_field

from splendor.v1 import splendor_pb2 as pb

from ..games import HiddenInformationError, IllegalActionError, NotationError, PositionError, load_game
from ..games.errors import UnavailableCardError
from ..games.base import spec as base_spec
from ..games.chance import UnknownBagDraw, apply_with_outcome
from ..games.duel import spec as duel_spec
from ..games.marvel import spec as marvel_spec
from .. import analysis
from ..search import Config, Limits
from ..search.levels import get_level
from . import convert_base, convert_duel, convert_marvel
from .errors import FieldError, IllegalMove

GAMES = {pb.GAME_UNSPECIFIED: "base", pb.GAME_BASE: "base", pb.GAME_DUEL: "duel", pb.GAME_MARVEL: "marvel"}
CONVERTERS = {"base": convert_base, "duel": convert_duel, "marvel": convert_marvel}
SPECS = {"base": base_spec, "duel": duel_spec, "marvel": marvel_spec}
MIN_REPORT_MS = 10
MAX_MOVES = 1000  # moves (or candidates) in one request: more than a whole game
MAX_NOTATION = 64  # characters of one move's notation (or drawn_tokens)
MAX_REQUEST_ID = 128  # characters of a request_id (it is logged and echoed)


def deadline_margin(remaining: float, allowance: float = 0.0) -> float:
    """Seconds kept, before the caller's deadline, to send the answer: 50 ms plus a tenth
    of the time the call had, at most half a second (computed once, at the call's start).
    ``allowance`` (``lateness.Lateness.allowance``: how late this machine's searches have
    ended) is added on top, up to three quarters of the time the call had."""
    remaining = max(0.0, remaining)
    base = min(0.5, 0.05 + 0.1 * remaining)
    return max(base, min(base + max(0.0, allowance), 0.75 * remaining))


def request_id(request) -> str:
    """The request's ``request_id``, checked ("" for a request without one)."""
    rid = getattr(request, "request_id", "")
    if len(rid) > MAX_REQUEST_ID:
        raise FieldError("request_id", f"at most {MAX_REQUEST_ID} characters, got {len(rid)}")
    return rid


# ------------------------------------------------------------------------------ games
def game_name(value: int, field: str = "game") -> str:
    name = GAMES.get(value)
    if name is None:
        raise FieldError(field, f"unknown game {value}")
    return name


def catalog(game: int) -> pb.GetCatalogResponse:
    return CONVERTERS[game_name(game)].catalog()


def new_game(request: pb.NewGameRequest):
    """(state, seed) for a NewGame request."""
    name = game_name(request.game)
    players = request.players or 2
    counts = SPECS[name].PLAYER_COUNTS
    if players not in counts:
        allowed = " or ".join(map(str, counts)) if len(counts) < 3 else f"{counts[0]} to {counts[-1]}"
        raise FieldError("players", f"{CONVERTERS[name].NAME} is for {allowed} players, not {players}")
    seed = request.seed if request.HasField("seed") else random.SystemRandom().getrandbits(63)
    return load_game(name, players).new_initial_state(seed), seed


# ------------------------------------------------------------------------------ positions
def _proto_path(text: str, game: str = "base") -> str:
    """A position-dictionary path (also inside a message) written as the message's path."""
    return CONVERTERS[game].proto_path(text)


def position_error(exc: PositionError, prefix: str, game: str = "base") -> FieldError:
    return FieldError(f"{prefix}.{_proto_path(exc.field, game)}", _proto_path(exc.problem, game))


def _check_seat_count(msg, game: str, prefix: str) -> None:
    """The number of seats, checked before any seat is read (10,002 seats are refused as
    such, not for what the third one lacks)."""
    counts = SPECS[game].PLAYER_COUNTS
    n = len(msg.seats)
    if n not in counts:
        allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        raise FieldError(f"{prefix}.seats", f"{n} seats; this game has {allowed}")


def decode_position(msg: pb.Position, field: str = "position"):
    """The validated state of a Position message (FieldError names the offending field)."""
    which = msg.WhichOneof("game")
    if which is None:
        raise FieldError(field, "missing: set the game's position (position.base, position.duel or position.marvel)")
    prefix = f"{field}.{which}"
    _check_seat_count(getattr(msg, which), which, prefix)
    position = CONVERTERS[which].decode(getattr(msg, which), prefix)
    try:
        valid = SPECS[which].validate_position(position)
        return load_game(which, valid["players"]).state_from_position(valid)
    except PositionError as exc:
        raise position_error(exc, prefix, which) from None


def encode_position(state) -> pb.Position:
    return CONVERTERS[state.game].encode(state.to_position())


def encode_status(state) -> pb.GameStatus:
    return pb.GameStatus(to_move=state.current_player(), game_over=state.is_terminal(), returns=state.returns())


def is_view(state) -> bool:
    return state.to_position()["observer"] is not None


def searched_state(state, perfect_information: bool, field: str = "position"):
    """What a search of ``state`` sees: the mover's view, or the full state when asked for."""
    if state.is_terminal():
        raise IllegalMove(field, "the game is over: there is no move to search")
    if perfect_information:
        if is_view(state):
            raise FieldError("perfect_information", "needs a full position (this one is a seat's view)")
        return state
    return mover_view(state, field)


def mover_view(state, field: str = "position"):
    try:
        return state.view(state.current_player())
    except HiddenInformationError as exc:
        raise FieldError(f"{field}.{state.game}.observer", f"{exc}: send the view of the seat to act") from None


def legal_actions(state, all_payments: bool, field: str = "position") -> list[int]:
    try:
        return state.legal_actions() if all_payments else state.search_actions()
    except HiddenInformationError as exc:
        raise FieldError(f"{field}.{state.game}.observer", f"{exc}: send the view of the seat to act") from None


# ------------------------------------------------------------------------------ moves
def encode_move(position: dict, action: int) -> pb.Move:
    """A move made in ``position`` (a position dictionary): notation and structured form."""
    return CONVERTERS[position["game"]].encode_move(position, action)


def _parse(state, text: str, field: str) -> int:
    if any(ord(ch) < 32 for ch in text) or len(text) > MAX_NOTATION:
        raise FieldError(field, "not a move: too long or with control characters")
    try:
        return state.string_to_action(text)
    except UnavailableCardError:
        raise
    except NotationError as exc:
        raise FieldError(field, str(exc)) from None


def decode_move(state, msg: pb.Move, field: str) -> int:
    """The action id a Move message names in ``state`` (well formed; legality not checked,
    except that a card it buys or reserves must be available: IllegalMove otherwise)."""
    try:
        return _decode_move(state, msg, field)
    except UnavailableCardError as exc:
        raise IllegalMove(field, str(exc)) from None


def _decode_move(state, msg: pb.Move, field: str) -> int:
    structured = None
    which = msg.WhichOneof("structured")
    if which is not None:
        if which != state.game:
            raise FieldError(f"{field}.{which}", f"a {which} move, but the position is a {state.game} position "
                                                 f"(use {field}.{state.game})")
        text = CONVERTERS[which].structured_notation(getattr(msg, which), f"{field}.{which}")
        structured = _parse(state, text, f"{field}.{which}")
    if msg.notation.strip():
        action = _parse(state, msg.notation, f"{field}.notation")
        if structured is not None and structured != action:
            raise FieldError(field, f"notation {msg.notation!r} and the structured form "
                                    f"({text!r}) name different moves")
        return action
    if structured is None:
        raise FieldError(field, "empty: give the notation or the structured form")
    return structured


def drawn_card(msg: pb.Move) -> int | None:
    return msg.drawn_card if msg.HasField("drawn_card") else None


def drawn_tokens(state, msg: pb.Move, field: str) -> list[int] | None:
    if not msg.HasField("drawn_tokens"):
        return None
    if state.game != "duel":
        raise FieldError(field, f"only a Duel replenish draws tokens; this is a {state.game} position")
    if len(msg.drawn_tokens) > MAX_NOTATION:
        raise FieldError(field, f"at most {MAX_NOTATION} characters, got {len(msg.drawn_tokens)}")
    return convert_duel.drawn_tokens(msg.drawn_tokens, field)


def apply_moves(state, moves, field: str = "moves"):
    """(new state, canonical moves) after playing ``moves`` in order (all or nothing)."""
    _check_count(moves, field)
    applied = []
    for i, m in enumerate(moves):
        f = f"{field}[{i}]"
        action = decode_move(state, m, f)
        tokens = drawn_tokens(state, m, f"{f}.drawn_tokens")
        before = state.to_position()
        try:
            state = apply_with_outcome(state, action, drawn_card(m), drawn_tokens=tokens)
        except IllegalActionError as exc:
            raise IllegalMove(f, str(exc)) from None
        except UnknownBagDraw as exc:
            raise FieldError(f"{f}.drawn_tokens", f"missing: {exc}") from None
        except HiddenInformationError as exc:
            raise FieldError(f"{f}.drawn_card", f"missing: {exc}") from None
        except PositionError as exc:
            if exc.field == "observer":
                raise FieldError(f"position.{state.game}.observer", f"{f}: {exc.problem}") from None
            raise FieldError(f"{f}.{exc.field}", exc.problem) from None
        applied.append(encode_move(before, action))
    return state, applied


def _check_count(moves, field: str) -> None:
    if len(moves) > MAX_MOVES:
        raise FieldError(field, f"at most {MAX_MOVES} moves in one request, got {len(moves)}")


def illegal(state, action: int, field: str) -> IllegalMove:
    return IllegalMove(field, SPECS[state.game].explain_illegal(state.to_position(), action))


def candidate_actions(searched, moves, field: str = "candidates") -> list[int] | None:
    """The root actions an analysis is restricted to (None: all). A buy paid another way
    stands for the same buy with the default payment, the one the search considers."""
    if not moves:
        return None
    _check_count(moves, field)
    legal = set(legal_actions(searched, all_payments=True))
    spec = SPECS[searched.game]
    out = []
    for i, m in enumerate(moves):
        a = decode_move(searched, m, f"{field}[{i}]")
        if a not in legal:
            raise illegal(searched, a, f"{field}[{i}]")
        if spec.action_kind(a) == "buy":
            a = spec.buy_action(spec.split_buy(a)[0])
        out.append(a)
    return sorted(set(out))


# ------------------------------------------------------------------------------ searches
@dataclass(frozen=True)
class Maxima:
    """The server's caps on every search."""

    iterations: int
    seconds: float  # per search (AnalyzeGame: per decision)
    threads: int
    nodes: int = 2_000_000  # per search tree
    call_seconds: float = 600.0  # per call (AnalyzeGame: the whole game)


@dataclass
class SearchPlan:
    """A search request, validated and capped.

    Time is per call: ``seconds`` counts from the call's start (``started``), for GetMove's
    whole turn or Analyze's one search, and the answer must be ready by ``answer_by``: the
    call's deadline less a margin to send it, fixed once at the start."""

    iterations: int  # per search (GetMove: per searched decision)
    seconds: float  # the call's time (request, server maximum)
    threads: int
    seed: int
    temperature: float
    level: int
    lines: int  # 0 = all
    perfect_information: bool
    deadline: float | None  # time.monotonic() of the call's deadline
    started: float = dc_field(default_factory=time.monotonic)  # time.monotonic() of the call's start
    max_nodes: int = 2_000_000  # per search tree
    report_every: float | None = None  # Analyze: seconds between progress reports
    evaluator: str = "auto"  # the level's ("heuristic" for the lowest levels), else the shipped net's
    allowance: float = 0.0  # seconds kept before the deadline beyond the margin (lateness.Lateness)
    net: object = None  # a splendor_ai.nn.Net given with --net, else None: the shipped net
    turn_used: float = 0.0  # GetMove: seconds the turn took in the calls before (turn_elapsed_ms)
    priority: int = pb.PRIORITY_INTERACTIVE  # the slots it took (``priority``)

    @property
    def batch(self) -> bool:
        return self.priority == pb.PRIORITY_BATCH

    @property
    def turn_started(self) -> float:
        """``time.monotonic()`` of the turn's start: the call's, less the turn's earlier calls."""
        return self.started - self.turn_used

    @property
    def answer_by(self) -> float | None:
        """When the work must end so that the answer arrives before the deadline."""
        if self.deadline is None:
            return None
        return self.deadline - deadline_margin(self.deadline - self.started, self.allowance)

    @property
    def end(self) -> float:
        """When the call's searching ends: its time limit or ``answer_by``, whichever is first."""
        end = self.started + self.seconds
        return end if self.answer_by is None else min(end, self.answer_by)

    @property
    def deadline_bound(self) -> bool:
        """The call's end comes from its deadline, not from its time limit."""
        return self.answer_by is not None and self.answer_by < self.started + self.seconds

    def limits(self) -> Limits:
        """The limits of one search starting now, ending with the call's time."""
        return Limits(iterations=self.iterations, seconds=max(0.001, self.end - time.monotonic()),
                      max_nodes=self.max_nodes)

    def turn_limits(self) -> Limits:
        """The limits of a whole turn (TurnSearch counts the seconds from ``started``)."""
        return Limits(iterations=self.iterations, seconds=self.seconds, max_nodes=self.max_nodes)

    def config(self) -> Config:
        return Config(threads=self.threads, seed=self.seed, perfect_information=self.perfect_information,
                      evaluator=self.evaluator, net=self.net)

    def effective(self, evaluator=None) -> pb.EffectiveOptions:
        """The options in force; ``evaluator``: the search's (``search.Evaluator``), when known."""
        return pb.EffectiveOptions(
            limits=pb.SearchLimits(iterations=self.iterations, time_ms=round(self.seconds * 1000)),
            threads=self.threads, seed=self.seed, temperature=self.temperature, level=self.level,
            evaluator=encode_evaluator(evaluator), priority=self.priority)

    def describe(self) -> str:
        text = f"iterations={self.iterations} time_ms={round(self.seconds * 1000)} threads={self.threads}"
        if self.batch:
            text += " priority=batch"
        if self.turn_used:
            text += f" turn_elapsed_ms={round(self.turn_used * 1000)}"
        return (f"level={self.level} " if self.level else "") + text


def encode_evaluator(evaluator) -> pb.Evaluator | None:
    """A ``search.Evaluator`` (kind, the net's file name, its checksum) as a message."""
    if evaluator is None:
        return None
    return pb.Evaluator(kind=evaluator.kind, net=evaluator.net, checksum=evaluator.checksum)


def _limits(msg: pb.SearchLimits, field: str, maxima: Maxima) -> tuple[int, float]:
    if msg.iterations < 0:
        raise FieldError(f"{field}.iterations", f"must be 0 (no limit) or more, got {msg.iterations}")
    if msg.time_ms < 0:
        raise FieldError(f"{field}.time_ms", f"must be 0 (no limit) or more, got {msg.time_ms}")
    iterations = min(msg.iterations or maxima.iterations, maxima.iterations)
    seconds = min(msg.time_ms / 1000 if msg.time_ms else maxima.seconds, maxima.seconds)
    return iterations, seconds


def _common(request, maxima: Maxima, remaining: float | None, started: float | None, allowance: float) -> dict:
    if request.threads < 0:
        raise FieldError("threads", f"must be 0 (= 1) or more, got {request.threads}")
    if request.lines < 0:
        raise FieldError("lines", f"must be 0 (= all) or more, got {request.lines}")
    seed = request.seed if request.HasField("seed") else random.SystemRandom().getrandbits(63)
    now = time.monotonic()
    return dict(threads=min(max(request.threads, 1), maxima.threads), seed=seed, lines=request.lines,
                perfect_information=request.perfect_information, max_nodes=maxima.nodes,
                deadline=None if remaining is None else now + remaining, started=now if started is None else started,
                allowance=allowance)


MAX_TURN_ELAPSED_MS = 86_400_000  # GetMoveRequest.turn_elapsed_ms: a day
INTERACTIVE_MS = 10_000  # an Analyze asking for at most this long is interactive by default (a hint)
INTERACTIVE_ITERATIONS = 100_000  # or, without a time limit, for at most this many iterations


def priority(request, rpc: str) -> int:
    """The slots a search call may take (``pb.PRIORITY_INTERACTIVE`` or ``pb.PRIORITY_BATCH``):
    the request's ``priority``, or its RPC's default (proto ``Priority``). Read before anything
    else of the request is decoded: a call refused for lack of a slot costs no decoding."""
    asked = request.priority
    if asked not in (pb.PRIORITY_UNSPECIFIED, pb.PRIORITY_INTERACTIVE, pb.PRIORITY_BATCH):
        raise FieldError("priority", f"unknown value {asked}: PRIORITY_INTERACTIVE, PRIORITY_BATCH or unspecified")
    if rpc == "GetMove":
        return asked or pb.PRIORITY_INTERACTIVE
    if rpc == "AnalyzeGame":
        if asked == pb.PRIORITY_INTERACTIVE:
            raise FieldError("priority", "AnalyzeGame is batch work: PRIORITY_BATCH or unspecified")
        return pb.PRIORITY_BATCH
    limits = request.limits
    short = (0 < limits.time_ms <= INTERACTIVE_MS
             or (limits.time_ms == 0 and 0 < limits.iterations <= INTERACTIVE_ITERATIONS))
    if asked == pb.PRIORITY_INTERACTIVE and not short:
        raise FieldError("priority", f"an Analyze of more than {INTERACTIVE_MS // 1000} s (limits.time_ms), or "
                                     f"without a time limit of more than {INTERACTIVE_ITERATIONS:,} iterations, is "
                                     "batch work: PRIORITY_BATCH or unspecified")
    return asked or (pb.PRIORITY_INTERACTIVE if short else pb.PRIORITY_BATCH)


def move_plan(request: pb.GetMoveRequest, game: str, maxima: Maxima, remaining: float | None,
              started: float | None = None, allowance: float = 0.0) -> SearchPlan:
    """GetMove's options for a position of ``game`` (a level's iterations may differ by
    game); ``remaining`` is the time left before the call's deadline (or None),
    ``started`` the ``time.monotonic()`` of the call's start (default: now), ``allowance``
    the seconds kept before the deadline beyond the margin (``deadline_margin``)."""
    budget = request.WhichOneof("budget")
    if budget is None:
        raise FieldError("level", "missing: give a difficulty level (1..10) or limits")
    if budget == "level":
        try:
            level = get_level(request.level)
        except ValueError as exc:
            raise FieldError("level", str(exc)) from None
        settings = level.settings(game)  # the level whole: its iterations, turn bound, temperature, evaluator
        iterations = min(settings.limits.iterations, maxima.iterations)
        seconds = min(settings.limits.seconds or maxima.seconds, maxima.seconds)
        temperature, evaluator = settings.temperature, settings.config.evaluator
    else:
        if not request.limits.iterations and not request.limits.time_ms:
            raise FieldError("limits", "give iterations, time_ms or both (0 means no limit)")
        iterations, seconds = _limits(request.limits, "limits", maxima)
        temperature, evaluator = 0.0, "auto"
    if request.HasField("temperature"):
        temperature = request.temperature
        if not (math.isfinite(temperature) and 0 <= temperature <= 100):
            raise FieldError("temperature", f"must be 0..100, got {temperature}")
    if request.turn_elapsed_ms > MAX_TURN_ELAPSED_MS:
        raise FieldError("turn_elapsed_ms", f"must be 0..{MAX_TURN_ELAPSED_MS:,} (a day), got {request.turn_elapsed_ms:,}: "
                                            "give the turn_elapsed_ms of the response before")
    return SearchPlan(iterations=iterations, seconds=seconds, temperature=temperature,
                      level=request.level if budget == "level" else 0, evaluator=evaluator,
                      turn_used=request.turn_elapsed_ms / 1000,
                      **_common(request, maxima, remaining, started, allowance))


def analyze_plan(request: pb.AnalyzeRequest, maxima: Maxima, remaining: float | None,
                 started: float | None = None, allowance: float = 0.0) -> SearchPlan:
    iterations, seconds = _limits(request.limits, "limits", maxima)
    every = request.report_every_ms
    if every < 0 or 0 < every < MIN_REPORT_MS:
        raise FieldError("report_every_ms", f"0 (only the final message) or at least {MIN_REPORT_MS}, got {every}")
    return SearchPlan(iterations=iterations, seconds=seconds, temperature=0.0, level=0,
                      report_every=every / 1000 if every else None,
                      **_common(request, maxima, remaining, started, allowance))


STOP_REASONS = {"iterations": pb.STOP_REASON_ITERATIONS, "time": pb.STOP_REASON_TIME,
                "deadline": pb.STOP_REASON_DEADLINE, "cancelled": pb.STOP_REASON_CANCELLED,
                "forced": pb.STOP_REASON_FORCED}


def stop_reason(result, plan: SearchPlan) -> int:
    if result.cancelled:
        return pb.STOP_REASON_CANCELLED
    if result.out_of_time:
        return pb.STOP_REASON_DEADLINE if plan.deadline_bound else pb.STOP_REASON_TIME
    return pb.STOP_REASON_ITERATIONS


def _pv(searched, pv: list[str]) -> list[pb.Move]:
    out = []
    s = searched.clone()
    for text in pv:
        try:
            pos = s.to_position()
            action = s.string_to_action(text)
            if action not in s.legal_actions():
                break  # legal where the search found it, not here (another deal of the hidden cards)
            out.append(encode_move(pos, action))
            s.apply_action(action)
        except (HiddenInformationError, IllegalActionError, NotationError):
            break
    return out


def encode_stats(searched, result, lines: int, reason: int) -> pb.SearchStats:
    """The statistics of a search of ``searched`` (running when ``reason`` is unspecified)."""
    pos = searched.to_position()
    shown = result.actions[:lines] if lines else result.actions
    return pb.SearchStats(
        seat=result.seat, win_probability=result.win_probability,
        lines=[pb.Line(move=encode_move(pos, a.action), visits=a.visits, win_probability=a.value,
                       prior=a.prior, pv=_pv(searched, a.pv)) for a in shown],
        iterations=result.iterations, nodes=result.nodes, elapsed_seconds=result.elapsed,
        iterations_per_second=result.iterations_per_second, tree_bytes=result.tree_bytes,
        node_limit_hit=result.node_limit_hit, stop_reason=reason,
    )


def encode_turn(request_id: str, turn, plan: SearchPlan) -> pb.GetMoveResponse:
    """A ``search.turns.Turn`` as GetMove's answer."""
    out = pb.GetMoveResponse(
        request_id=request_id, turn_complete=turn.complete, options=plan.effective(turn.evaluator),
        moves=[encode_move(d.searched.to_position(), d.action) for d in turn.decisions],
        searches=[encode_stats(d.searched, d.result, plan.lines, STOP_REASONS[d.stop]) for d in turn.decisions],
        incomplete_reason=turn.stopped or "", turn_elapsed_ms=min(round(turn.elapsed * 1000), 2**32 - 1),
    )
    if turn.complete and turn.reveals is None:  # after a hidden draw the view cannot know the position
        out.position.CopyFrom(encode_position(turn.state))
        out.status.CopyFrom(encode_status(turn.state))
    return out


# ------------------------------------------------------------------------------ game analysis
DEFAULT_GAME_ITERATIONS = 2000


@dataclass
class GamePlan:
    """An AnalyzeGame request, validated and capped: the positions, the moves, the options."""

    states: list  # states[i]: the full position of moves[i]; one more: after the last move
    moves: list[str]  # canonical notation
    options: analysis.Options
    seconds: float = 60.0  # each decision's searches, at most (--max-seconds)
    call_seconds: float = 600.0  # the whole call, at most (--max-call-seconds)
    started: float = dc_field(default_factory=time.monotonic)
    evaluator: object = None  # the searches' search.Evaluator: the config's, then each search's own
    net: object = None  # a splendor_ai.nn.Net given with --net, else None: the shipped net
    max_nodes: int = 2_000_000  # per search tree

    def config(self) -> Config:
        """The config the decisions' searches run with (``analysis.judge``'s, less the seed)."""
        return Config(threads=self.options.threads, net=self.net)

    @property
    def call_end(self) -> float:
        return self.started + self.call_seconds

    def describe(self) -> str:
        o = self.options
        return (f"iterations={o.iterations} threads={o.threads} decisions={len(self.moves)} "
                f"decision_ms={round(self.seconds * 1000)} call_ms={round(self.call_seconds * 1000)} priority=batch")

    def effective(self) -> pb.GameAnalysisOptions:
        o = self.options
        return pb.GameAnalysisOptions(iterations=o.iterations, threads=o.threads, seed=o.seed,
                                      played_visits=o.min_played_visits, mistake=o.mistake, blunder=o.blunder,
                                      evaluator=encode_evaluator(self.evaluator), priority=pb.PRIORITY_BATCH)


def _threshold(value: float, default: float, field: str) -> float:
    if value == 0:
        return default
    if not (math.isfinite(value) and 0 < value <= 1):
        raise FieldError(field, f"must be 0 (the default, {default}) or in (0, 1], got {value}")
    return value


def game_plan(request: pb.AnalyzeGameRequest, maxima: Maxima, started: float | None = None,
              nets=None) -> GamePlan:
    """AnalyzeGame's positions, moves and options (FieldError / IllegalMove name the field).
    Each decision's searches end within ``maxima.seconds``, the whole call within
    ``maxima.call_seconds`` from ``started`` (default: now)."""
    state = decode_position(request.initial_position, "initial_position")
    if is_view(state):
        raise FieldError(f"initial_position.{state.game}.observer",
                         "must be absent: a game is judged from every mover's view, which needs the full "
                         "position (deck order included: NewGame's position)")
    _check_count(request.moves, "moves")
    states, moves = [state.clone()], []
    for i, m in enumerate(request.moves):
        f = f"moves[{i}]"
        for name in ("drawn_card", "drawn_tokens"):
            if m.HasField(name):
                raise FieldError(f"{f}.{name}", "must be absent: the full position knows what is drawn")
        action = decode_move(state, m, f)
        if state.is_terminal():
            raise IllegalMove(f, "the game is over: no move can follow")
        text = state.action_to_string(action)
        try:
            state.apply_action(action)
        except IllegalActionError as exc:
            raise IllegalMove(f, str(exc)) from None
        moves.append(text)
        states.append(state.clone())
    if request.iterations < 0:
        raise FieldError("iterations", f"must be 0 (= {DEFAULT_GAME_ITERATIONS}) or more, got {request.iterations}")
    if request.threads < 0:
        raise FieldError("threads", f"must be 0 (= 1) or more, got {request.threads}")
    iterations = min(request.iterations or DEFAULT_GAME_ITERATIONS, maxima.iterations)
    if not 0 <= request.played_visits <= iterations:
        raise FieldError("played_visits", f"must be 0 (a quarter of the iterations) up to the iterations "
                                          f"({iterations}), got {request.played_visits}")
    defaults = analysis.Options()
    mistake = _threshold(request.mistake, defaults.mistake, "mistake")
    blunder = _threshold(request.blunder, defaults.blunder, "blunder")
    if blunder < mistake:
        raise FieldError("blunder", f"must be at least the mistake threshold ({mistake}), got {blunder}")
    if request.HasField("seed") and request.seed >= 2**63:
        raise FieldError("seed", f"must be below 2**63, got {request.seed}")
    options = analysis.Options(iterations=iterations, seed=request.seed if request.HasField("seed") else 0,
                               threads=min(max(request.threads, 1), maxima.threads), mistake=mistake,
                               blunder=blunder, played_visits=request.played_visits)
    options.check()
    plan = GamePlan(states, moves, options, seconds=maxima.seconds, call_seconds=maxima.call_seconds,
                    started=time.monotonic() if started is None else started, max_nodes=maxima.nodes,
                    net=None if nets is None else nets.net_for(state.game, state.players))
    plan.evaluator = plan.config().evaluator_info(state.game, state.players)
    return plan


MARKS = {"": pb.MARK_NONE, "mistake": pb.MARK_MISTAKE, "blunder": pb.MARK_BLUNDER}


def encode_verdict(plan: GamePlan, verdict: dict) -> pb.DecisionVerdict:
    """A verdict of ``analysis.judge`` (moves in notation) as a message."""
    state = plan.states[verdict["index"]]
    view = state.view(verdict["seat"])
    view_pos, full_pos = view.to_position(), state.to_position()

    def move(text: str, position, s) -> pb.Move:
        return encode_move(position, s.string_to_action(text))

    return pb.DecisionVerdict(
        index=verdict["index"], turn=verdict["turn"], seat=verdict["seat"],
        played=move(verdict["move"], full_pos, state), best=move(verdict["best"], view_pos, view),
        played_value=verdict["value"], best_value=verdict["best_value"], drop=verdict["drop"],
        mark=MARKS[verdict["mark"]], forced=verdict["forced"], played_visits=verdict["visits"],
        extra_visits=verdict["extra_visits"],
        top=[pb.Alternative(move=move(t["move"], view_pos, view), visits=t["visits"], win_probability=t["value"])
             for t in verdict["top"]],
        win_probability=verdict["win_probability"],
    )


def encode_game_summary(request_id: str, plan: GamePlan, verdicts: list[dict]) -> pb.AnalyzeGameResponse:
    """The final message: the per-seat summary and the status after the last move."""
    last = plan.states[-1]
    seats = analysis.seat_summary(verdicts, len(last.returns()), plan.options)
    return pb.AnalyzeGameResponse(
        request_id=request_id, sequence=len(verdicts), final=True, done=len(verdicts), total=len(plan.moves),
        seats=[pb.SeatSummary(seat=s["seat"], decisions=s["decisions"], forced=s["forced"],
                              accuracy=s["accuracy"] or 0.0, mistakes=s["mistakes"], blunders=s["blunders"],
                              mean_drop=s["mean_drop"] or 0.0, agreed=s["agreed"]) for s in seats],
        status=encode_status(last), options=plan.effective())
