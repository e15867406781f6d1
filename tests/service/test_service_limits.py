"""Requests that are too big or too long are refused or bounded before they cost much (issue 48)."""
import random
import threading
import time

import pytest
from splendor.v1 import splendor_pb2 as pb

from splendor_ai.service import convert, engine
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
    maxima = convert.Maxima(iterations=10**9, seconds=0.3, threads=1, call_seconds=600)
    plan = convert.game_plan(_game_request(3, 10**9), maxima)
    finished, elapsed, verdicts = _run_bounded(plan, 20)
    assert finished, "a decision of AnalyzeGame ran past --max-seconds"
    assert len(verdicts) == 3
    # each decision: one search, or two when the played move needs more visits (each capped)
    assert elapsed < 3 * 2 * 0.3 + 5


def test_max_call_seconds_bounds_the_whole_game_analysis():
    maxima = convert.Maxima(iterations=10**9, seconds=0.3, threads=1, call_seconds=1.0)
    plan = convert.game_plan(_game_request(40, 10**9), maxima)
    finished, elapsed, verdicts = _run_bounded(plan, 20)
    assert finished, "AnalyzeGame ran past --max-call-seconds"
    assert 1 <= len(verdicts) < 40  # stopped early, the decisions judged kept
    assert elapsed < 1.0 + 0.3 + 5
    assert "decision_ms=300 call_ms=1000" in plan.describe()
