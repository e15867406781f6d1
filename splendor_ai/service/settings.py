"""The server's settings: flags of ``splendor-ai serve`` and environment variables.

Kept apart from server.py so that the command line can show them without loading gRPC.
"""
from __future__ import annotations

import ipaddress
import math
import os
from dataclasses import dataclass, fields

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
        quota, period = read(folder, "cpu.cfs_quota_us"), read(folder, "cpu.cfs_period_us")
        if quota is not None and period is not None:
            try:
                q, p = int(quota), int(period)
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


@dataclass
class Settings:
    host: str = ""  # "" = localhost without TLS or tokens, every interface ("[::]") with either
    port: int = DEFAULT_PORT
    max_concurrent: int = 0  # 0 = the number of cores
    max_iterations: int = 2_000_000
    max_seconds: float = 60.0  # per search: a GetMove turn, an Analyze, one AnalyzeGame decision
    max_call_seconds: float = 600.0  # per call, whatever it is (AnalyzeGame: its whole game)
    max_threads: int = 0  # 0 = the number of cores
    max_nodes: int = 2_000_000  # per search tree (32 bytes a node)
    grace: float = 10.0
    tls_cert: str = ""  # PEM certificate chain of the server
    tls_key: str = ""  # PEM private key of the server
    tls_client_ca: str = ""  # PEM CA certificates: clients must present a certificate they signed
    token_file: str = ""  # bearer tokens, one a line (also SPLENDOR_AI_TOKENS)
    metrics_port: int = -1  # Prometheus metrics over HTTP: -1 = off, 0 = any free port
    log_format: str = "text"  # text | json (one object per line)
    http_port: int = -1  # the browser protocol (Connect, gRPC-Web) and the demo page: -1 = off, 0 = any free port
    cors_origin: str = ""  # origins whose pages may call the HTTP port (comma-separated, or *): "" = none
    net: str = ""  # GAME=FILE[,GAME=FILE]: a net of one's own for a game, instead of the shipped one
    # Connections (docs/deploy.md#connections): bounded by default against clients that hold them.
    max_connections: int = 0  # per port (gRPC, HTTP); 0 = from the open-file limit (open_file_share)
    header_timeout: float = 10.0  # HTTP: request headers within this of the first byte; gRPC: the handshake
    body_timeout: float = 30.0  # HTTP: the request body within this of its headers
    keepalive_timeout: float = 15.0  # HTTP: an idle connection between requests is closed after this
    idle_timeout: float = 300.0  # gRPC: a connection without a call for this long is closed (GOAWAY)
    max_connection_age: float = 3600.0  # gRPC: a connection is closed (GOAWAY) after this, to rebalance
    max_connection_age_grace: float = 600.0  # gRPC: what calls still running then get (= --max-call-seconds)
    max_streams: int = 100  # gRPC: calls at once on one connection

    def __post_init__(self):
        self.max_concurrent = self.max_concurrent or _cores()
        self.max_threads = self.max_threads or _cores()
        checks = [("port", 0 <= self.port <= 65535), ("max_concurrent", self.max_concurrent >= 1),
                  ("max_iterations", self.max_iterations >= 1), ("max_seconds", self.max_seconds > 0),
                  ("max_call_seconds", self.max_call_seconds > 0),
                  ("max_threads", 1 <= self.max_threads <= 64), ("max_nodes", self.max_nodes >= 1000),
                  ("grace", self.grace >= 0), ("metrics_port", -1 <= self.metrics_port <= 65535),
                  ("log_format", self.log_format in LOG_FORMATS), ("http_port", -1 <= self.http_port <= 65535),
                  ("max_connections", self.max_connections >= 0), ("header_timeout", self.header_timeout > 0),
                  ("body_timeout", self.body_timeout > 0), ("keepalive_timeout", self.keepalive_timeout > 0),
                  ("idle_timeout", self.idle_timeout > 0), ("max_connection_age", self.max_connection_age > 0),
                  ("max_connection_age_grace", self.max_connection_age_grace >= 0),
                  ("max_streams", self.max_streams >= 1)]
        for name, ok in checks:
            if not ok:
                raise ValueError(f"{name}: {getattr(self, name)!r} is out of range")
        if bool(self.tls_cert) != bool(self.tls_key):
            raise ValueError("tls_cert and tls_key go together: give both or neither")
        if self.tls_client_ca and not self.tls_cert:
            raise ValueError("tls_client_ca (mutual TLS) needs tls_cert and tls_key")
        parse_origins(self.cors_origin)
        parse_net_setting(self.net)

    @property
    def tls(self) -> bool:
        return bool(self.tls_cert)

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
            kind = {"str": str, "int": int, "float": float}[f.type if isinstance(f.type, str) else f.type.__name__]
            try:
                out[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"{cls.env_name(f.name)}={raw!r}: expected {kind.__name__}") from None
        return out


# The settings `splendor-ai serve` takes beyond cli.SERVE_FLAGS: (name, type, help), added there.
MORE_SERVE_FLAGS = [
    ("max_call_seconds", float, "cap on the time of any one call, in seconds (AnalyzeGame: the whole game; "
                                "--max-seconds caps each of its decisions)"),
    ("net", str, "GAME=FILE[,GAME=FILE]: search GAME with this net instead of the shipped one (for the player "
                 "counts it covers); every net is checked at start"),
    ("max_connections", int, "connections each port holds at most (0 = from the open-file limit); beyond it the "
                             "HTTP port closes its oldest idle one, the gRPC port refuses"),
    ("header_timeout", float, "seconds a client has to send its request headers (HTTP) or finish the "
                              "connection's handshake (gRPC)"),
    ("body_timeout", float, "HTTP: seconds a client has to send a request body once its headers came"),
    ("keepalive_timeout", float, "HTTP: seconds an idle connection is kept between requests"),
    ("idle_timeout", float, "gRPC: seconds a connection without a call is kept"),
    ("max_connection_age", float, "gRPC: seconds after which a connection is asked to close (clients reconnect, "
                                  "which spreads them over replicas)"),
    ("max_connection_age_grace", float, "gRPC: seconds the calls still running on such a connection get"),
    ("max_streams", int, "gRPC: calls at once on one connection"),
]


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
    that cannot be read or holds no token."""
    tokens = []
    if token_file:
        try:
            with open(token_file, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as exc:
            raise ValueError(f"token_file: cannot read {token_file}: {exc.strerror}") from None
        found = [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]
        if not found:
            raise ValueError(f"token_file: {token_file} holds no token (one a line)")
        tokens += found
    tokens += environ.get(TOKENS_ENV, "").replace(",", " ").split()
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


GAME_NAMES = ("base", "marvel", "duel")  # = splendor_ai.games.GAMES (not imported: this module stays light)


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


def open_file_share(limit: int) -> int:
    """The connections each of the two ports may hold under an open-file limit of ``limit``:
    what is left after FILE_RESERVE, halved, at most AUTO_MAX_CONNECTIONS, at least 16."""
    return max(16, min(AUTO_MAX_CONNECTIONS, (limit - FILE_RESERVE) // 2))
