"""The HTTP port's defences against clients that hold connections: a connection limit, header
and body timeouts, quiet handling of a full open-file table, and a drain at shutdown.

uvicorn alone closes a connection only after a response (its keep-alive timeout): a client that
connects and sends nothing, or sends its headers or body a byte at a time, is kept for ever,
and about a thousand of them use up the open files. Here each connection is an ``H11Protocol``
that also:

- is counted against ``max_connections``: a new connection beyond it first closes the oldest
  idle one (no request in progress: waiting for a first byte or between requests), and when
  none is idle is answered ``503`` and closed (counted under
  ``splendor_refusals_total{port="http",reason="connections"}``);
- must send its request headers within ``header_timeout`` of its first byte (or of connecting)
  and its body within ``body_timeout`` of its headers, else it is closed (counted under
  ``splendor_http_closed_total{reason}``, with the evictions and the drain);
- at shutdown (``Guard.drain``) is closed at once unless a call is running on it; the port
  goes on answering new requests ``503`` until the grace ends (web.py).

The event loop's own "socket.accept() out of system resource" (the open files ran out) is
logged as one error line per interval, not a traceback per attempt.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .calls import Summary

log = logging.getLogger("splendor_ai.service")

_BUSY_BODY = b"the server holds its maximum of connections, none idle; retry\n"
BUSY_RESPONSE = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
                 b"content-length: " + str(len(_BUSY_BODY)).encode() + b"\r\nconnection: close\r\n"
                 b"retry-after: 1\r\n\r\n" + _BUSY_BODY)


class Guard:
    """The shared state of one HTTP port's connections (used on its event loop only, except
    ``drain``, which hands itself to the loop)."""

    def __init__(self, max_connections: int, header_timeout: float, body_timeout: float, metrics=None):
        self.max_connections = max_connections
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.metrics = metrics
        self.draining = False
        self.connections: OrderedDict = OrderedDict()  # protocol -> None, oldest first
        self.loop: asyncio.AbstractEventLoop | None = None
        self._refused = Summary(logging.WARNING, f"refused HTTP connections: the port holds its maximum of "
                                                 f"{max_connections} connections, none idle (503)")
        self._files = Summary(logging.ERROR, "the open files ran out: new connections wait (raise the open-file "
                                             "limit, or lower --max-connections)")

    # counts
    def closed(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.http_closed.labels(reason).inc()

    def refused(self) -> None:
        if self.metrics is not None:
            self.metrics.refusals.labels("http", "connections").inc()
        self._refused.add("connections")

    def refused_request(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.refusals.labels("http", reason).inc()

    def idle(self):
        return [c for c in self.connections if c.is_idle()]

    def drain(self) -> None:
        """From any thread: close every connection without a call running; new requests get 503."""
        self.draining = True
        if self.loop is not None and not self.loop.is_closed():
            try:
                self.loop.call_soon_threadsafe(self._drain)
            except RuntimeError:  # the loop has just closed
                pass

    def _drain(self) -> None:
        for conn in list(self.connections):
            if conn.is_idle() or conn.receiving():
                conn.close("drain")

    def exception_handler(self, loop, context) -> None:
        """The event loop's: a full open-file table is a summary line, not a traceback per accept."""
        exc = context.get("exception")
        if isinstance(exc, OSError) and "out of system resource" in context.get("message", ""):
            self._files.add(exc.strerror or type(exc).__name__)
            return
        loop.default_exception_handler(context)


def protocol_class(guard: Guard) -> type:
    """An H11Protocol bound to ``guard`` (uvicorn makes one per connection)."""

    class GuardedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _phase: str = ""  # "header" or "body" while a timer runs

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if guard.loop is None:
                guard.loop = self.loop
            if len(guard.connections) >= guard.max_connections:
                idle = guard.idle()
                if not idle:
                    guard.refused()
                    self._reject_busy()
                    return
                idle[0].close("evicted")
            guard.connections[self] = None
            self._arm()

        def _reject_busy(self) -> None:
            self.transport.write(BUSY_RESPONSE)
            self.transport.close()

        def connection_lost(self, exc) -> None:
            guard.connections.pop(self, None)
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if not self.transport.is_closing():
                self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        # what the connection is doing
        def receiving(self) -> bool:
            """Its client is sending a request (headers or body) that has not all arrived."""
            state = self.conn.their_state
            return state is h11.SEND_BODY or (state is h11.IDLE and bool(self.conn.trailing_data[0]))

        def is_idle(self) -> bool:
            """No request in progress: waiting for a first byte, or between requests."""
            if self.cycle is not None and not self.cycle.response_complete:
                return False
            return self.conn.their_state in (h11.IDLE, h11.DONE) and not self.conn.trailing_data[0]

        def close(self, reason: str) -> None:
            if not self.transport.is_closing():
                guard.closed(reason)
                self.transport.close()

        # the timers
        def _arm(self) -> None:
            state = self.conn.their_state
            if state is h11.IDLE and (self.cycle is None or self.cycle.response_complete):
                # headers to come; between requests only once a byte of the next has come
                # (before that the keep-alive timeout runs)
                if self.timeout_keep_alive_task is None or self.conn.trailing_data[0]:
                    self._start("header", guard.header_timeout)
                else:
                    self._disarm()
            elif state is h11.SEND_BODY:
                self._start("body", guard.body_timeout)
            else:
                self._disarm()

        def _start(self, phase: str, seconds: float) -> None:
            if self._phase == phase:
                return  # counts from the phase's start, not from the latest byte
            self._disarm()
            self._phase = phase
            self._timer = self.loop.call_later(seconds, self._expired, phase)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._phase = None, ""

        def _expired(self, phase: str) -> None:
            self._timer, self._phase = None, ""
            self.close(f"{phase}_timeout")

    return GuardedH11Protocol


class GuardedServer(uvicorn.Server):
    """uvicorn's server with the guard's exception handler on its event loop."""

    def __init__(self, config, guard: Guard):
        super().__init__(config)
        self.guard = guard
        self.loop_ready = threading.Event()

    async def startup(self, sockets=None) -> None:
        loop = asyncio.get_running_loop()
        self.guard.loop = loop
        loop.set_exception_handler(self.guard.exception_handler)
        self.loop_ready.set()
        await super().startup(sockets)
