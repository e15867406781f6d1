"""The conformance suite: the State interface, checked the same way for every game,
player count and implementation, using nothing but the interface itself."""
from __future__ import annotations

import random

import pytest

from splendor_ai.games import (GAMES, TERMINAL, IllegalActionError, NotationError, State,
                               UnknownGameError, load_game)

PLAYERS = {"base": (2, 3, 4), "marvel": (2, 3, 4), "duel": (2,)}
CASES = [(g, n) for g in GAMES for n in PLAYERS[g]]


@pytest.fixture(params=CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def game(request, impl):
    name, players = request.param
    return load_game(name, players, impl=impl)


def _random_states(game, games=4, seed=0):
    rng = random.Random(seed)
    for g in range(games):
        s = game.new_initial_state(seed * 100 + g)
        while not s.is_terminal():
            yield s
            s.apply_action(rng.choice(s.legal_actions()))
        yield s


def test_states_satisfy_the_protocol(game):
    s = game.new_initial_state(1)
    assert isinstance(s, State)
    assert s.game == game.name and s.players == game.players


def test_legal_actions_are_sorted_unique_and_pass_only_alone(game):
    for s in _random_states(game):
        legal = s.legal_actions()
        if s.is_terminal():
            assert legal == [] and s.current_player() == TERMINAL
            continue
        assert legal == sorted(set(legal)) and legal
        assert set(s.search_actions()) <= set(legal) and s.search_actions()
        if "pass" in (s.action_to_string(a) for a in legal):
            assert len(legal) == 1
        assert 0 <= s.current_player() < game.players


def test_notation_round_trips_for_every_legal_action(game):
    for s in _random_states(game, games=2, seed=1):
        for a in s.legal_actions():
            text = s.action_to_string(a)
            assert s.string_to_action(text) == a
            assert s.string_to_action(text.upper()) == a


def test_clone_is_independent(game):
    s = game.new_initial_state(3)
    c = s.clone()
    c.apply_action(c.legal_actions()[0])
    assert s.to_position() == game.new_initial_state(3).to_position()
    assert c.to_position() != s.to_position()


def test_returns_zero_until_the_end_then_sum_to_one(game):
    rng = random.Random(5)
    s = game.new_initial_state(5)
    while not s.is_terminal():
        assert s.returns() == [0.0] * game.players
        s.apply_action(rng.choice(s.search_actions()))
    r = s.returns()
    assert abs(sum(r) - 1.0) < 1e-9 and all(x >= 0 for x in r)


def test_positions_round_trip(game):
    for s in _random_states(game, games=2, seed=2):
        pos = s.to_position()
        assert game.state_from_position(pos).to_position() == pos


def test_rejected_actions_leave_the_state_unchanged(game):
    for s in _random_states(game, games=2, seed=3):
        if s.is_terminal():
            break
        before = s.to_position()
        legal = set(s.legal_actions())
        for bad in [-1, 10**6, "take", None, 1.5, True, next(a for a in range(10**4) if a not in legal)]:
            with pytest.raises(IllegalActionError):
                s.apply_action(bad)
            assert s.to_position() == before


def test_malformed_notation_is_a_notation_error(game):
    s = game.new_initial_state(1)
    for text in ["", "fly", "take", "take zz", "buy", "buy -3", "reserve deck9", "pass now", 7]:
        with pytest.raises(NotationError):
            s.string_to_action(text)


def test_resample_keeps_the_view_and_is_consistent(game):
    rng = random.Random(1)
    for s in _random_states(game, games=2, seed=4):
        if s.is_terminal():
            continue
        seat = s.current_player()
        view = s.view(seat).to_position()
        r = s.resample(seat, rng)
        assert r.view(seat).to_position() == view
        assert r.legal_actions() == s.legal_actions()


def test_a_view_of_a_view_is_a_copy_of_it(game):
    # the service asks a frontend's view (already the mover's) for the mover's view
    for s in _random_states(game, games=1, seed=6):
        if s.is_terminal():
            continue
        view = s.view(s.current_player())
        again = view.view(s.current_player())
        assert again is not view and again.to_position() == view.to_position()
        assert again.search_actions() == view.search_actions()


def test_unknown_games_and_counts_are_rejected():
    with pytest.raises(UnknownGameError):
        load_game("chess")
    with pytest.raises(UnknownGameError):
        load_game("base", 5)
    with pytest.raises(UnknownGameError):
        load_game("base", 2, impl="fast")
