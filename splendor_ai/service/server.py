"""Start and stop the gRPC server: the Splendor service, health checking, reflection.

``splendor-ai serve`` calls ``serve(Settings)``. Every setting has a flag and an
environment variable (``SPLENDOR_AI_<NAME>``), documented in docs/protocol.md and
docs/deploy.md: TLS (``--tls-cert``, ``--tls-key``, ``--tls-client-ca`` for mutual TLS),
bearer tokens (``--token-file``, ``$SPLENDOR_AI_TOKENS``), Prometheus metrics
(``--metrics-port``), JSON logs (``--log-format json``).
SIGTERM, SIGINT (Ctrl-C) or SIGHUP (the terminal closed): stop accepting calls, let running
searches finish within the grace period, stop the ones still running shortly before it ends
(they answer with what they found), then exit 0. An idle server exits at once.

The health status is SERVING unless something the server cannot mend itself is wrong: a net
that failed while serving, or a gRPC port that cannot admit calls (admission.py); each turns it
NOT_SERVING with an error in the log, and a port that admits again turns it back.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from splendor.v1 import splendor_pb2 as pb

from ..certs import check_server_files
from .admission import REFUSAL_WORKERS, Admission
from .alarms import Alarms
from .auth import TokenAuth
from .calls import Metrics, Observer, configure_logging
from .budget import Maxima
from .lateness import Lateness
from .nets import Nets
from .servicer import SplendorServicer, lenient_deserializer
from .settings import (Settings, check_resources, is_loopback, load_tokens, memory_limit, open_file_share,
                       raise_open_file_limit)
from .slots import SearchSlots

log = logging.getLogger("splendor_ai.service")

SERVICE = pb.DESCRIPTOR.services_by_name["SplendorService"]
SERVICE_NAME = SERVICE.full_name
CHEAP_WORKERS = 8  # threads for calls that do not search (catalogue, moves, health, refusals)
EXIT_RESERVE = 0.7  # seconds (at most 15 % of the grace) kept at its end for the process to exit


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise OSError(f"{what}: cannot read {path}: {exc.strerror}") from None


def add_servicer(servicer: SplendorServicer, server: grpc.Server) -> None:
    """Register the Splendor service. Unlike the generated ``add_..._to_server``, a request
    whose bytes do not parse reaches the handler (as ``servicer.Unparsable``), which answers
    INVALID_ARGUMENT, instead of gRPC logging a traceback and answering INTERNAL."""
    handlers = {}
    for method in SERVICE.methods:
        request_cls = getattr(pb, method.input_type.name)
        response_cls = getattr(pb, method.output_type.name)
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(getattr(servicer, method.name),
                                     request_deserializer=lenient_deserializer(request_cls),
                                     response_serializer=response_cls.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)


class Server:
    def __init__(self, settings: Settings, environ=None):
        self.settings = settings
        # Every net, before anything listens: a bad one stops the start with one line (ValueError).
        self.nets = Nets.check(settings.net)
        self.open_files = raise_open_file_limit()  # (before, after): logged by serve()
        # What this machine allows (memory, open files): a setting beyond it stops the start.
        self.warnings_at_start = check_resources(settings, self.open_files[1], memory_limit())
        self.max_connections = settings.max_connections or open_file_share(self.open_files[1])
        self.tokens = load_tokens(settings.token_file, os.environ if environ is None else environ)
        self.host = settings.listen_host(bool(self.tokens))
        self.certificate = None
        if settings.tls:  # checked before any port opens: validity, the key, the name
            self.certificate, tls_warnings = check_server_files(
                settings.tls_cert, settings.tls_key, settings.tls_client_ca, settings.server_name, self.host)
            self.warnings_at_start += tls_warnings
        self.slots = SearchSlots(settings.max_concurrent, settings.max_batch)
        self.lateness = Lateness()
        self.metrics = Metrics(self.slots, self.lateness)
        if self.certificate is not None:
            self.metrics.tls_expiry.set(self.certificate.not_after.timestamp())
        self.observer = Observer(self.metrics)
        workers = settings.max_concurrent + CHEAP_WORKERS
        self._credentials = None
        if settings.tls:
            chain = _read(settings.tls_cert, "tls_cert")
            key = _read(settings.tls_key, "tls_key")
            ca = _read(settings.tls_client_ca, "tls_client_ca") if settings.tls_client_ca else None
            self._credentials = grpc.ssl_server_credentials([(key, chain)], root_certificates=ca,
                                                            require_client_auth=ca is not None)
        self._faults: set[str] = set()  # why the health status is NOT_SERVING ("net", "admission")
        self._health_lock = threading.Lock()
        self._started = False
        # Beyond `workers` calls at once the admission answers RESOURCE_EXHAUSTED (no queue), counted
        # and logged; REFUSAL_WORKERS more threads answer those refusals. Every place it gives comes
        # back on every path (admission.py), its pool bounds calls that never send or never read.
        self.alarms = Alarms()
        self.admission = Admission(workers, self.metrics, request_seconds=settings.body_timeout,
                                   send_seconds=settings.send_timeout, stuck_seconds=settings.stuck_seconds,
                                   on_stuck=lambda stuck: self._fault("admission", stuck), alarms=self.alarms)
        interceptors = [self.admission] + ([TokenAuth(self.tokens, self.observer)] if self.tokens else [])
        self._grpc = grpc.server(
            self.admission.executor(workers + REFUSAL_WORKERS, "rpc"),
            interceptors=interceptors,
            options=self.grpc_options(),
        )
        # A search's time is also within the call's (--max-call-seconds bounds every call).
        maxima = Maxima(settings.max_iterations, min(settings.max_seconds, settings.max_call_seconds),
                        settings.max_threads, settings.max_nodes, call_seconds=settings.max_call_seconds)
        self.servicer = SplendorServicer(maxima, self.slots, self.observer, self.lateness, self.nets,
                                         on_net_fault=self._net_fault)
        add_servicer(self.servicer, self._grpc)
        # Non-blocking: a client watching the health status does not hold a worker thread.
        self.health = health.HealthServicer(experimental_non_blocking=True,
                                            experimental_thread_pool=futures.ThreadPoolExecutor(max_workers=1))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._grpc)
        reflection.enable_server_reflection(
            [SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME],
            self._grpc)
        self.port: int | None = None
        self.metrics_port: int | None = None
        self.web = None  # the HTTP port for browsers (web.py), when settings.http_port >= 0
        self.http_port: int | None = None
        if settings.http_port >= 0:
            from .web import WebServer

            web = self.web = WebServer(self.servicer, host=self.host, port=settings.http_port, workers=workers,
                                       cors_origin=settings.cors_origin, tokens=self.tokens, observer=self.observer,
                                       tls_cert=settings.tls_cert, tls_key=settings.tls_key,
                                       tls_client_ca=settings.tls_client_ca, max_connections=self.max_connections,
                                       header_timeout=settings.header_timeout, body_timeout=settings.body_timeout,
                                       keepalive_timeout=settings.keepalive_timeout)
            self.metrics.places_in_use.labels("http").set_function(lambda: web.transport.active)
            self.metrics.places.labels("http").set(workers)

    def grpc_options(self) -> list[tuple[str, int]]:
        """The gRPC port's bounds on connections (docs/deploy.md#connections)."""
        s = self.settings

        def ms(seconds: float) -> int:
            return max(1, round(seconds * 1000))

        return [("grpc.so_reuseport", 0),
                ("grpc.max_allowed_incoming_connections", self.max_connections),
                ("grpc.server_handshake_timeout_ms", ms(s.header_timeout)),
                ("grpc.max_connection_idle_ms", ms(s.idle_timeout)),
                ("grpc.max_connection_age_ms", ms(s.max_connection_age)),
                ("grpc.max_connection_age_grace_ms", ms(s.max_connection_age_grace)),
                ("grpc.max_concurrent_streams", s.max_streams)]

    def start(self) -> int:
        address = f"{self.host}:{self.settings.port}"
        try:
            if self._credentials is not None:
                self.port = self._grpc.add_secure_port(address, self._credentials)
            else:
                self.port = self._grpc.add_insecure_port(address)
        except RuntimeError as exc:
            raise OSError(f"cannot listen on {address}: {exc}") from None
        if not self.port:
            raise OSError(f"cannot listen on {address}")
        if self.settings.metrics_port >= 0:
            try:
                self.metrics_port = self.metrics.serve(self.host, self.settings.metrics_port)
            except OSError as exc:
                raise OSError(f"cannot serve metrics on {self.host}:{self.settings.metrics_port}: "
                              f"{exc.strerror or exc}") from None
        if self.web is not None:
            self.http_port = self.web.start()
        self._grpc.start()
        with self._health_lock:
            self._started = True
        self._set_health()
        return self.port

    def _net_fault(self, fault) -> None:
        """A net failed while serving: an orchestrator should take this replica out."""
        self._fault("net", True)

    def _fault(self, what: str, on: bool) -> None:
        with self._health_lock:
            if on:
                self._faults.add(what)
            else:
                self._faults.discard(what)
        self._set_health()

    def _set_health(self) -> None:
        with self._health_lock:
            if not self._started:
                return
            serving = health_pb2.HealthCheckResponse
            status = serving.NOT_SERVING if self._faults else serving.SERVING
            for name in ("", SERVICE_NAME):
                self.health.set(name, status)

    def warnings(self) -> list[str]:
        """What an operator should know about how open this server is."""
        if is_loopback(self.host):
            return []
        out = []
        if not self.tokens:
            ports = f"{self.port}" + (f" and {self.http_port} (HTTP)" if self.http_port is not None else "")
            out.append(f"serving an open port: {self.host}:{ports} takes calls from anyone who can reach it "
                       "(no bearer tokens: --token-file or $SPLENDOR_AI_TOKENS)")
        if not self.settings.tls:
            out.append("no TLS: calls" + (" and their tokens" if self.tokens else "") +
                       " travel in plaintext (--tls-cert/--tls-key, or a proxy that terminates TLS)")
        return out

    def shutdown(self, grace: float | None = None) -> None:
        """Stop accepting calls; running searches get ``grace`` seconds, and are stopped a
        little before the end so that they can still answer."""
        grace = self.settings.grace if grace is None else grace
        # The ports are closed a little before the grace ends: the process still has to exit
        # within it (a loaded machine took 0.3 s for that).
        close_by = grace - min(EXIT_RESERVE, 0.15 * grace)
        with self._health_lock:
            self._started = False  # NOT_SERVING from now on, whatever the faults
        self.health.enter_graceful_shutdown()
        self.slots.close()
        if self.web is not None:
            self.web.stop(close_by)
        done = self._grpc.stop(close_by)
        # Searches still running are stopped before that, with time left to send their
        # answers: half of it, at most a second (a busy machine can pause for half a second).
        stop_at = max(0.5 * close_by, close_by - 1.0)
        timer = threading.Timer(stop_at, self.slots.stop_all)
        timer.daemon = True
        timer.start()
        done.wait()
        if self.web is not None:
            self.web.wait()
        timer.cancel()
        self.observer.flush()
        self.alarms.close()


def serve(settings: Settings) -> int:
    """Run until SIGTERM or SIGINT, then end the process with status 0 within the grace (it
    does not return once stopped; a start that fails raises)."""
    configure_logging(settings.log_format)
    server = Server(settings)
    port = server.start()
    s = settings
    for text in server.warnings_at_start + server.warnings():
        log.warning("%s", text)
    log.info("nets checked: %s", server.nets.describe())
    before, after = server.open_files
    log.info("open files: limit %d%s; at most %d connections a port (header_timeout=%gs body_timeout=%gs "
             "send_timeout=%gs keepalive_timeout=%gs idle_timeout=%gs max_connection_age=%gs max_streams=%d)", after,
             f" (raised from {before})" if after != before else "", server.max_connections, s.header_timeout,
             s.body_timeout, s.send_timeout, s.keepalive_timeout, s.idle_timeout, s.max_connection_age,
             s.max_streams)
    if server.metrics_port is not None:
        log.info("metrics on http://%s:%d/metrics", server.host, server.metrics_port)
    if server.http_port is not None:
        log.info("browser protocol (Connect, gRPC-Web) and the demo page on %s://%s:%d/ (cors_origin=%s)",
                 "https" if s.tls else "http", server.host, server.http_port, s.cors_origin or "none")
    # The last line of the start: tools wait for it (the port is the one to call).
    log.info("listening on %s:%d (tls=%s%s tokens=%d max_concurrent=%d max_batch=%d max_iterations=%d "
             "max_seconds=%g max_threads=%d max_nodes=%d grace=%gs)", server.host, port, "on" if s.tls else "off",
             " mutual" if s.tls_client_ca else "", len(server.tokens), s.max_concurrent, s.max_batch,
             s.max_iterations, s.max_seconds, s.max_threads, s.max_nodes, s.grace)
    received = []

    # The handler takes no lock: it runs in the main thread between two bytecodes, and an
    # Event.set() there deadlocks when the signal lands while the main thread holds that same
    # Event's lock inside wait() (seen here: about 1 SIGTERM in 30 hung the server for good).
    def on_signal(signum, _frame):
        received.append(signal.Signals(signum).name)

    # SIGHUP (the terminal of `splendor-ai serve` closed, or `kill -HUP`) stops the server as SIGTERM
    # does, draining its calls: there is no configuration to reload, and ending at once would cut
    # running calls off without a word.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    while not received:
        time.sleep(0.1)  # a signal interrupts the sleep, runs the handler, and the sleep resumes
    log.info("%s: stopping; running searches get %gs", received[0], s.grace)
    server.shutdown()
    log.info("stopped")
    # Exit now: the interpreter's own teardown (joining the worker pools' threads, gRPC's
    # cleanup) took up to a second more on a loaded machine, past the grace an orchestrator gave.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
