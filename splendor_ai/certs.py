"""What a PEM certificate says that the server and ``splendor-ai health`` need: the names it
carries (subjectAltName) and its validity window, read from its DER with nothing beyond the
standard library; and the server's TLS files checked before any port opens.

Light on purpose (no gRPC, no ``cryptography``): ``splendor-ai health`` runs it in a
container's HEALTHCHECK, and the server at every start.
"""
from __future__ import annotations

import base64
import datetime
import ipaddress
import re
import ssl
from dataclasses import dataclass

_SAN_OID = bytes.fromhex("551d11")  # 2.5.29.17, subjectAltName, as DER content
EXPIRY_WARNING_DAYS = 14  # a certificate expiring sooner is warned about at start


class CertificateError(ValueError):
    """A certificate or key the server cannot serve with (the message names the file)."""


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


def _time(tag: int, value: bytes) -> datetime.datetime:
    text = value.decode("ascii")
    if tag == 0x17:  # UTCTime: YYMMDDHHMMSSZ, years 1950-2049
        year = int(text[:2])
        text = f"{1900 + year if year >= 50 else 2000 + year}{text[2:]}"
    elif tag != 0x18:  # GeneralizedTime: YYYYMMDDHHMMSSZ
        raise ValueError("not a certificate time")
    return datetime.datetime.strptime(text, "%Y%m%d%H%M%SZ").replace(tzinfo=datetime.timezone.utc)


@dataclass(frozen=True)
class Certificate:
    """The first certificate of a PEM chain (the server's own)."""

    names: tuple[str, ...]  # subjectAltName DNS names and IP addresses, in order
    not_before: datetime.datetime
    not_after: datetime.datetime

    def carries(self, name: str) -> bool:
        """Whether a client dialling ``name`` accepts it: an address among its addresses, or a
        DNS name among its names (``*.example.com`` stands for one label)."""
        name = name.strip("[]").lower().rstrip(".")
        if _is_ip(name):
            return any(_is_ip(n) and ipaddress.ip_address(n) == ipaddress.ip_address(name) for n in self.names)
        for n in (n.lower() for n in self.names if not _is_ip(n)):
            if n == name or (n.startswith("*.") and "." in name and name.split(".", 1)[1] == n[2:]):
                return True
        return False


def read_certificate(pem: bytes) -> Certificate:
    """Raises ValueError for what is not a PEM X.509 certificate."""
    m = re.search(rb"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", pem, re.S)
    if not m:
        raise ValueError("no PEM certificate in it")
    try:
        der = base64.b64decode(b"".join(m.group(1).split()), validate=True)
        tag, cert, _ = _tlv(der, 0)
        tbs_tag, tbs = next(_children(cert))
        if tag != 0x30 or tbs_tag != 0x30:
            raise ValueError("not an X.509 certificate")
        parts = list(_children(tbs))
        if parts and parts[0][0] == 0xA0:  # [0] version
            parts = parts[1:]
        validity = list(_children(parts[3][1]))  # serial, signature algorithm, issuer, validity
        not_before, not_after = (_time(t, v) for t, v in validity[:2])
        names: list[str] = []
        for field_tag, field in parts[6:]:
            if field_tag != 0xA3:  # [3] extensions
                continue
            [(_, extensions)] = list(_children(field))
            for _, extension in _children(extensions):
                ext = list(_children(extension))
                if ext and ext[0] == (0x06, _SAN_OID):
                    [(_, general_names)] = list(_children(ext[-1][1]))
                    for name_tag, value in _children(general_names):
                        if name_tag == 0x82:  # dNSName
                            names.append(value.decode("ascii"))
                        elif name_tag == 0x87 and len(value) in (4, 16):  # iPAddress
                            names.append(str(ipaddress.ip_address(value)))
    except (ValueError, IndexError, StopIteration, UnicodeDecodeError) as exc:
        raise ValueError(f"not a readable X.509 certificate ({exc})") from None
    return Certificate(tuple(names), not_before, not_after)


def certificate_names(pem: bytes) -> list[str]:
    """The DNS names and IP addresses in the subjectAltName of the first certificate of a PEM
    chain, in their order. Raises ValueError for what is not a certificate."""
    return list(read_certificate(pem).names)


def name_to_verify(names: list[str]) -> str | None:
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


def _when(t: datetime.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M UTC")


def validity_problem(cert: Certificate, now: datetime.datetime) -> str | None:
    """Why no client accepts ``cert`` now (expired, not yet valid), or None."""
    if now < cert.not_before:
        return f"is not valid until {_when(cert.not_before)} (this machine's clock says {_when(now)})"
    if now > cert.not_after:
        return f"expired on {_when(cert.not_after)}"
    return None


def check_server_files(cert_path: str, key_path: str, client_ca_path: str = "", server_name: str = "",
                       host: str = "", now: datetime.datetime | None = None) -> tuple[Certificate, list[str]]:
    """The server's TLS files, checked before any port opens: the certificate readable and
    valid now, the key its own, the client CA a certificate, and the certificate made out to
    ``server_name`` (a CertificateError names the file and the problem). Returns the
    certificate and warnings: one expiring within EXPIRY_WARNING_DAYS, a ``host`` (a DNS
    name the server listens on) the certificate does not carry."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    chain = _read(cert_path, "tls_cert")
    try:
        cert = read_certificate(chain)
    except ValueError as exc:
        raise CertificateError(f"tls_cert: {cert_path}: {exc}") from None
    problem = validity_problem(cert, now)
    if problem:
        raise CertificateError(f"tls_cert: {cert_path} {problem}: every client would refuse the handshake")
    _read(key_path, "tls_key")
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert_path, key_path)
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc):
            raise CertificateError(f"tls_key: {key_path} is not the private key of the certificate in "
                                   f"{cert_path}") from None
        raise CertificateError(f"tls_key: {key_path} is not a PEM private key this server can use with "
                               f"{cert_path} ({exc.reason or exc})") from None
    if client_ca_path:
        try:
            read_certificate(_read(client_ca_path, "tls_client_ca"))
        except ValueError as exc:
            raise CertificateError(f"tls_client_ca: {client_ca_path}: {exc}") from None
    shown = ", ".join(cert.names) or "no name (no subjectAltName)"
    if server_name and not cert.carries(server_name):
        raise CertificateError(f"server_name: the certificate in {cert_path} is for {shown}, not {server_name}: "
                               "clients dialling that name would refuse it")
    warnings = []
    left = cert.not_after - now
    if left < datetime.timedelta(days=EXPIRY_WARNING_DAYS):
        warnings.append(f"tls_cert: {cert_path} expires on {_when(cert.not_after)}, in {left.days} days "
                        f"{left.seconds // 3600} hours: renew it (splendor_tls_cert_expiry_timestamp_seconds)")
    name = host.strip("[]")
    if not server_name and name and name != "localhost" and not _is_ip(name) and not cert.carries(name):
        warnings.append(f"tls_cert: {cert_path} is for {shown}, not {name} (--host): clients dialling {name} "
                        "would refuse it (give --server-name with the name they dial)")
    return cert, warnings


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise CertificateError(f"{what}: cannot read {path}: {exc.strerror}") from None
