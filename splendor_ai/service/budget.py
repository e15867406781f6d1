"""A call's budget: its search limits, its time and deadline, its level, its priority,
validated and capped by the server's maxima, as a plan the engine runs (SearchPlan for GetMove
and Analyze, GamePlan for AnalyzeGame). A plan is complete when it is made (the net to search
with and the priority come in with the request's other fields): nothing changes it afterwards.

Time is per call: ``seconds`` counts from the call's start, and the answer must be ready by
``answer_by``, the call's deadline less a margin to send it (``deadline_margin``), fixed once at
the start. Protocol messages are read here (the budget's fields) but never written: convert.py
encodes what a plan ran with.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from dataclasses import field as dc_field

from splendor.v1 import splendor_pb2 as pb

from .. import analysis
from ..games import IllegalActionError
from ..search import Config, Limits
from ..search.levels import get_level
from .convert import check_count, decode_move, decode_position, is_view
from .errors import FieldError, IllegalMove

MIN_REPORT_MS = 10


def deadline_margin(remaining: float, allowance: float = 0.0) -> float:
    """Seconds kept, before the caller's deadline, to send the answer: 50 ms plus a tenth
    of the time the call had, at most half a second (computed once, at the call's start).
    ``allowance`` (``lateness.Lateness.allowance``: how late this machine's searches have
    ended) is added on top, up to three quarters of the time the call had."""
    remaining = max(0.0, remaining)
    base = min(0.5, 0.05 + 0.1 * remaining)
    return max(base, min(base + max(0.0, allowance), 0.75 * remaining))


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

    def describe(self) -> str:
        text = f"iterations={self.iterations} time_ms={round(self.seconds * 1000)} threads={self.threads}"
        if self.batch:
            text += " priority=batch"
        if self.turn_used:
            text += f" turn_elapsed_ms={round(self.turn_used * 1000)}"
        return (f"level={self.level} " if self.level else "") + text


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
              started: float | None = None, allowance: float = 0.0, *, net=None,
              priority_: int = pb.PRIORITY_INTERACTIVE) -> SearchPlan:
    """GetMove's options for a position of ``game`` (a level's iterations may differ by
    game); ``remaining`` is the time left before the call's deadline (or None),
    ``started`` the ``time.monotonic()`` of the call's start (default: now), ``allowance``
    the seconds kept before the deadline beyond the margin (``deadline_margin``), ``net`` the
    server's own net for the position (--net) or None, ``priority_`` the call's (``priority``)."""
    budget = request.WhichOneof("budget")
    if budget is None:
        raise FieldError("level", "missing: give a difficulty level (1..10) or limits")
    if budget == "level":
        try:
            level = get_level(request.level)
        except ValueError as exc:
            raise FieldError("level", str(exc)) from None
        settings = level.settings(game)  # the level whole: its iterations, turn bound, temperature, evaluator
        assert settings.limits.iterations is not None  # every level has its iterations
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
        raise FieldError("turn_elapsed_ms",
                         f"must be 0..{MAX_TURN_ELAPSED_MS:,} (a day), got {request.turn_elapsed_ms:,}: "
                         "give the turn_elapsed_ms of the response before")
    return SearchPlan(iterations=iterations, seconds=seconds, temperature=temperature,
                      level=request.level if budget == "level" else 0, evaluator=evaluator,
                      turn_used=request.turn_elapsed_ms / 1000, net=net, priority=priority_,
                      **_common(request, maxima, remaining, started, allowance))


def analyze_plan(request: pb.AnalyzeRequest, maxima: Maxima, remaining: float | None,
                 started: float | None = None, allowance: float = 0.0, *, net=None,
                 priority_: int = pb.PRIORITY_INTERACTIVE) -> SearchPlan:
    """Analyze's options (as ``move_plan``'s, with no level or temperature)."""
    iterations, seconds = _limits(request.limits, "limits", maxima)
    every = request.report_every_ms
    if every < 0 or 0 < every < MIN_REPORT_MS:
        raise FieldError("report_every_ms", f"0 (only the final message) or at least {MIN_REPORT_MS}, got {every}")
    return SearchPlan(iterations=iterations, seconds=seconds, temperature=0.0, level=0,
                      report_every=every / 1000 if every else None, net=net, priority=priority_,
                      **_common(request, maxima, remaining, started, allowance))


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
    check_count(request.moves, "moves")
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
