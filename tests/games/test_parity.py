"""Parity: each game's Cython core against its readable reference, action by action.

Seeded random games (the slow tier: ``pytest -m slow``): after every action the legal
action sets, the search action sets, the seat to act and the full positions must be
identical, and at the end the returns. Random picks mix the search's action set and the
full one, so that unusual payments are played too.

- Base game and Marvel: 2, 3 and 4 players, ``SPLENDOR_PARITY_GAMES`` games per player
  count (default 700: 2,100 per game). Marvel also counts how often its own events came up,
  so a change that made them unreachable would fail here rather than pass unnoticed.
- Duel: ``SPLENDOR_DUEL_PARITY_GAMES`` games (default 2,000), each stopped after
  MAX_DUEL_ACTIONS actions (its rules set no turn limit); the bag's order and seed are part
  of the positions compared.
"""
from __future__ import annotations

import collections
import os
import random

import pytest

from splendor_ai.games import load_game

pytestmark = pytest.mark.slow

GAMES_PER_COUNT = int(os.environ.get("SPLENDOR_PARITY_GAMES", "700"))
DUEL_GAMES = int(os.environ.get("SPLENDOR_DUEL_PARITY_GAMES", "2000"))
MAX_DUEL_ACTIONS = 400


def play_both(game: str, players: int, seed: int, max_actions: int | None = None, on_step=None) -> int:
    """One random game through both implementations; the number of actions played.
    ``on_step(before, after)`` sees the positions around every action."""
    ref = load_game(game, players, impl="reference").new_initial_state(seed)
    core = load_game(game, players).new_initial_state(seed)
    rng = random.Random(seed)
    assert core.to_position() == ref.to_position()
    steps = 0
    while max_actions is None or steps < max_actions:
        legal = core.legal_actions()
        assert legal == ref.legal_actions(), f"seed {seed} step {steps}: legal actions differ"
        search = core.search_actions()
        assert search == ref.search_actions(), f"seed {seed} step {steps}: search actions differ"
        assert core.current_player() == ref.current_player() and core.phase() == ref.phase()
        assert core.is_terminal() == ref.is_terminal()
        if core.is_terminal():
            assert core.returns() == ref.returns(), f"seed {seed}: returns differ"
            return steps
        action = rng.choice(legal if rng.random() < 0.3 else search)
        before = core.to_position() if on_step else None
        core.apply_action(action)
        ref.apply_action(action)
        steps += 1
        after = core.to_position()
        assert after == ref.to_position(), f"seed {seed} step {steps}: positions differ after {action}"
        if on_step:
            on_step(before, after)
    return steps


def _games(n: int, progress, what: str):
    """range(n), saying every tenth of the way how far it is."""
    for g in range(n):
        if g and g % max(1, n // 10) == 0:
            progress(f"{what}: {g}/{n} games")
        yield g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_base_core_matches_reference_over_random_games(players, progress):
    steps = 0
    for g in _games(GAMES_PER_COUNT, progress, f"base {players}p"):
        steps += play_both("base", players, seed=players * 100_000 + g)
    assert steps > GAMES_PER_COUNT * 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_marvel_core_matches_reference_over_random_games(players, progress):
    seen = collections.Counter()

    def events(before, after):
        seen["location phase"] += after["phase"] == "location"
        seen["avengers moved"] += after["avengers"] != before["avengers"] and before["avengers"] is not None
        seen["trigger undone"] += before["final_round"] and not after["final_round"]

    steps = 0
    for g in _games(GAMES_PER_COUNT, progress, f"marvel {players}p"):
        steps += play_both("marvel", players, seed=players * 100_000 + g, on_step=events)
    assert steps > GAMES_PER_COUNT * 20
    if GAMES_PER_COUNT >= 700:
        assert seen["location phase"] and seen["avengers moved"], seen


def test_duel_core_matches_reference_over_random_games(progress):
    steps = [play_both("duel", 2, seed=500_000 + g, max_actions=MAX_DUEL_ACTIONS)
             for g in _games(DUEL_GAMES, progress, "duel")]
    assert sum(steps) > DUEL_GAMES * 50
    assert sum(1 for s in steps if s < MAX_DUEL_ACTIONS) > DUEL_GAMES * 0.9  # most games reach their end
