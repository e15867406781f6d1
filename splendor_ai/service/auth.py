"""Bearer tokens: every call but the health checks needs ``authorization: Bearer <token>``.

A server interceptor checks the metadata before the request is even parsed; a call without a
valid token ends with UNAUTHENTICATED (logged and counted like any other call). Tokens are
compared in constant time.
"""
from __future__ import annotations

import hashlib
import hmac

import grpc

OPEN_PREFIXES = ("/grpc.health.v1.Health/",)  # what a load balancer or orchestrator probes


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class TokenAuth(grpc.ServerInterceptor):
    def __init__(self, tokens, observer):
        if not tokens:
            raise ValueError("TokenAuth needs at least one token")
        self._digests = [_digest(t) for t in tokens]
        self._observer = observer

    def valid(self, metadata) -> bool:
        for key, value in metadata or ():
            if key == "authorization" and isinstance(value, str):
                scheme, _, token = value.partition(" ")
                if scheme.lower() == "bearer" and token:
                    d = _digest(token.strip())
                    return any(hmac.compare_digest(d, ok) for ok in self._digests)
        return False

    def intercept_service(self, continuation, details):
        method = details.method
        if method.startswith(OPEN_PREFIXES) or self.valid(details.invocation_metadata):
            return continuation(details)
        handler = continuation(details)
        if handler is None:  # no such method: let gRPC say UNIMPLEMENTED
            return None
        return self._refusal(method, handler)

    def _refusal(self, method: str, handler):
        from .calls import Call

        def refuse(request, context):
            call = Call(method.rsplit("/", 1)[-1], peer=context.peer())
            call.outcome = "UNAUTHENTICATED"
            self._observer.finish(call)
            context.abort(grpc.StatusCode.UNAUTHENTICATED,
                          "missing or invalid bearer token (metadata 'authorization: Bearer <token>')")

        # No request deserializer: a refused call's bytes are never parsed.
        if handler.request_streaming and handler.response_streaming:
            return grpc.stream_stream_rpc_method_handler(refuse)
        if handler.request_streaming:
            return grpc.stream_unary_rpc_method_handler(refuse)
        if handler.response_streaming:
            return grpc.unary_stream_rpc_method_handler(refuse)
        return grpc.unary_unary_rpc_method_handler(refuse)
