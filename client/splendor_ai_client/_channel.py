"""Channels for the blocking and the asyncio client: TLS, tokens, several replicas, retries."""
from __future__ import annotations

import ipaddress
import json
import os
import socket
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple, Union

import grpc

Target = Union[str, Sequence[str]]
PemLike = Union[bytes, str, "os.PathLike[str]", None]

ROUND_ROBIN = "round_robin"
SERVICE = "splendor.v1.SplendorService"


@dataclass(frozen=True)
class RetryPolicy:
    """How a call the server turned away is tried again: gRPC's own retries, set in the
    channel's service config for every method of the service.

    A call that ends with one of ``codes`` (by default ``UNAVAILABLE``: no server reachable,
    one shutting down, a broken connection; and ``RESOURCE_EXHAUSTED``: every search slot
    busy) is sent again, up to ``attempts`` times in all (gRPC's maximum is 5), after a pause
    of ``initial_backoff`` seconds, then ``multiplier`` times that, and so on, at most
    ``max_backoff``; gRPC randomises each pause (by up to 20 % in grpcio 1.85), so clients
    turned away together do not come back together. The call's deadline (``timeout``) bounds
    the attempts and the pauses together. A streaming call (``analyze``, ``analyze_game``) is
    retried only until its first report arrives; after that, a failure ends it. With the
    defaults, a call turned away every time fails after pauses of 0.25 + 0.5 + 1 + 2 = 3.75 s
    (give or take 20 %); one that finds a free slot on the way succeeds.
    """

    attempts: int = 5
    initial_backoff: float = 0.25
    max_backoff: float = 4.0
    multiplier: float = 2.0
    codes: Tuple[str, ...] = ("UNAVAILABLE", "RESOURCE_EXHAUSTED")

    def __post_init__(self):
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or not 2 <= self.attempts <= 5:
            raise ValueError(f"RetryPolicy.attempts: 2..5 (gRPC makes at most 5 attempts), got {self.attempts!r}")
        for name in ("initial_backoff", "max_backoff"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 < value <= 3600:
                raise ValueError(f"RetryPolicy.{name}: seconds, more than 0 and at most 3600, got {value!r}")
        if self.max_backoff < self.initial_backoff:
            raise ValueError("RetryPolicy.max_backoff must be at least initial_backoff")
        if not isinstance(self.multiplier, (int, float)) or self.multiplier < 1:
            raise ValueError(f"RetryPolicy.multiplier: 1 or more, got {self.multiplier!r}")
        codes = (self.codes,) if isinstance(self.codes, str) else tuple(self.codes)
        unknown = [c for c in codes if c not in grpc.StatusCode.__members__ or c == "OK"]
        if not codes or unknown:
            raise ValueError(f"RetryPolicy.codes: gRPC status code names such as 'UNAVAILABLE', got {unknown or codes}")
        object.__setattr__(self, "codes", codes)

    def service_config(self) -> str:
        """The gRPC service config (JSON) that applies this policy to every method of the service."""
        return json.dumps({"methodConfig": [{
            "name": [{"service": SERVICE}],
            "retryPolicy": {
                "maxAttempts": self.attempts,
                "initialBackoff": f"{self.initial_backoff:.9f}s",
                "maxBackoff": f"{self.max_backoff:.9f}s",
                "backoffMultiplier": float(self.multiplier),
                "retryableStatusCodes": list(self.codes),
            },
        }]})


DEFAULT_RETRIES = RetryPolicy()
Retries = Union[RetryPolicy, int, bool, None]


def retry_policy(retries: Retries) -> Optional[RetryPolicy]:
    """The policy ``retries`` stands for: a RetryPolicy; a number of retries (0 = none; at most
    4, gRPC's maximum); True (the default policy); False or None (none)."""
    if retries is None or retries is False:
        return None
    if retries is True:
        return DEFAULT_RETRIES
    if isinstance(retries, RetryPolicy):
        return retries
    if isinstance(retries, int):
        if not 0 <= retries <= 4:
            raise ValueError(f"retries: 0..4 retries (gRPC makes at most 5 attempts), got {retries}")
        return None if retries == 0 else RetryPolicy(attempts=retries + 1)
    raise ValueError(f"retries: a RetryPolicy, a number of retries (0..4) or None, got {retries!r}")


def _pem(value: PemLike, what: str) -> Optional[bytes]:
    """PEM bytes from bytes, a PEM string or a file path."""
    if value is None or isinstance(value, bytes):
        return value
    text = os.fspath(value)
    if text.lstrip().startswith("-----BEGIN"):
        return text.encode()
    try:
        with open(text, "rb") as f:
            return f.read()
    except OSError as exc:
        raise ValueError(f"{what}: cannot read {text}: {exc.strerror}") from None


def _split(address: str) -> Tuple[str, str]:
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ValueError(f"address {address!r}: expected HOST:PORT")
    return host.strip("[]"), port


def resolve_target(target: Target) -> Tuple[str, Optional[str]]:
    """(the gRPC target, the authority to use for TLS names) of a target or a list of
    addresses. A list becomes one ``ipv4:`` (or ``ipv6:``) target with every address, names
    resolved once, here; the authority is then the first address as given."""
    if isinstance(target, str):
        return target, None
    addresses = list(target)
    if not addresses:
        raise ValueError("no address given")
    if len(addresses) == 1:
        return addresses[0], None
    resolved, families = [], set()
    for address in addresses:
        host, port = _split(address)
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            try:
                info = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
            except socket.gaierror as exc:
                raise ValueError(f"address {address!r}: {exc.strerror}") from None
            ip = ipaddress.ip_address(info[0][4][0])
        families.add(ip.version)
        resolved.append(f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}")
    if len(families) > 1:
        raise ValueError("the addresses mix IPv4 and IPv6: give addresses of one family (or a dns:/// target)")
    scheme = "ipv6" if families == {6} else "ipv4"
    return f"{scheme}:{','.join(resolved)}", addresses[0]


def channel_options(options: Sequence, authority: Optional[str], lb_policy: Optional[str],
                    retries: Retries = DEFAULT_RETRIES, server_name: Optional[str] = None) -> list:
    """The channel's options: the caller's, then what the client's settings add (a caller's
    own ``grpc.service_config`` wins over the retry policy and the load balancing policy)."""
    out = list(options)
    names = {name for name, _ in out}
    policy = retry_policy(retries)
    if lb_policy and "grpc.lb_policy_name" not in names and "grpc.service_config" not in names:
        out.append(("grpc.lb_policy_name", lb_policy))
    if "grpc.service_config" not in names and "grpc.enable_retries" not in names:
        if policy is None:
            out.append(("grpc.enable_retries", 0))
        else:
            out += [("grpc.enable_retries", 1), ("grpc.service_config", policy.service_config())]
    if server_name:
        if not isinstance(server_name, str) or any(c in server_name for c in "/: \t"):
            raise ValueError(f"server_name: a host name such as 'splendor.example.com', got {server_name!r}")
        if "grpc.ssl_target_name_override" not in names:
            out.append(("grpc.ssl_target_name_override", server_name))
    if authority and "grpc.default_authority" not in names:
        out.append(("grpc.default_authority", authority))
    return out


def credentials(secure: bool, root_certificates: PemLike, private_key: PemLike,
                certificate_chain: PemLike) -> Optional[grpc.ChannelCredentials]:
    """TLS channel credentials, or None for plaintext. Certificates imply ``secure``."""
    if (private_key is None) != (certificate_chain is None):
        raise ValueError("private_key and certificate_chain (a client certificate, for mutual TLS) go together")
    if not (secure or root_certificates is not None or private_key is not None):
        return None
    return grpc.ssl_channel_credentials(root_certificates=_pem(root_certificates, "root_certificates"),
                                        private_key=_pem(private_key, "private_key"),
                                        certificate_chain=_pem(certificate_chain, "certificate_chain"))


def make_channel(module, target: Target, *, secure: bool, root_certificates: PemLike, private_key: PemLike,
                 certificate_chain: PemLike, options: Sequence, lb_policy: Optional[str],
                 retries: Retries = DEFAULT_RETRIES, server_name: Optional[str] = None):
    """A channel from ``module`` (``grpc`` or ``grpc.aio``)."""
    grpc_target, authority = resolve_target(target)
    creds = credentials(secure, root_certificates, private_key, certificate_chain)
    if server_name and creds is None:
        raise ValueError("server_name is the name a TLS server's certificate must carry: give root_certificates "
                         "or secure=True as well")
    opts = channel_options(options, authority, lb_policy, retries, server_name)
    if creds is None:
        return module.insecure_channel(grpc_target, options=opts)
    return module.secure_channel(grpc_target, creds, options=opts)


def token_metadata(token: Optional[str]) -> Tuple[Tuple[str, str], ...]:
    if token is None:
        return ()
    if not token or any(ord(c) < 33 or ord(c) > 126 for c in token):
        raise ValueError("token: printable ASCII without spaces")
    return (("authorization", f"Bearer {token}"),)
