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
import asyncio.selector_events
import logging
import threading
import types
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

    def flush(self) -> None:
        """Log what the summaries counted since their last line (at the port's end)."""
        self._files.flush()
        self._refused.flush()

    def oldest_idle(self):
        """The connection open longest among those without a request in progress, or None."""
        return next((c for c in self.connections if c.is_idle()), None)

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
                idle = guard.oldest_idle()
                if idle is None:
                    guard.refused()
                    self._reject_busy()
                    return
                idle.close("evicted")
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
            guard.connections.pop(self, None)  # no longer counted: its file closes on the next tick
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


ACCEPT_BATCH = 64  # connections accepted per wake-up of the listening socket (asyncio: up to the backlog)


def _accept_connection(self, protocol_factory, sock, sslcontext=None, server=None, backlog=100,
                       ssl_handshake_timeout=60.0, ssl_shutdown_timeout=30.0):
    """asyncio's ``BaseSelectorEventLoop._accept_connection`` (Python 3.11), with two changes:
    at most ACCEPT_BATCH connections a wake-up, so the connection limit acts before the open
    files run out (a connection counts once its protocol exists, a tick after its accept); and
    when they run out anyway (EMFILE) the loop stops there and retries in a second, where
    asyncio's goes on through its whole backlog (2,048 under uvicorn), reporting and
    scheduling a retry at each step: about 20,000 tracebacks a second."""
    import errno

    from asyncio import constants, trsock

    for _ in range(min(backlog, ACCEPT_BATCH)):
        try:
            conn, addr = sock.accept()
            conn.setblocking(False)
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return None
        except OSError as exc:
            if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                self.call_exception_handler({"message": "socket.accept() out of system resource", "exception": exc,
                                             "socket": trsock.TransportSocket(sock)})
                self._remove_reader(sock.fileno())
                self.call_later(constants.ACCEPT_RETRY_DELAY, self._start_serving, protocol_factory, sock,
                                sslcontext, server, backlog, ssl_handshake_timeout, ssl_shutdown_timeout)
                return None
            raise
        else:
            self.create_task(self._accept_connection2(protocol_factory, conn, {"peername": addr}, sslcontext,
                                                      server, ssl_handshake_timeout, ssl_shutdown_timeout))
    return None


class GuardedServer(uvicorn.Server):
    """uvicorn's server with the guard's exception handler and accept loop on its event loop."""

    def __init__(self, config, guard: Guard):
        super().__init__(config)
        self.guard = guard
        self.loop_ready = threading.Event()

    async def startup(self, sockets=None) -> None:
        loop = asyncio.get_running_loop()
        self.guard.loop = loop
        loop.set_exception_handler(self.guard.exception_handler)
        if isinstance(loop, asyncio.selector_events.BaseSelectorEventLoop) and all(
                hasattr(loop, name) for name in ("_accept_connection2", "_start_serving", "_remove_reader")):
            # Deliberate: asyncio's private accept loop replaced (the names checked just above).
            loop._accept_connection = types.MethodType(_accept_connection, loop)  # type: ignore[attr-defined]
        self.loop_ready.set()
        await super().startup(sockets)
