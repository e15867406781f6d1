"""Health, reflection, SIGTERM and the asyncio client against the real server."""
import asyncio
import threading
import time

import grpc
import pytest
from splendor_ai_client import AsyncClient, Client, InvalidArgument, ServiceError, Unavailable
from timing import PAUSE


def test_health_and_reflection(server, health):
    from google.protobuf import descriptor_pool
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

    assert health(server.target) == "SERVING"
    assert health(server.target, "splendor.v1.SplendorService") == "SERVING"
    with grpc.insecure_channel(server.target) as channel:
        db = ProtoReflectionDescriptorDatabase(channel)
        services = set(db.get_services())
        assert {"splendor.v1.SplendorService", "grpc.health.v1.Health"} <= services
        pool = descriptor_pool.DescriptorPool(db)
        methods = {m.name for m in pool.FindServiceByName("splendor.v1.SplendorService").methods}
        assert methods == {"GetCatalog", "NewGame", "LegalActions", "ApplyActions", "GetMove", "Analyze", "AnalyzeGame"}
        assert pool.FindMessageTypeByName("splendor.v1.BasePosition").fields_by_name["observer"]


def test_sigterm_lets_searches_answer_then_exits_zero(spawn_server):
    srv = spawn_server("--max-concurrent", "2", "--grace", "2")
    reports = []
    with Client(srv.target, timeout=30, retries=0) as c:  # the server's own refusal, not the client's retries
        position = c.new_game(2, seed=1).position
        analysis = c.analyze(position, time_ms=20_000, report_every_ms=50)
        reports.append(next(analysis))

        def drain():
            reports.extend(analysis)

        reader = threading.Thread(target=drain)
        reader.start()
        t0 = time.monotonic()
        srv.proc.send_signal(15)
        time.sleep(0.6)
        with pytest.raises(ServiceError) as err:  # no new calls once stopping
            c.get_move(position, iterations=10, timeout=5)
        assert isinstance(err.value, Unavailable) or err.value.code == grpc.StatusCode.UNAVAILABLE
        reader.join(10)
        assert srv.proc.wait(10) == 0
        elapsed = time.monotonic() - t0
    finals = [r for r in reports if r.final]
    assert len(finals) == 1 and finals[0].stats.stop_reason == "cancelled"
    assert finals[0].stats.iterations > 0
    assert elapsed < 2 + PAUSE
    assert "SIGTERM: stopping" in srv.text() and "stopped" in srv.text()


@pytest.mark.parametrize("ports", [(), ("--http-port", "0"), ("--http-port", "0", "--metrics-port", "0")])
def test_sigterm_when_idle_exits_zero_within_a_second_whatever_its_ports(spawn_server, ports):
    pytest.importorskip("uvicorn") if ports else None
    srv = spawn_server("--grace", "10", *ports)
    with Client(srv.target, timeout=30, retries=0) as c:  # a connection that stays open: still idle
        c.catalog()
        t0 = time.monotonic()
        assert srv.terminate() == 0
        elapsed = time.monotonic() - t0
    assert elapsed < 1.0 + PAUSE, f"{elapsed:.2f}s from SIGTERM to exit with {ports or 'the gRPC port only'}"


def test_sighup_is_logged_and_drains_running_calls_like_sigterm(spawn_server):
    import signal

    srv = spawn_server("--max-concurrent", "2", "--grace", "2")
    with Client(srv.target, timeout=30, retries=0) as c:
        position = c.new_game(2, seed=1).position
        analysis = c.analyze(position, time_ms=20_000, report_every_ms=50)
        next(analysis)
        srv.proc.send_signal(signal.SIGHUP)
        reports = list(analysis)  # the running search answers with what it found
        assert srv.proc.wait(10) == 0
    assert [r.final for r in reports][-1] and reports[-1].stats.stop_reason == "cancelled"
    assert "SIGHUP: stopping" in srv.text() and "stopped" in srv.text()


def test_a_port_in_use_is_a_clear_error(server, spawn_server):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1",
                          "--port", str(server.port)], capture_output=True, text=True, timeout=30,
                         cwd=server.log_path.parent)
    assert out.returncode != 0 and "cannot listen on" in out.stderr


def test_async_client_has_the_same_methods(server):
    async def main():
        async with AsyncClient(server.target, timeout=30) as c:
            await c.wait_ready(5)
            assert len((await c.catalog()).cards) == 90
            game = await c.new_game(2, seed=2)
            legal = await c.legal_actions(game.position)
            played = await c.apply_actions(game.position, [legal.moves[0]])
            turn = await c.get_move(played.position, iterations=50, seed=1)
            assert turn.moves and turn.turn_complete
            reports = [r async for r in c.analyze(played.position, iterations=40_000, report_every_ms=10)]
            assert reports[-1].final and sum(r.final for r in reports) == 1 and len(reports) >= 2
            analysis = c.analyze(played.position, time_ms=20_000, report_every_ms=50)
            first = await analysis.__anext__()
            assert not first.final
            t0 = time.monotonic()
            analysis.cancel()
            assert [r async for r in analysis] == []
            assert time.monotonic() - t0 < PAUSE
            with pytest.raises(InvalidArgument) as err:
                await c.get_move(game.position, level=42)
            assert err.value.field == "level"

    asyncio.run(main())


def test_the_node_cap_bounds_each_search_tree(spawn_server):
    srv = spawn_server("--max-nodes", "2000")
    with Client(srv.target, timeout=30) as c:
        position = c.new_game(2, seed=1).position
        final = c.analyze(position, iterations=20_000, seed=1).result()
    assert final.stats.node_limit_hit and final.stats.nodes <= 2000
    assert final.stats.iterations == 20_000  # the search went on at the cap
    assert srv.terminate() == 0
