"""GetMove and Analyze through the real server: reports, limits, cancellation, the concurrency cap."""
import os
import time

import grpc
import pytest
from splendor_ai_client import Busy, DeadlineExceeded, pb
from timing import PAUSE, retried

from splendor_ai.games import load_game
from splendor_ai.service import convert


def opening(seed=1, moves=("take wug",)) -> pb.Position:
    state = load_game("base", 2).new_initial_state(seed)
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return convert.encode_position(state)


def wait_until_free(client, timeout=5.0):
    """Until a search slot is free again (a cancelled call releases its slot asynchronously)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return client.get_move(opening(), iterations=5)
        except Busy:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def test_analyze_streams_progress_then_exactly_one_final(client):
    reports = list(client.analyze(opening(), iterations=60_000, report_every_ms=20, lines=3, seed=5,
                                  request_id="an-1"))
    progress = [r for r in reports if not r.final]
    assert len(progress) >= 2
    assert [r.final for r in reports].count(True) == 1 and reports[-1].final
    assert [r.sequence for r in reports] == list(range(len(reports)))
    assert all(r.request_id == "an-1" for r in reports)
    assert all(r.stats.stop_reason == "running" for r in progress)
    final = reports[-1].stats
    assert final.stop_reason == "iterations" and final.iterations == 60_000
    assert 1 <= len(final.lines) <= 3 and final.lines[0].pv[0] == final.lines[0].move
    assert [ln.visits for ln in final.lines] == sorted((ln.visits for ln in final.lines), reverse=True)
    assert sum(final.win_probability) == pytest.approx(1.0)
    its = [r.stats.iterations for r in reports]
    assert its == sorted(its), "progress only grows"
    assert reports[-1].options.seed == 5 and reports[-1].options.iterations == 60_000


def test_analyze_without_reports_sends_only_the_final(client):
    reports = list(client.analyze(opening(), iterations=2_000, seed=1))
    assert len(reports) == 1 and reports[0].final


def test_analyze_is_deterministic_for_a_seed(client):
    a = client.analyze(opening(), iterations=3_000, seed=9).result()
    b = client.analyze(opening(), iterations=3_000, seed=9).result()
    assert [(x.move.notation, x.visits) for x in a.stats.lines] == [(x.move.notation, x.visits) for x in b.stats.lines]


def test_analyze_candidates_restrict_the_search(client):
    p = opening()
    final = client.analyze(p, iterations=3_000, candidates=["take wgr", "take urk"], seed=1).result()
    assert {ln.move.notation for ln in final.stats.lines} == {"take wgr", "take urk"}


def test_time_limit_and_deadline_give_a_final_message(client):
    t0 = time.monotonic()
    final = client.analyze(opening(), time_ms=300, report_every_ms=100).result()
    assert final.stats.stop_reason == "time" and 0.25 < time.monotonic() - t0 < 3
    t0 = time.monotonic()
    # the final message is due 0.35 s (plus the server's lateness allowance) before the call's
    # deadline: a longer pause of the machine just then makes it miss, once (timing.retried). A
    # 3 s deadline, not a shorter one: a VM that pauses for 0.1-0.3 s several times a second
    # (seen 2026-11-27) missed a 0.5 s deadline in one call of three. A search that ignored the
    # deadline ran 20 s.
    reports = retried(lambda: list(client.analyze(opening(), time_ms=20_000, report_every_ms=100, timeout=3.0)),
                      (AssertionError, DeadlineExceeded))
    assert reports[-1].final and reports[-1].stats.stop_reason == "deadline"
    assert time.monotonic() - t0 < 3 * (3.0 + PAUSE)


def test_get_move_stops_at_its_deadline_with_a_move(client):
    t0 = time.monotonic()
    # the answer is due 0.35 s before the deadline, plus how late the server's recent timed
    # searches ended (service/lateness.py); a longer pause just then makes it miss, once (the
    # server then keeps that pause in hand too). 3 s, as above: a 0.5 s deadline leaves too
    # little for the pauses of a busy VM. A search that ignored the deadline ran 20 s.
    turn = retried(lambda: client.get_move(opening(), time_ms=20_000, timeout=3.0), (DeadlineExceeded,))
    assert turn.moves and turn.searches[0].stop_reason == "deadline"
    assert time.monotonic() - t0 < 3 * (3.0 + PAUSE)


def test_requests_are_capped_by_server_maxima(client):
    # The test server runs with --max-seconds 30 --max-threads 2.
    final = client.analyze(opening(), iterations=500, time_ms=10_000_000, threads=64).result()
    assert final.options.time_ms == 30_000 and final.options.threads == 2
    turn = client.get_move(opening(), level=10, threads=0)
    assert turn.options.level == 10 and turn.options.threads == 1 and turn.options.temperature == 0


def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def assert_server_idle(server) -> None:
    """After a cancel, the server process soon uses little CPU: a search still running would use
    a whole core for 25 s. (An idle server was seen using up to 31 % of one over a second, and
    once 77 % over two, on a VM that charges its pauses to whichever thread was running.)"""
    if not os.path.exists(f"/proc/{server.proc.pid}/stat"):
        return
    time.sleep(PAUSE)  # the cancel has reached the search
    seen = []
    for _ in range(8):  # a search kept running would use a whole core for its 25 s
        cpu0, t0 = _cpu_seconds(server.proc.pid), time.monotonic()
        time.sleep(1.0)
        seen.append((_cpu_seconds(server.proc.pid) - cpu0) / (time.monotonic() - t0))
        if seen[-1] < 0.5:
            return
    raise AssertionError(f"the search kept running after the cancel: {[f'{u:.0%}' for u in seen]} of a core")


def test_cancelling_a_long_analysis_stops_it_promptly(client, server):
    analysis = client.analyze(opening(), time_ms=25_000, report_every_ms=50)
    first = next(analysis)
    assert not first.final
    t0 = time.monotonic()
    analysis.cancel()
    assert list(analysis) == []  # the iteration ends quietly
    assert time.monotonic() - t0 < PAUSE
    assert_server_idle(server)
    assert wait_until_free(client).moves  # the server keeps serving


def test_beyond_the_concurrency_limit_calls_get_resource_exhausted(client, server):
    wait_until_free(client)
    running = [client.analyze(opening(), time_ms=10_000, report_every_ms=50) for _ in range(server.max_concurrent)]
    try:
        for a in running:
            assert not next(a).final  # each holds a search slot now
        t0 = time.monotonic()
        with pytest.raises(Busy) as err:
            client.get_move(opening(), iterations=10)
        assert err.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert time.monotonic() - t0 < PAUSE, "refused at once, not queued (an analysis holds 10 s)"
        with pytest.raises(Busy):
            client.analyze(opening(), iterations=10).result()
        t0 = time.monotonic()
        assert client.legal_actions(opening()).moves  # calls that do not search still work:
        assert time.monotonic() - t0 < 1.0 + PAUSE  # the searches do not hold the GIL
    finally:
        for a in running:
            a.cancel()
    assert wait_until_free(client).moves


def test_a_deadline_too_short_for_any_answer_raises_deadline_exceeded(client):
    with pytest.raises(DeadlineExceeded) as err:
        client.get_move(opening(), time_ms=5_000, timeout=0.0001)
    assert err.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert wait_until_free(client).moves


def test_get_move_levels_and_reproducibility(client):
    a = client.get_move(opening(), level=2, seed=4)
    b = client.get_move(opening(), level=2, seed=4)
    assert [m.notation for m in a.moves] == [m.notation for m in b.moves]
    assert a.options.level == 2 and a.options.temperature > 0
    assert a.searches[0].iterations == a.options.iterations


def test_perfect_information_needs_and_uses_the_full_position(client):
    turn = client.get_move(opening(), iterations=500, perfect_information=True, seed=1)
    assert turn.turn_complete and turn.position.base.decks  # the full position comes back


def test_cancelling_a_get_move_stops_its_search(client, server):
    wait_until_free(client)
    request = pb.GetMoveRequest(position=opening(), limits=pb.SearchLimits(time_ms=25_000))
    future = client.stub.GetMove.future(request, timeout=60)
    time.sleep(0.3)
    assert future.cancel()
    assert_server_idle(server)
    assert wait_until_free(client).moves
    deadline = time.monotonic() + 5
    while not any("GetMove" in line and "time_ms=25000" in line and "outcome=CANCELLED" in line
                  for line in server.text().splitlines()):
        assert time.monotonic() < deadline, "no log line for the cancelled GetMove"
        time.sleep(0.02)
