"""Throwaway certificates for tests and benchmarks: a CA, a server certificate for localhost
and 127.0.0.1, client certificates (mutual TLS), written as PEM files, valid for a day.

Needs ``cryptography`` (the ``test`` extra); the server never imports this module. Real
deployments use their own certificates (docs/deploy.md)."""
from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


SERVER_NAMES = ("localhost", "127.0.0.1")


def _general_name(name: str):
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _cert(subject: str, key, issuer: str, issuer_key, *, ca=False, server=False, client=False,
          names=SERVER_NAMES, valid=(-300.0, 86_400.0)):
    """``valid``: seconds from now to the start and the end of its validity window."""
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(_name(issuer))
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(now + datetime.timedelta(seconds=valid[0]))
         .not_valid_after(now + datetime.timedelta(seconds=valid[1]))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if server:
        b = b.add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]), critical=False)
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    if client:
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    return b.sign(issuer_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


class Certificates:
    """PEM files in ``directory``: ca.pem, server.pem/server.key, client.pem/client.key, and a
    second CA (other-ca.pem) that signed nothing the server trusts, with its own client pair."""

    def __init__(self, directory: Path):
        d = Path(directory)
        ca_key, other_key = _key(), _key()
        server_key, client_key, stranger_key = _key(), _key(), _key()
        files = {
            "ca.pem": _cert("splendor test CA", ca_key, "splendor test CA", ca_key, ca=True),
            "other-ca.pem": _cert("another CA", other_key, "another CA", other_key, ca=True),
            "server.pem": _cert("localhost", server_key, "splendor test CA", ca_key, server=True),
            "server.key": _pem_key(server_key),
            "client.pem": _cert("a client", client_key, "splendor test CA", ca_key, client=True),
            "client.key": _pem_key(client_key),
            "stranger.pem": _cert("a stranger", stranger_key, "another CA", other_key, client=True),
            "stranger.key": _pem_key(stranger_key),
        }
        for name, data in files.items():
            (d / name).write_bytes(data)
        self.dir = d
        self._ca_key = ca_key

    def server(self, stem: str, *, names=SERVER_NAMES, valid=(-300.0, 86_400.0)) -> tuple[str, str]:
        """Another server certificate signed by ca.pem, for ``names``, valid over ``valid``
        (seconds from now): STEM.pem and STEM.key; returns their paths."""
        key = _key()
        (self.dir / f"{stem}.pem").write_bytes(_cert(names[0] if names else stem, key, "splendor test CA",
                                                     self._ca_key, server=True, names=names, valid=valid))
        (self.dir / f"{stem}.key").write_bytes(_pem_key(key))
        return self.path(f"{stem}.pem"), self.path(f"{stem}.key")

    def path(self, name: str) -> str:
        return str(self.dir / name)

    def read(self, name: str) -> bytes:
        return (self.dir / name).read_bytes()
