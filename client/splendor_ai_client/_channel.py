"""Channels for the blocking and the asyncio client: TLS, tokens, several replicas."""
from __future__ import annotations

import ipaddress
import os
import socket
from typing import Optional, Sequence, Tuple, Union

import grpc

Target = Union[str, Sequence[str]]
PemLike = Union[bytes, str, "os.PathLike[str]", None]

ROUND_ROBIN = "round_robin"


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


def channel_options(options: Sequence, authority: Optional[str], lb_policy: Optional[str]) -> list:
    out = list(options)
    names = {name for name, _ in out}
    if lb_policy and "grpc.lb_policy_name" not in names and "grpc.service_config" not in names:
        out.append(("grpc.lb_policy_name", lb_policy))
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
                 certificate_chain: PemLike, options: Sequence, lb_policy: Optional[str]):
    """A channel from ``module`` (``grpc`` or ``grpc.aio``)."""
    grpc_target, authority = resolve_target(target)
    creds = credentials(secure, root_certificates, private_key, certificate_chain)
    opts = channel_options(options, authority, lb_policy)
    if creds is None:
        return module.insecure_channel(grpc_target, options=opts)
    return module.secure_channel(grpc_target, creds, options=opts)


def token_metadata(token: Optional[str]) -> Tuple[Tuple[str, str], ...]:
    if token is None:
        return ()
    if not token or any(ord(c) < 33 or ord(c) > 126 for c in token):
        raise ValueError("token: printable ASCII without spaces")
    return (("authorization", f"Bearer {token}"),)
