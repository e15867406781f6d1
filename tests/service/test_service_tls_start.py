"""The server's TLS files are checked before any port opens (issue 67, finding 3): a
certificate expired, not yet valid or made out to another name, a key that is not its own, a
file that is no certificate, each stops the start with a line naming the file and the
problem; one expiring soon is a warning and a metric; and `splendor-ai health` says what is
wrong with the certificate a server presents instead of blaming --ca."""
import datetime
import subprocess
import sys
import urllib.request

import pytest

from splendor_ai.certs import CertificateError, check_server_files, read_certificate
from devcerts import Certificates

DAY = 86_400.0


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certificates(tmp_path_factory.mktemp("tls-start"))


def _serve(*flags, cwd):
    return subprocess.run([sys.executable, "-m", "splendor_ai.cli", "serve", "--port", "0", *flags],
                          capture_output=True, text=True, timeout=30, cwd=cwd)


def test_the_certificate_is_read_from_its_der(certs):
    cert = read_certificate(certs.read("server.pem"))
    assert cert.names == ("localhost", "127.0.0.1")
    now = datetime.datetime.now(datetime.timezone.utc)
    assert cert.not_before < now < cert.not_after <= now + datetime.timedelta(days=1, minutes=1)
    assert cert.carries("localhost") and cert.carries("127.0.0.1") and cert.carries("[127.0.0.1]")
    assert not cert.carries("example.com") and not cert.carries("127.0.0.2")
    wild = read_certificate(open(certs.server("wild", names=("*.example.com",))[0], "rb").read())
    assert wild.carries("ai.example.com") and not wild.carries("a.b.example.com") and not wild.carries("example.com")


@pytest.mark.parametrize("case, message", [
    ("expired", r"tls_cert: .*expired\.pem expired on 20\d\d-\d\d-\d\d \d\d:\d\d UTC"),
    ("future", r"tls_cert: .*future\.pem is not valid until .* \(this machine's clock says"),
    ("other-name", r"server_name: the certificate in .*other-name\.pem is for ai\.example\.com, not "
                   r"splendor\.example\.org"),
    ("mismatched-key", r"tls_key: .*client\.key is not the private key of the certificate in .*server\.pem"),
    ("garbage", r"tls_cert: .*garbage\.pem: no PEM certificate in it"),
])
def test_a_certificate_no_client_accepts_stops_the_start_before_any_port_opens(certs, tmp_path, case, message):
    import re

    flags = {
        "expired": lambda: certs.server("expired", valid=(-3 * DAY, -DAY)),
        "future": lambda: certs.server("future", valid=(DAY, 3 * DAY)),
        "other-name": lambda: certs.server("other-name", names=("ai.example.com",)),
        "mismatched-key": lambda: (certs.path("server.pem"), certs.path("client.key")),
        "garbage": lambda: (_garbage(tmp_path), certs.path("server.key")),
    }[case]()
    extra = ["--server-name", "splendor.example.org"] if case == "other-name" else []
    out = _serve("--tls-cert", flags[0], "--tls-key", flags[1], *extra, cwd=tmp_path)
    assert out.returncode != 0 and re.search(message, out.stderr), out.stderr
    assert "Traceback" not in out.stderr and "listening on" not in out.stderr and "bind" not in out.stderr


def _garbage(tmp_path) -> str:
    path = tmp_path / "garbage.pem"
    path.write_bytes(b"this is not a certificate\n")
    return str(path)


def test_a_certificate_expiring_within_14_days_is_a_warning_and_a_metric(certs, spawn_server):
    cert, key = certs.server("soon", valid=(-DAY, 3 * DAY))
    srv = spawn_server("--tls-cert", cert, "--tls-key", key, "--metrics-port", "0")
    assert "WARNING" in srv.text() and "soon.pem expires on" in srv.text() and "in 2 days" in srv.text()
    text = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    expiry = float(next(ln.split()[-1] for ln in text.splitlines()
                        if ln.startswith("splendor_tls_cert_expiry_timestamp_seconds ")))
    assert expiry == read_certificate(open(cert, "rb").read()).not_after.timestamp()


def test_a_host_the_certificate_does_not_carry_is_a_warning_a_server_name_an_error(certs):
    cert, key = certs.server("month", valid=(-DAY, 30 * DAY))
    _, warnings = check_server_files(cert, key, host="splendor.example.org")
    assert len(warnings) == 1 and "is for localhost, 127.0.0.1, not splendor.example.org (--host)" in warnings[0]
    assert check_server_files(cert, key, host="localhost")[1] == []
    assert check_server_files(cert, key, host="[::]")[1] == []
    assert check_server_files(cert, key, server_name="127.0.0.1")[1] == []
    with pytest.raises(CertificateError, match="tls_client_ca: .*month.key: no PEM certificate"):
        check_server_files(cert, key, client_ca_path=key)


def test_health_names_an_expired_certificate_instead_of_blaming_the_ca(certs):
    """A server started with a certificate that was valid then: the check's hint says expired."""
    import socket
    import ssl
    import threading

    from splendor_ai.health import _served_certificate_hint

    cert, key = certs.server("lapsed", valid=(-3 * DAY, -DAY))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept():
        conn, _ = listener.accept()
        try:
            ctx.wrap_socket(conn, server_side=True).close()
        except (ssl.SSLError, OSError):
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    hint = _served_certificate_hint(f"127.0.0.1:{port}", "localhost", timeout=5)
    listener.close()
    assert "the server's certificate expired on" in hint and "--ca is not the problem" in hint
