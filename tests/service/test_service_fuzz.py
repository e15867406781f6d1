"""A bounded fuzz of both ports (issue 48): random and mutated requests never crash the server,
never answer INTERNAL/UNKNOWN (or HTTP 500), never send a traceback or a server path to the
client, and leave no traceback in the log. 127.0.0.1 only, a few hundred requests."""
import random

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")

from bench_hostile import Served, fuzz_grpc, fuzz_http  # noqa: E402


def test_fuzzed_requests_on_both_ports_get_clean_answers():
    srv = Served()
    try:
        rng = random.Random(1048)
        g = fuzz_grpc(srv.grpc_port, 210, rng)
        h = fuzz_http(srv.http_port, 210, rng)
        assert srv.proc.poll() is None, "the server crashed:\n" + srv.text()[-3000:]
        log = srv.text()
    finally:
        srv.stop()
    for port, out in (("gRPC", g), ("HTTP", h)):
        assert out["requests"] == 210
        assert (out["wrong"], out["tracebacks"], out["paths"]) == (0, 0, 0), (port, out)
    assert g["codes"].get("INVALID_ARGUMENT", 0) > 100  # the fuzz reached the checks, not only the framing
    assert "Traceback" not in log, log[-3000:]
