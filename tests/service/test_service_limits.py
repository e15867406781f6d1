"""Requests that are too big or too long are refused or bounded before they cost much (issue 48)."""
import random
import threading
import time

import pytest
from splendor.v1 import splendor_pb2 as pb

from splendor_ai.service import budget, convert, engine
from splendor_ai.service.errors import ClientGone, FieldError


@pytest.mark.parametrize("game,n,allowed", [("base", 10002, "2-4"), ("base", 1, "2-4"), ("marvel", 5, "2-4"),
                                             ("duel", 3, "2")])
def test_a_position_with_too_many_seats_is_refused_naming_the_seat_count(game, n, allowed):
    msg = pb.Position()
    part = getattr(msg, game)
    for _ in range(n):
        part.seats.add()  # no tokens: a per-seat check would name seats[0].tokens
    with pytest.raises(FieldError) as err:
        convert.decode_position(msg)
    assert err.value.field == f"position.{game}.seats"
    assert str(err.value) == f"position.{game}.seats: {n} seats; this game has {allowed}"


# ------------------------------------------------------------------ item 2: every call is bounded
def _game_request(moves: int, iterations: int) -> pb.AnalyzeGameRequest:
    from splendor_ai.games import load_game

    state = load_game("base", 2).new_initial_state(5)
    request = pb.AnalyzeGameRequest(initial_position=convert.encode_position(state), iterations=iterations,
                                    seed=1)
    rng = random.Random(5)
    for _ in range(moves):
        action = rng.choice(state.search_actions())
        request.moves.add(notation=state.action_to_string(action))
        state.apply_action(action)
    return request


def _run_bounded(plan, limit: float):
    """The verdicts of engine.analyze_game(plan), in a thread stopped after ``limit`` seconds if
    still running (then the test fails: without a bound the call ran on)."""
    stopper = engine.Stopper()
    verdicts, done = [], threading.Event()

    def work():
        try:
            for v in engine.analyze_game(plan, stopper):
                verdicts.append(v)
        except ClientGone:
            pass
        finally:
            done.set()

    t0 = time.monotonic()
    threading.Thread(target=work, daemon=True).start()
    finished = done.wait(limit)
    elapsed = time.monotonic() - t0
    if not finished:
        stopper.stop("client")
        done.wait(30)
    return finished, elapsed, verdicts


def test_max_seconds_bounds_each_decision_of_a_game_analysis():
    # 10**9 iterations a decision: without the server's time cap one decision runs for hours
    maxima = budget.Maxima(iterations=10**9, seconds=0.3, threads=1, call_seconds=600)
    plan = budget.game_plan(_game_request(3, 10**9), maxima)
    finished, elapsed, verdicts = _run_bounded(plan, 20)
    assert finished, "a decision of AnalyzeGame ran past --max-seconds"
    assert len(verdicts) == 3
    # each decision: one search, or two when the played move needs more visits (each capped)
    assert elapsed < 3 * 2 * 0.3 + 5


def test_max_call_seconds_bounds_the_whole_game_analysis():
    maxima = budget.Maxima(iterations=10**9, seconds=0.3, threads=1, call_seconds=1.0)
    plan = budget.game_plan(_game_request(40, 10**9), maxima)
    finished, elapsed, verdicts = _run_bounded(plan, 20)
    assert finished, "AnalyzeGame ran past --max-call-seconds"
    assert 1 <= len(verdicts) < 40  # stopped early, the decisions judged kept
    assert elapsed < 1.0 + 0.3 + 5
    assert "decision_ms=300 call_ms=1000" in plan.describe()


# ------------------------------------------------------------------ item 11: the container's CPUs
def _cgroup(tmp_path, files: dict):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


@pytest.mark.parametrize("files,quota", [
    ({"cpu.max": "200000 100000\n"}, 2.0),
    ({"cpu.max": "150000 100000\n"}, 1.5),
    ({"cpu.max": "max 100000\n"}, None),
    ({"cpu,cpuacct/cpu.cfs_quota_us": "300000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 3.0),
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    ({}, None),
])
def test_the_cpu_quota_is_read_from_cgroup_v2_and_v1(tmp_path, files, quota):
    from splendor_ai.service.settings import cgroup_cpu_limit

    assert cgroup_cpu_limit(_cgroup(tmp_path, files)) == quota


def test_slots_and_threads_default_to_the_quota_and_the_affinity_mask_not_the_host_cores(tmp_path, monkeypatch):
    from splendor_ai.service import settings

    monkeypatch.setattr(settings.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5, 6, 7}, raising=False)
    monkeypatch.setattr(settings.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(settings, "CGROUP_ROOT", _cgroup(tmp_path, {"cpu.max": "150000 100000\n"}))
    s = settings.Settings()
    assert (s.max_concurrent, s.max_threads) == (2, 2)  # 1.5 CPUs rounded up, not 64 host cores
    (tmp_path / "cpu.max").write_text("max 100000\n")
    s = settings.Settings()
    assert (s.max_concurrent, s.max_threads) == (8, 8)  # no quota: the affinity mask


# ------------------------------------------------------------------ the new settings
def test_the_connection_and_call_settings_are_checked_and_read_from_the_environment():
    from splendor_ai.service.settings import Settings, open_file_share, serve_flags

    for name, bad in (("max_call_seconds", 0), ("max_connections", -1), ("header_timeout", 0), ("body_timeout", -1),
                      ("keepalive_timeout", 0), ("idle_timeout", 0), ("max_connection_age", 0),
                      ("max_connection_age_grace", -1), ("max_streams", 0)):
        with pytest.raises(ValueError, match=name):
            Settings(**{name: bad})
    env = {"SPLENDOR_AI_MAX_CONNECTIONS": "300", "SPLENDOR_AI_HEADER_TIMEOUT": "2.5", "SPLENDOR_AI_NET": "duel=x.splnn",
           "SPLENDOR_AI_MAX_CALL_SECONDS": "90"}
    assert Settings.env_defaults(env) == {"max_connections": 300, "header_timeout": 2.5, "net": "duel=x.splnn",
                                          "max_call_seconds": 90.0}
    assert [name for name, _, _ in serve_flags()] == list(Settings.__dataclass_fields__)  # one declaration each
    assert [open_file_share(n) for n in (100, 200, 512, 1024, 65536, 1 << 20)] == [16, 36, 192, 448, 10000, 10000]
