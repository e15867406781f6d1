"""The gRPC port's limit on calls at once, and the bounds that make every place it gives come
back: a call beyond the limit is refused with RESOURCE_EXHAUSTED, logged (one summary line per
interval under a flood) and counted under ``splendor_refusals_total{port="grpc",reason="workers"}``.

gRPC's own ``maximum_concurrent_rpcs`` refuses before any code of ours sees the call, so its
refusals could be neither logged nor counted; this interceptor takes its place. It runs on
gRPC's serving thread when a call arrives, before the request message is read, and gives the
call a ``Ticket`` (in the call's context variables): one of ``limit`` places when admitted.

A place comes back on every path out of the call, whichever comes first:
- the handler returns, raises, or its response stream ends or is closed;
- the call's work item in the worker pool ends (``AdmittingExecutor``): this is the path of a
  call cancelled, reset or past its deadline *before its request was read*, whose handler
  gRPC never runs, and of every call the server stops;
- the request message does not come within ``request_seconds`` of the call's start: the call
  is cancelled (a client that opens calls and never sends them holds nothing for long);
- a streamed message is not taken by the client within ``send_seconds``: the call is
  cancelled, which stops its search and frees its slot (a client that stops reading).

A watch checks once a second that places do come back: when every place has been held for
``stuck_seconds`` with none returned, the server cannot admit a call; that is logged as an
error, shown by ``splendor_admission_stuck`` and told to ``on_stuck`` (health NOT_SERVING),
and undone once a place comes back.

Refusals are answered by a few threads kept for them beyond ``limit`` (``REFUSAL_WORKERS``), so
a refusal is never queued behind a running search. Health checks are never refused: an
orchestrator probing a busy server must not read it as dead.
"""
from __future__ import annotations

import contextvars
import logging
import threading
import time
from concurrent import futures

import grpc

from .alarms import Alarm, Alarms
from .auth import OPEN_PREFIXES
from .calls import Summary

log = logging.getLogger("splendor_ai.service")

REFUSAL_WORKERS = 4  # threads beyond the limit: they answer refusals and health checks
WATCH_SECONDS = 1.0  # how often the watch looks at the places

_TICKET: contextvars.ContextVar = contextvars.ContextVar("splendor_ai_ticket", default=None)


class Ticket:
    """One call's passage through the port: its place (``placed``) and its request's bound.
    Every method may be called from any thread, any number of times."""

    __slots__ = ("_admission", "_lock", "placed", "_started", "_alarm")

    def __init__(self, admission: "Admission", placed: bool):
        self._admission = admission
        self._lock = threading.Lock()
        self.placed = placed
        self._started = False
        self._alarm: Alarm | None = None

    def await_request(self, call) -> None:
        """The call waits for its request message: cancel it unless it comes in time."""
        if call is None:
            return
        a = self._admission
        with self._lock:
            if not self._started:
                self._alarm = a.alarms.arm(a.request_seconds, lambda: self._overdue(call))

    def _overdue(self, call) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True  # nothing more to wait for
        call.cancel()
        self._admission.cancelled_by_server("body_timeout")

    def started(self) -> None:
        """The handler runs: the request came."""
        with self._lock:
            self._started = True
            alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()

    def give_back(self) -> None:
        with self._lock:
            placed, self.placed = self.placed, False
        if placed:
            self._admission._returned()

    def ended(self) -> None:
        self.started()
        self.give_back()


class Admission(grpc.ServerInterceptor):
    def __init__(self, limit: int, metrics, *, request_seconds: float = 30.0, send_seconds: float = 5.0,
                 stuck_seconds: float = 30.0, on_stuck=None, alarms: Alarms | None = None):
        if limit < 1:
            raise ValueError(f"the limit on calls at once must be at least 1, got {limit}")
        self.limit = limit
        self.request_seconds = request_seconds
        self.send_seconds = send_seconds
        self.stuck_seconds = stuck_seconds
        self.alarms = alarms if alarms is not None else Alarms("admission")
        self._metrics = metrics
        self._on_stuck = on_stuck
        self._lock = threading.Lock()
        self._active = 0
        self._last_return = time.monotonic()
        self._full_since = time.monotonic()
        self.stuck = False
        self._summary = Summary(logging.WARNING, f"refused calls: every one of the {limit} worker threads was busy "
                                                 "(RESOURCE_EXHAUSTED)")
        self._stalls = Summary(logging.WARNING, "calls cancelled by the server: a client did not send its request "
                                                f"within {request_seconds:g}s (body_timeout) or did not read a "
                                                f"message within {send_seconds:g}s (send_timeout)")
        if metrics is not None:
            metrics.places_in_use.labels("grpc").set_function(self.active)
            metrics.places.labels("grpc").set(limit)
            metrics.admission_stuck.set_function(lambda: 1.0 if self.stuck else 0.0)
        self.alarms.arm(WATCH_SECONDS, self._watch)

    def active(self) -> int:
        with self._lock:
            return self._active

    def executor(self, workers: int, name: str) -> "AdmittingExecutor":
        return AdmittingExecutor(self, max_workers=workers, thread_name_prefix=name)

    # -- the calls
    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None:
            return handler
        if details.method.startswith(OPEN_PREFIXES):
            return handler  # as it is: the health servicer's Watch carries gRPC's attributes
        with self._lock:
            admitted = self._active < self.limit
            if admitted:
                self._active += 1
                if self._active == self.limit:
                    self._full_since = time.monotonic()
        if not admitted:
            method = details.method.rsplit("/", 1)[-1]
            self._metrics.refusals.labels("grpc", "workers").inc()
            self._metrics.calls.labels(method, "-", "RESOURCE_EXHAUSTED").inc()
            self._summary.add(method)
            refusal = _refusal(handler, f"the server is running its maximum of {self.limit} calls at once; retry later")
            return _tracked(refusal, self._ticket(False), self)
        return _tracked(handler, self._ticket(True), self)

    def _ticket(self, placed: bool) -> Ticket:
        ticket = Ticket(self, placed)
        _TICKET.set(ticket)  # the call's own context: the executor finds it there (AdmittingExecutor)
        return ticket

    def _returned(self) -> None:
        with self._lock:
            self._active -= 1
            self._last_return = time.monotonic()

    def cancelled_by_server(self, reason: str) -> None:
        if self._metrics is not None:
            self._metrics.server_cancelled.labels(reason).inc()
        self._stalls.add(reason)

    # -- the watch
    def _watch(self) -> None:
        try:
            self.check_stuck(time.monotonic())
        finally:
            self.alarms.arm(WATCH_SECONDS, self._watch)

    def check_stuck(self, now: float) -> bool:
        with self._lock:
            held_since = max(self._last_return, self._full_since)
            stuck = self._active >= self.limit and now - held_since >= self.stuck_seconds
            changed, self.stuck = stuck != self.stuck, stuck
        if changed and stuck:
            log.error("the gRPC port cannot admit a call: every one of its %d places has been held for %.0fs with "
                      "none returned (a fault of the server's own); health is NOT_SERVING until one comes back",
                      self.limit, now - held_since)
        elif changed:
            log.warning("the gRPC port admits calls again: a place came back")
        if changed and self._on_stuck is not None:
            self._on_stuck(stuck)
        return stuck


class AdmittingExecutor(futures.ThreadPoolExecutor):
    """The gRPC server's worker pool: each call's work item ends its ticket, whatever happened
    to the call, and a call waiting for its request is bounded.

    gRPC submits a call's work as ``state.context.run(behaviour_in_pool, rpc_event, ...)``: the
    bound ``Context.run`` carries the context in which the interceptor set the ticket. A work
    item without a ticket (grpc's own) is run as it is."""

    def __init__(self, admission: Admission, **kwargs):
        super().__init__(**kwargs)
        self._admission = admission

    def submit(self, fn, /, *args, **kwargs):
        ctx = getattr(fn, "__self__", None)
        ticket = ctx.get(_TICKET) if isinstance(ctx, contextvars.Context) else None
        if ticket is None:
            return super().submit(fn, *args, **kwargs)
        ticket.await_request(_call_of(args))

        def work():
            try:
                return fn(*args, **kwargs)
            finally:
                ticket.ended()

        try:
            return super().submit(work)
        except BaseException:
            ticket.ended()
            raise


def _call_of(args):
    """The core call of a work item's arguments (``rpc_event.call``), to cancel it; None if gRPC
    submitted something else."""
    event = args[1] if len(args) > 1 else None
    call = getattr(event, "call", None)
    return call if callable(getattr(call, "cancel", None)) else None


def _tracked(handler, ticket: Ticket, admission: Admission):
    """``handler`` whose behaviour marks the request as come, gives the place back when it
    returns or its stream ends, and bounds each streamed message's delivery."""
    if handler.unary_unary:
        fn = handler.unary_unary

        def unary_unary(request, context):
            ticket.started()
            try:
                return fn(request, context)
            finally:
                ticket.give_back()

        return handler._replace(unary_unary=unary_unary)
    if handler.unary_stream:
        fn = handler.unary_stream

        def unary_stream(request, context):
            ticket.started()
            return _delivered(fn(request, context), ticket, context, admission)

        return handler._replace(unary_stream=unary_stream)
    # client streaming (none in this service but reflection's stream-stream): the call's end
    fn_ss, fn_su = handler.stream_stream, handler.stream_unary

    def with_callback(fn):
        def behaviour(requests, context):
            ticket.started()
            if not context.add_callback(ticket.give_back):
                ticket.give_back()
            return fn(requests, context)

        return behaviour

    if fn_ss:
        return handler._replace(stream_stream=with_callback(fn_ss))
    return handler._replace(stream_unary=with_callback(fn_su))


def _delivered(responses, ticket: Ticket, context, admission: Admission):
    """The handler's messages, each to be taken by the client within ``send_seconds``: gRPC asks
    for the next one only once the last is sent, so a message still held when its alarm rings
    is one the client does not read; the call is then cancelled."""
    def stalled():
        context.cancel()
        admission.cancelled_by_server("send_timeout")

    try:
        for message in responses:
            alarm = admission.alarms.arm(admission.send_seconds, stalled)
            try:
                yield message
            finally:
                alarm.cancel()
    finally:
        close = getattr(responses, "close", None)
        if close is not None:
            close()  # the handler's own cleanup (its search slot) now, not when collected
        ticket.give_back()


def _refusal(handler, message: str):
    def refuse(request_or_iterator, context):
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, message)

    # No request deserializer: a refused call's bytes are never parsed.
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(refuse)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(refuse)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(refuse)
    return grpc.unary_unary_rpc_method_handler(refuse)
