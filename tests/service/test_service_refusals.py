"""Every refusal is counted exactly once, by the layer that refused it, and logged; the
process collectors are in the server's registry (issue 48 item 6). 127.0.0.1 only, bounded."""
import logging
import threading
from concurrent import futures

import grpc
import pytest
from prometheus_client import generate_latest

from splendor_ai.service.admission import REFUSAL_WORKERS, Admission
from splendor_ai.service.calls import Call, Metrics, Observer

BLOCK = "/test.Blocking/Hold"


def _value(metrics: Metrics, name: str, **labels) -> float:
    got = metrics.registry.get_sample_value(name, labels)
    return 0.0 if got is None else got


@pytest.fixture
def blocking_server():
    """A gRPC server whose one method holds its worker until released, behind Admission(2)."""
    metrics = Metrics()
    admission = Admission(2, metrics)
    release = threading.Event()
    entered = threading.Semaphore(0)

    def hold(request, context):
        entered.release()
        release.wait(20)
        return b"done"

    handler = grpc.unary_unary_rpc_method_handler(hold)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2 + REFUSAL_WORKERS), interceptors=[admission])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("test.Blocking", {"Hold": handler}),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    call = channel.unary_unary(BLOCK)
    yield metrics, admission, call, release, entered
    release.set()
    channel.close()
    server.stop(0).wait()


def test_calls_beyond_the_worker_limit_are_refused_counted_once_and_logged_in_a_summary(blocking_server, caplog):
    metrics, admission, call, release, entered = blocking_server
    held = [call.future(b"x", timeout=20) for _ in range(2)]
    assert entered.acquire(timeout=10) and entered.acquire(timeout=10)
    codes = []
    with caplog.at_level(logging.WARNING, logger="splendor_ai.service"):
        for _ in range(30):
            with pytest.raises(grpc.RpcError) as err:
                call(b"x", timeout=10)
            codes.append(err.value.code())
    assert codes == [grpc.StatusCode.RESOURCE_EXHAUSTED] * 30
    assert _value(metrics, "splendor_refusals_total", port="grpc", reason="workers") == 30
    assert _value(metrics, "splendor_calls_total", method="Hold", game="-", code="RESOURCE_EXHAUSTED") == 30
    summaries = [r for r in caplog.records if "refused calls" in r.getMessage()]
    assert 1 <= len(summaries) <= 2  # the first at once, the rest in the next interval's line
    release.set()
    assert [f.result(timeout=20) for f in held] == [b"done", b"done"]
    assert admission.active() == 0
    assert call(b"x", timeout=10) == b"done"  # places given back: served again


def test_refusals_of_the_servicer_and_the_token_check_count_once_under_their_reason():
    metrics = Metrics()
    observer = Observer(metrics)
    for outcome, peer in (("RESOURCE_EXHAUSTED", "ipv4:127.0.0.1:1"), ("UNAUTHENTICATED", "http:127.0.0.1:2"),
                          ("UNAVAILABLE", "ipv4:127.0.0.1:3"), ("INVALID_ARGUMENT", "ipv4:127.0.0.1:4")):
        call = Call("GetMove", peer=peer)
        call.outcome = outcome
        observer.finish(call)
    assert _value(metrics, "splendor_refusals_total", port="grpc", reason="slots") == 1
    assert _value(metrics, "splendor_refusals_total", port="http", reason="token") == 1
    assert _value(metrics, "splendor_refusals_total", port="grpc", reason="shutdown") == 1
    text = generate_latest(metrics.registry).decode()
    assert 'reason="' in text and text.count("splendor_refusals_total{") == 3  # INVALID_ARGUMENT is no refusal


def test_the_registry_holds_the_process_collectors():
    text = generate_latest(Metrics().registry).decode()
    for name in ("process_resident_memory_bytes", "process_cpu_seconds_total", "process_open_fds",
                 "process_max_fds", "python_gc_objects_collected_total", "python_info"):
        assert f"\n{name}" in text, name


def test_http_calls_beyond_the_worker_limit_are_refused_and_counted_not_queued():
    import asyncio

    from splendor_ai.service.web import Transport

    pytest.importorskip("connectrpc")
    from connectrpc.errors import ConnectError

    metrics = Metrics()
    release = threading.Event()

    class Servicer:
        def GetMove(self, request, context):
            release.wait(20)
            return "moved"

    transport = Transport(Servicer(), 2, metrics)

    class Ctx:
        timeout_ms = None
        client_address = "127.0.0.1:9"

        class request_headers:
            @staticmethod
            def allitems():
                return ()

    async def scenario():
        call = transport.unary(Servicer().GetMove)
        held = [asyncio.ensure_future(call(None, Ctx())) for _ in range(2)]
        await asyncio.sleep(0.1)
        refused = 0
        for _ in range(5):
            with pytest.raises(ConnectError) as err:
                await call(None, Ctx())
            assert err.value.code.name == "RESOURCE_EXHAUSTED"
            refused += 1
        release.set()
        assert await asyncio.gather(*held) == ["moved", "moved"]
        await asyncio.sleep(0.1)  # the places come back on the loop
        assert transport._active == 0
        return refused

    assert asyncio.run(scenario()) == 5
    assert _value(metrics, "splendor_refusals_total", port="http", reason="workers") == 5
    assert _value(metrics, "splendor_calls_total", method="GetMove", game="-", code="RESOURCE_EXHAUSTED") == 5
    transport.pool.shutdown()


def test_a_flood_of_slot_refusals_is_logged_as_summaries_not_a_line_each(spawn_server):
    """Issue 67 finding 7: 200 calls refused for lack of a search slot, 2 summary lines at most."""
    from splendor_ai_client import Busy, Client

    from splendor_ai.games import load_game
    from splendor_ai.service import convert

    srv = spawn_server("--max-concurrent", "1", "--metrics-port", "0")
    position = convert.encode_position(load_game("base", 2).new_initial_state(1))
    with Client(srv.target, timeout=30, retries=0) as c:
        analysis = c.analyze(position, time_ms=20_000, report_every_ms=50)
        next(analysis)
        refused = 0
        for _ in range(200):
            try:
                c.get_move(position, iterations=10)
            except Busy:
                refused += 1
        analysis.cancel()
    assert refused == 200
    text = srv.text()
    assert "outcome=RESOURCE_EXHAUSTED" not in text  # no line a refusal
    summaries = [ln for ln in text.splitlines() if "refused calls (no search slot" in ln]
    assert 1 <= len(summaries) <= 2 and "GetMove grpc slots: 1" in summaries[0], summaries
    import urllib.request

    metrics = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    assert 'splendor_refusals_total{port="grpc",reason="slots"} 200.0' in metrics


def test_refusals_are_summarised_per_interval_and_flushed_at_shutdown(caplog):
    metrics = Metrics()
    observer = Observer(metrics)
    with caplog.at_level(logging.INFO, logger="splendor_ai.service"):
        for i in range(50):
            call = Call("GetMove", peer="ipv4:127.0.0.1:1")
            call.outcome = "RESOURCE_EXHAUSTED"
            call.refusal = "batch_slots" if i % 2 else None
            observer.finish(call)
        observer.flush()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines  # the first at once, the other 49 in one line
    assert "GetMove grpc batch_slots: 25" in lines[1] and "GetMove grpc slots: 24" in lines[1]
    assert _value(metrics, "splendor_refusals_total", port="grpc", reason="batch_slots") == 25
