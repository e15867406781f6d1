"""The gRPC port's limit on calls at once, counted: a call beyond it is refused with
RESOURCE_EXHAUSTED, logged (one summary line per interval under a flood) and counted under
``splendor_refusals_total{port="grpc",reason="workers"}``.

gRPC's own ``maximum_concurrent_rpcs`` refuses before any code of ours sees the call, so its
refusals could be neither logged nor counted; this interceptor takes its place. It runs on
gRPC's serving thread before a worker is taken: an admitted call holds one of ``limit`` places
until its handler returns (or, for a stream never started, until the call ends). The refusals
themselves are answered by a few threads kept for them beyond ``limit``
(``REFUSAL_WORKERS``), so a refusal is never queued behind a running search. Health checks are
never refused: an orchestrator probing a busy server must not read it as dead.
"""
from __future__ import annotations

import logging
import threading

import grpc

from .auth import OPEN_PREFIXES
from .calls import Summary

REFUSAL_WORKERS = 4  # threads beyond the limit: they answer refusals and health checks


class Admission(grpc.ServerInterceptor):
    def __init__(self, limit: int, metrics):
        if limit < 1:
            raise ValueError(f"the limit on calls at once must be at least 1, got {limit}")
        self.limit = limit
        self._metrics = metrics
        self._lock = threading.Lock()
        self._active = 0
        self._summary = Summary(logging.WARNING, f"refused calls: every one of the {limit} worker threads was busy "
                                                 "(RESOURCE_EXHAUSTED)")

    def active(self) -> int:
        with self._lock:
            return self._active

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None or details.method.startswith(OPEN_PREFIXES):
            return handler
        with self._lock:
            admitted = self._active < self.limit
            if admitted:
                self._active += 1
        if not admitted:
            method = details.method.rsplit("/", 1)[-1]
            self._metrics.refusals.labels("grpc", "workers").inc()
            self._metrics.calls.labels(method, "-", "RESOURCE_EXHAUSTED").inc()
            self._summary.add(method)
            return _refusal(handler, f"the server is running its maximum of {self.limit} calls at once; retry later")
        return _admitted(handler, self._release_once())

    def _release_once(self):
        done = []
        lock = threading.Lock()

        def release():
            with lock:
                if done:
                    return
                done.append(True)
            with self._lock:
                self._active -= 1

        return release


def _admitted(handler, release):
    """``handler`` whose behaviour gives its place back when it returns or the call ends."""
    if handler.unary_unary:
        fn = handler.unary_unary

        def unary_unary(request, context):
            try:
                return fn(request, context)
            finally:
                release()

        return handler._replace(unary_unary=unary_unary)
    if handler.unary_stream:
        fn = handler.unary_stream

        def unary_stream(request, context):
            if not context.add_callback(release):  # also when the stream is never read
                release()
            return _releasing(fn(request, context), release)

        return handler._replace(unary_stream=unary_stream)
    # client streaming (none in this service but reflection's stream-stream): the call's end
    fn_ss, fn_su = handler.stream_stream, handler.stream_unary

    def with_callback(fn):
        def behaviour(requests, context):
            if not context.add_callback(release):
                release()
            return fn(requests, context)

        return behaviour

    if fn_ss:
        return handler._replace(stream_stream=with_callback(fn_ss))
    return handler._replace(stream_unary=with_callback(fn_su))


def _releasing(responses, release):
    try:
        yield from responses
    finally:
        release()


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

