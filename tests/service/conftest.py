"""The real server, started once per session as a subprocess on a free port."""
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

MAX_CONCURRENT = 2


class ServerProcess:
    """``splendor-ai serve`` in a subprocess, its log in a file. ``--host 127.0.0.1`` unless
    the flags give a host (``--host ""``: the default); ``env``: more environment variables."""

    def __init__(self, log_path: Path, *flags: str, env: dict | None = None):
        self.log_path = log_path
        self.log = open(log_path, "w")
        host = [] if "--host" in flags else ["--host", "127.0.0.1"]
        cmd = [sys.executable, "-m", "splendor_ai.cli", "serve", *host, "--port", "0", *flags]
        # Not run from the source tree: the package must come from the installed (built) one.
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=log_path.parent,
                                     env={**os.environ, **(env or {})})
        self.port = self._wait_listening()
        self.target = f"127.0.0.1:{self.port}"
        m = re.search(r"metrics on http://\S+:(\d+)/metrics", self.text())
        self.metrics_url = f"http://127.0.0.1:{m.group(1)}/metrics" if m else None

    def _wait_listening(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(r"listening on \S+:(\d+)", self.log_path.read_text())
            if m:
                return int(m.group(1))
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.log_path.read_text()}")
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not start:\n{self.log_path.read_text()}")

    def text(self) -> str:
        return self.log_path.read_text()

    def terminate(self, timeout: float = 30.0) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("server") / "server.log",
                        "--max-concurrent", str(MAX_CONCURRENT), "--max-seconds", "30", "--max-threads", "2",
                        "--grace", "2")
    srv.max_concurrent = MAX_CONCURRENT
    srv.max_batch = max(1, MAX_CONCURRENT // 2)  # the default --max-batch: half the slots
    yield srv
    srv.kill()
    log = srv.text()
    assert "Traceback" not in log and "outcome=INTERNAL" not in log, "the server hit an internal error:\n" + log


@pytest.fixture(scope="session")
def client(server):
    from splendor_ai_client import Client

    # No client retries: these tests check what the server itself answers (a refusal at once).
    with Client(server.target, timeout=60, retries=0) as c:
        c.wait_ready(10)
        yield c


@pytest.fixture
def spawn_server(tmp_path):
    """Start a private server (for tests that stop it)."""
    started = []

    def start(*flags, env=None):
        srv = ServerProcess(tmp_path / f"server{len(started)}.log", *flags, env=env)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.kill()


@pytest.fixture(scope="session")
def health():
    """health(target, service="") -> the standard health check's status name, e.g. "SERVING"."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    def check(target: str, service: str = "") -> str:
        with grpc.insecure_channel(target) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    return check
