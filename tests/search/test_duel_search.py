"""The search plays Splendor Duel through the core's GameDef: its heuristics and full games."""
from __future__ import annotations

import random

from duel_builders import duel_position, load
from splendor_ai.games import load_game
from splendor_ai.search import Config, Limits, search


def test_search_returns_a_legal_move_from_the_initial_position():
    state = load_game("duel", 2).new_initial_state(1)
    result = search(state, Limits(iterations=2000))
    assert result.iterations == 2000 and result.action in state.search_actions()
    assert abs(sum(result.win_probability) - 1.0) < 1e-6


def test_evaluation_favours_the_seat_closer_to_a_victory():
    board = [".y...", ".....", ".....", ".....", "....."]
    ahead = load("core", duel_position(board=board, cards={0: [66, 53, 55]}))  # 15 points
    value = ahead.evaluate()
    assert value[0] > 0.8 and abs(sum(value) - 1.0) < 1e-9


def test_mcts_against_random_games_finish():
    game = load_game("duel", 2)
    for g in range(2):
        state, rng, seat = game.new_initial_state(40 + g), random.Random(g), g % 2
        for _ in range(3000):
            if state.is_terminal():
                break
            if state.current_player() == seat:
                state.apply_action(search(state, Limits(iterations=200), Config(seed=g)).action)
            else:
                state.apply_action(rng.choice(state.search_actions()))
        assert state.is_terminal()
