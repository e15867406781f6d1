"""What the server says about each call: one log line (text or JSON) and Prometheus metrics.

``Call`` collects one call's facts while it runs; ``Observer.finish(call)`` logs it and
counts it. Metrics (``prometheus-client``, their own registry, served over HTTP on
``--metrics-port``):

| metric | type | labels | meaning |
|---|---|---|---|
| `splendor_calls_total` | counter | method, game, code | calls ended, by RPC, game (`-` before it is known) and status code |
| `splendor_call_seconds` | histogram | method | wall time of each call in the server |
| `splendor_searches_in_flight` | gauge | | searches (GetMove, Analyze, AnalyzeGame) holding a slot now |
| `splendor_search_slots` | gauge | | the slots (`--max-concurrent`) |
| `splendor_batch_searches_in_flight` | gauge | | of those, batch work (AnalyzeGame, long Analyze) |
| `splendor_batch_search_slots` | gauge | | the slots batch work may hold (`--max-batch`); the rest are kept for interactive calls |
| `splendor_places_in_use` | gauge | port | calls admitted and not yet ended: gRPC's places (of `splendor_places`), the HTTP port's calls |
| `splendor_places` | gauge | port | the calls a port runs at once (`--max-concurrent` + 8) |
| `splendor_admission_stuck` | gauge | | 1 while every gRPC place has been held for `--stuck-seconds` with none returned (health NOT_SERVING) |
| `splendor_server_cancelled_total` | counter | reason | calls the server cancelled: `body_timeout` (the request never came), `send_timeout` (a streamed message the client did not read) |
| `splendor_tls_cert_expiry_timestamp_seconds` | gauge | | when the server's certificate expires (Unix time; with TLS) |
| `splendor_searches_refused_total` | counter | method | calls refused for lack of a slot (RESOURCE_EXHAUSTED) |
| `splendor_search_iterations_total` | counter | method, game | iterations searched |
| `splendor_unauthenticated_total` | counter | | calls refused for a missing or wrong token |
| `splendor_http_closed_total` | counter | reason | HTTP connections closed by the server: `header_timeout`, `body_timeout`, `evicted` (idle, for a new one at the limit), `drain` (at shutdown) |
| `splendor_net_faults_total` | counter | game | searches that failed on a net the server cannot use (each also logged as an error; health NOT_SERVING) |
| `splendor_refusals_total` | counter | port, reason | every call or connection the server refused, counted once by the layer that refused it: `slots` (no search slot), `batch_slots` (no slot for batch work), `workers` (every worker thread busy), `token`, `shutdown`, `connections` (the HTTP port's connection limit) |
| `process_*`, `python_gc_*`, `python_info` | | | the standard process collectors: resident memory, CPU seconds, open files and their limit, garbage collection |
| `splendor_deadline_allowance_seconds` | gauge | | kept before a deadline beyond the margin: how late the last 32 timed searches ended, at most (`lateness.py`) |
"""
from __future__ import annotations

import datetime
import json
import logging
import threading
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

log = logging.getLogger("splendor_ai.service")

# characters of a request_id shown in the log (= convert.MAX_REQUEST_ID: longer ones are refused)
LOGGED_REQUEST_ID = 128
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)


# The reason a refusal is counted under, from the outcome of a call refused by the servicer or a
# token check (the other layers name theirs).
REFUSAL_OUTCOMES = {"RESOURCE_EXHAUSTED": "slots", "UNAUTHENTICATED": "token", "UNAVAILABLE": "shutdown"}
REFUSAL_SUMMARY_SECONDS = 10.0  # refusals are logged as one line of counts per this at most


class Call:
    """The facts of one call, filled in while it runs."""

    def __init__(self, method: str, request_id: str = "", peer: str = ""):
        self.method = method
        self.request_id = request_id if isinstance(request_id, str) else ""
        self.peer = peer
        self.game = "-"
        self.limits = "-"
        self.outcome = "OK"
        self.iterations = 0
        self.evaluator = None  # (kind, net, checksum) of the search, when one ran
        self.refusal = None  # the reason a refusal is counted under, when the layer that refused knows it better
        self.started = time.monotonic()

    @property
    def port(self) -> str:
        return "http" if self.peer.startswith("http") else "grpc"

    def shown_request_id(self) -> str:
        rid = self.request_id
        if len(rid) > LOGGED_REQUEST_ID:
            return repr(rid[:LOGGED_REQUEST_ID]) + f"...({len(rid)} characters)"
        return repr(rid)

    def fields(self, elapsed: float) -> dict:
        rid = self.request_id
        shown = rid if len(rid) <= LOGGED_REQUEST_ID else rid[:LOGGED_REQUEST_ID] + "..."
        out = {"rpc": self.method, "request_id": shown,
               "game": self.game, "budget": self.limits, "elapsed_ms": round(elapsed * 1000, 1),
               "outcome": self.outcome, "iterations": self.iterations, "peer": self.peer}
        ev = self.evaluator
        if ev is not None:
            out.update(evaluator=ev.kind, net=ev.net, checksum=ev.checksum)
        return out

    def shown_evaluator(self) -> str:
        """`` evaluator=net net=base.splnn checksum=3f2a9c0d11e4b7a8`` (or ``heuristic``), or ""."""
        ev = self.evaluator
        if ev is None:
            return ""
        return f" evaluator={ev.kind}" + (f" net={ev.net} checksum={ev.checksum}" if ev.kind == "net" else "")


class Metrics:
    def __init__(self, slots=None, lateness=None):
        self.registry = CollectorRegistry()
        r = self.registry
        self.calls = Counter("splendor_calls", "Calls ended, by RPC, game and status code",
                             ["method", "game", "code"], registry=r)
        self.latency = Histogram("splendor_call_seconds", "Wall time of each call in the server", ["method"],
                                 buckets=LATENCY_BUCKETS, registry=r)
        self.in_flight = Gauge("splendor_searches_in_flight", "Searches holding a slot now", registry=r)
        self.slots = Gauge("splendor_search_slots", "Search slots (--max-concurrent)", registry=r)
        if slots is not None:
            self.in_flight.set_function(slots.active)
            self.slots.set(slots.limit)
        self.batch_in_flight = Gauge("splendor_batch_searches_in_flight", "Batch searches holding a slot now",
                                     registry=r)
        self.batch_slots = Gauge("splendor_batch_search_slots", "Search slots batch work may hold (--max-batch)",
                                 registry=r)
        if slots is not None:
            self.batch_in_flight.set_function(slots.batch_active)
            self.batch_slots.set(slots.batch_limit)
        self.places_in_use = Gauge("splendor_places_in_use", "Calls admitted and not yet ended, by port", ["port"],
                                   registry=r)
        self.places = Gauge("splendor_places", "Calls a port runs at once", ["port"], registry=r)
        self.admission_stuck = Gauge("splendor_admission_stuck", "1 while every gRPC place has been held for "
                                     "--stuck-seconds with none returned", registry=r)
        self.server_cancelled = Counter("splendor_server_cancelled", "Calls the server cancelled: body_timeout, "
                                        "send_timeout", ["reason"], registry=r)
        self.tls_expiry = Gauge("splendor_tls_cert_expiry_timestamp_seconds", "When the server's certificate "
                                "expires (Unix time)", registry=r)
        self.refused = Counter("splendor_searches_refused", "Calls refused for lack of a search slot", ["method"],
                               registry=r)
        self.iterations = Counter("splendor_search_iterations", "Iterations searched", ["method", "game"], registry=r)
        self.allowance = Gauge("splendor_deadline_allowance_seconds",
                               "Kept before a call's deadline beyond the usual margin: the latest timed searches' "
                               "largest lateness", registry=r)
        if lateness is not None:
            self.allowance.set_function(lateness.allowance)
        self.unauthenticated = Counter("splendor_unauthenticated", "Calls refused for a missing or wrong token",
                                       registry=r)
        self.http_closed = Counter("splendor_http_closed", "HTTP connections the server closed: header_timeout, "
                                   "body_timeout, evicted (idle, for a new one at the limit), drain (shutdown)",
                                   ["reason"], registry=r)
        self.net_faults = Counter("splendor_net_faults", "Searches that failed on a net the server cannot use",
                                  ["game"], registry=r)
        self.refusals = Counter("splendor_refusals", "Calls or connections refused, by the layer that refused them",
                                ["port", "reason"], registry=r)
        # memory, CPU, open files (and their limit), garbage collection, the interpreter
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)

    def serve(self, host: str, port: int) -> int:
        """Serve the metrics over HTTP (a daemon thread) on the gRPC port's address; returns the port."""
        addr = host.strip("[]") or "::"
        if addr == "localhost":  # one address, not whichever family the name resolves to first
            addr = "127.0.0.1"
        httpd, _ = start_http_server(port, addr=addr, registry=self.registry)
        return httpd.server_address[1]


class Observer:
    """Logs and counts each call when it ends: one line a call, but for refusals (no slot, a
    bad token, shutting down), which come in floods under overload or attack: those are
    counted one by one and logged as a summary line of counts per interval."""

    def __init__(self, metrics: Metrics):
        self.metrics = metrics
        self._refusals = Summary(logging.WARNING, "refused calls (no search slot, a missing or wrong token, or "
                                                  "shutting down)", REFUSAL_SUMMARY_SECONDS)

    def finish(self, call: Call) -> None:
        elapsed = time.monotonic() - call.started
        m = self.metrics
        m.calls.labels(call.method, call.game, call.outcome).inc()
        m.latency.labels(call.method).observe(elapsed)
        if call.outcome == "RESOURCE_EXHAUSTED":
            m.refused.labels(call.method).inc()
        elif call.outcome == "UNAUTHENTICATED":
            m.unauthenticated.inc()
        if call.iterations:
            m.iterations.labels(call.method, call.game).inc(call.iterations)
        if call.outcome in REFUSAL_OUTCOMES:
            reason = call.refusal or REFUSAL_OUTCOMES[call.outcome]
            m.refusals.labels(call.port, reason).inc()
            self._refusals.add(f"{call.method} {call.port} {reason}")
            return
        rid = f" request_id={call.shown_request_id()}" if call.request_id else ""
        log.info("%s%s game=%s limits=[%s]%s elapsed=%.1fms outcome=%s", call.method, rid, call.game, call.limits,
                 call.shown_evaluator(), elapsed * 1000, call.outcome, extra={"call": call.fields(elapsed)})

    def flush(self) -> None:
        """Log the refusals counted since the last summary line (at shutdown)."""
        self._refusals.flush()


class Summary:
    """A rate-limited log line for events that come in floods (refusals under overload, a full
    open-file table): the first one is logged at once, the rest counted and logged as one
    line per ``interval`` seconds at most. Thread-safe."""

    def __init__(self, level: int, text: str, interval: float = 10.0):
        self.level, self.text, self.interval = level, text, interval
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._last = -float("inf")

    def add(self, what: str, n: int = 1) -> None:
        with self._lock:
            self._counts[what] = self._counts.get(what, 0) + n
            now = time.monotonic()
            if now - self._last < self.interval:
                return
            counts, self._counts, self._last = self._counts, {}, now
        self._log(counts)

    def flush(self) -> None:
        with self._lock:
            counts, self._counts = self._counts, {}
        if counts:
            self._log(counts)

    def _log(self, counts: dict) -> None:
        detail = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
        log.log(self.level, "%s (%d in the last %gs at most; %s)", self.text, sum(counts.values()), self.interval,
                detail)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: a call's fields (``rpc``, ``request_id``, ``game``, ``budget``,
    ``elapsed_ms``, ``outcome``, ``iterations``, ``peer``; ``evaluator``, ``net``, ``checksum``
    after a search), or ``message`` for other lines;
    always ``time`` (UTC, ISO 8601) and ``level``."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"time": datetime.datetime.fromtimestamp(record.created, datetime.timezone.utc)
               .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
               "level": record.levelname}
        call = getattr(record, "call", None)
        if call is not None:
            out.update(call)
        else:
            out["message"] = record.getMessage()
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure_logging(log_format: str) -> None:
    """Log to stderr in ``text`` or ``json`` (unless the process configured logging itself)."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
