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

import datetime
import os
import ssl
import sys
from typing import Optional

from .certs import certificate_names, name_to_verify, read_certificate, validity_problem

DEFAULT_PORT = 50551


class HealthError(ValueError):
    """A setting of the health command that cannot work (the message names it)."""


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
            hint = _hint(exc.details() or "", tls, server_name, why)
            if tls and "TLS failed" in hint:
                hint = _served_certificate_hint(target, server_name, timeout) or hint
            print(f"{target}: {exc.code().name}: {exc.details()}{hint}", file=err)
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


def _served_certificate_hint(target: str, server_name: Optional[str], timeout: float) -> str:
    """What is wrong with the certificate the server presents, when that is why the handshake
    failed (expired, not yet valid, made out to another name); "" when it looks right or
    cannot be fetched (then the usual hint stands)."""
    host, _, port = target.rpartition(":")
    try:
        pem = ssl.get_server_certificate((host.strip("[]"), int(port)), timeout=timeout).encode()
        cert = read_certificate(pem)
    except (OSError, ValueError):
        return ""
    problem = validity_problem(cert, datetime.datetime.now(datetime.timezone.utc))
    if problem:
        return f" (the server's certificate {problem}: the server must be given a valid one; --ca is not the problem)"
    if server_name and not cert.carries(server_name):
        names = ", ".join(cert.names) or "no name"
        return (f" (the server's certificate is for {names}, not {server_name}: give --server-name NAME with a "
                "name it carries)")
    return ""
