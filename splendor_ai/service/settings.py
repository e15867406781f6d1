"""The server's settings: flags of ``splendor-ai serve`` and environment variables.

Kept apart from server.py so that the command line can show them without loading gRPC.
"""
from __future__ import annotations

import ipaddress
import math
import os
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from ..games.registry import GAMES as GAME_NAMES  # light: no rules, no gRPC

DEFAULT_PORT = 50551
TOKENS_ENV = "SPLENDOR_AI_TOKENS"  # bearer tokens themselves (comma or whitespace separated): no flag
LOG_FORMATS = ("text", "json")


CGROUP_ROOT = "/sys/fs/cgroup"


def cgroup_cpu_limit(root: str = CGROUP_ROOT) -> float | None:
    """The CPUs the container's quota allows (cgroup v2 ``cpu.max``, else v1
    ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``), or None without a quota."""
    def read(*parts: str) -> str | None:
        try:
            with open(os.path.join(root, *parts), encoding="ascii") as f:
                return f.read().strip()
        except (OSError, ValueError):
            return None

    v2 = read("cpu.max")
    if v2 is not None:
        quota, _, period = v2.partition(" ")
        try:
            return int(quota) / int(period or 100000) if quota != "max" else None
        except (ValueError, ZeroDivisionError):
            return None
    for folder in ("cpu,cpuacct", "cpu"):
        v1_quota, v1_period = read(folder, "cpu.cfs_quota_us"), read(folder, "cpu.cfs_period_us")
        if v1_quota is not None and v1_period is not None:
            try:
                q, p = int(v1_quota), int(v1_period)
            except ValueError:
                return None
            return q / p if q > 0 and p > 0 else None
    return None


def available_cores(root: str = CGROUP_ROOT) -> int:
    """The cores this process may use: the CPU affinity mask, capped by the container's CPU quota
    (rounded up; at least 1). ``os.cpu_count()`` counts the host's cores, not the container's."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = cgroup_cpu_limit(root)
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def _cores() -> int:
    return available_cores(CGROUP_ROOT)


INT32_MAX = 2**31 - 1
GRPC_MS_MAX = INT32_MAX // 1000  # seconds: gRPC's connection settings are int32 milliseconds
NODE_BYTES = 32  # a search tree's node unit (ext/search_tree.pxi): --max-nodes counts these
MAX_CONCURRENT = 1024  # each slot is a worker thread, with 8 more for calls that do not search
MEMORY_ROOT = "/sys/fs/cgroup"


@dataclass(frozen=True)
class Check:
    """A setting's range: ``ok(value)``, described for the error (``at least 1``)."""

    ok: Callable[[Any], bool]
    text: str

    def __call__(self, value) -> bool:
        if isinstance(value, float) and not math.isfinite(value):
            return False
        return self.ok(value)


def between(lo, hi) -> Check:
    return Check(lambda v: lo <= v <= hi, f"from {lo} to {hi}")


def above(lo, hi=None) -> Check:
    if hi is None:
        return Check(lambda v: v > lo, f"above {lo}, finite")
    return Check(lambda v: lo < v <= hi, f"above {lo}, at most {hi}")


def at_least(lo, hi=None) -> Check:
    if hi is None:
        return Check(lambda v: v >= lo, f"at least {lo}, finite")
    return Check(lambda v: lo <= v <= hi, f"at least {lo}, at most {hi}")


ANY = Check(lambda v: True, "")
PORT = between(0, 65535)
OPTIONAL_PORT = Check(lambda v: -1 <= v <= 65535, "-1 (off) or from 0 to 65535")
GRPC_SECONDS = above(0, GRPC_MS_MAX)


def setting(default, help: str, check: Check = ANY):
    """One server setting: its default, its help (the flag's), its range. The flag
    ``--NAME``, the variable ``SPLENDOR_AI_NAME`` and the range check are all built from it."""
    return field(default=default, metadata={"help": help, "check": check})


@dataclass
class Settings:
    """Every setting of ``splendor-ai serve``, declared once (docs/protocol.md lists them)."""

    host: str = setting("", "address to listen on ('' = localhost, or every interface with TLS or tokens)")
    port: int = setting(DEFAULT_PORT, "port to listen on (0 = any free port)", PORT)
    max_concurrent: int = setting(0, "searches at once (GetMove, Analyze, AnalyzeGame); more get RESOURCE_EXHAUSTED "
                                     "(0 = cores)", between(0, MAX_CONCURRENT))
    max_batch: int = setting(0, "of those, the searches batch work may hold (AnalyzeGame, long Analyze): the rest "
                                "are kept for interactive calls (0 = half of --max-concurrent, at least 1)",
                             between(0, MAX_CONCURRENT))
    max_iterations: int = setting(2_000_000, "cap on the iterations of any search", between(1, INT32_MAX))
    max_seconds: float = setting(60.0, "cap on the time of any search, in seconds (at most --max-call-seconds)",
                                 above(0))
    max_call_seconds: float = setting(600.0, "cap on the time of any one call, in seconds (AnalyzeGame: the whole "
                                             "game; --max-seconds caps each of its decisions)", above(0, 86_400))
    max_threads: int = setting(0, "cap on the threads of any search (0 = cores)", between(0, 64))
    max_nodes: int = setting(2_000_000, "nodes each search tree may grow to (32 bytes each); then it stops growing",
                             between(1000, INT32_MAX))
    grace: float = setting(10.0, "seconds running searches get to finish on SIGTERM (or SIGHUP)", at_least(0, 3600))
    tls_cert: str = setting("", "TLS: the server's certificate chain (PEM file); with --tls-key")
    tls_key: str = setting("", "TLS: the server's private key (PEM file)")
    tls_client_ca: str = setting("", "mutual TLS: clients must present a certificate signed by these CAs (PEM file)")
    server_name: str = setting("", "TLS: the name clients dial the server by, checked against --tls-cert at start "
                                   "(default: --host when it is a name; a mismatch with --host only warns)")
    token_file: str = setting("", "bearer tokens, one a line; every call but health checks needs one "
                                  "(also $SPLENDOR_AI_TOKENS, comma-separated)")
    metrics_port: int = setting(-1, "serve Prometheus metrics over HTTP on this port (-1 = off, 0 = any free port)",
                                OPTIONAL_PORT)
    log_format: str = setting("text", "text | json: one line (or JSON object) per call on stderr",
                              Check(lambda v: v in LOG_FORMATS, " or ".join(LOG_FORMATS)))
    http_port: int = setting(-1, "also serve the browser protocol (Connect, gRPC-Web) and the demo page on this HTTP "
                                 "port (-1 = off, 0 = any free port; needs the 'web' extra)", OPTIONAL_PORT)
    cors_origin: str = setting("", "origins whose pages may call the HTTP port, comma-separated, or * (default: none)")
    net: str = setting("", "GAME=FILE[,GAME=FILE]: search GAME with this net instead of the shipped one (for the "
                           "player counts it covers); every net is checked at start")
    # Connections (docs/deploy.md#connections): bounded by default against clients that hold them.
    max_connections: int = setting(0, "connections each port holds at most (0 = from the open-file limit, and at "
                                      "most what it allows); beyond it the HTTP port closes its oldest idle one, the "
                                      "gRPC port refuses", at_least(0))
    header_timeout: float = setting(10.0, "seconds a client has to send its request headers (HTTP) or finish the "
                                          "connection's handshake (gRPC)", GRPC_SECONDS)
    body_timeout: float = setting(30.0, "seconds a client has to send its request once its headers came (HTTP: the "
                                        "body; gRPC: the request message; then the call is cancelled)", above(0, 3600))
    send_timeout: float = setting(5.0, "gRPC: seconds a streamed message may wait for a client that does not read "
                                       "it; then the call is cancelled and its search slot freed", above(0, 3600))
    stuck_seconds: float = setting(30.0, "gRPC: health turns NOT_SERVING (and an error is logged) once every place "
                                         "of the port has been held this long with none returned", above(0, 86_400))
    keepalive_timeout: float = setting(15.0, "HTTP: seconds an idle connection is kept between requests",
                                       above(0, 86_400))
    idle_timeout: float = setting(300.0, "gRPC: seconds a connection without a call is kept", GRPC_SECONDS)
    max_connection_age: float = setting(3600.0, "gRPC: seconds after which a connection is asked to close (clients "
                                                "reconnect, which spreads them over replicas)", GRPC_SECONDS)
    max_connection_age_grace: float = setting(600.0, "gRPC: seconds the calls still running on such a connection "
                                                     "get", at_least(0, GRPC_MS_MAX))
    max_streams: int = setting(100, "gRPC: calls at once on one connection", between(1, INT32_MAX))

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            check = f.metadata["check"]
            if not check(value):
                raise ValueError(f"{f.name}: {value!r} is out of range ({check.text})")
        self.max_concurrent = self.max_concurrent or _cores()
        self.max_threads = self.max_threads or _cores()
        self.max_batch = self.max_batch or max(1, self.max_concurrent // 2)
        if self.max_batch > self.max_concurrent:
            raise ValueError(f"max_batch: {self.max_batch} is more than max_concurrent ({self.max_concurrent})")
        if self.max_seconds > self.max_call_seconds:
            raise ValueError(f"max_seconds: {self.max_seconds:g} is more than max_call_seconds "
                             f"({self.max_call_seconds:g}): no search outlasts its call")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ValueError("tls_cert and tls_key go together: give both or neither")
        if self.tls_client_ca and not self.tls_cert:
            raise ValueError("tls_client_ca (mutual TLS) needs tls_cert and tls_key")
        if self.server_name and not self.tls_cert:
            raise ValueError("server_name is the name in the server's certificate: it needs tls_cert and tls_key")
        parse_origins(self.cors_origin)
        parse_net_setting(self.net)

    @property
    def tls(self) -> bool:
        return bool(self.tls_cert)

    @property
    def search_bytes(self) -> int:
        """The most memory one search's trees may take: a tree per thread, each at the node cap."""
        return self.max_threads * self.max_nodes * NODE_BYTES

    def listen_host(self, has_tokens: bool) -> str:
        """The address to listen on: ``host``, or by default the loopback interface unless the
        server has TLS or tokens (a server without either is not put on the network by accident)."""
        if self.host:
            return self.host
        return "[::]" if self.tls or has_tokens else "localhost"

    @staticmethod
    def env_name(name: str) -> str:
        return "SPLENDOR_AI_" + name.upper()

    @classmethod
    def env_defaults(cls, environ=os.environ) -> dict:
        """The settings given by environment variables (a bad value raises ValueError)."""
        out = {}
        for f in fields(cls):
            raw = environ.get(cls.env_name(f.name))
            if raw is None or raw == "":
                continue
            kind = _kind(f)
            try:
                out[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"{cls.env_name(f.name)}={raw!r}: expected {kind.__name__}") from None
        return out


def _kind(f) -> type:
    return {"str": str, "int": int, "float": float}[f.type if isinstance(f.type, str) else f.type.__name__]


def serve_flags() -> list[tuple[str, type, str]]:
    """(name, type, help) of every setting, in declaration order: the flags of ``serve``."""
    return [(f.name, _kind(f), f.metadata["help"]) for f in fields(Settings)]


def memory_limit(root: str = MEMORY_ROOT) -> int | None:
    """Bytes this process may use: the machine's memory, capped by the container's limit
    (cgroup v2 ``memory.max``, else v1 ``memory.limit_in_bytes``); None when unknown."""
    limits = []
    try:
        limits.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        pass
    for name in ("memory.max", "memory/memory.limit_in_bytes"):
        try:
            with open(os.path.join(root, name), encoding="ascii") as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit():
            limits.append(int(text))
        break
    return min(limits) if limits else None


def check_resources(settings: Settings, open_files: int, memory: int | None) -> list[str]:
    """The bounds of this machine: ValueError for a setting it cannot honour (a search tree
    bigger than the memory, more connections than the open-file limit allows); the warnings
    for what only a full load would hit."""
    gib = 1 << 30
    if memory is not None and settings.search_bytes > memory:
        raise ValueError(f"max_nodes: {settings.max_nodes} nodes a tree x {settings.max_threads} threads "
                         f"(max_threads) x {NODE_BYTES} bytes is {settings.search_bytes / gib:.1f} GiB a search, more "
                         f"than this machine's memory ({memory / gib:.1f} GiB)")
    allowed = open_file_room(open_files)
    if settings.max_connections > allowed:
        raise ValueError(f"max_connections: {settings.max_connections} is more than the open-file limit allows "
                         f"({open_files} files: at most {allowed} connections a port; raise the limit, ulimit -n)")
    warnings = []
    total = settings.max_concurrent * settings.search_bytes
    if memory is not None and total > memory:
        warnings.append(f"max_concurrent x max_threads x max_nodes: {settings.max_concurrent} searches at their node "
                        f"cap would take {total / gib:.1f} GiB, more than this machine's {memory / gib:.1f} GiB")
    return warnings


def is_loopback(host: str) -> bool:
    """Whether ``host`` (as given to --host) is reachable from this machine only."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def load_tokens(token_file: str, environ=os.environ) -> list[str]:
    """The bearer tokens the server accepts: the lines of ``token_file`` (blank lines and
    ``#`` comments skipped) and the words of $SPLENDOR_AI_TOKENS. Raises ValueError for a file
    that cannot be read, is not text or holds no token, and for a variable that is set but
    holds no token (a blank secret would start a server open to anyone)."""
    tokens = []
    if token_file:
        try:
            with open(token_file, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as exc:
            raise ValueError(f"token_file: cannot read {token_file}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"token_file: {token_file} is not UTF-8 text (byte {exc.start}): one token a line") from None
        found = [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]
        if not found:
            raise ValueError(f"token_file: {token_file} holds no token (one a line)")
        tokens += found
    raw = environ.get(TOKENS_ENV, "")
    words = raw.replace(",", " ").split()
    if raw and not words:
        raise ValueError(f"{TOKENS_ENV} is set but holds no token ({raw!r}): give tokens separated by commas or "
                         "spaces, or unset it")
    tokens += words
    for t in tokens:
        if any(ord(c) < 33 or ord(c) > 126 for c in t):
            raise ValueError("tokens: a token is printable ASCII without spaces")
    return tokens


def parse_origins(text: str) -> tuple[str, ...]:
    """``cors_origin``: comma-separated origins (``https://game.example:8443``), or ``*``."""
    origins = tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())
    for o in origins:
        scheme, sep, rest = o.partition("://")
        if o != "*" and not (sep and scheme in ("http", "https") and rest and "/" not in rest):
            raise ValueError(f"cors_origin: {o!r} is not an origin (scheme://host[:port]) or '*'")
    return origins




def parse_net_setting(text: str) -> dict[str, str]:
    """``net``: ``GAME=FILE`` pairs, comma-separated (``base=/nets/base-v9.splnn``)."""
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        game, sep, path = part.partition("=")
        game, path = game.strip(), path.strip()
        if not sep or not path:
            raise ValueError(f"net: {part!r} is not GAME=FILE (e.g. base=/nets/base.splnn)")
        if game not in GAME_NAMES:
            raise ValueError(f"net: unknown game {game!r} in {part!r} (one of {', '.join(GAME_NAMES)})")
        if game in out:
            raise ValueError(f"net: {game} is given twice")
        out[game] = path
    return out


FILE_RESERVE = 128  # open files kept for the server itself (nets, logs, metrics, the event loops)
AUTO_MAX_CONNECTIONS = 10_000  # per port, however high the open-file limit


def raise_open_file_limit() -> tuple[int, int]:
    """Raise the soft open-file limit (RLIMIT_NOFILE) to the hard one; (before, after)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft


def open_file_room(limit: int) -> int:
    """The connections each of the two ports can hold under an open-file limit of ``limit``:
    what is left after FILE_RESERVE, halved (at least 16)."""
    return max(16, (limit - FILE_RESERVE) // 2)


def open_file_share(limit: int) -> int:
    """The connections each port holds by default: ``open_file_room``, at most AUTO_MAX_CONNECTIONS."""
    return min(AUTO_MAX_CONNECTIONS, open_file_room(limit))
