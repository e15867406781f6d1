"""Deployment under hostile clients (issue 48): idle connections, fuzz, shutdown, a soak.

    python scripts/bench_hostile.py [--idle 5000] [--fuzz 2000] [--soak-seconds 300] [--write]

Each server is ``serve(Settings(...))`` in a subprocess on 127.0.0.1 (both ports, metrics);
every client is in this process. Writes the "deploy-hostile" section of BENCHMARKS.md (beside
"deploy") with ``--write``.

- Idle connections: ``--idle`` TCP connections held open on each port (nothing sent), then a
  new gRPC client (health check, GetCatalog) and a new HTTP client (the demo page, a Connect
  call) are timed; once at this machine's open-file limit, once at a limit of 1,024 (where
  about 1,100 idle connections used to lock every client out).
- Fuzz: ``--fuzz`` requests a port: random and mutated request bytes to every method (gRPC),
  random bodies, content types, methods and paths (HTTP). Counted: crashes (the server gone),
  tracebacks sent to clients, wrong status codes (gRPC INTERNAL/UNKNOWN; HTTP 500, or a 5xx
  other than 503), tracebacks in the server's log.
- Shutdown: seconds from SIGTERM to exit against ``--grace``, with slow-header, slow-body and
  idle HTTP clients and a running analysis connected.
- Soak: the server's resident memory before and after ``--soak-seconds`` of GetMove calls with
  slow and idle clients coming and going on both ports.
"""
from __future__ import annotations

import random
import re
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

LIMIT = "import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files})); "
LAUNCH = ("import sys; from splendor_ai.service.server import serve; from splendor_ai.service.settings import "
          "Settings; sys.exit(serve(Settings(**{})))")
SERVICE = "splendor.v1.SplendorService"
INSTALL = str(Path(__file__).resolve().parents[1])  # the package's folder: never in a message to a client
METHODS = ("GetCatalog", "NewGame", "LegalActions", "ApplyActions", "GetMove", "Analyze", "AnalyzeGame")


def launch_code(settings: dict, files: int | None = None) -> str:
    """``python -c`` code that serves ``Settings(**settings)``, its open-file limit at ``files``
    (None: inherited). The child sets the limit itself, first thing: a Popen preexec_fn would fork
    the caller, which may have grpc loaded, and gRPC's fork handlers can then abort the child
    before exec ("epoll_wait error: Bad file descriptor", grpc/grpc#43055)."""
    return (LIMIT.format(files=int(files)) if files is not None else "") + LAUNCH.format(repr(settings))


class Served:
    """The server in a subprocess with its open-file limit at ``files`` (None: this machine's)."""

    def __init__(self, files: int | None = None, **settings):
        base = dict(host="127.0.0.1", port=0, http_port=0, metrics_port=0, max_concurrent=2, max_threads=1)
        self.dir = tempfile.TemporaryDirectory()
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")
        code = launch_code({**base, **settings}, files)
        # cwd: `python -c` puts its folder first on sys.path, and from a source tree that would be
        # its splendor_ai (perhaps without built cores) instead of the installed one.
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=self.dir.name)
        deadline = time.monotonic() + 60
        while not re.search(r"listening on \S+:(\d+)", self.text()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start:\n" + self.text())
            time.sleep(0.05)
        text = self.text()
        self.grpc_port = int(re.search(r"listening on \S+:(\d+)", text).group(1))
        http = re.search(r"demo page on http://\S+?:(\d+)/", text)
        self.http_port = int(http.group(1)) if http else None
        metrics = re.search(r"metrics on http://\S+?:(\d+)/", text)
        self.metrics_port = int(metrics.group(1)) if metrics else None
        self.limit_line = re.search(r"open files: [^(]*", text).group(0).strip().rstrip(";")
        self.cap = int(re.search(r"at most (\d+) connections", text).group(1))

    def text(self) -> str:
        return self.log_path.read_text()

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> float:
        """SIGTERM; the seconds until the process exited."""
        t0 = time.monotonic()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        elapsed = time.monotonic() - t0
        self.log.close()
        self.dir.cleanup()
        return elapsed


def raise_own_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def hold(port: int, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            break
        out.append(s)
    return out


def _grpc(port: int, timeout: float):
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from splendor.v1 import splendor_pb2 as pb
    from splendor.v1 import splendor_pb2_grpc as pb_grpc

    t0 = time.monotonic()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout,
                                                 wait_for_ready=True)
            pb_grpc.SplendorServiceStub(ch).GetCatalog(pb.GetCatalogRequest(), timeout=timeout)
        return True, (time.monotonic() - t0) * 1000
    except grpc.RpcError as err:
        return f"{err.code().name}", (time.monotonic() - t0) * 1000


def _http(port: int, timeout: float):
    t0 = time.monotonic()
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=timeout).read()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/{SERVICE}/GetCatalog", data=b"{}",
                                     headers={"content-type": "application/json"})
        urllib.request.urlopen(req, timeout=timeout).read()
        return True, (time.monotonic() - t0) * 1000
    except (urllib.error.URLError, OSError) as exc:
        return type(exc).__name__, (time.monotonic() - t0) * 1000


def idle_run(files: int | None, idle: int) -> dict:
    srv = Served(files)
    held = []
    try:
        t0 = time.monotonic()
        held += hold(srv.grpc_port, idle)
        held += hold(srv.http_port, idle)
        opened = time.monotonic() - t0
        g = _grpc(srv.grpc_port, 20)  # waits for a connection (the held ones fail their handshake in 10 s)
        h = _http(srv.http_port, 15)
        return {"limit": srv.limit_line, "cap": srv.cap, "held": len(held), "opened_s": opened, "grpc": g,
                "http": h, "tracebacks": srv.text().count("Traceback")}
    finally:
        for s in held:
            s.close()
        srv.stop()


# ------------------------------------------------------------------ fuzz
def _valid_requests():
    from splendor.v1 import splendor_pb2 as pb

    from splendor_ai.games import load_game
    from splendor_ai.service import convert

    state = load_game("base", 2).new_initial_state(3)
    pos = convert.encode_position(state)
    move = pb.Move(notation=state.action_to_string(state.search_actions()[0]))
    return {"GetCatalog": pb.GetCatalogRequest(), "NewGame": pb.NewGameRequest(players=3, seed=1),
            "LegalActions": pb.LegalActionsRequest(position=pos), "ApplyActions": pb.ApplyActionsRequest(
                position=pos, moves=[move]),
            "GetMove": pb.GetMoveRequest(position=pos, limits=pb.SearchLimits(iterations=20)),
            "Analyze": pb.AnalyzeRequest(position=pos, limits=pb.SearchLimits(iterations=20)),
            "AnalyzeGame": pb.AnalyzeGameRequest(initial_position=pos, moves=[move], iterations=10)}


def _mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        if kind < 0.4 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif kind < 0.6:
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif kind < 0.8 and b:
            del b[rng.randrange(len(b))]
        else:
            b += rng.randbytes(rng.randint(1, 16))
    return bytes(b)


def fuzz_grpc(port: int, n: int, rng: random.Random) -> dict:
    import grpc

    valid = {m: r.SerializeToString() for m, r in _valid_requests().items()}
    out = {"requests": 0, "wrong": 0, "tracebacks": 0, "paths": 0, "codes": {}}
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        for i in range(n):
            method = METHODS[i % len(METHODS)]
            data = rng.randbytes(rng.randint(0, 64)) if rng.random() < 0.3 else _mutate(rng, valid[method])
            path = f"/{SERVICE}/{method}"
            stream = method in ("Analyze", "AnalyzeGame")
            call = (ch.unary_stream if stream else ch.unary_unary)(path)
            out["requests"] += 1
            try:
                result = call(data, timeout=10)
                if stream:
                    list(result)
                code = "OK"
            except grpc.RpcError as err:
                code = err.code().name
                if "Traceback" in (err.details() or ""):
                    out["tracebacks"] += 1
                if INSTALL in (err.details() or ""):
                    out["paths"] += 1
            out["codes"][code] = out["codes"].get(code, 0) + 1
            if code in ("INTERNAL", "UNKNOWN"):
                out["wrong"] += 1
    return out


def fuzz_http(port: int, n: int, rng: random.Random) -> dict:
    import http.client

    valid = {m: r.SerializeToString() for m, r in _valid_requests().items()}
    kinds = ["application/json", "application/proto", "application/connect+json", "application/connect+proto",
             "application/grpc-web+proto", "application/grpc-web-text", "application/grpc", "text/plain", "",
             "application/grpc-web+json", "multipart/form-data"]
    out = {"requests": 0, "wrong": 0, "tracebacks": 0, "paths": 0, "codes": {}}
    for i in range(n):
        method = METHODS[i % len(METHODS)]
        kind = rng.choice(kinds)
        body = valid[method]
        if "grpc-web" in kind or "connect+" in kind:
            body = struct.pack(">BI", 0, len(body)) + body
        if kind == "application/grpc-web-text":
            import base64

            body = base64.b64encode(body)
        body = _mutate(rng, body) if rng.random() < 0.8 else rng.randbytes(rng.randint(0, 200))
        verb = rng.choice(["POST"] * 6 + ["GET", "PUT", "OPTIONS", "DELETE"])
        path = rng.choice([f"/{SERVICE}/{method}"] * 6 + ["/", "/app.js", f"/{SERVICE}/Nope", "/..%2f..%2fetc",
                                                          "/" + "a" * 3000])
        headers = {"content-type": kind} if kind else {}
        if rng.random() < 0.2:
            headers["connect-timeout-ms"] = rng.choice(["0", "-5", "abc", "99999999999999", "10"])
        if rng.random() < 0.1:
            headers["grpc-timeout"] = rng.choice(["1m", "xx", "5S", "99999999H"])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        out["requests"] += 1
        try:
            conn.request(verb, path, body=body, headers=headers)
            res = conn.getresponse()
            data = res.read()
            status = res.status
            grpc_status = res.getheader("grpc-status")
            text = data.decode("latin-1") + (res.getheader("grpc-message") or "")
            if "Traceback" in text:
                out["tracebacks"] += 1
            if INSTALL in text:
                out["paths"] += 1
            # 503: shutting down or busy; 504: past the deadline the request's header gave
            if status == 500 or (status >= 500 and status not in (503, 504)) or grpc_status in ("2", "13"):
                out["wrong"] += 1
            out["codes"][status] = out["codes"].get(status, 0) + 1
        except (OSError, http.client.HTTPException) as exc:
            out["codes"][type(exc).__name__] = out["codes"].get(type(exc).__name__, 0) + 1
        finally:
            conn.close()
    return out


def fuzz_run(n: int, seed: int = 48) -> dict:
    srv = Served()
    rng = random.Random(seed)
    try:
        g = fuzz_grpc(srv.grpc_port, n, rng)
        h = fuzz_http(srv.http_port, n, rng)
        crashed = srv.proc.poll() is not None
        log_tracebacks = srv.text().count("Traceback")
    finally:
        srv.stop()
    return {"grpc": g, "http": h, "crashed": crashed, "log_tracebacks": log_tracebacks}


# ------------------------------------------------------------------ shutdown and soak
def slow_clients(port: int, n: int) -> list[socket.socket]:
    socks = hold(port, 3 * n)
    for k, s in enumerate(socks):
        if k % 3 == 0:
            s.sendall(b"POST /" + SERVICE.encode() + b"/NewGame HTTP/1.1\r\nHost: a\r\n")  # headers never end
        elif k % 3 == 1:
            s.sendall(b"POST /" + SERVICE.encode() + b"/NewGame HTTP/1.1\r\nHost: a\r\ncontent-type: "
                      b"application/json\r\ncontent-length: 100\r\n\r\n{")  # 1 of 100 bytes
    return socks  # the third of them idle


def shutdown_run(grace: float, slow: int) -> dict:
    import grpc
    from splendor.v1 import splendor_pb2 as pb
    from splendor.v1 import splendor_pb2_grpc as pb_grpc

    srv = Served(grace=grace, header_timeout=60.0, body_timeout=60.0)
    socks = slow_clients(srv.http_port, slow)
    ch = grpc.insecure_channel(f"127.0.0.1:{srv.grpc_port}")
    stream = pb_grpc.SplendorServiceStub(ch).Analyze(pb.AnalyzeRequest(
        position=_valid_requests()["GetMove"].position, limits=pb.SearchLimits(time_ms=60_000), report_every_ms=100))
    next(stream)
    reader = threading.Thread(target=lambda: [None for _ in stream], daemon=True)
    reader.start()
    try:
        time.sleep(0.3)
        elapsed = srv.stop()
    finally:
        for s in socks:
            s.close()
        ch.close()
    return {"grace": grace, "slow": len(socks), "exit_s": elapsed}


def soak_run(seconds: float, rng: random.Random) -> dict:
    from splendor_ai_client import Client, ServiceError

    srv = Served(header_timeout=2.0, body_timeout=2.0, keepalive_timeout=2.0)
    stop = time.monotonic() + seconds
    counts = {"calls": 0, "refused": 0, "slow": 0, "idle": 0}
    positions = [_valid_requests()["GetMove"].position]

    def caller():
        with Client(f"127.0.0.1:{srv.grpc_port}", timeout=30) as c:
            while time.monotonic() < stop:
                try:
                    c.get_move(positions[0], iterations=200, seed=counts["calls"])
                    counts["calls"] += 1
                except ServiceError:
                    counts["refused"] += 1

    def pests():
        while time.monotonic() < stop:
            socks = slow_clients(srv.http_port, 20) + hold(srv.grpc_port, 60)
            counts["slow"] += 40
            counts["idle"] += 80
            time.sleep(min(3.0, max(0.0, stop - time.monotonic())))
            for s in socks:
                s.close()

    try:
        with Client(f"127.0.0.1:{srv.grpc_port}", timeout=30) as c:  # warm up: nets, first searches
            for i in range(20):
                c.get_move(positions[0], iterations=200, seed=i)
        before = srv.rss_mb()
        threads = [threading.Thread(target=caller), threading.Thread(target=pests)]
        for t in threads:
            t.start()
        peak = before
        while any(t.is_alive() for t in threads):
            peak = max(peak, srv.rss_mb())
            time.sleep(1.0)
        time.sleep(3.0)  # the last slow clients timed out
        after = srv.rss_mb()
        tracebacks = srv.text().count("Traceback")
    finally:
        srv.stop()
    return {"seconds": seconds, "before": before, "after": after, "peak": peak, "tracebacks": tracebacks, **counts}


# ------------------------------------------------------------------ the section
def _served(result) -> str:
    ok, ms = result
    return f"served in {ms:.0f} ms" if ok is True else f"**not served** ({ok} after {ms:.0f} ms)"


def main(argv=None) -> int:
    import argparse
    import os

    from splendor_ai.bench.report import machine_line, write_section

    ap = argparse.ArgumentParser(prog="python scripts/bench_hostile.py", description=__doc__.split("\n")[0])
    ap.add_argument("--idle", type=int, default=5000, help="idle connections held on each port")
    ap.add_argument("--fuzz", type=int, default=2000, help="fuzz requests a port")
    ap.add_argument("--grace", type=float, default=5.0, help="the server's --grace in the shutdown runs")
    ap.add_argument("--slow", type=int, default=100, help="slow-header, slow-body and idle HTTP clients each, at "
                                                          "shutdown")
    ap.add_argument("--soak-seconds", type=float, default=300.0, help="duration of the soak")
    ap.add_argument("--write", action="store_true", help="write the 'deploy-hostile' section of --out")
    ap.add_argument("--out", default="BENCHMARKS.md")
    args = ap.parse_args(argv)

    own = raise_own_limit()
    if own < 2 * args.idle + 512:
        raise SystemExit(f"--idle {args.idle}: this process may open {own} files, it needs {2 * args.idle + 512}")
    load_before = os.getloadavg()[0]
    idle_high = idle_run(None, args.idle)
    idle_low = idle_run(1024, 1100)  # 2,200 in all: twice what used to lock everyone out
    fuzz = fuzz_run(args.fuzz)
    downs = [shutdown_run(args.grace, args.slow) for _ in range(3)]
    soak = soak_run(args.soak_seconds, random.Random(48))
    load_after = os.getloadavg()[0]

    cmd = "python scripts/bench_hostile.py"
    for name, default in (("idle", 5000), ("fuzz", 2000), ("grace", 5.0), ("slow", 100), ("soak_seconds", 300.0)):
        if getattr(args, name) != default:
            cmd += f" --{name.replace('_', '-')} {getattr(args, name):g}"
    cmd += " --write"

    def codes(d):
        return ", ".join(f"{k} {v}" for k, v in sorted(d.items(), key=lambda kv: -kv[1]))

    g, h = fuzz["grpc"], fuzz["http"]
    body = "\n".join([
        "## Service deployment under hostile clients: idle connections, fuzz, shutdown, soak (issue 48)",
        "",
        f"Command: `{cmd}` ({machine_line()}). Each server is `serve(Settings(...))` in a subprocess on "
        "127.0.0.1 with both ports and metrics (`--max-concurrent 2 --max-threads 1`, the connection bounds at "
        f"their defaults unless said); the clients are one process. Load average (1 min) before / after: "
        f"{load_before:.1f} / {load_after:.1f}.",
        "",
        "**Idle connections** (TCP connections opened on each port and left silent, then a new client):",
        "",
        "| server's open files | connections a port (cap) | idle held (both ports) | new gRPC client (health + "
        "GetCatalog) | new HTTP client (page + Connect call) | tracebacks in the log |",
        "|---|---|---|---|---|---|",
        *(f"| {r['limit']} | {r['cap']:,} | {r['held']:,} of {2 * n:,} opened in {r['opened_s']:.1f} s | "
          f"{_served(r['grpc'])} | {_served(r['http'])} | {r['tracebacks']} |"
          for r, n in ((idle_high, args.idle), (idle_low, 1100))),
        "",
        "At the machine's limit every connection is held and both clients are served at once. At 1,024 files the "
        "cap (448 a port) keeps the open files from running out: the gRPC port closes what is beyond its cap, and "
        "holds the rest until they fail the handshake (`--header-timeout`, 10 s), so a new gRPC client may wait "
        "that long; the HTTP port closes its oldest idle connection for each new one. Before issue 48, about "
        "1,100 idle connections locked every new client out of both ports.",
        "",
        f"**Fuzz** ({args.fuzz:,} requests a port: random or mutated request bytes for every method on the gRPC "
        "port; random or mutated bodies, content types, methods, paths and deadline headers on the HTTP port):",
        "",
        "| port | requests | crashes | tracebacks to clients | wrong status codes | status codes seen |",
        "|---|---|---|---|---|---|",
        f"| gRPC | {g['requests']:,} | {int(fuzz['crashed'])} | {g['tracebacks']} | {g['wrong']} (INTERNAL, "
        f"UNKNOWN) | {codes(g['codes'])} |",
        f"| HTTP | {h['requests']:,} | {int(fuzz['crashed'])} | {h['tracebacks']} | {h['wrong']} (500, a 5xx "
        f"but 503 and 504, grpc-status 2 or 13) | {codes(h['codes'])} |",
        "",
        f"Tracebacks in the server's log over the fuzz: {fuzz['log_tracebacks']}.",
        "",
        f"**Shutdown** (SIGTERM with {downs[0]['slow']} HTTP clients connected: a third sending headers that "
        "never end, a third a body that never ends, a third idle; and a gRPC analysis running, 3 runs):",
        "",
        "| `--grace` | SIGTERM to exit | within the grace |",
        "|---|---|---|",
        *(f"| {d['grace']:g} s | {d['exit_s']:.2f} s | {d['exit_s'] / d['grace']:.2f}x |" for d in downs),
        "",
        f"**Soak** ({soak['seconds']:g} s: GetMove with 200 iterations in a loop, and every 3 s 20 slow-header, "
        "20 slow-body, 20 idle HTTP clients and 60 silent gRPC connections opened then dropped; "
        "`--header-timeout 2 --body-timeout 2 --keepalive-timeout 2`): "
        f"{soak['calls']:,} calls answered, {soak['refused']} refused; {soak['slow']:,} slow and "
        f"{soak['idle']:,} idle clients. Resident memory of the server: {soak['before']:.1f} MB after the "
        f"warm-up, {soak['after']:.1f} MB at the end ({soak['after'] / soak['before']:.2f}x; peak "
        f"{soak['peak']:.1f} MB); tracebacks in the log: {soak['tracebacks']}.",
    ])
    print(body)
    if args.write:
        _place_after(args.out, "deploy", "deploy-hostile")
        write_section(args.out, "deploy-hostile", body)
    return 0


def _place_after(path: str, after: str, name: str) -> None:
    """Put an empty ``name`` section right after ``after``'s when the file has none yet."""
    p = Path(path)
    if not p.exists():
        return
    text = p.read_text()
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    anchor = f"<!-- /bench:{after} -->"
    if start in text or anchor not in text:
        return
    p.write_text(text.replace(anchor, f"{anchor}\n\n{start}\n{end}", 1))


if __name__ == "__main__":
    import sys

    sys.exit(main())
