"""Connections are bounded on both ports (issue 48 item 3): idle and slow clients cannot lock out
new ones, slow-header and slow-body HTTP clients are closed, and a full open-file table is one
log line per interval, not a flood of tracebacks. Each server runs in a subprocess with a
lowered open-file limit, so exhaustion is cheap to reach; 127.0.0.1 only, bounded counts."""
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")

from bench_hostile import launch_code  # noqa: E402

BASE = dict(host="127.0.0.1", port=0, http_port=0, metrics_port=0, max_concurrent=1, max_threads=1, grace=1.0)


class Limited:
    """``serve(Settings(...))`` in a subprocess whose open-file limit is ``files`` (soft and hard)."""

    def __init__(self, log_path, files: int, **settings):
        code = launch_code({**BASE, **settings}, files)  # the child sets its own limit (no preexec_fn)
        self.log_path = log_path
        self.log = open(log_path, "w")
        # cwd: `python -c` puts its folder first on sys.path; from the repository root that would be
        # the source tree's splendor_ai (without its built cores), not the installed one.
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=log_path.parent)
        deadline = time.monotonic() + 60
        while not re.search(r"listening on \S+:(\d+)", self.text()):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.text()
            time.sleep(0.05)
        text = self.text()
        self.grpc_port = int(re.search(r"listening on \S+:(\d+)", text).group(1))
        self.http_port = int(re.search(r"demo page on http://\S+?:(\d+)/", text).group(1))
        self.metrics_port = int(re.search(r"metrics on http://\S+?:(\d+)/", text).group(1))

    def text(self) -> str:
        return self.log_path.read_text()

    def metric(self, name: str, **labels) -> float:
        body = urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10).read().decode()
        want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        for line in body.splitlines():
            key, _, value = line.rpartition(" ")
            if key == (f"{name}{{{want}}}" if want else name):
                return float(value)
        return 0.0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.log.close()


@pytest.fixture
def limited(tmp_path):
    started = []

    def start(files: int, **settings):
        srv = Limited(tmp_path / f"server{len(started)}.log", files, **settings)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


def _idle(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        out.append(s)
    return out


def _closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(4096) == b"" or True  # any answer then EOF; a 503 body counts as answered
    except BlockingIOError:
        return False
    except OSError:
        return True


def _http_get(port: int, timeout: float = 10) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=timeout) as r:
        return r.status


def _grpc_serving(port: int, timeout: float) -> bool:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout,
                                                          wait_for_ready=True)
    return reply.status == health_pb2.HealthCheckResponse.SERVING


def test_idle_connections_beyond_the_open_files_do_not_lock_out_new_clients(limited):
    srv = limited(512, header_timeout=2.0)
    assert "open files: limit 512; at most 192 connections a port" in srv.text()
    held = []
    try:
        held += _idle(srv.grpc_port, 300)  # 600 idle in all: more than the 512 open files
        held += _idle(srv.http_port, 300)
        t0 = time.monotonic()
        assert _http_get(srv.http_port) == 200  # at once: the oldest idle connection made room
        assert time.monotonic() - t0 < 5
        # the gRPC port holds its 192 until they fail the handshake (header_timeout), then serves
        assert _grpc_serving(srv.grpc_port, timeout=2.0 + 10)
        assert srv.metric("splendor_http_closed_total", reason="evicted") >= 300 - 192  # held at the cap
        assert srv.metric("process_max_fds") == 512
    finally:
        for s in held:
            s.close()
    text = srv.text()
    assert "Traceback" not in text and len(text) < 20_000, text[-3000:]


def test_slow_header_and_slow_body_clients_are_closed(limited):
    srv = limited(1024, header_timeout=1.0, body_timeout=1.0)
    slow_header = _idle(srv.http_port, 40)
    for s in slow_header:
        s.sendall(b"POST /splendor.v1.SplendorService/NewGame HTTP/1.1\r\nHost: a\r\n")  # never ends its headers
    slow_body = _idle(srv.http_port, 40)
    for s in slow_body:
        s.sendall(b"POST /splendor.v1.SplendorService/NewGame HTTP/1.1\r\nHost: a\r\n"
                  b"content-type: application/json\r\ncontent-length: 100\r\n\r\n{\"ga")  # 4 of 100 bytes
    silent = _idle(srv.http_port, 20)  # connects, sends nothing
    try:
        deadline = time.monotonic() + 10
        everyone = slow_header + slow_body + silent
        while time.monotonic() < deadline and not all(_closed_by_server(s) for s in everyone):
            time.sleep(0.2)
        assert all(_closed_by_server(s) for s in everyone)
        assert srv.metric("splendor_http_closed_total", reason="header_timeout") == 60
        assert srv.metric("splendor_http_closed_total", reason="body_timeout") == 40
        assert _http_get(srv.http_port) == 200
    finally:
        for s in slow_header + slow_body + silent:
            s.close()
    assert "Traceback" not in srv.text(), srv.text()[-3000:]


def test_open_files_running_out_is_one_error_line_per_interval(limited):
    import resource

    # Started within its open-file limit (a connection limit above what the limit allows is refused
    # at start: test_service_settings.py), then the limit drops under it: the files run out first.
    srv = limited(4096, max_connections=1000, header_timeout=30.0)
    resource.prlimit(srv.proc.pid, resource.RLIMIT_NOFILE, (200, 200))
    held = []
    try:
        t0 = time.monotonic()
        held += _idle(srv.http_port, 300)
        time.sleep(2.5)  # the event loop retries its accept every second meanwhile
        elapsed = time.monotonic() - t0
    finally:
        for s in held:
            s.close()
    time.sleep(0.5)
    text = srv.text()
    lines = [ln for ln in text.splitlines() if "the open files ran out" in ln]
    assert 1 <= len(lines) <= 1 + elapsed / 10, lines
    assert "ERROR" in lines[0] and "Traceback" not in text, text[-3000:]
    assert _http_get(srv.http_port) == 200  # served again once files are free
    srv.stop()  # the last summary line counts every failed accept: about one a second, not thousands
    counts = [int(m) for m in re.findall(r"the open files ran out.*?\((\d+) in the last", srv.text())]
    assert sum(counts) <= 2 * (elapsed + 3), counts


def _post_json(port: int, method: str, body: dict, timeout: float = 30):
    import json

    req = urllib.request.Request(f"http://127.0.0.1:{port}/splendor.v1.SplendorService/{method}",
                                 data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def test_shutdown_ends_within_the_grace_with_slow_clients_and_answers_503_meanwhile(limited):
    """A busy port (a search running on it) drains: 503 for new requests, slow clients closed at
    once, the running call answered, the exit within the grace. (Idle, it exits at once:
    test_service_lifecycle.py.)"""
    import threading

    grace = 3.0
    srv = limited(4096, header_timeout=30.0, body_timeout=30.0, grace=grace)
    position = _post_json(srv.http_port, "NewGame", {"seed": "1"})["position"]
    answered = []
    running = threading.Thread(target=lambda: answered.append(_post_json(
        srv.http_port, "GetMove", {"position": position, "limits": {"timeMs": "30000"}})))
    running.start()
    while srv.metric("splendor_searches_in_flight") != 1:
        time.sleep(0.02)
    slow_header = _idle(srv.http_port, 30)
    for s in slow_header:
        s.sendall(b"POST /splendor.v1.SplendorService/NewGame HTTP/1.1\r\nHost: a\r\n")
    slow_body = _idle(srv.http_port, 30)
    for s in slow_body:
        s.sendall(b"POST /splendor.v1.SplendorService/NewGame HTTP/1.1\r\nHost: a\r\n"
                  b"content-type: application/json\r\ncontent-length: 100\r\n\r\n{\"ga")
    assert _http_get(srv.http_port) == 200
    try:
        time.sleep(0.3)
        t0 = time.monotonic()
        srv.proc.terminate()
        time.sleep(0.5)
        with pytest.raises(urllib.error.HTTPError) as err:  # answered, not refused, during the grace
            _http_get(srv.http_port, timeout=5)
        assert err.value.code == 503 and b"shutting down" in err.value.read()
        assert all(_closed_by_server(s) for s in slow_header + slow_body)  # closed at once, not held
        srv.proc.wait(grace + 10)
        elapsed = time.monotonic() - t0
    finally:
        for s in slow_header + slow_body:
            s.close()
        running.join(30)
    assert answered and answered[0]["moves"], "the running search was answered with what it found"
    assert srv.proc.returncode == 0
    assert elapsed < grace + 0.5, f"exit {elapsed:.2f}s after SIGTERM, grace {grace}s"
    assert "Traceback" not in srv.text(), srv.text()[-3000:]
