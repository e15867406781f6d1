"""Deployment: TLS and mutual TLS with certificates made here, bearer tokens, the safe
default host, Prometheus metrics and JSON logs, all against the real server."""
import json
import re
import shutil
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor_ai_client import Busy, Client, InvalidArgument, Unauthenticated, Unavailable, pb
from timing import PAUSE

from splendor_ai.games import load_game
from splendor_ai.service import convert
from devcerts import Certificates


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return Certificates(tmp_path_factory.mktemp("certs"))


def opening() -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(1))


def health_over(channel) -> str:
    reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
    return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)


def wait_for_line(srv, pattern: str, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        found = [ln for ln in srv.text().splitlines() if re.search(pattern, ln)]
        if found:
            return found[-1]
        assert time.monotonic() < deadline, f"no log line matching {pattern!r}:\n{srv.text()}"
        time.sleep(0.02)


def test_tls_with_tokens(spawn_server, certs, tmp_path):
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("# one token a line\ntoken-one\n\ntoken-two\n")
    srv = spawn_server("--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"),
                       "--token-file", str(tokens))
    assert "tls=on tokens=2" in srv.text()
    with Client(srv.target, root_certificates=certs.path("ca.pem"), token="token-two", timeout=20) as c:
        c.wait_ready(10)
        turn = c.get_move(c.new_game(2, seed=1).position, iterations=50, seed=1)
        assert turn.moves and turn.turn_complete
        assert c.analyze(opening(), iterations=200).result().final
    async def async_calls():
        from splendor_ai_client import AsyncClient

        async with AsyncClient(srv.target, root_certificates=certs.read("ca.pem"), token="token-one", timeout=20) as c:
            assert len((await c.catalog()).cards) == 90
            assert (await c.get_move(opening(), iterations=30)).moves
        async with AsyncClient(srv.target, root_certificates=certs.read("ca.pem"), timeout=20) as c:
            with pytest.raises(Unauthenticated):
                await c.catalog()

    import asyncio

    asyncio.run(async_calls())
    for token in ("wrong", None):
        with Client(srv.target, root_certificates=certs.read("ca.pem"), token=token, timeout=10) as c:
            for call in (lambda: c.catalog(), lambda: c.get_move(opening(), level=1),
                         lambda: c.analyze(opening(), iterations=10).result()):
                with pytest.raises(Unauthenticated) as err:
                    call()
                assert err.value.code == grpc.StatusCode.UNAUTHENTICATED and "bearer token" in err.value.message
    creds = grpc.ssl_channel_credentials(certs.read("ca.pem"))
    with grpc.secure_channel(srv.target, creds) as channel:  # health checks need no token
        assert health_over(channel) == "SERVING"
        with pytest.raises(grpc.RpcError) as err:  # reflection does
            from grpc_reflection.v1alpha.proto_reflection_descriptor_database import \
                ProtoReflectionDescriptorDatabase
            ProtoReflectionDescriptorDatabase(channel).get_services()
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with Client(srv.target, token="token-one", timeout=5) as c:  # plaintext against TLS
        with pytest.raises(Unavailable):
            c.catalog()
    with Client(srv.target, root_certificates=certs.path("other-ca.pem"), token="token-one", timeout=5) as c:
        with pytest.raises(Unavailable):  # a server certificate the client does not trust
            c.catalog()
    # refusals are logged as summary lines of counts: the first at once
    wait_for_line(srv, r"refused calls .*(GetCatalog|GetMove|Analyze|ServerReflectionInfo) grpc token: \d+")
    assert "Traceback" not in srv.text()


def test_mutual_tls(spawn_server, certs):
    srv = spawn_server("--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"),
                       "--tls-client-ca", certs.path("ca.pem"))
    assert "tls=on mutual" in srv.text()
    with Client(srv.target, root_certificates=certs.path("ca.pem"), private_key=certs.path("client.key"),
                certificate_chain=certs.path("client.pem"), timeout=10) as c:
        assert len(c.catalog().cards) == 90
    with Client(srv.target, root_certificates=certs.path("ca.pem"), timeout=5) as c:  # no client certificate
        with pytest.raises(Unavailable):
            c.catalog()
    with Client(srv.target, root_certificates=certs.path("ca.pem"), private_key=certs.path("stranger.key"),
                certificate_chain=certs.path("stranger.pem"), timeout=5) as c:  # signed by another CA
        with pytest.raises(Unavailable):
            c.catalog()


def _listening_addresses(port: int) -> set[str]:
    """The local addresses of the LISTEN sockets on ``port`` (Linux /proc/net/tcp*), as hex."""
    out = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(name).read_text().splitlines()[1:]:
            cols = line.split()
            address, hex_port = cols[1].rsplit(":", 1)
            if int(hex_port, 16) == port and cols[3] == "0A":
                out.add(address)
    return out


# 127.0.0.1, ::1, ::ffff:127.0.0.1
LOOPBACK = {"0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"}
ANY = {"00000000", "00000000000000000000000000000000"}


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the listening sockets from Linux /proc/net/tcp")
def test_without_tls_or_tokens_the_default_is_localhost_only(spawn_server):
    srv = spawn_server("--host", "", "--metrics-port", "0")
    assert "listening on localhost:" in srv.text() and "WARNING" not in srv.text()
    for port in (srv.port, int(srv.metrics_url.rsplit(":", 1)[1].split("/")[0])):
        addresses = _listening_addresses(port)
        assert addresses and addresses <= LOOPBACK, addresses
    with Client(srv.target, timeout=10) as c:
        assert c.catalog().cards
    assert "splendor_calls_total" in urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the listening sockets from Linux /proc/net/tcp")
def test_with_tokens_the_default_is_every_interface_with_a_plaintext_warning(spawn_server):
    srv = spawn_server("--host", "", env={"SPLENDOR_AI_TOKENS": "env-token-1, env-token-2"})
    assert "listening on [::]:" in srv.text() and "tokens=2" in srv.text()
    assert _listening_addresses(srv.port) & ANY
    assert re.search(r"WARNING .*no TLS: calls and their tokens travel in plaintext", srv.text())
    with Client(srv.target, token="env-token-2", timeout=10) as c:
        assert c.catalog().cards


def test_an_open_port_is_logged_as_a_warning(spawn_server):
    srv = spawn_server("--host", "0.0.0.0")
    assert re.search(r"WARNING .*serving an open port: 0\.0\.0\.0:\d+ takes calls from anyone", srv.text())
    assert re.search(r"WARNING .*no TLS", srv.text())


@pytest.mark.parametrize("flags, message", [
    (("--tls-cert", "x.pem"), "tls_cert and tls_key go together"),
    (("--tls-client-ca", "ca.pem"), "tls_client_ca (mutual TLS) needs tls_cert"),
    (("--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"), "tls_cert: cannot read"),
    (("--token-file", "/nonexistent/tokens"), "token_file: cannot read /nonexistent/tokens"),
    (("--log-format", "xml"), "log_format"),
])
def test_bad_deployment_settings_are_clear_errors(flags, message, tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "splendor_ai.cli", "serve", "--port", "0", *flags],
                         capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert out.returncode != 0 and message in out.stderr and "Traceback" not in out.stderr, out.stderr


def _metrics(srv) -> dict:
    text = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_prometheus_metrics(spawn_server):
    srv = spawn_server("--metrics-port", "0", "--max-concurrent", "1")
    assert srv.metrics_url
    with Client(srv.target, timeout=30, retries=0) as c:  # one refusal, not the client's 5 attempts
        turn = c.get_move(opening(), iterations=300, seed=1)
        with pytest.raises(InvalidArgument):
            c.legal_actions(pb.Position())
        c.new_game(2, seed=1, game="duel")
        analysis = c.analyze(opening(), time_ms=20_000, report_every_ms=50)
        next(analysis)
        during = _metrics(srv)
        with pytest.raises(Busy):
            c.get_move(opening(), iterations=10)
        analysis.cancel()
    m = _metrics(srv)
    assert during["splendor_searches_in_flight"] == 1 and m["splendor_search_slots"] == 1
    assert m['splendor_calls_total{code="OK",game="base",method="GetMove"}'] == 1
    assert m['splendor_calls_total{code="INVALID_ARGUMENT",game="-",method="LegalActions"}'] == 1
    assert m['splendor_calls_total{code="OK",game="duel",method="NewGame"}'] == 1
    assert m['splendor_calls_total{code="RESOURCE_EXHAUSTED",game="-",method="GetMove"}'] == 1
    assert m['splendor_searches_refused_total{method="GetMove"}'] == 1
    assert m['splendor_search_iterations_total{game="base",method="GetMove"}'] == sum(
        s.iterations for s in turn.searches)
    assert m['splendor_call_seconds_count{method="GetMove"}'] == 2
    assert m['splendor_call_seconds_bucket{le="+Inf",method="GetMove"}'] == 2
    assert m["splendor_deadline_allowance_seconds"] == 0  # no search has stopped on the clock yet
    deadline = time.monotonic() + 5  # the cancelled analysis ends asynchronously
    while _metrics(srv)["splendor_searches_in_flight"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert _metrics(srv).get('splendor_calls_total{code="CANCELLED",game="base",method="Analyze"}') == 1


def test_json_logs_have_one_object_per_call(spawn_server):
    srv = spawn_server("--log-format", "json")
    with Client(srv.target, timeout=30) as c:
        c.get_move(opening(), time_ms=200, request_id="json-1")
        with pytest.raises(InvalidArgument):
            c.get_move(opening(), level=11, request_id="json-2")
    wait_for_line(srv, "json-2")
    records = [json.loads(line) for line in srv.text().splitlines()]  # every line is one JSON object
    assert all({"time", "level"} <= r.keys() for r in records)
    assert any("listening on" in r.get("message", "") for r in records)
    calls = {r["request_id"]: r for r in records if "rpc" in r}
    ok, bad = calls["json-1"], calls["json-2"]
    assert ok["rpc"] == "GetMove" and ok["game"] == "base" and ok["outcome"] == "OK" and ok["iterations"] > 0
    assert ok["budget"].endswith("time_ms=200 threads=1") and 0 < ok["elapsed_ms"] <= 200 + 1000 * PAUSE
    assert ok["peer"].startswith(("ipv4:127.0.0.1:", "ipv6:"))
    assert bad["outcome"] == "INVALID_ARGUMENT" and bad["level"] == "INFO"


DEPLOY_DOC = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
ROOT = Path(__file__).resolve().parents[2]


def _doc_block(after: str) -> list[str]:
    """The commands of the indented block that follows ``after`` in docs/deploy.md."""
    text = DEPLOY_DOC.split(after, 1)[1]
    lines, started = [], False
    for line in text.splitlines():
        if line.startswith("    "):
            started = True
            lines.append(line[4:])
        elif started and line.strip():
            break
    return [c.replace("\\\n", " ") for c in "\n".join(lines).replace("\\\n", " ").splitlines() if c.strip()]


@pytest.mark.skipif(shutil.which("openssl") is None, reason="the documented certificate commands need openssl")
def test_the_documented_openssl_commands_make_a_certificate_the_server_and_client_accept(spawn_server, tmp_path):
    import subprocess

    commands = _doc_block("a CA and a certificate for `localhost` made with `openssl`:")
    assert len(commands) == 3 and all(c.startswith("openssl ") for c in commands)
    for command in commands:
        subprocess.run(command, shell=True, cwd=tmp_path, check=True, capture_output=True, timeout=60)
    srv = spawn_server("--tls-cert", str(tmp_path / "server.pem"), "--tls-key", str(tmp_path / "server.key"))
    with Client(f"localhost:{srv.port}", root_certificates=str(tmp_path / "ca.pem"), timeout=10) as c:
        assert len(c.catalog().cards) == 90
    assert _health_cli(f"localhost:{srv.port}", "--ca", str(tmp_path / "ca.pem")).returncode == 0


def _health_cli(*args, env=None):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "splendor_ai.cli", "health", *args], capture_output=True, text=True,
                          timeout=30, env=env)


def test_the_health_command(server, spawn_server, certs):
    out = _health_cli(server.target)
    assert out.returncode == 0 and out.stdout.strip() == f"{server.target}: SERVING"
    import os

    out = _health_cli(env={**os.environ, "SPLENDOR_AI_PORT": str(server.port)})  # the container's form
    assert out.returncode == 0 and "SERVING" in out.stdout
    out = _health_cli("127.0.0.1:1", "--timeout", "1")
    assert out.returncode == 1 and "UNAVAILABLE" in out.stderr
    srv = spawn_server("--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"),
                       "--tls-client-ca", certs.path("ca.pem"), env={"SPLENDOR_AI_TOKENS": "t"})
    assert _health_cli(srv.target, "--ca", certs.path("ca.pem"), "--cert", certs.path("client.pem"),
                       "--key", certs.path("client.key")).returncode == 0  # no token needed
    assert _health_cli(srv.target, "--ca", certs.path("ca.pem")).returncode == 1  # no client certificate


def test_the_dockerfile_runs_commands_and_settings_that_exist():
    from splendor_ai.cli import build_parser
    from splendor_ai.service.settings import Settings

    text = (ROOT / "Dockerfile").read_text()
    assert text.count("\nFROM ") + text.startswith("FROM ") >= 2, "multi-stage: a build stage and a runtime"
    assert 'ENTRYPOINT ["splendor-ai", "serve"]' in text and 'CMD ["splendor-ai", "health"]' in text
    assert "pip wheel --no-cache-dir --wheel-dir /wheels ./client '.[web]'" in text  # the HTTP port's extra too
    assert re.search(r"^EXPOSE 50551 8080$", text, re.M)
    commands = build_parser()._subparsers._group_actions[0].choices
    assert {"serve", "health"} <= commands.keys()
    names = {Settings.env_name(f) for f in Settings.__dataclass_fields__}
    from splendor_ai._core import nn as core_nn

    # SPLENDOR_AI_TOKENS: the server's extra tokens; SPLENDOR_AI_TOKEN: the token `play` sends;
    # the net core's kernel and precision, read by every command that loads a net.
    others = ("SPLENDOR_AI_TOKENS", "SPLENDOR_AI_TOKEN", core_nn.KERNEL_ENV, core_nn.PRECISION_ENV)
    for name in re.findall(r"\b(SPLENDOR_AI_[A-Z_]+)=", text + DEPLOY_DOC):
        assert name in names or name in others, name
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".git" in ignored and "splendor_ai/_core/*.so" in ignored  # the image builds its own cores
