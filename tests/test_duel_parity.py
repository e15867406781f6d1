"""Parity: the Duel core against the readable reference, action by action.

At least 2,000 seeded random games: after every action the legal action sets, the search
action sets and the full positions (bag order and seed included) must be identical. Random
picks mix the search's action set and the full one, so that unusual payments are played
too. A game stops after MAX_ACTIONS actions (the rules set no turn limit).
"""
from __future__ import annotations

import os
import random

from splendor_ai.games import load_game

GAMES = int(os.environ.get("SPLENDOR_DUEL_PARITY_GAMES", "2000"))
MAX_ACTIONS = 400


def _play_both(seed: int) -> int:
    ref = load_game("duel", 2, impl="reference").new_initial_state(seed)
    core = load_game("duel", 2).new_initial_state(seed)
    rng = random.Random(seed)
    assert core.to_position() == ref.to_position()
    for steps in range(MAX_ACTIONS):
        legal = core.legal_actions()
        assert legal == ref.legal_actions(), f"seed {seed} step {steps}: legal actions differ"
        search = core.search_actions()
        assert search == ref.search_actions(), f"seed {seed} step {steps}: search actions differ"
        assert core.current_player() == ref.current_player() and core.phase() == ref.phase()
        if core.is_terminal():
            assert core.returns() == ref.returns(), f"seed {seed}: returns differ"
            return steps
        action = rng.choice(legal if rng.random() < 0.3 else search)
        core.apply_action(action)
        ref.apply_action(action)
        assert core.to_position() == ref.to_position(), f"seed {seed} step {steps}: positions differ after {action}"
    return MAX_ACTIONS


def test_duel_core_matches_reference_over_random_games():
    steps = [_play_both(seed=500_000 + g) for g in range(GAMES)]
    assert sum(steps) > GAMES * 50
    assert sum(1 for s in steps if s < MAX_ACTIONS) > GAMES * 0.9  # most games reach their end
