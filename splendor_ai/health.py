"""``splendor-ai health``: the standard gRPC health check of a running server (the container's
HEALTHCHECK), over TLS when the server speaks it.

Which name the server's certificate must carry: ``--server-name``; else the host of the target
given; else, for this machine's server (no target: ``localhost:$SPLENDOR_AI_PORT``) when
``$SPLENDOR_AI_TLS_CERT`` names its certificate, as in the container, a name that certificate
carries, so that the check dials ``localhost`` and still verifies a certificate made out to
``splendor.example.com``. The same variable turns TLS on for this machine's server (checked
against ``--ca``, or the system's CAs for a certificate from a public CA).
"""
from __future__ import annotations

import base64
import ipaddress
import os
import re
import sys
from typing import Optional

DEFAULT_PORT = 50551
_SAN_OID = bytes.fromhex("551d11")  # 2.5.29.17, subjectAltName, as DER content


class HealthError(ValueError):
    """A setting of the health command that cannot work (the message names it)."""


def _tlv(data: bytes, i: int):
    """(tag, content, next index) of the DER element at ``i``."""
    if i + 2 > len(data):
        raise ValueError("truncated DER")
    tag, length = data[i], data[i + 1]
    i += 2
    if length & 0x80:
        n = length & 0x7F
        if n == 0 or n > 4 or i + n > len(data):
            raise ValueError("bad DER length")
        length, i = int.from_bytes(data[i:i + n], "big"), i + n
    if i + length > len(data):
        raise ValueError("truncated DER")
    return tag, data[i:i + length], i + length


def _children(data: bytes):
    i = 0
    while i < len(data):
        tag, content, i = _tlv(data, i)
        yield tag, content


def certificate_names(pem: bytes) -> list[str]:
    """The DNS names and IP addresses in the subjectAltName of the first certificate of a PEM
    chain (the server's own), in their order. Raises ValueError for what is not a certificate."""
    m = re.search(rb"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", pem, re.S)
    if not m:
        raise ValueError("no PEM certificate in it")
    der = base64.b64decode(b"".join(m.group(1).split()))
    tag, cert, _ = _tlv(der, 0)
    tbs_tag, tbs = next(_children(cert))
    if tag != 0x30 or tbs_tag != 0x30:
        raise ValueError("not an X.509 certificate")
    names: list[str] = []
    for field_tag, field in _children(tbs):
        if field_tag != 0xA3:  # [3] extensions
            continue
        [(_, extensions)] = list(_children(field))
        for _, extension in _children(extensions):
            parts = list(_children(extension))
            if parts and parts[0] == (0x06, _SAN_OID):
                [(_, general_names)] = list(_children(parts[-1][1]))
                for name_tag, value in _children(general_names):
                    if name_tag == 0x82:  # dNSName
                        names.append(value.decode("ascii"))
                    elif name_tag == 0x87 and len(value) in (4, 16):  # iPAddress
                        names.append(str(ipaddress.ip_address(value)))
    return names


def name_to_verify(names: list[str]) -> Optional[str]:
    """The name to ask for among a certificate's: its first DNS name, a wildcard one filled in
    (``*.example.com`` -> ``healthcheck.example.com``), else its first address."""
    dns = [n for n in names if not _is_ip(n)]
    for name in dns:
        if not name.startswith("*."):
            return name
    if dns:
        return "healthcheck" + dns[0][1:]
    return names[0] if names else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise HealthError(f"{what}: cannot read {path}: {exc.strerror}") from None


def plan(target: Optional[str], ca: Optional[str], cert: Optional[str], key: Optional[str],
         server_name: Optional[str], environ=os.environ):
    """(target, TLS on, server name or None, why the name) for the command's settings."""
    if bool(cert) != bool(key):
        raise HealthError("--cert and --key go together")
    local = target is None
    if local:
        target = f"localhost:{environ.get('SPLENDOR_AI_PORT') or DEFAULT_PORT}"
    own_cert = environ.get("SPLENDOR_AI_TLS_CERT") if local else None
    tls = bool(ca or cert or own_cert)
    if server_name is not None and not tls:
        raise HealthError("--server-name is the name in a TLS server's certificate: give --ca (or --cert/--key) too")
    why = "--server-name" if server_name else "the target's host"
    if server_name is None and own_cert:
        try:
            names = certificate_names(_read(own_cert, "SPLENDOR_AI_TLS_CERT"))
        except ValueError as exc:
            raise HealthError(f"SPLENDOR_AI_TLS_CERT: {own_cert}: {exc}") from None
        server_name = name_to_verify(names)
        why = f"the name in {own_cert}" if server_name else why
    return target, tls, server_name, why


def check(target: Optional[str], *, service: str = "", ca: Optional[str] = None, cert: Optional[str] = None,
          key: Optional[str] = None, server_name: Optional[str] = None, timeout: float = 3.0,
          out=None, err=None) -> int:
    """0 when the server answers SERVING, else 1, with a line saying why."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    out, err = out or sys.stdout, err or sys.stderr
    target, tls, server_name, why = plan(target, ca, cert, key, server_name)
    options = [("grpc.ssl_target_name_override", server_name)] if server_name else []
    options.append(("grpc.enable_retries", 0))  # one attempt: the orchestrator asks again
    if tls:
        creds = grpc.ssl_channel_credentials(_read(ca, "--ca") if ca else None, _read(key, "--key") if key else None,
                                             _read(cert, "--cert") if cert else None)
        channel = grpc.secure_channel(target, creds, options=options)
    else:
        channel = grpc.insecure_channel(target, options=options)
    with channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                              timeout=timeout)
        except grpc.RpcError as exc:
            print(f"{target}: {exc.code().name}: {exc.details()}{_hint(exc.details() or '', tls, server_name, why)}",
                  file=err)
            return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    print(f"{target}: {status}", file=out)
    return 0 if reply.status == health_pb2.HealthCheckResponse.SERVING else 1


def _hint(details: str, tls: bool, server_name: Optional[str], why: str) -> str:
    text = details.lower()
    if tls and ("peer name" in text or "hostname" in text):
        return (f" (the server's certificate does not carry the name checked, {server_name or 'the host'}, "
                f"from {why}: give --server-name NAME, a name the certificate carries)")
    if tls and ("certificate" in text or "ssl" in text or "handshake" in text):
        return (" (TLS failed: --ca must be the CA that signed the server's certificate; with mutual TLS give "
                "--cert and --key; a server without TLS needs neither)")
    if "socket closed" in text or "connection reset" in text:
        if tls:
            return (" (a server with mutual TLS closes the handshake without a client certificate it trusts: "
                    "give --cert and --key)")
        return " (a TLS server closes plaintext connections: give --ca)"
    return ""
