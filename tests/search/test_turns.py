"""Whole turns under one budget (splendor_ai.search.turns): the decisions share the turn's
time, one legal action is not searched, hidden information ends a turn visibly, seeds."""
from __future__ import annotations

import random
import threading
import time

import pytest
from builders import base_position

from splendor_ai.games import load_game
from splendor_ai.search import Config, Limits, play_turn, search
from splendor_ai.search.turns import EXPECTED_FOLLOW_UPS, FLOOR_SHARE, MIN_SECONDS, TurnSearch, time_share
from timing import PAUSE, retried


def random_walk(game: str, seed: int, steps: int):
    """The state after ``steps`` random actions of the deal ``seed`` (Random(seed) picks)."""
    state = load_game(game, 2).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply_action(rng.choice(state.search_actions()))
    return state


def every_move_returns_tokens():
    """Seat 0 holds 10 tokens and can buy nothing: every move leads to returning tokens, so
    each turn has at least two searched decisions."""
    state = load_game("base", 2).state_from_position(
        base_position(2, seed=4, current=0, tokens={0: [3, 3, 2, 2, 0, 0]}, nobles=[]))
    assert not any(state.action_to_string(a).startswith("buy") for a in state.search_actions())
    return state


def test_a_forced_joker_colour_is_not_searched():
    state = random_walk("duel", 0, 33)
    assert state.phase() == "joker" and len(state.search_actions()) == 1
    t0 = time.monotonic()
    turn = play_turn(state, Limits(seconds=5), Config(seed=1))
    assert time.monotonic() - t0 < PAUSE, "a decision with one legal action used the turn's time"
    [d] = turn.decisions
    assert d.forced and d.stop == "forced" and d.result.iterations == 0 and d.seconds == 0.0
    assert d.move.startswith("joker") and turn.complete


def test_a_forced_main_action_is_not_searched():
    state = random_walk("base", 0, 21)
    assert len(state.search_actions()) == 1
    turn = play_turn(state, Limits(iterations=5000), Config(seed=1))
    assert [d.forced for d in turn.decisions] == [True] and turn.decisions[0].result.iterations == 0
    assert abs(sum(turn.decisions[0].result.win_probability) - 1) < 1e-9


def test_the_decisions_share_the_turns_time():
    state = every_move_returns_tokens()
    budget = 0.4
    t0 = time.monotonic()
    turn = play_turn(state, Limits(seconds=budget), Config(seed=1))
    wall = time.monotonic() - t0
    assert len(turn.decisions) >= 2 and turn.complete
    # each decision was given a share of what the earlier ones left: together, the turn's time
    # (a decision after a pause that used up the turn still gets its MIN_SECONDS)
    assert sum(d.seconds for d in turn.decisions) <= budget + MIN_SECONDS * len(turn.decisions)
    assert wall <= budget + PAUSE and turn.elapsed <= budget + PAUSE
    searched = [d for d in turn.decisions if not d.forced]
    # the main decision gets the larger share, each later one a share of what is left
    assert searched[0].seconds > 0.8 * budget and all(d.seconds < budget - searched[0].seconds + 0.01
                                                      for d in searched[1:])
    assert all(d.stop == "time" for d in searched)
    s = state.clone()
    for action, _ in turn:  # iterating gives (action, result) pairs, as before
        assert s.current_player() == 0
        s.apply_action(action)
    assert s.current_player() == 1 and s.to_position() == turn.state.to_position()


def test_a_deadline_ends_the_turn():
    state = every_move_returns_tokens()
    t0 = time.monotonic()
    turn = play_turn(state, Limits(seconds=30), Config(seed=1), deadline=t0 + 0.3)
    assert time.monotonic() - t0 <= 0.3 + PAUSE and len(turn.decisions) >= 2
    assert {d.stop for d in turn.decisions if not d.forced} == {"deadline"}


def test_iterations_stay_a_per_decision_budget():
    turn = play_turn(every_move_returns_tokens(), Limits(iterations=400), Config(seed=2))
    assert all(d.result.iterations == 400 and d.stop == "iterations" for d in turn.decisions if not d.forced)


def test_the_next_decision_starts_from_the_subtree_of_the_move_played():
    turn = play_turn(every_move_returns_tokens(), Limits(iterations=2000), Config(seed=3))
    first, second = turn.decisions[0], turn.decisions[1]
    assert not second.forced
    below = next(a.visits for a in first.result.actions if a.action == first.action)
    # the second search added its 2000 iterations to what the first one had below the move
    assert sum(a.visits for a in second.result.actions) > 2000
    assert sum(a.visits for a in second.result.actions) <= below - 1 + 2000


def test_a_turn_that_stops_at_hidden_information_says_so():
    # The gem supply is empty: every move reserves or buys a card, and the slot it leaves is
    # refilled from a deck whose order seat 0's view does not know.
    pos = base_position(2, seed=1, current=0, tokens={0: [4, 4, 2, 0, 0, 0], 1: [0, 0, 2, 4, 4, 0]}, nobles=[])
    full = load_game("base", 2).state_from_position(pos)
    turn = play_turn(full.view(0), Limits(iterations=300), Config(seed=1))
    assert not turn.complete and len(turn.decisions) == 1
    assert turn.stopped.startswith(turn.moves[0]) and "does not know" in turn.stopped
    whole = play_turn(full, Limits(iterations=300), Config(seed=1))  # the full position knows the decks
    assert whole.complete and whole.stopped is None and len(whole.decisions) >= 2


def test_a_turn_that_ends_on_a_hidden_refill_is_complete():
    # No gems to take and at most 6 tokens after a reserve: every move draws a card the view
    # does not know, and none leaves the seat a decision (no returns, no nobles).
    pos = base_position(3, seed=1, current=0, nobles=[],
                        tokens={0: [1, 1, 1, 1, 1, 0], 1: [2, 2, 2, 2, 2, 0], 2: [2, 2, 2, 2, 2, 0]})
    view = load_game("base", 3).state_from_position(pos).view(0)
    turn = play_turn(view, Limits(iterations=200), Config(seed=3))
    assert turn.complete and turn.stopped is None and len(turn.decisions) == 1
    assert turn.reveals.startswith(turn.moves[0]) and "does not know" in turn.reveals
    # the state is the view before the move it could not apply
    assert turn.state.to_position() == view.to_position()


def test_the_advice_of_an_incomplete_turn_is_to_apply_the_move_not_to_resample():
    pos = base_position(2, seed=1, current=0, tokens={0: [4, 4, 2, 0, 0, 0], 1: [0, 0, 2, 4, 4, 0]}, nobles=[])
    turn = play_turn(load_game("base", 2).state_from_position(pos).view(0), Limits(iterations=300), Config(seed=1))
    assert not turn.complete and turn.reveals and turn.stopped.startswith(turn.reveals)
    assert "apply it to the full game" in turn.stopped and "resample" not in turn.stopped


def test_the_call_that_finishes_a_turn_shares_its_time():
    state = every_move_returns_tokens()
    first = play_turn(state, Limits(seconds=0.2), Config(seed=1))
    time.sleep(max(0.0, first.started + 0.3 - time.monotonic()))  # the turn's time is over by now
    t0 = time.monotonic()
    again = play_turn(state, Limits(seconds=0.2), Config(seed=1), started=first.started)
    assert again.started == first.started and again.elapsed >= 0.3
    # only the least time each decision can get (MIN_SECONDS; no floor past the turn's end)
    assert time.monotonic() - t0 < 0.1 + PAUSE and all(d.seconds <= MIN_SECONDS for d in again.decisions
                                                        if not d.forced)


def test_a_follow_up_decision_keeps_a_floor_of_the_turns_time():
    state = every_move_returns_tokens()

    def check():
        turn = play_turn(state, Limits(seconds=0.4), Config(seed=1))
        main, *rest = [d for d in turn.decisions if not d.forced]
        assert rest and main.seconds <= (1 - FLOOR_SHARE) * 0.4 + 1e-9
        # the floor, less what the main search overran its time by (a pause can make that long)
        assert all(d.seconds >= FLOOR_SHARE * 0.4 - main.late - 0.02 for d in rest)
        assert turn.evaluator is not None and all(d.result.evaluator == turn.evaluator for d in turn.decisions)

    retried(check)


def test_without_a_seed_every_call_searches_differently():
    state = load_game("base", 2).new_initial_state(1)
    seeds = {play_turn(state, Limits(iterations=50)).seed for _ in range(3)}
    assert len(seeds) == 3
    results = [search(state, Limits(iterations=2000)) for _ in range(2)]
    assert results[0].seed != results[1].seed
    assert [a.visits for a in results[0].actions] != [a.visits for a in results[1].actions]
    again = search(state, Limits(iterations=2000), Config(seed=results[0].seed))  # the reported seed repeats it
    assert [(a.action, a.visits) for a in again.actions] == [(a.action, a.visits) for a in results[0].actions]


def test_with_a_seed_a_turn_is_repeated_exactly():
    state = every_move_returns_tokens()
    a = play_turn(state, Limits(iterations=500), Config(seed=7), temperature=1.0)
    b = play_turn(state, Limits(iterations=500), Config(seed=7), temperature=1.0)
    assert a.moves == b.moves and a.seed == b.seed == 7
    assert [[x.visits for x in d.result.actions] for d in a.decisions] == \
        [[x.visits for x in d.result.actions] for d in b.decisions]


def test_cancel_ends_the_turn_at_once_with_every_decision_made():
    state = every_move_returns_tokens()
    ts = TurnSearch(state, Limits(seconds=30), Config(seed=1))
    threading.Timer(0.2, ts.cancel).start()
    t0 = time.monotonic()
    turn = ts.run()
    assert time.monotonic() - t0 < 0.2 + PAUSE
    assert turn.complete and len(turn.decisions) >= 2 and turn.decisions[0].stop == "cancelled"
    assert turn.state.current_player() == 1


def test_time_shares():
    assert time_share("base", "main") > 0.95 and time_share("marvel", "main") > 0.95
    assert 0.7 < time_share("duel", "main") < 0.9
    assert time_share("base", "noble") == 1.0  # no decision expected after it
    for game, phases in EXPECTED_FOLLOW_UPS.items():
        assert all(0 < time_share(game, p) <= 1 for p in phases)


def test_bad_limits_are_refused_before_any_search():
    from splendor_ai.search import SearchError

    with pytest.raises(SearchError):
        play_turn(load_game("base", 2).new_initial_state(1), Limits())
