"""The server keeps, before a call's deadline, how late its recent timed searches ended
(service/lateness.py): on a machine that pauses, answers are made earlier instead of arriving
after the deadline."""
import threading
import time

import pytest
from builders import base_position
from splendor.v1 import splendor_pb2 as pb

from splendor_ai.games import load_game
from splendor_ai.service import budget, engine
from splendor_ai.service.lateness import CAP, Lateness

MAXIMA = budget.Maxima(10**9, 60.0, 1)


def test_the_allowance_is_the_largest_lateness_of_the_last_window():
    late = Lateness(window=3)
    assert late.allowance() == 0.0
    for seconds in (0.2, -0.5, 0.05):  # early counts as on time
        late.record(seconds)
    assert late.allowance() == 0.2
    late.record(0.01)  # 0.2 leaves the window of 3
    assert late.allowance() == 0.05
    late.record(60.0)
    assert late.allowance() == CAP


def test_record_end_measures_from_the_due_time():
    late = Lateness()
    late.record_end(time.monotonic() - 0.3)
    assert 0.3 <= late.allowance() < 0.3 + 5
    late.record_end(None)  # a search without a time: nothing
    assert 0.3 <= late.allowance()


def test_records_from_many_threads_are_all_kept():
    late = Lateness(window=4000)
    threads = [threading.Thread(target=lambda k=k: [late.record(k / 1000) for _ in range(500)]) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert late.allowance() == 0.007 and len(late._recent) == 4000


@pytest.mark.parametrize("remaining, allowance, margin", [
    (1.0, 0.0, 0.15),
    (1.0, 0.3, 0.45),
    (10.0, 0.3, 0.8),  # the base margin is capped at 0.5 s, the allowance comes on top
    (1.0, 5.0, 0.75),  # at most three quarters of the call's time
    (0.02, 0.0, 0.052),  # a call shorter than the base margin keeps the base margin
    (0.02, 1.0, 0.052),
])
def test_deadline_margin_adds_the_allowance(remaining, allowance, margin):
    assert budget.deadline_margin(remaining, allowance) == pytest.approx(margin)


def test_a_plan_ends_earlier_by_the_allowance():
    request = pb.GetMoveRequest(limits=pb.SearchLimits(time_ms=20_000))
    plain = budget.move_plan(request, "base", MAXIMA, 2.0)
    wary = budget.move_plan(request, "base", MAXIMA, 2.0, allowance=0.4)
    assert plain.deadline_bound and wary.deadline_bound
    assert plain.answer_by - wary.answer_by == pytest.approx(0.4, abs=0.05)  # 2 s calls made a few µs apart
    assert wary.end == wary.answer_by and wary.limits().seconds <= 2.0 - 0.25 - 0.4
    timed = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(time_ms=300)), "base", MAXIMA, 2.0,
                              allowance=0.4)
    assert not timed.deadline_bound and timed.end == timed.started + 0.3  # the time limit comes first
    analysis = budget.analyze_plan(pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=20_000)), MAXIMA, 2.0,
                                    allowance=0.4)
    assert analysis.answer_by == pytest.approx(analysis.deadline - budget.deadline_margin(2.0, 0.4))


def test_a_turn_records_each_decision_stopped_by_the_clock():
    state = load_game("base", 2).state_from_position(  # 10 tokens, nothing to buy: 2+ searched decisions
        base_position(2, seed=4, current=0, tokens={0: [3, 3, 2, 2, 0, 0]}, nobles=[]))
    late = Lateness(window=100)
    plan = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(time_ms=300), seed=1), "base", MAXIMA, None)
    turn = engine.play_turn(state, plan, engine.Stopper(), lambda s: s.view(s.current_player()), late)
    timed = [d for d in turn.decisions if d.stop == "time"]
    assert len(timed) >= 2 and all(d.late >= 0 for d in timed)
    assert list(late._recent) == [min(d.late, CAP) for d in timed]
    # a turn that stops on its iterations records nothing
    late = Lateness()
    plan = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(iterations=50), seed=1), "base", MAXIMA, None)
    turn = engine.play_turn(state, plan, engine.Stopper(), lambda s: s.view(s.current_player()), late)
    assert {d.stop for d in turn.decisions} <= {"iterations", "forced"} and not late._recent


def test_an_analysis_stopped_by_the_clock_is_recorded():
    searched = load_game("base", 2).new_initial_state(1)
    late = Lateness()
    plan = budget.analyze_plan(pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=100)), MAXIMA, None)
    *_, (result, reason) = engine.analyze(searched, plan, engine.Stopper(), lateness=late)
    assert reason == pb.STOP_REASON_TIME and len(late._recent) == 1
    late = Lateness()
    plan = budget.analyze_plan(pb.AnalyzeRequest(limits=pb.SearchLimits(iterations=100)), MAXIMA, None)
    *_, (result, reason) = engine.analyze(searched, plan, engine.Stopper(), lateness=late)
    assert reason == pb.STOP_REASON_ITERATIONS and not late._recent
