"""Parity (Marvel): the Cython core against the readable reference, action by action.

Seeded random games over 2, 3 and 4 players (at least 2,000 in all): after every action the
legal action sets and the full positions must be identical, and at the end the returns.
Random picks mix the search's action set and the full one, so that unusual payments are
played too. The games also count how often the Marvel-only events came up, so a change
that made them unreachable would fail here rather than pass unnoticed.
"""
from __future__ import annotations

import collections
import os
import random

import pytest

from splendor_ai.games import load_game

GAMES_PER_COUNT = int(os.environ.get("SPLENDOR_PARITY_GAMES", "700"))  # 3 x 700 = 2,100


def _play_both(players: int, seed: int, seen: collections.Counter) -> int:
    ref = load_game("marvel", players, impl="reference").new_initial_state(seed)
    core = load_game("marvel", players).new_initial_state(seed)
    rng = random.Random(seed)
    steps = 0
    assert core.to_position() == ref.to_position()
    while True:
        legal = core.legal_actions()
        assert legal == ref.legal_actions(), f"seed {seed} step {steps}: legal actions differ"
        assert core.search_actions() == ref.search_actions(), f"seed {seed} step {steps}: search actions differ"
        assert core.current_player() == ref.current_player()
        assert core.is_terminal() == ref.is_terminal()
        if core.is_terminal():
            assert core.returns() == ref.returns(), f"seed {seed}: returns differ"
            return steps
        pool = legal if rng.random() < 0.3 else core.search_actions()
        action = rng.choice(pool)
        before = core.to_position()
        core.apply_action(action)
        ref.apply_action(action)
        steps += 1
        after = core.to_position()
        assert after == ref.to_position(), f"seed {seed} step {steps}: positions differ after {action}"
        seen["location phase"] += after["phase"] == "location"
        seen["avengers moved"] += after["avengers"] != before["avengers"] and before["avengers"] is not None
        seen["trigger undone"] += before["final_round"] and not after["final_round"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_matches_reference_over_random_games(players):
    steps = 0
    seen = collections.Counter()
    for g in range(GAMES_PER_COUNT):
        steps += _play_both(players, seed=players * 100_000 + g, seen=seen)
    assert steps > GAMES_PER_COUNT * 20
    if GAMES_PER_COUNT >= 700:
        assert seen["location phase"] and seen["avengers moved"], seen
