"""Every place the gRPC port's admission takes is given back on every path, and the health
status tells the truth when none is (issue 67, findings 1 and 2): calls cancelled or reset
before their request is read, short deadlines under load, asyncio clients cancelled, requests
never sent, streams whose client never reads. Each test then gets a normal call served with
the gauge of places in use back at 0. 127.0.0.1 only, bounded in count and time."""
import asyncio
import threading
import time
import urllib.request

import grpc
import pytest
from splendor.v1 import splendor_pb2_grpc as pb_grpc
from splendor_ai_client import AsyncClient, Client, pb
from timing import PAUSE

from h2raw import RawConnection
from splendor_ai.games import load_game
from splendor_ai.service import convert

pytest.importorskip("h2")

MAX_CONCURRENT = 2
PLACES = MAX_CONCURRENT + 8  # the admission's limit: --max-concurrent + CHEAP_WORKERS


def metrics(srv) -> dict:
    text = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def places_in_use(srv) -> float:
    return metrics(srv)['splendor_places_in_use{port="grpc"}']


def assert_served_and_free(srv, timeout: float = 5.0) -> None:
    """The places come back to 0, and a normal call on a new connection is served."""
    wait_for(lambda: places_in_use(srv) == 0, timeout, f"places still in use: {places_in_use(srv)}")
    with Client(srv.target, timeout=30, retries=0) as c:
        assert c.get_move(opening(), iterations=50, seed=1).moves
        assert c.legal_actions(opening()).moves


def opening() -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(1))


@pytest.fixture
def serve(spawn_server):
    def start(*flags):
        return spawn_server("--max-concurrent", str(MAX_CONCURRENT), "--metrics-port", "0", "--max-threads", "1",
                            *flags)

    return start


def test_streams_reset_before_their_request_give_their_places_back(serve):
    srv = serve()
    port = int(srv.target.rsplit(":", 1)[1])
    with RawConnection(port) as raw:
        for i in range(4 * PLACES):  # HEADERS then RST_STREAM: the request message never comes
            raw.reset(raw.open("GetCatalog" if i % 2 else "GetMove"))
            raw.flush()
        raw.read(0.5)
    assert_served_and_free(srv)


def test_futures_cancelled_at_once_give_their_places_back(serve):
    srv = serve()
    with grpc.insecure_channel(srv.target) as channel:
        stub = pb_grpc.SplendorServiceStub(channel)
        for _ in range(3 * PLACES):
            stub.GetCatalog.future(pb.GetCatalogRequest(), timeout=10).cancel()
    assert_served_and_free(srv)


def test_asyncio_calls_cancelled_after_10_ms_give_their_places_back(serve):
    srv = serve()

    async def scenario():
        async with AsyncClient(srv.target, timeout=10, retries=0) as ai:
            tasks = [asyncio.ensure_future(ai.new_game(2, seed=i)) for i in range(100)]
            await asyncio.sleep(0.01)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    assert_served_and_free(srv)


def test_short_deadlines_under_load_give_their_places_back(serve):
    srv = serve()
    request = pb.GetMoveRequest(position=opening(), limits=pb.SearchLimits(iterations=2000))
    stop = time.monotonic() + 4.0

    def hammer():
        with grpc.insecure_channel(srv.target) as channel:
            stub = pb_grpc.SplendorServiceStub(channel)
            while time.monotonic() < stop:
                try:
                    stub.GetMove(request, timeout=0.02)
                except grpc.RpcError:
                    pass

    threads = [threading.Thread(target=hammer) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert_served_and_free(srv, timeout=10.0)


def test_a_request_never_sent_is_cancelled_after_the_body_timeout(serve):
    srv = serve("--body-timeout", "1")
    port = int(srv.target.rsplit(":", 1)[1])
    with RawConnection(port) as raw:
        for _ in range(PLACES + 4):  # every place, and the refusals' threads beyond them
            raw.open("LegalActions")
        raw.flush()
        raw.read(1.0 + PAUSE + 1.0)
        assert_served_and_free(srv)  # while the connection is still open


def test_health_is_not_serving_while_every_place_is_held_and_none_returned(serve, health):
    srv = serve("--body-timeout", "60", "--stuck-seconds", "1")
    port = int(srv.target.rsplit(":", 1)[1])
    raw = RawConnection(port)
    for _ in range(PLACES):
        raw.open("LegalActions")
    raw.flush()
    wait_for(lambda: health(srv.target) == "NOT_SERVING", 1 + PAUSE + 3, "health stayed SERVING")
    assert metrics(srv)["splendor_admission_stuck"] == 1
    assert "cannot admit a call" in srv.text() and " ERROR " in srv.text()
    raw.close()  # the connection's end cancels its calls: their places come back
    wait_for(lambda: health(srv.target) == "SERVING", 5, "health did not recover")
    assert_served_and_free(srv)


def test_a_stream_whose_client_never_reads_is_cancelled_and_frees_its_slot(serve):
    srv = serve("--send-timeout", "1")
    port = int(srv.target.rsplit(":", 1)[1])
    request = pb.AnalyzeRequest(position=opening(), limits=pb.SearchLimits(time_ms=500), report_every_ms=50)
    raws = []
    for _ in range(MAX_CONCURRENT):  # one per slot: together they would stop every search
        raw = RawConnection(port, window=0)  # the server may send nothing on its streams
        raw.send(raw.open("Analyze"), request.SerializeToString())
        raw.flush()
        raws.append(raw)
    try:
        wait_for(lambda: metrics(srv)["splendor_searches_in_flight"] == MAX_CONCURRENT, 5, "the searches did not start")
        # the search ends at 0.5 s; its messages cannot be delivered; 1 s later the call is cancelled
        wait_for(lambda: metrics(srv)["splendor_searches_in_flight"] == 0, 0.5 + 1 + PAUSE + 2,
                 "the slots were not freed")
        m = metrics(srv)
        assert m["splendor_server_cancelled_total{reason=\"send_timeout\"}"] == MAX_CONCURRENT
        assert "did not read a message" in srv.text()
        assert_served_and_free(srv)
    finally:
        for raw in raws:
            raw.close()
