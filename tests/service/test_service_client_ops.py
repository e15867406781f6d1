"""The thin client as an operator meets it: the token on every RPC (AnalyzeGame included), and
gRPC retries of a call the server turned away (on by default, bounded, settable), against
real servers on 127.0.0.1."""
import asyncio
import threading
import time

import grpc
import pytest
from splendor_ai_client import AsyncClient, Busy, Client, RetryPolicy, Unauthenticated, pb
from timing import PAUSE

from splendor_ai.games import load_game
from splendor_ai.search.arena import play_game
from splendor_ai.service import convert


def opening() -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(1))


def test_analyze_game_sends_the_token_blocking_and_asyncio(spawn_server):
    srv = spawn_server(env={"SPLENDOR_AI_TOKENS": "tok-1"})
    record = play_game("base", 2, ["greedy", "random"], 3)
    deal = convert.encode_position(load_game("base", 2).new_initial_state(record["seed"]))
    moves = record["actions"][:3]
    with Client(srv.target, token="tok-1", timeout=30) as c:
        reports = list(c.analyze_game(deal, moves, iterations=30, seed=1))
        assert len(reports) == 4 and reports[-1].final
    with Client(srv.target, token="wrong", timeout=30) as c:  # the token is checked, not ignored
        with pytest.raises(Unauthenticated):
            c.analyze_game(deal, moves, iterations=30).result()

    async def calls():
        async with AsyncClient(srv.target, token="tok-1", timeout=30) as c:
            final = await c.analyze_game(deal, moves, iterations=30, seed=1).result()
            assert final.final and final.status is not None
        async with AsyncClient(srv.target, timeout=30) as c:
            with pytest.raises(Unauthenticated):
                await c.analyze_game(deal, moves, iterations=30).result()

    asyncio.run(calls())


# --- retries -----------------------------------------------------------------------------------

def _metric(srv, key: str) -> float:
    import urllib.request

    text = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name == key:
            return float(value)
    return 0.0


def refusals(srv) -> float:
    """Calls the server refused for lack of a slot so far (refusals are logged only as summary
    lines, so the attempts of one call are counted by the metric's step)."""
    return _metric(srv, 'splendor_refusals_total{port="grpc",reason="slots"}')


def attempts_refused(srv, call) -> int:
    """How many attempts of ``call()`` the server refused for lack of a slot."""
    before = refusals(srv)
    call()
    return round(refusals(srv) - before)


class Hold:
    """The server's only search slot held by an Analyze of ``ms`` milliseconds (from when its
    first report arrives: the slot is surely taken then)."""

    def __init__(self, target: str, ms: int):
        self.client = Client(target, timeout=120)
        self.analysis = self.client.analyze(opening(), time_ms=ms, report_every_ms=50)
        self.first = next(self.analysis)
        self.held_at = time.monotonic()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self):
        for _ in self.analysis:
            pass

    def close(self):
        self.analysis.cancel()
        self.thread.join(30)
        self.client.close()


def wait_logged(check, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)
    return check()


def _busy_get_move(retries):
    def call(srv):
        kwargs = {} if retries == "default" else {"retries": retries}
        with Client(srv.target, timeout=30, **kwargs) as c:
            with pytest.raises(Busy):
                c.get_move(opening(), iterations=20)

    return call


def test_a_busy_server_is_retried_by_default_five_attempts_in_all_then_busy(spawn_server):
    srv = spawn_server("--max-concurrent", "1", "--metrics-port", "0")
    hold = Hold(srv.target, 60_000)
    try:
        start = time.monotonic()
        assert attempts_refused(srv, lambda: _busy_get_move("default")(srv)) == 5  # the default policy
        elapsed = time.monotonic() - start
        assert attempts_refused(srv, lambda: _busy_get_move(0)(srv)) == 1
        assert attempts_refused(srv, lambda: _busy_get_move(None)(srv)) == 1
        assert attempts_refused(srv, lambda: _busy_get_move(2)(srv)) == 3
    finally:
        hold.close()
    # The default pauses: 0.25, 0.5, 1 and 2 s, each randomised (gRPC: by up to 20 %).
    assert elapsed < 1.2 * 3.75 + PAUSE


def test_a_call_turned_away_while_busy_succeeds_once_the_slot_is_free(spawn_server):
    srv = spawn_server("--max-concurrent", "1", "--metrics-port", "0")
    hold = Hold(srv.target, 400)
    try:
        def plain():
            with Client(srv.target, timeout=60, retries=0) as c:  # without retries: refused at once
                with pytest.raises(Busy) as err:
                    c.get_move(opening(), iterations=20)
                assert err.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED

        assert attempts_refused(srv, plain) == 1
        # The default policy: retries after about 0.25, 0.75, 1.75 and 3.75 s, the last ones well
        # after the 0.4 s search has ended.
        turns, times = [], []

        def retried():
            with Client(srv.target, timeout=60) as c:
                start = time.monotonic()
                turns.append(c.get_move(opening(), iterations=20))
                times.append(time.monotonic() - start)

        assert attempts_refused(srv, retried) >= 1
        assert turns[0].moves
    finally:
        hold.close()
    assert _metric(srv, 'splendor_calls_total{code="OK",game="base",method="GetMove"}') == 1
    assert times[0] < 1.2 * 3.75 + PAUSE


def test_asyncio_client_retries_too(spawn_server):
    srv = spawn_server("--max-concurrent", "1", "--metrics-port", "0")
    hold = Hold(srv.target, 60_000)

    async def call(retries):
        async with AsyncClient(srv.target, timeout=30, retries=retries) as c:
            with pytest.raises(Busy):
                await c.get_move(opening(), iterations=20)

    try:
        assert attempts_refused(srv, lambda: asyncio.run(call(RetryPolicy(initial_backoff=0.05, max_backoff=0.1)))) == 5
        assert attempts_refused(srv, lambda: asyncio.run(call(0))) == 1
    finally:
        hold.close()


def test_the_calls_that_are_not_turned_away_are_not_retried(spawn_server):
    srv = spawn_server("--metrics-port", "0", env={"SPLENDOR_AI_TOKENS": "tok"})
    with Client(srv.target, timeout=30) as c:
        with pytest.raises(Unauthenticated):
            c.get_move(opening(), iterations=20, request_id="no-token")
    key = 'splendor_refusals_total{port="grpc",reason="token"}'
    assert wait_logged(lambda: _metric(srv, key) == 1), srv.text()
    time.sleep(0.5)  # a retry would come within 0.25 s
    assert _metric(srv, key) == 1


@pytest.mark.parametrize("retries, message", [
    (5, "retries: 0..4"), (-1, "retries: 0..4"), ("3", "retries: a RetryPolicy"), (1.5, "retries: a RetryPolicy"),
])
def test_bad_retry_settings_are_clear_errors(retries, message):
    with pytest.raises(ValueError, match=message):
        Client("127.0.0.1:1", retries=retries)


@pytest.mark.parametrize("kwargs, message", [
    ({"attempts": 6}, "attempts: 2..5"), ({"attempts": 1}, "attempts: 2..5"),
    ({"initial_backoff": 0}, "initial_backoff"),
    ({"initial_backoff": 2, "max_backoff": 1}, "max_backoff must be at least"), ({"multiplier": 0.5}, "multiplier"),
    ({"codes": ("BUSY",)}, "codes"), ({"codes": ()}, "codes"),
])
def test_a_bad_retry_policy_is_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RetryPolicy(**kwargs)


def test_a_retry_policy_is_the_grpc_service_config_of_the_service():
    import json

    config = json.loads(RetryPolicy(attempts=3, initial_backoff=0.1, max_backoff=1, multiplier=3,
                                    codes=("UNAVAILABLE",)).service_config())
    [method] = config["methodConfig"]
    assert method["name"] == [{"service": "splendor.v1.SplendorService"}]
    assert method["retryPolicy"] == {"maxAttempts": 3, "initialBackoff": "0.100000000s",
                                     "maxBackoff": "1.000000000s", "backoffMultiplier": 3.0,
                                     "retryableStatusCodes": ["UNAVAILABLE"]}


def test_the_documented_default_policy_is_the_clients():
    from pathlib import Path

    from splendor_ai_client import DEFAULT_RETRIES

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "deploy.md").read_text().split("## Client retries", 1)[1].split("\n## ", 1)[0]
    p = DEFAULT_RETRIES
    assert (p.attempts, p.initial_backoff, p.multiplier, p.max_backoff) == (5, 0.25, 2.0, 4.0)
    assert "| attempts | 5 in all" in doc and "| pauses | 0.25 s, then ×2 each time, at most 4 s" in doc
    assert set(p.codes) == {"UNAVAILABLE", "RESOURCE_EXHAUSTED"} and "`UNAVAILABLE`, `RESOURCE_EXHAUSTED`" in doc
    for readme in ("README.md", "client/README.md"):
        assert "about 0.25, 0.5, 1 and 2 s" in (root / readme).read_text(), readme


# --- the health command with real certificate names (item 9) --------------------------------

def make_certs(directory, *names: str):
    """A CA (ca.pem) and a server certificate (server.pem, server.key) for ``names`` (DNS names
    or IP addresses), as a real deployment has: not necessarily naming localhost."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())

    def cert(subject, public, issuer, ca, sans=()):
        b = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer)).public_key(public)
             .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
             .not_valid_after(now + datetime.timedelta(days=1))
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if sans:
            alt = []
            for n in sans:
                try:
                    alt.append(x509.IPAddress(ipaddress.ip_address(n)))
                except ValueError:
                    alt.append(x509.DNSName(n))
            b = b.add_extension(x509.SubjectAlternativeName(alt), critical=False)
        return b.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)

    directory.mkdir(parents=True, exist_ok=True)
    (directory / "ca.pem").write_bytes(cert("test CA", ca_key.public_key(), "test CA", True))
    (directory / "server.pem").write_bytes(cert(names[0], key.public_key(), "test CA", False, names))
    (directory / "server.key").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                             serialization.PrivateFormat.PKCS8,
                                                             serialization.NoEncryption()))
    return directory


def health_cli(*args, env=None):
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if not k.startswith("SPLENDOR_AI_")}
    return subprocess.run([sys.executable, "-m", "splendor_ai.cli", "health", *args], capture_output=True,
                          text=True, timeout=30, env={**environ, **(env or {})}, cwd="/")


def test_health_checks_the_name_a_real_certificate_carries(spawn_server, tmp_path):
    certs = make_certs(tmp_path / "named", "splendor.test", "*.splendor.test")
    srv = spawn_server("--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key"))
    ca = str(certs / "ca.pem")
    out = health_cli(srv.target, "--ca", ca, "--server-name", "splendor.test")
    assert out.returncode == 0 and out.stdout.strip() == f"{srv.target}: SERVING", out.stderr
    out = health_cli(srv.target, "--ca", ca)  # 127.0.0.1 is not in the certificate
    assert out.returncode == 1 and "give --server-name NAME" in out.stderr, out.stderr
    # The container's form: no target (localhost:$SPLENDOR_AI_PORT), the server's certificate in
    # $SPLENDOR_AI_TLS_CERT: the check verifies the name it carries, not "localhost".
    env = {"SPLENDOR_AI_PORT": str(srv.port), "SPLENDOR_AI_TLS_CERT": str(certs / "server.pem")}
    out = health_cli("--ca", ca, env=env)
    assert out.returncode == 0 and "SERVING" in out.stdout, out.stderr
    # The Dockerfile's HEALTHCHECK as it stands (`splendor-ai health`), with a certificate from a
    # CA the system trusts: gRPC's default roots, here pointed at the test CA.
    out = health_cli(env={**env, "GRPC_DEFAULT_SSL_ROOTS_FILE_PATH": ca})
    assert out.returncode == 0 and "SERVING" in out.stdout, out.stderr
    out = health_cli(env=env)  # a CA nobody trusts: refused, and said so
    assert out.returncode == 1 and "UNAVAILABLE" in out.stderr


def test_health_with_a_certificate_naming_an_address(spawn_server, tmp_path):
    certs = make_certs(tmp_path / "ip", "127.0.0.1")
    srv = spawn_server("--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key"))
    out = health_cli(srv.target, "--ca", str(certs / "ca.pem"))
    assert out.returncode == 0 and "SERVING" in out.stdout, out.stderr
    env = {"SPLENDOR_AI_PORT": str(srv.port), "SPLENDOR_AI_TLS_CERT": str(certs / "server.pem")}
    out = health_cli("--ca", str(certs / "ca.pem"), env=env)
    assert out.returncode == 0 and "SERVING" in out.stdout, out.stderr


def test_health_says_what_a_tls_server_wants(spawn_server, tmp_path):
    from devcerts import Certificates

    certs = Certificates(tmp_path)
    tls = spawn_server("--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"))
    out = health_cli(tls.target)
    assert out.returncode == 1 and "a TLS server closes plaintext connections: give --ca" in out.stderr, out.stderr
    mutual = spawn_server("--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"),
                          "--tls-client-ca", certs.path("ca.pem"))
    out = health_cli(mutual.target, "--ca", certs.path("ca.pem"))
    assert out.returncode == 1 and "give --cert and --key" in out.stderr, out.stderr
    out = health_cli(mutual.target, "--ca", certs.path("ca.pem"), "--cert", certs.path("client.pem"),
                     "--key", certs.path("client.key"))
    assert out.returncode == 0, out.stderr


def test_health_settings_that_cannot_work_are_named(tmp_path):
    out = health_cli("127.0.0.1:1", "--server-name", "x.test")
    assert out.returncode == 1 and "--server-name is the name in a TLS server's certificate" in out.stderr
    out = health_cli("127.0.0.1:1", "--cert", "c.pem")
    assert "--cert and --key go together" in out.stderr
    (tmp_path / "junk.pem").write_text("not a certificate")
    out = health_cli(env={"SPLENDOR_AI_TLS_CERT": str(tmp_path / "junk.pem")})
    assert out.returncode == 1 and "SPLENDOR_AI_TLS_CERT" in out.stderr and "no PEM certificate" in out.stderr
    out = health_cli("127.0.0.1:1", "--ca", str(tmp_path / "missing.pem"))
    assert out.returncode == 1 and "--ca: cannot read" in out.stderr


def test_certificate_names_reads_the_subject_alt_names(tmp_path):
    from splendor_ai.certs import certificate_names, name_to_verify

    certs = make_certs(tmp_path, "*.example.org", "api.example.org", "10.1.2.3", "::1")
    names = certificate_names((certs / "server.pem").read_bytes())
    assert names == ["*.example.org", "api.example.org", "10.1.2.3", "::1"]
    assert name_to_verify(names) == "api.example.org"
    assert name_to_verify(["*.example.org"]) == "healthcheck.example.org"
    assert name_to_verify(["10.1.2.3"]) == "10.1.2.3" and name_to_verify([]) is None


# --- play --server with TLS and a token; unreachable told from refused (item 10) -------------

@pytest.fixture
def guarded(spawn_server, tmp_path):
    """A server with TLS (a certificate for splendor.test) and a bearer token, and its CA."""
    certs = make_certs(tmp_path / "certs", "splendor.test")
    srv = spawn_server("--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key"),
                       env={"SPLENDOR_AI_TOKENS": "tok-play"})
    return srv, certs


def play_cli(tmp_path, *args, env=None):
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if not k.startswith("SPLENDOR_AI_")}
    return subprocess.run([sys.executable, "-m", "splendor_ai.cli", "play", "--level", "1", "--seed", "1",
                           "--record", str(tmp_path / "game.json"), *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=tmp_path, timeout=60, env={**environ, **(env or {})})


def test_play_reaches_a_server_with_tls_and_a_token(guarded, tmp_path):
    srv, certs = guarded
    tls = ["--server", srv.target, "--ca", str(certs / "ca.pem"), "--server-name", "splendor.test"]
    out = play_cli(tmp_path, *tls, env={"SPLENDOR_AI_TOKEN": "tok-play"})
    assert out.returncode == 0 and "game saved to" in out.stdout, out.stderr
    (tmp_path / "token").write_text("# the token\ntok-play\n")
    out = play_cli(tmp_path, *tls, "--token-file", str(tmp_path / "token"), env={"SPLENDOR_AI_TOKEN": "wrong"})
    assert out.returncode == 0 and "game saved to" in out.stdout, out.stderr  # the flag wins
    out = play_cli(tmp_path, *tls)
    assert out.returncode == 2 and "refused this client: it wants a bearer token" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def problem(monkeypatch, server, token=None, **remote) -> str:
    from splendor_ai import play

    if token is None:
        monkeypatch.delenv("SPLENDOR_AI_TOKEN", raising=False)
    else:
        monkeypatch.setenv("SPLENDOR_AI_TOKEN", token)
    with pytest.raises(play.PlayError) as err:
        with play.connect(server, remote=play.Remote(**remote)):
            pass
    return str(err.value)


def test_play_tells_a_refusal_and_its_fix(guarded, spawn_server, monkeypatch, tmp_path):
    from devcerts import Certificates

    srv, certs = guarded
    ca, target = str(certs / "ca.pem"), srv.target
    refused = f"the server at {target} refused this client: "
    name = dict(ca=ca, server_name="splendor.test")
    assert problem(monkeypatch, target, "nope", **name) == \
        refused + "it does not accept the bearer token from $SPLENDOR_AI_TOKEN (check the token)"
    assert problem(monkeypatch, target, "tok-play", ca=ca).startswith(
        refused + "its TLS certificate does not carry the name 127.0.0.1: give --server-name NAME")
    assert "give --ca with the CA that signed its certificate" in problem(monkeypatch, target, "tok-play")
    other = Certificates(tmp_path)
    assert "not signed by a CA this client trusts: give --ca" in \
        problem(monkeypatch, target, "tok-play", ca=other.path("ca.pem"), server_name="splendor.test")
    plain = spawn_server()
    assert "it does not speak TLS (leave out --ca" in problem(monkeypatch, plain.target, ca=ca)
    mutual = spawn_server("--tls-cert", other.path("server.pem"), "--tls-key", other.path("server.key"),
                          "--tls-client-ca", other.path("ca.pem"))
    assert "give --cert and --key" in problem(monkeypatch, mutual.target, ca=other.path("ca.pem"))
    from splendor_ai import play

    monkeypatch.delenv("SPLENDOR_AI_TOKEN", raising=False)
    with play.connect(mutual.target, remote=play.Remote(ca=other.path("ca.pem"), cert=other.path("client.pem"),
                                                        key=other.path("client.key"))) as client:
        assert len(client.catalog().cards) == 90


def test_play_tells_an_unreachable_server(monkeypatch):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert problem(monkeypatch, f"127.0.0.1:{port}") == (
        f"no splendor-ai server reachable at 127.0.0.1:{port}: connection refused (nothing listens on that port): "
        "start one with 'splendor-ai serve', or check HOST:PORT")
    assert "the name nosuch.invalid does not resolve (DNS)" in problem(monkeypatch, "nosuch.invalid:50551")


def test_play_options_that_cannot_work_are_named(monkeypatch, tmp_path):
    from splendor_ai import play

    assert problem(monkeypatch, None, ca="ca.pem") == "--ca: for a running server (--server HOST:PORT)"
    assert "--server-name is the name in a TLS server's certificate" in \
        problem(monkeypatch, "127.0.0.1:1", server_name="x.test")
    assert "--cert and --key" in problem(monkeypatch, "127.0.0.1:1", ca="ca.pem", cert="c.pem")
    assert "--token-file: cannot read" in problem(monkeypatch, "127.0.0.1:1", token_file=str(tmp_path / "none"))
    (tmp_path / "empty").write_text("# nothing\n\n")
    assert "holds no token" in problem(monkeypatch, "127.0.0.1:1", token_file=str(tmp_path / "empty"))
    assert "token: printable ASCII without spaces (the token from $SPLENDOR_AI_TOKEN)" in \
        problem(monkeypatch, "127.0.0.1:1", token="two words")
    assert "--ca: cannot read" in problem(monkeypatch, "127.0.0.1:1", ca=str(tmp_path / "no.pem"))
    assert play.Remote(tls=True).secure and not play.Remote().secure


def test_the_client_checks_the_name_given_as_server_name(guarded):
    from splendor_ai_client import Unavailable

    srv, certs = guarded
    ca = str(certs / "ca.pem")
    with Client(srv.target, root_certificates=ca, server_name="splendor.test", token="tok-play", timeout=10) as c:
        assert len(c.catalog().cards) == 90
    with Client(srv.target, root_certificates=ca, token="tok-play", timeout=10, retries=0) as c:
        with pytest.raises(Unavailable):  # 127.0.0.1 is not in the certificate
            c.catalog()

    async def calls():
        async with AsyncClient(srv.target, root_certificates=ca, server_name="splendor.test", token="tok-play",
                               timeout=10) as c:
            assert len((await c.catalog()).cards) == 90

    asyncio.run(calls())
    with pytest.raises(ValueError, match="server_name is the name a TLS server's certificate must carry"):
        Client(srv.target, server_name="splendor.test")
    with pytest.raises(ValueError, match="server_name: a host name"):
        Client(srv.target, root_certificates=ca, server_name="splendor.test:443")
