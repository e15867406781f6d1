"""The RPC handlers: decode (convert), budget (budget), work (steps, engine), encode (convert). Nothing else.

Every handler is wrapped so that its exceptions become a status (errors.py) and the call is
logged in one line and counted (calls.py): method, request id, game, limits, elapsed time,
outcome. GetMove, Analyze and AnalyzeGame take their search slot first: a call refused for lack of one
costs no decoding.
"""
from __future__ import annotations

import functools
import logging
import time

from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

from . import budget, convert, engine, errors, steps
from .calls import Call, Observer
from .lateness import Lateness
from .nets import NetFault, Nets, as_net_fault
from .slots import SearchSlots

log = logging.getLogger("splendor_ai.service")


class Unparsable:
    """A request whose bytes do not parse as the method's message (see lenient_deserializer)."""

    request_id = ""

    def __init__(self, message: str, problem: str):
        self.message = message
        self.problem = problem


def lenient_deserializer(cls):
    """``cls.FromString``, but bytes that do not parse become an ``Unparsable``."""
    name = cls.DESCRIPTOR.full_name

    def parse(data: bytes):
        try:
            return cls.FromString(data)
        except Exception as exc:  # google.protobuf.message.DecodeError, or a bad UTF-8 string
            return Unparsable(name, str(exc) or type(exc).__name__)

    return parse


def _check(request) -> None:
    if isinstance(request, Unparsable):
        raise errors.FieldError("request", f"the bytes do not parse as a {request.message} ({request.problem})")
    convert.request_id(request)


def _fail(servicer, context, call: Call, exc: Exception):
    fault = as_net_fault(exc, call.game)
    if fault is not None:
        servicer.net_fault(fault)
        exc = fault
    status = errors.status_for(exc)
    call.outcome = errors.code_name(status)
    call.refusal = getattr(exc, "refusal", None)
    errors.abort(context, status)


def unary(fn):
    @functools.wraps(fn)
    def handler(self, request, context):
        call = Call(fn.__name__, getattr(request, "request_id", ""), context.peer())
        try:
            _check(request)
            return fn(self, request, context, call)
        except Exception as exc:
            _fail(self, context, call, exc)
        finally:
            self.observer.finish(call)

    return handler


def streaming(fn):
    @functools.wraps(fn)
    def handler(self, request, context):
        call = Call(fn.__name__, getattr(request, "request_id", ""), context.peer())
        try:
            _check(request)
            yield from fn(self, request, context, call)
        except GeneratorExit:
            call.outcome = "CANCELLED"
            raise
        except Exception as exc:
            _fail(self, context, call, exc)
        finally:
            self.observer.finish(call)

    return handler


def _remaining(context) -> float | None:
    remaining = context.time_remaining()
    return None if remaining is None or remaining > 1e7 else remaining


class SplendorServicer(pb_grpc.SplendorServiceServicer):
    def __init__(self, maxima: budget.Maxima, slots: SearchSlots, observer: Observer,
                 lateness: Lateness | None = None, nets: Nets | None = None, on_net_fault=None):
        self.maxima = maxima
        self.slots = slots
        self.observer = observer
        self.lateness = lateness if lateness is not None else Lateness()
        self.nets = nets if nets is not None else Nets()
        self._on_net_fault = on_net_fault  # the server's: turns the health status NOT_SERVING

    def net_fault(self, fault: NetFault) -> None:
        """A net the server cannot search with: logged as an error, counted, and the health
        status turned NOT_SERVING; the caller gets UNAVAILABLE without the detail."""
        log.error("net fault (%s): %s; the health status is now NOT_SERVING", fault.game, fault.detail)
        self.observer.metrics.net_faults.labels(fault.game).inc()
        if self._on_net_fault is not None:
            self._on_net_fault(fault)

    @unary
    def GetCatalog(self, request, context, call):
        call.game = convert.game_name(request.game)
        return convert.catalog(request.game)

    @unary
    def NewGame(self, request, context, call):
        call.game = convert.game_name(request.game)
        state, seed = steps.new_game(request)
        return pb.NewGameResponse(request_id=request.request_id, position=convert.encode_position(state),
                                  seed=seed, status=convert.encode_status(state))

    @unary
    def LegalActions(self, request, context, call):
        state = convert.decode_position(request.position)
        call.game = state.game
        position = state.to_position()
        moves = [convert.encode_move(position, a) for a in steps.legal_actions(state, request.all_payments)]
        return pb.LegalActionsResponse(request_id=request.request_id, moves=moves,
                                       status=convert.encode_status(state),
                                       threats=convert.encode_threats(steps.threats(state)))

    @unary
    def ApplyActions(self, request, context, call):
        state = convert.decode_position(request.position)
        call.game = state.game
        state, applied = steps.apply_moves(state, request.moves)
        return pb.ApplyActionsResponse(request_id=request.request_id, position=convert.encode_position(state),
                                       applied=applied, status=convert.encode_status(state))

    @unary
    def GetMove(self, request, context, call):
        started = time.monotonic()
        priority = budget.priority(request, "GetMove")
        with self.slots.acquire(context, priority == pb.PRIORITY_BATCH) as stopper:  # a refusal decodes nothing
            state = convert.decode_position(request.position)
            call.game = state.game
            plan = budget.move_plan(request, state.game, self.maxima, _remaining(context), started,
                                    self.lateness.allowance(), net=self.nets.net_for(state.game, state.players),
                                    priority_=priority)
            call.limits = plan.describe()
            steps.not_over(state)  # before the turn's search, which would call it an engine error

            def searched_of(s):
                return steps.searched_state(s, plan.perfect_information)

            try:
                turn = engine.play_turn(state, plan, stopper, searched_of, self.lateness)
            finally:
                call.iterations = stopper.iterations
            call.evaluator = turn.evaluator
            return convert.encode_turn(request.request_id, turn, plan)

    @streaming
    def Analyze(self, request, context, call):
        started = time.monotonic()
        priority = budget.priority(request, "Analyze")
        with self.slots.acquire(context, priority == pb.PRIORITY_BATCH) as stopper:  # a refusal decodes nothing
            state = convert.decode_position(request.position)
            call.game = state.game
            plan = budget.analyze_plan(request, self.maxima, _remaining(context), started,
                                       self.lateness.allowance(), net=self.nets.net_for(state.game, state.players),
                                       priority_=priority)
            call.limits = plan.describe()
            searched = steps.searched_state(state, plan.perfect_information)
            roots = steps.candidate_actions(searched, request.candidates)
            call.evaluator = plan.config().evaluator_info(searched.game, searched.players)
            options = convert.effective_options(plan, call.evaluator)
            reports = engine.analyze(searched, plan, stopper, roots, self.lateness)
            sequence, final = 0, None
            try:
                for result, reason in reports:
                    if result.evaluator is not None and result.evaluator != call.evaluator:
                        call.evaluator = result.evaluator  # what really evaluated
                        options = convert.effective_options(plan, call.evaluator)
                    why = steps.line_reasons(searched, result, plan.lines) if reason is not None else None
                    message = pb.AnalyzeResponse(
                        request_id=request.request_id, final=reason is not None, sequence=sequence, options=options,
                        stats=convert.encode_stats(searched, result, plan.lines,
                                                   reason or pb.STOP_REASON_UNSPECIFIED, why))
                    if reason is not None:
                        final = message
                        break
                    yield message
                    sequence += 1
            finally:
                reports.close()  # the search and its tree are freed here, not after the final message
                call.iterations = stopper.iterations
        if final is not None:  # sent once the slot is given back: a client slow to read it holds no search
            yield final

    @streaming
    def AnalyzeGame(self, request, context, call):
        started = time.monotonic()
        budget.priority(request, "AnalyzeGame")  # always batch
        with self.slots.acquire(context, batch=True) as stopper:  # a refusal decodes nothing
            plan = budget.game_plan(request, self.maxima, started, self.nets)
            call.game = plan.states[0].game
            call.limits = plan.describe()
            call.evaluator = plan.evaluator
            verdicts = []
            try:
                for verdict in engine.analyze_game(plan, stopper):
                    verdicts.append(verdict)
                    call.evaluator = plan.evaluator  # each search's own
                    yield pb.AnalyzeGameResponse(
                        request_id=request.request_id, sequence=len(verdicts) - 1, final=False,
                        decision=convert.encode_verdict(plan, verdict), done=len(verdicts), total=len(plan.moves),
                        options=convert.game_options(plan))
            finally:
                call.iterations = stopper.iterations
        yield convert.encode_game_summary(request.request_id, plan, verdicts, engine.seat_summaries(plan, verdicts))
