"""Scale-out: the service is stateless, so replicas behind a load balancer just work. Two
real servers behind (a) the client's round_robin over several addresses and (b) nginx with
deploy/nginx.conf; and what an Analyze stream sees when its replica dies."""
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from splendor_ai_client import Client, Unavailable, pb

from splendor_ai.games import load_game
from splendor_ai.service import convert
from devcerts import Certificates

NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()),
                                      None)


def opening(seed=1) -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(seed))


def calls_served(srv, method="GetMove") -> int:
    return sum(1 for line in srv.text().splitlines() if f": {method} " in line and "outcome=OK" in line)


def wait_logged(servers, total, method="GetMove", timeout=5.0):
    deadline = time.monotonic() + timeout
    while sum(calls_served(s, method) for s in servers) < total and time.monotonic() < deadline:
        time.sleep(0.02)
    return [calls_served(s, method) for s in servers]


def in_flight(srv) -> float:
    text = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    return float(re.search(r"^splendor_searches_in_flight (\S+)$", text, re.M).group(1))


def test_the_client_spreads_calls_over_two_replicas(spawn_server):
    a, b = spawn_server(), spawn_server()
    with Client([a.target, b.target], timeout=30) as c:
        c.wait_ready(10)
        for i in range(20):
            assert c.get_move(opening(i % 5), iterations=50, seed=i).moves
    served = wait_logged([a, b], 20)
    assert sum(served) == 20 and min(served) >= 5, served  # round robin: about half each


def test_a_dns_target_with_round_robin(spawn_server):
    a = spawn_server()
    with Client(f"dns:///localhost:{a.port}", timeout=30) as c:  # one name, every address it resolves to
        assert c.get_move(opening(), iterations=20).moves


def test_a_list_of_addresses_must_be_well_formed():
    with pytest.raises(ValueError, match="HOST:PORT"):
        Client(["127.0.0.1:1", "no-port"])
    with pytest.raises(ValueError, match="no address"):
        Client([])


def test_an_analysis_on_a_replica_that_dies_ends_unavailable_and_the_client_goes_on(spawn_server):
    a, b = spawn_server("--metrics-port", "0"), spawn_server("--metrics-port", "0")
    with Client([a.target, b.target], timeout=60) as c:
        c.wait_ready(10)
        analysis = c.analyze(opening(), time_ms=30_000, report_every_ms=50)
        assert not next(analysis).final
        running = [s for s in (a, b) if in_flight(s) == 1]
        assert len(running) == 1
        dead, alive = running[0], (b if running[0] is a else a)
        dead.proc.send_signal(signal.SIGKILL)
        dead.proc.wait(10)
        with pytest.raises(Unavailable):
            for _ in analysis:
                pass
        # a retry goes to the replica still alive
        assert c.get_move(opening(), iterations=50).moves
        assert c.analyze(opening(), iterations=500).result().final
    assert calls_served(alive) >= 1


class TlsTarget(str):
    """nginx's address, with the CA that checks its certificate: ``client(target)``."""

    def __new__(cls, address: str, ca: bytes):
        obj = super().__new__(cls, address)
        obj.ca = ca
        return obj


def client(target, **kwargs) -> Client:
    return Client(str(target), root_certificates=target.ca, **kwargs)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def nginx(tmp_path, spawn_server):
    """deploy/nginx.conf in front of two replicas (with metrics), on ports of this test."""
    if NGINX is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx); the deploy/nginx.conf test needs it")
    a, b = spawn_server("--metrics-port", "0"), spawn_server("--metrics-port", "0")
    port = _free_port()
    conf = NGINX_CONF.read_text()
    conf, n = re.subn(r"server 127\.0\.0\.1:50561", f"server 127.0.0.1:{a.port}", conf)
    conf, m = re.subn(r"server 127\.0\.0\.1:50562", f"server 127.0.0.1:{b.port}", conf)
    conf, k = re.subn(r"listen 50551 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;", conf)
    # The certificate's placeholder paths: one made here (for 127.0.0.1), which the clients check.
    certs = Certificates(tmp_path)
    conf, c = re.subn(r"ssl_certificate\s+/etc/splendor/tls/server\.pem;",
                      f"ssl_certificate {certs.path('server.pem')};", conf)
    conf, d = re.subn(r"ssl_certificate_key\s+/etc/splendor/tls/server\.key;",
                      f"ssl_certificate_key {certs.path('server.key')};", conf)
    assert (n, m, k, c, d) == (1, 1, 1, 1, 1), "deploy/nginx.conf no longer has the lines this test rewrites"
    assert not re.search(r"^\s*listen\s+(?!127\.0\.0\.1:)", conf, re.M), "nginx.conf listens elsewhere too"
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    (prefix / "nginx.conf").write_text(conf)
    log = open(tmp_path / "nginx.log", "w")
    proc = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert proc.poll() is None, (tmp_path / "nginx.log").read_text()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)
    yield TlsTarget(f"127.0.0.1:{port}", certs.read("ca.pem")), a, b
    proc.send_signal(signal.SIGQUIT)
    proc.wait(10)
    log.close()


def test_nginx_grpc_pass_spreads_calls_over_two_replicas(nginx):
    target, a, b = nginx
    with client(target, timeout=30) as c:
        for i in range(20):
            assert c.get_move(opening(i % 5), iterations=50, seed=i).moves
        reports = list(c.analyze(opening(), iterations=20_000, report_every_ms=20))
        assert reports[-1].final and sum(r.final for r in reports) == 1  # streams pass through
        with pytest.raises(Exception) as err:  # errors and their details pass through too
            c.get_move(opening(), level=42)
        assert getattr(err.value, "field", None) == "level"
    served = wait_logged([a, b], 20)
    assert sum(served) == 20 and min(served) >= 5, served


def test_nginx_skips_a_dead_replica(nginx):
    target, a, b = nginx
    b.proc.send_signal(signal.SIGKILL)
    b.proc.wait(10)
    with client(target, timeout=30) as c:
        for i in range(6):
            assert c.get_move(opening(i), iterations=50).moves  # every call lands on a
    assert wait_logged([a], 6) == [6]


def test_nginx_an_analysis_on_a_replica_that_dies_ends_unavailable(nginx):
    target, a, b = nginx
    with client(target, timeout=60) as c:
        analysis = c.analyze(opening(), time_ms=30_000, report_every_ms=50)
        assert not next(analysis).final
        [dead] = [s for s in (a, b) if in_flight(s) == 1]
        dead.proc.send_signal(signal.SIGKILL)
        dead.proc.wait(10)
        with pytest.raises(Unavailable) as err:  # nginx resets the stream (RST_STREAM, INTERNAL_ERROR) ...
            for _ in analysis:
                pass
        assert "connection broke" in err.value.message  # ... which the client reports as UNAVAILABLE
        assert c.analyze(opening(), iterations=500).result().final  # the retry lands on the live replica


def test_nginx_conf_listens_in_plaintext_on_loopback_only():
    """deploy/nginx.conf: every listener is TLS, or plaintext on a loopback address only."""
    conf = NGINX_CONF.read_text()
    listens = re.findall(r"^\s*listen\s+([^;]+);", conf, re.M)
    assert listens
    for listen in listens:
        address, *flags = listen.split()
        host = address.rpartition(":")[0] if ":" in address else ""
        assert "ssl" in flags or host in ("127.0.0.1", "[::1]", "localhost"), f"plaintext listener: listen {listen};"
    for directive in ("ssl_certificate", "ssl_certificate_key"):
        line = re.search(rf"^\s*{directive}\s+(\S+);(.*)$", conf, re.M)
        assert line and "PLACEHOLDER" in line.group(2), f"{directive}: a path marked as a placeholder"
