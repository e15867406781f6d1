"""Interactive calls never wait behind batch work (issue 67, finding 8): batch work (AnalyzeGame,
a long Analyze) holds at most --max-batch search slots, the rest stay free for GetMove and
hints; each RPC's default priority and the refusals of a priority that does not fit."""
import re
import threading
import time

import pytest
from splendor_ai_client import Busy, Client, pb

from splendor_ai.games import load_game
from splendor_ai.service import budget, convert
from splendor_ai.service.errors import Busy as NoSlot
from splendor_ai.service.errors import FieldError
from splendor_ai.service.slots import SearchSlots


def opening() -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(1))


@pytest.mark.parametrize("rpc, message, expected", [
    ("GetMove", pb.GetMoveRequest(level=5), pb.PRIORITY_INTERACTIVE),
    ("GetMove", pb.GetMoveRequest(level=5, priority=pb.PRIORITY_BATCH), pb.PRIORITY_BATCH),
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(iterations=3000)), pb.PRIORITY_INTERACTIVE),
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=10_000, iterations=10 ** 9)), pb.PRIORITY_INTERACTIVE),
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=10_001)), pb.PRIORITY_BATCH),
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(iterations=100_001)), pb.PRIORITY_BATCH),
    ("Analyze", pb.AnalyzeRequest(), pb.PRIORITY_BATCH),  # no limits: the server's maxima
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(iterations=500), priority=pb.PRIORITY_BATCH),
     pb.PRIORITY_BATCH),
    ("AnalyzeGame", pb.AnalyzeGameRequest(), pb.PRIORITY_BATCH),
    ("AnalyzeGame", pb.AnalyzeGameRequest(priority=pb.PRIORITY_BATCH), pb.PRIORITY_BATCH),
])
def test_each_rpc_has_its_documented_default(rpc, message, expected):
    assert budget.priority(message, rpc) == expected


@pytest.mark.parametrize("rpc, body, text", [
    ("AnalyzeGame", pb.AnalyzeGameRequest(priority=pb.PRIORITY_INTERACTIVE), "AnalyzeGame is batch work"),
    ("Analyze", pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=30_000), priority=pb.PRIORITY_INTERACTIVE),
     "an Analyze of more than 10 s"),
    ("GetMove", pb.GetMoveRequest(priority=7), "unknown value 7"),
])
def test_a_priority_that_does_not_fit_is_refused_naming_the_field(rpc, body, text):
    with pytest.raises(FieldError, match=text) as err:
        budget.priority(body, rpc)
    assert err.value.field == "priority"


class _Context:
    def add_callback(self, fn):
        return True


def test_batch_work_holds_at_most_its_slots_and_interactive_calls_take_any():
    slots = SearchSlots(3, batch_limit=1)
    with slots.acquire(_Context(), batch=True):
        with pytest.raises(NoSlot, match="maximum of 1 batch searches") as err:
            with slots.acquire(_Context(), batch=True):
                pass
        assert err.value.refusal == "batch_slots"
        with slots.acquire(_Context()), slots.acquire(_Context()):
            assert (slots.active(), slots.batch_active()) == (3, 1)
            with pytest.raises(NoSlot, match="maximum of 3 concurrent searches"):
                with slots.acquire(_Context()):
                    pass
    assert (slots.active(), slots.batch_active()) == (0, 0)
    with pytest.raises(ValueError):
        SearchSlots(2, batch_limit=3)


def test_a_player_is_answered_while_every_batch_slot_is_busy(spawn_server):
    srv = spawn_server("--max-concurrent", "2", "--max-batch", "1", "--max-threads", "2", "--metrics-port", "0")
    position = opening()
    with Client(srv.target, timeout=60, retries=0) as c:
        record = load_game("base", 2).new_initial_state(3)
        moves = []
        for _ in range(6):
            a = record.legal_actions()[0]
            moves.append(record.action_to_string(a))
            record.apply_action(a)
        season = c.analyze_game(position, moves, iterations=200_000, threads=2)  # the batch slot, both cores
        first = next(season)
        assert first.options.priority == "batch"
        with pytest.raises(Busy, match="batch searches"):  # a second analysis waits its turn
            c.analyze_game(position, moves[:1], iterations=100).result()
        with pytest.raises(Busy, match="batch searches"):
            next(c.analyze(position, time_ms=30_000))
        turn = c.get_move(position, level=5, seed=1)  # the player's move: the free slot
        assert turn.moves and turn.options.priority == "interactive"
        hint = c.analyze(position, iterations=500, seed=1).result()
        assert hint.final and hint.options.priority == "interactive"
        season.cancel()
    deadline = time.monotonic() + 5  # the cancelled analysis's line comes once its search has stopped
    while not re.search(r"AnalyzeGame .*priority=batch", srv.text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert re.search(r"AnalyzeGame .*priority=batch", srv.text())


def test_batch_searches_run_at_a_lower_cpu_priority():
    import os

    from splendor_ai.service.engine import BATCH_NICE, run_batch

    seen = run_batch(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    assert seen >= BATCH_NICE
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < BATCH_NICE  # the caller's is unchanged
    with pytest.raises(ZeroDivisionError):
        run_batch(lambda: 1 / 0)
