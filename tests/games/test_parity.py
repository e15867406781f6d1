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

The games are played in WORKERS processes (2 where the machine has them), a tenth of a test's
seeds at a time; a mismatch fails the test with its seed and step from the worker that met it.
"""
from __future__ import annotations

import collections
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed

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


WORKERS = max(1, min(2, len(os.sched_getaffinity(0))))  # the machines have 2 cores


def _marvel_events(seen: collections.Counter):
    def events(before, after):
        seen["location phase"] += after["phase"] == "location"
        seen["avengers moved"] += after["avengers"] != before["avengers"] and before["avengers"] is not None
        seen["trigger undone"] += before["final_round"] and not after["final_round"]
    return events


def _play_chunk(game: str, players: int, seeds: list[int], max_actions: int | None):
    """The games of ``seeds`` through both implementations: (each game's actions, the Marvel
    events seen). Runs in a worker process."""
    seen: collections.Counter = collections.Counter()
    on_step = _marvel_events(seen) if game == "marvel" else None
    return [play_both(game, players, seed, max_actions, on_step) for seed in seeds], seen


def _play_all(game: str, players: int, seeds: list[int], progress, max_actions: int | None = None):
    """Every game of ``seeds``, split over WORKERS processes in tenths, saying how far it is as
    each tenth ends: (each game's actions, in seed order; the Marvel events seen). A mismatch
    raises its AssertionError (the seed and step in its message) from the worker."""
    n = len(seeds)
    size = max(1, -(-n // 10))
    chunks = [seeds[k:k + size] for k in range(0, n, size)]
    steps: dict[int, list[int]] = {}
    seen: collections.Counter = collections.Counter()
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        futures = {pool.submit(_play_chunk, game, players, chunk, max_actions): k for k, chunk in enumerate(chunks)}
        try:
            for fut in as_completed(futures):
                steps[futures[fut]], counts = fut.result()
                seen.update(counts)
                done = sum(len(chunks[k]) for k in steps)
                if done < n:
                    progress(f"{game} {players}p: {done}/{n} games")
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
    return [x for k in range(len(chunks)) for x in steps[k]], seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_base_core_matches_reference_over_random_games(players, progress):
    steps, _ = _play_all("base", players, [players * 100_000 + g for g in range(GAMES_PER_COUNT)], progress)
    assert sum(steps) > GAMES_PER_COUNT * 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_marvel_core_matches_reference_over_random_games(players, progress):
    steps, seen = _play_all("marvel", players, [players * 100_000 + g for g in range(GAMES_PER_COUNT)], progress)
    assert sum(steps) > GAMES_PER_COUNT * 20
    if GAMES_PER_COUNT >= 700:
        assert seen["location phase"] and seen["avengers moved"], seen


def test_duel_core_matches_reference_over_random_games(progress):
    steps, _ = _play_all("duel", 2, [500_000 + g for g in range(DUEL_GAMES)], progress, MAX_DUEL_ACTIONS)
    assert sum(steps) > DUEL_GAMES * 50
    assert sum(1 for s in steps if s < MAX_DUEL_ACTIONS) > DUEL_GAMES * 0.9  # most games reach their end


def test_a_mismatch_in_a_worker_fails_the_test_with_its_seed(monkeypatch):
    """The harness itself: a game that disagrees fails the test from its worker, with its seed
    (the workers are forked, so they play the patched games); the games come back in seed order."""
    def play(game, players, seed, max_actions=None, on_step=None):
        assert seed != 7, f"seed {seed} step 3: positions differ after 12"
        return seed

    monkeypatch.setattr(sys.modules[__name__], "play_both", play)
    lines: list[str] = []
    assert _play_all("base", 2, list(range(60, 30, -1)), lines.append)[0] == list(range(60, 30, -1))
    assert len(lines) == 9 and lines[-1].endswith("/30 games")
    with pytest.raises(AssertionError, match="seed 7 step 3: positions differ"):
        _play_all("base", 2, list(range(20)), lines.append)
