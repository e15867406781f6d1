"""The browser protocol: the same servicer over Connect and gRPC-Web on an HTTP port, beside
the demo page (``splendor-ai serve --http-port P``; docs/web.md).

Browsers cannot speak gRPC (HTTP/2 trailers), so this port serves the same RPCs with
`connectrpc <https://github.com/connectrpc/connect-py>`_ (the Connect project's Python
runtime) under uvicorn: the **Connect** protocol (JSON or binary protobuf over HTTP/1.1 POST,
Analyze as a Connect server stream) and **gRPC-Web** (binary or text framing) on the same
paths, ``/splendor.v1.SplendorService/<Method>``. Its endpoints are built here from the
protobuf descriptor, so they cannot drift from the contract.

Every call goes to the one ``SplendorServicer`` the gRPC port uses (same validation, limits
and search slots), in a worker thread, with a context that gives it what a gRPC context
gives: the time left before the deadline (from the ``connect-timeout-ms`` or
``grpc-timeout`` header), a callback when the call ends (a browser that goes away, or a
deadline that passes, stops the search within one iteration), and ``abort``: the status
errors.py chose becomes the same code with the same details (google.rpc.BadRequest naming
the field, PreconditionFailure) in the protocol's own error format.

CORS is closed by default: no cross-origin page may call unless its origin is listed in
``--cors-origin``. The demo page (``static/``) is served at ``/`` and calls same-origin.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import gzip
import hashlib
import hmac
import logging
import mimetypes
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass
from importlib import resources

import grpc
from google.protobuf import json_format
from google.rpc import status_pb2
from splendor.v1 import splendor_pb2 as pb

from .calls import Call, Summary
from .http_guard import Guard, GuardedServer, protocol_class
from .servicer import Unparsable, lenient_deserializer
from .settings import parse_origins

try:
    import uvicorn
    from connectrpc.code import Code
    from connectrpc.errors import ConnectError, ErrorDetail
    from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
    from connectrpc.server import ConnectASGIApplication, Endpoint
    from protobuf.wkt import Any as WireAny
except ImportError as exc:  # the optional `web` extra
    raise ImportError(
        f"the HTTP port needs the 'web' extra: pip install '.[web]' in the splendor-ai source tree ({exc})") from None

log = logging.getLogger("splendor_ai.service")

SERVICE = pb.DESCRIPTOR.services_by_name["SplendorService"]
RPC_PREFIX = f"/{SERVICE.full_name}/"
STATIC = "static"
CHEAP_WORKERS = 8  # as on the gRPC port: threads for calls that do not search
EXIT_MARGIN_SECONDS = 0.5  # the HTTP port starts closing this long before stop()'s time is up
EXIT_SHUTDOWN_SECONDS = 0.2  # of which uvicorn waits this long for the calls still running
IDLE_LINGER_SECONDS = 0.2  # stopping with no call running: new requests get 503 this long, then the port closes

# CORS: what a cross-origin page may send and read (the Connect and gRPC-Web headers).
CORS_ALLOW_HEADERS = ("content-type, connect-protocol-version, connect-timeout-ms, connect-accept-encoding, "
                      "connect-content-encoding, grpc-timeout, x-grpc-web, x-user-agent, authorization")
CORS_EXPOSE_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin, connect-content-encoding"
CORS_MAX_AGE = "7200"


# --------------------------------------------------------------------------- codecs
# A request that does not parse reaches the servicer as an ``Unparsable`` (as on the gRPC
# port), which answers INVALID_ARGUMENT on ``request`` and logs and counts the call.
class BinaryCodec:
    """Binary protobuf (``application/proto``, ``application/grpc-web+proto``)."""

    def name(self) -> str:
        return "proto"

    def encode(self, message) -> bytes:
        return message.SerializeToString()

    def decode(self, data, message_class):
        return lenient_deserializer(message_class)(bytes(data))


class JsonCodec:
    """Protobuf JSON (proto3 mapping) with every field printed, zeros included, so that a
    page reads ``status.toMove`` as 0 rather than missing. Requests accept the proto names and
    the lowerCamelCase names; an unknown field or a wrong type is INVALID_ARGUMENT on
    ``request`` with the parser's words (naming the field)."""

    def name(self) -> str:
        return "json"

    def encode(self, message) -> bytes:
        return json_format.MessageToJson(message, indent=None, always_print_fields_with_no_presence=True).encode()

    def decode(self, data, message_class):
        message = message_class()
        try:
            json_format.Parse(bytes(data) or b"{}", message)
        except json_format.ParseError as exc:
            return Unparsable(message_class.DESCRIPTOR.full_name + " in JSON", str(exc))
        return message


# --------------------------------------------------------------------------- errors
_CODES = {c.value[0]: Code["CANCELED" if c.name == "CANCELLED" else c.name] for c in grpc.StatusCode if c.name != "OK"}


def connect_error(status: status_pb2.Status) -> ConnectError:
    """The google.rpc.Status errors.py made, as a Connect error: same code, message and details."""
    details = [ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(_CODES.get(status.code, Code.UNKNOWN), status.message, details)


# --------------------------------------------------------------------------- the call context
class HttpCallContext:
    """What the servicer asks of a ``grpc.ServicerContext``, for a call over HTTP."""

    def __init__(self, request_context, peer: str | None):
        remaining_ms = request_context.timeout_ms
        self._deadline = None if remaining_ms is None else time.monotonic() + remaining_ms / 1000
        self._peer = f"http:{peer}" if peer else "http"
        self._headers = tuple((k, v) for k, v in request_context.request_headers.allitems())
        self._lock = threading.Lock()
        self._callbacks: list = []
        self._ended = False

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self):
        return self._headers

    def add_callback(self, callback) -> bool:
        with self._lock:
            if self._ended:
                return False
            self._callbacks.append(callback)
            return True

    def end(self) -> None:
        """The call is over (answered, cancelled by the browser, or past its deadline)."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def abort_with_status(self, status):
        """errors.abort's way out: ``status`` is a grpc.Status whose trailing metadata holds the
        google.rpc.Status (rpc_status.to_status)."""
        for key, value in status.trailing_metadata or ():
            if key == "grpc-status-details-bin":
                raise connect_error(status_pb2.Status.FromString(value))
        self.abort(status.code, status.details)

    def abort(self, code: grpc.StatusCode, details: str):
        raise connect_error(status_pb2.Status(code=code.value[0], message=details))


# --------------------------------------------------------------------------- endpoints
_END = object()


def _close_after(pending, generator) -> None:
    """Close a servicer generator once its step in flight (if any) has returned."""
    if pending is not None:
        futures.wait([pending])
    generator.close()


class Transport:
    """The servicer's methods as Connect endpoints, each run in a worker thread. At most
    ``workers`` calls run at once (as on the gRPC port): one more is refused at once with
    RESOURCE_EXHAUSTED, counted (``splendor_refusals_total{port="http",reason="workers"}``) and
    logged in a summary line, instead of waiting in the pool's queue."""

    def __init__(self, servicer, workers: int, metrics=None):
        self.servicer = servicer
        self.limit = workers
        self.metrics = metrics
        self.pool = futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="http-rpc")
        self._active = 0  # touched on the event loop's thread only
        # called on the event loop's thread when the last running call ends
        self.on_idle: Callable[[], object] | None = None
        self._summary = Summary(logging.WARNING, f"refused HTTP calls: every one of the {workers} worker threads "
                                                 "was busy (RESOURCE_EXHAUSTED)")

    def _admit(self, name: str) -> None:
        if self._active >= self.limit:
            if self.metrics is not None:
                self.metrics.refusals.labels("http", "workers").inc()
                self.metrics.calls.labels(name, "-", "RESOURCE_EXHAUSTED").inc()
            self._summary.add(name)
            raise ConnectError(Code.RESOURCE_EXHAUSTED,
                               f"the server is running its maximum of {self.limit} calls at once; retry later")
        self._active += 1

    def _release_when(self, future) -> None:
        """Give the call's place back once ``future`` (its last step in a worker) is done."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._active -= 1
            return

        def done(_):
            try:
                loop.call_soon_threadsafe(self._release)
            except RuntimeError:  # the loop has closed: nothing counts any more
                pass

        future.add_done_callback(done)

    def _release(self) -> None:
        self._active -= 1
        if self._active == 0 and self.on_idle is not None:
            self.on_idle()

    @property
    def active(self) -> int:
        """Calls running now (read from any thread)."""
        return self._active

    def unary(self, method):
        async def call(request, ctx):
            self._admit(method.__name__)
            context = HttpCallContext(ctx, ctx.client_address)
            running = self.pool.submit(method, request, context)
            try:
                return await asyncio.wrap_future(running)
            finally:
                context.end()  # after a cancellation: stops the search, whose thread then ends
                self._release_when(running)

        return call

    def server_stream(self, method):
        async def call(request, ctx):
            self._admit(method.__name__)
            context = HttpCallContext(ctx, ctx.client_address)
            generator = method(request, context)
            pending = None
            try:
                while True:
                    pending = self.pool.submit(next, generator, _END)
                    message = await asyncio.wrap_future(pending)
                    pending = None
                    if message is _END:
                        return
                    yield message
            finally:
                context.end()
                closing = self.pool.submit(_close_after, pending, generator)
                self._release_when(closing)

        return call

    def endpoints(self, _service=None) -> dict:
        out: dict[str, Endpoint] = {}
        for m in SERVICE.methods:
            info = MethodInfo(name=m.name, service_name=SERVICE.full_name, input=getattr(pb, m.input_type.name),
                              output=getattr(pb, m.output_type.name), idempotency_level=IdempotencyLevel.UNKNOWN,
                              stream_type=StreamType.SERVER_STREAM if m.server_streaming else StreamType.UNARY)
            fn = getattr(self.servicer, m.name)
            if m.server_streaming:
                out[RPC_PREFIX + m.name] = Endpoint.server_stream(info, self.server_stream(fn))
            else:
                out[RPC_PREFIX + m.name] = Endpoint.unary(info, self.unary(fn))
        return out


class TokenCheck:
    """Bearer tokens on the HTTP port (the server's, as auth.py checks them on the gRPC port):
    checked from the headers before the request body is read; a missing or wrong one is
    UNAUTHENTICATED, logged and counted like any other call."""

    def __init__(self, tokens, observer=None):
        self._digests = [hashlib.sha256(t.encode()).digest() for t in tokens]
        self._observer = observer

    def valid(self, value: str | None) -> bool:
        scheme, _, token = (value or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return False
        digest = hashlib.sha256(token.strip().encode()).digest()
        return any(hmac.compare_digest(digest, ok) for ok in self._digests)

    async def on_start(self, ctx):
        if not self.valid(ctx.request_headers.get("authorization")):
            call = Call(ctx.method.name, peer=f"http:{ctx.client_address}" if ctx.client_address else "http")
            call.outcome = "UNAUTHENTICATED"
            if self._observer is not None:
                self._observer.finish(call)
            raise ConnectError(Code.UNAUTHENTICATED,
                               "missing or invalid bearer token (header 'authorization: Bearer <token>')")

    async def on_end(self, token, ctx, error):
        return None


class _ConnectApp(ConnectASGIApplication):
    @property
    def path(self) -> str:
        return "/" + SERVICE.full_name


# --------------------------------------------------------------------------- the HTTP app
@dataclass(frozen=True)
class StaticFile:
    """One file of the demo page, read once at start: its bytes, their gzip (when that is
    smaller) and an ETag, so that a phone downloads the page compressed once and afterwards
    revalidates it (304) instead of downloading it again."""

    body: bytes
    kind: str
    gzipped: bytes | None
    etag: bytes

    @classmethod
    def of(cls, body: bytes, kind: str) -> "StaticFile":
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        digest = hashlib.sha256(body).hexdigest()[:20]
        return cls(body, kind, packed if len(packed) < len(body) else None, f'"{digest}"'.encode())


def _static_files() -> dict[str, StaticFile]:
    """The demo page's files, by URL path."""
    out = {}
    for entry in resources.files(__package__).joinpath(STATIC).iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            kind = mimetypes.guess_type(entry.name)[0] or "application/octet-stream"
            if entry.name.endswith(".js"):
                kind = "text/javascript"
            if kind.startswith("text/"):
                kind += "; charset=utf-8"
            out["/" + entry.name] = StaticFile.of(entry.read_bytes(), kind)
    out["/"] = out["/index.html"]
    return out


def _header(scope, name: bytes) -> str:
    return b", ".join(v for k, v in scope.get("headers", ()) if k == name).decode("latin-1")


def _accepts_gzip(scope) -> bool:
    """Whether the request's Accept-Encoding takes gzip (a q of 0 refuses it)."""
    for item in _header(scope, b"accept-encoding").split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


class WebApp:
    """The ASGI application: RPCs (with CORS), the demo page, 404 for the rest; 503 to every
    request once the server is stopping (``guard.draining``)."""

    def __init__(self, connect_app, origins=(), guard=None):
        self.connect_app = connect_app
        self.origins = tuple(origins)
        self.files = _static_files()
        self.guard = guard

    def allowed(self, origin: str | None) -> bool:
        return origin is not None and ("*" in self.origins or origin in self.origins)

    def cors_headers(self, origin: str) -> list[tuple[bytes, bytes]]:
        return [(b"access-control-allow-origin", origin.encode()), (b"vary", b"Origin"),
                (b"access-control-expose-headers", CORS_EXPOSE_HEADERS.encode())]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.connect_app(scope, receive, send)
        path, method = scope["path"], scope["method"]
        origin = next((v.decode() for k, v in scope.get("headers", ()) if k == b"origin"), None)
        if self.guard is not None and self.guard.draining:
            self.guard.refused_request("shutdown")
            return await _respond(send, 503, b"the server is shutting down; retry on another\n",
                                  "text/plain; charset=utf-8", headers=[(b"connection", b"close")])
        if path.startswith(RPC_PREFIX):
            if method == "OPTIONS":
                return await self._preflight(origin, send)
            kind = _content_type(scope)
            if kind == GRPC or kind.startswith(GRPC + "+"):
                # gRPC itself needs HTTP/2 trailers: its port is the gRPC one. Said plainly, once.
                return await _respond(send, 415, b"application/grpc is served on the gRPC port; this HTTP port "
                                      b"serves Connect and gRPC-Web "
                                      b"(application/grpc-web, application/grpc-web-text)\n",
                                      "text/plain; charset=utf-8", headers=[(b"accept-post", ACCEPT_POST)])
            if kind == GRPC_WEB_TEXT or kind.startswith(GRPC_WEB_TEXT + "+"):
                receive, send = await _grpc_web_text(scope, receive, send, kind)
                if receive is None:
                    return None
            if origin is not None and self.allowed(origin):
                extra = self.cors_headers(origin)

                async def send_with_cors(message):
                    if message["type"] == "http.response.start":
                        message = dict(message, headers=[*message.get("headers", ()), *extra])
                    await send(message)

                return await self.connect_app(scope, receive, send_with_cors)
            return await self.connect_app(scope, receive, send)
        if method in ("GET", "HEAD") and path in self.files:
            return await self._static(self.files[path], scope, method, send)
        await _respond(send, 404, b"not found\n", "text/plain; charset=utf-8")

    async def _static(self, file: StaticFile, scope, method: str, send):
        """A file of the page: 304 when the browser's copy is current (ETag), else the file,
        gzipped for a browser that takes it. ``no-cache``: always revalidated, so a new
        version of the page is never hidden behind an old copy."""
        headers = [(b"cache-control", b"no-cache"), (b"etag", file.etag), (b"vary", b"Accept-Encoding"),
                   (b"x-content-type-options", b"nosniff")]
        tags = [t.strip() for t in _header(scope, b"if-none-match").split(",")]
        if file.etag.decode() in tags or "*" in tags:
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            return await send({"type": "http.response.body", "body": b""})
        body = file.body
        if file.gzipped is not None and _accepts_gzip(scope):
            body = file.gzipped
            headers.append((b"content-encoding", b"gzip"))
        return await _respond(send, 200, body if method == "GET" else b"", file.kind, len(body), headers)

    async def _preflight(self, origin, send):
        if not self.allowed(origin):
            return await _respond(send, 403, b"origin not allowed (splendor-ai serve --cors-origin)\n",
                                  "text/plain; charset=utf-8")
        headers = [*self.cors_headers(origin), (b"access-control-allow-methods", b"POST, GET"),
                   (b"access-control-allow-headers", CORS_ALLOW_HEADERS.encode()),
                   (b"access-control-max-age", CORS_MAX_AGE.encode())]
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


GRPC = "application/grpc"
GRPC_WEB = "application/grpc-web"
GRPC_WEB_TEXT = "application/grpc-web-text"
ACCEPT_POST = b"application/json, application/proto, application/grpc-web+proto, application/grpc-web-text+proto"
MAX_TEXT_BODY = 4 << 20  # bytes of a base64 request body (a request is a position: kilobytes)


def _content_type(scope) -> str:
    raw = next((v for k, v in scope.get("headers", ()) if k == b"content-type"), b"")
    return raw.decode("latin-1").split(";", 1)[0].strip().lower()


def _b64decode(text: bytes) -> bytes:
    """Base64 that may be several padded pieces end to end (how grpc-web-text streams it)."""
    text = b"".join(text.split())
    return b"".join(base64.b64decode(piece, validate=True) for piece in re.findall(rb"[^=]+=*", text))


async def _grpc_web_text(scope, receive, send, kind: str):
    """gRPC-Web's text mode (the grpc-web JavaScript client's default): the request body is the
    base64 of the binary framing, and so is each piece of the answer. Returns the (receive,
    send) that make it binary gRPC-Web for the Connect application, or (None, None) once it
    answered a body that is not base64 itself (400)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None, None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_TEXT_BODY:
            await _respond(send, 413, b"request body too large\n", "text/plain; charset=utf-8")
            return None, None
        if not message.get("more_body", False):
            break
    try:
        body = _b64decode(b"".join(chunks))
    except (binascii.Error, ValueError):
        await _respond(send, 400, b"application/grpc-web-text: the body is not base64\n", "text/plain; charset=utf-8")
        return None, None
    suffix = kind[len(GRPC_WEB_TEXT):]  # "" or "+proto"
    scope["headers"] = [(k, v) for k, v in scope.get("headers", ()) if k not in (b"content-type", b"content-length")]
    scope["headers"] += [(b"content-type", (GRPC_WEB + suffix).encode()), (b"content-length", str(len(body)).encode())]
    delivered = False

    async def text_receive():
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # the disconnect, when it comes

    async def text_send(message):
        if message["type"] == "http.response.start":
            headers = []
            for k, v in message.get("headers", ()):
                if k == b"content-length":
                    continue  # the base64 is longer
                if k == b"content-type" and v.startswith(GRPC_WEB.encode()):
                    v = GRPC_WEB_TEXT.encode() + v[len(GRPC_WEB):]
                headers.append((k, v))
            message = dict(message, headers=headers)
        elif message["type"] == "http.response.body" and message.get("body"):
            message = dict(message, body=base64.b64encode(message["body"]))  # padded: pieces decode end to end
        await send(message)

    return text_receive, text_send


async def _respond(send, status: int, body: bytes, kind: str, length: int | None = None, headers=()):
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind.encode()),
                            (b"content-length", str(len(body) if length is None else length).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


# --------------------------------------------------------------------------- the server
def _listen(host: str, port: int) -> socket.socket:
    name = host.strip("[]") or "localhost"
    if name == "localhost":  # one address, as the gRPC port's and the metrics' (not whichever family comes first)
        name = "127.0.0.1"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6 and name == "::":
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)
    return sock


class WebServer:
    """The HTTP port: uvicorn on its own thread and event loop, calls in a thread pool, each
    connection guarded (http_guard.py: a connection limit, header and body timeouts)."""

    def __init__(self, servicer, *, host: str, port: int, workers: int, cors_origin: str = "",
                 tokens=(), observer=None, tls_cert: str = "", tls_key: str = "", tls_client_ca: str = "",
                 max_connections: int = 1000, header_timeout: float = 10.0, body_timeout: float = 30.0,
                 keepalive_timeout: float = 15.0):
        metrics = observer.metrics if observer is not None else None
        self.transport = Transport(servicer, workers, metrics)
        interceptors = [TokenCheck(tokens, observer)] if tokens else []
        connect_app = _ConnectApp(service=servicer, endpoints=self.transport.endpoints, interceptors=interceptors,
                                  codecs=[BinaryCodec(), JsonCodec()])
        self.guard = Guard(max_connections, header_timeout, body_timeout, metrics)
        self.app = WebApp(connect_app, parse_origins(cors_origin), self.guard)
        self.host, self._port = host, port
        self.tls = bool(tls_cert)
        self.keepalive_timeout = keepalive_timeout
        self._tls_files = (tls_cert or None, tls_key or None, tls_client_ca or None)  # cert, key, client CA
        self._uvicorn: GuardedServer | None = None
        self._thread: threading.Thread | None = None
        self._exit_timer: threading.Timer | None = None
        self.port: int | None = None

    def start(self) -> int:
        sock = _listen(self.host, self._port)
        self.port = sock.getsockname()[1]
        cert, key, client_ca = self._tls_files
        # timeout_keep_alive: uvicorn annotates an int, and hands it to loop.call_later, which takes a float.
        config = uvicorn.Config(self.app, lifespan="off", access_log=False, log_config=None, log_level="warning",
                                http=protocol_class(self.guard),
                                timeout_keep_alive=self.keepalive_timeout,  # type: ignore[arg-type]
                                ssl_certfile=cert, ssl_keyfile=key, ssl_ca_certs=client_ca,
                                ssl_cert_reqs=ssl.CERT_REQUIRED if client_ca else ssl.CERT_NONE)
        try:
            config.load()  # reads the TLS files now: a bad one fails the start, not the first call
        except (OSError, ssl.SSLError) as exc:
            sock.close()
            raise OSError(f"the HTTP port's TLS files: {exc}") from None
        server = self._uvicorn = GuardedServer(config, self.guard)
        thread = self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="http",
                                                 daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the HTTP port {self.host}:{self.port} did not start")
            time.sleep(0.01)
        return self.port

    def stop(self, grace: float) -> None:
        """Start the drain: connections without a running call are closed now and new requests
        get 503 while calls still run; the port closes once the last of them has ended (after
        IDLE_LINGER_SECONDS more of 503s), at the latest when ``grace`` seconds are nearly
        over (see wait()). An idle port closes at once."""
        if self._uvicorn is None:
            return
        self.guard.drain()
        # uvicorn's own shutdown (the listener closed, the calls still running cancelled) takes
        # a few tenths of a second: it starts that much before the grace ends.
        # uvicorn annotates an int (or None) and hands it to asyncio.wait_for, which takes a float.
        shutdown = min(EXIT_SHUTDOWN_SECONDS, max(grace, 0.01))
        self._uvicorn.config.timeout_graceful_shutdown = shutdown  # type: ignore[assignment]
        self._exit_timer = threading.Timer(max(0.0, grace - EXIT_MARGIN_SECONDS), self._exit)
        self._exit_timer.daemon = True
        self._exit_timer.start()
        loop = self.guard.loop  # the HTTP port's event loop (GuardedServer.startup)
        assert loop is not None  # set before start() returned

        def exit_when_idle():  # on the event loop's thread, where the count of calls changes
            self.transport.on_idle = lambda: loop.call_later(IDLE_LINGER_SECONDS, self._exit)
            if self.transport.active == 0:
                self.transport.on_idle()

        try:
            loop.call_soon_threadsafe(exit_when_idle)
        except RuntimeError:  # the loop has already closed
            pass

    def _exit(self) -> None:
        assert self._uvicorn is not None  # stop() schedules this only once started
        self._uvicorn.should_exit = True

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
        if self._exit_timer is not None:
            self._exit_timer.cancel()
        self.guard.flush()
        self.transport.pool.shutdown(wait=False, cancel_futures=True)
