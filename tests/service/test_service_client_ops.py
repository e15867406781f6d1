"""The thin client as an operator meets it: the token on every RPC (AnalyzeGame included), and
gRPC retries of a call the server turned away (on by default, bounded, settable), against
real servers on 127.0.0.1."""
import asyncio
import re
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

def refused(srv, request_id: str) -> int:
    """How many attempts of the call ``request_id`` the server refused for lack of a slot."""
    return len(re.findall(rf": GetMove request_id='?{re.escape(request_id)}'? .*outcome=RESOURCE_EXHAUSTED", srv.text()))


def served(srv, request_id: str) -> int:
    return len(re.findall(rf": GetMove request_id='?{re.escape(request_id)}'? .*outcome=OK", srv.text()))


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


def test_a_busy_server_is_retried_by_default_five_attempts_in_all_then_busy(spawn_server):
    srv = spawn_server("--max-concurrent", "1")
    hold = Hold(srv.target, 60_000)
    try:
        with Client(srv.target, timeout=30) as c:  # the default policy
            start = time.monotonic()
            with pytest.raises(Busy):
                c.get_move(opening(), iterations=20, request_id="default-policy")
            elapsed = time.monotonic() - start
        with Client(srv.target, timeout=30, retries=0) as c:
            with pytest.raises(Busy):
                c.get_move(opening(), iterations=20, request_id="no-retries")
        with Client(srv.target, timeout=30, retries=None) as c:
            with pytest.raises(Busy):
                c.get_move(opening(), iterations=20, request_id="none")
        with Client(srv.target, timeout=30, retries=2) as c:
            with pytest.raises(Busy):
                c.get_move(opening(), iterations=20, request_id="two-retries")
    finally:
        hold.close()
    assert wait_logged(lambda: refused(srv, "default-policy") == 5 and refused(srv, "two-retries") == 3), srv.text()
    assert refused(srv, "no-retries") == 1 and refused(srv, "none") == 1
    # The default pauses: 0.25, 0.5, 1 and 2 s, each randomised (gRPC: by up to 20 %).
    assert elapsed < 1.2 * 3.75 + PAUSE


def test_a_call_turned_away_while_busy_succeeds_once_the_slot_is_free(spawn_server):
    srv = spawn_server("--max-concurrent", "1")
    hold = Hold(srv.target, 400)
    try:
        with Client(srv.target, timeout=60, retries=0) as c:  # without retries: refused at once
            with pytest.raises(Busy) as err:
                c.get_move(opening(), iterations=20, request_id="plain")
            assert err.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        # The default policy: retries after about 0.25, 0.75, 1.75 and 3.75 s, the last ones well
        # after the 0.4 s search has ended.
        with Client(srv.target, timeout=60) as c:
            start = time.monotonic()
            turn = c.get_move(opening(), iterations=20, request_id="retried")
            elapsed = time.monotonic() - start
        assert turn.moves
    finally:
        hold.close()
    assert wait_logged(lambda: served(srv, "retried") == 1), srv.text()
    assert refused(srv, "retried") >= 1 and refused(srv, "plain") == 1
    assert elapsed < 1.2 * 3.75 + PAUSE


def test_asyncio_client_retries_too(spawn_server):
    srv = spawn_server("--max-concurrent", "1")
    hold = Hold(srv.target, 60_000)

    async def call(request_id, retries):
        async with AsyncClient(srv.target, timeout=30, retries=retries) as c:
            with pytest.raises(Busy):
                await c.get_move(opening(), iterations=20, request_id=request_id)

    try:
        asyncio.run(call("aio-default", RetryPolicy(initial_backoff=0.05, max_backoff=0.1)))
        asyncio.run(call("aio-off", 0))
    finally:
        hold.close()
    assert wait_logged(lambda: refused(srv, "aio-default") == 5), srv.text()
    assert refused(srv, "aio-off") == 1


def test_the_calls_that_are_not_turned_away_are_not_retried(spawn_server):
    srv = spawn_server(env={"SPLENDOR_AI_TOKENS": "tok"})
    with Client(srv.target, timeout=30) as c:
        with pytest.raises(Unauthenticated):
            c.get_move(opening(), iterations=20, request_id="no-token")
    assert wait_logged(lambda: "outcome=UNAUTHENTICATED" in srv.text()), srv.text()
    time.sleep(0.5)  # a retry would come within 0.25 s
    assert srv.text().count("outcome=UNAUTHENTICATED") == 1


@pytest.mark.parametrize("retries, message", [
    (5, "retries: 0..4"), (-1, "retries: 0..4"), ("3", "retries: a RetryPolicy"), (1.5, "retries: a RetryPolicy"),
])
def test_bad_retry_settings_are_clear_errors(retries, message):
    with pytest.raises(ValueError, match=message):
        Client("127.0.0.1:1", retries=retries)


@pytest.mark.parametrize("kwargs, message", [
    ({"attempts": 6}, "attempts: 2..5"), ({"attempts": 1}, "attempts: 2..5"), ({"initial_backoff": 0}, "initial_backoff"),
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
