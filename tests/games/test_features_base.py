"""The base game's feature encoding: the core's C encoder (CoreState.features) against the
readable definition (splendor_ai/games/base/features.py), on random games of 2, 3 and 4
players, full states and the mover's views; no hidden information reaches it; policy classes."""
from __future__ import annotations

import array
import collections
import random

import pytest

from builders import base_position
from splendor_ai._core import base as core
from splendor_ai.games import load_game
from splendor_ai.games.base import features as F
from splendor_ai.games.base import spec

TOL = 1e-6


def _floats(data: bytes) -> array.array:
    out = array.array("f")
    out.frombytes(data)
    return out


def _assert_close(got, want, what):
    assert len(got) == len(want) == F.NUM_FEATURES, what
    bad = [(F.NAMES[i], g, w) for i, (g, w) in enumerate(zip(got, want)) if abs(g - w) > TOL]
    assert not bad, f"{what}: {bad[:5]}"


def _check(s, rng):
    """Every equality the contract asks at one decision of state s (full or a view)."""
    mover = s.current_player()
    full = _floats(s.features())
    view = s.view(mover)
    _assert_close(full, _floats(view.features()), "C full vs C view")
    _assert_close(full, F.encode(s.to_position()), "C vs Python (full)")
    _assert_close(full, F.encode(view.to_position()), "C vs Python (view)")
    # The mover's determinization redraws the decks and the other seats' blind reserves.
    _assert_close(full, _floats(view.resample(mover, rng).features()), "after resample")
    assert all(-TOL <= x <= 2.0 for x in full)
    return full


def test_sizes_agree():
    assert core.NUM_FEATURES == F.NUM_FEATURES == sum(size for _, size in F.BLOCKS)
    assert 300 <= F.NUM_FEATURES <= 700
    assert core.POLICY_SIZE == F.POLICY_SIZE == 77
    assert core.FEATURE_VERSION == F.FEATURE_VERSION == 1
    assert len(F.NAMES) == F.NUM_FEATURES


def test_features_agree_on_random_games():
    rng = random.Random(2024)
    phases = collections.Counter()
    positions = 0
    hidden_reserves = 0
    for players in (2, 3, 4):
        game = load_game("base", players)
        for g in range(14):
            s = game.new_initial_state(1000 * players + g)
            while not s.is_terminal():
                phases[s.phase()] += 1
                pos = s.to_position()
                hidden_reserves += sum(r["blind"] for i, seat in enumerate(pos["seats"])
                                       for r in seat["reserved"] if i != pos["current"])
                feats = _check(s, rng)
                # the one-hots of the player count and the phase
                o = F.OFFSETS["game"]
                assert feats[o + 9 + players - 2] == 1.0 and sum(feats[o + 9:o + 12]) == 1.0
                assert feats[o + 6 + spec.PHASES.index(s.phase())] == 1.0
                positions += 1
                # mostly the engine's cheapest payment, so that games last and nobles come
                legal = s.legal_actions()
                base = [a for a in legal if a < spec.BUY or (a - spec.BUY) % spec.N_PAY == 0]
                s.apply_action(rng.choice(legal if rng.random() < 0.1 else base))
            with pytest.raises(ValueError):
                s.features()
            with pytest.raises(ValueError):
                F.encode(s.to_position())
    assert positions > 3000 and hidden_reserves > 100
    assert set(phases) == {"main", "return", "noble"}, phases


def test_noble_phase_and_reserves_by_hand():
    """A built position: a noble choice pending, blind and face-up reserves on both sides."""
    rng = random.Random(5)
    pos = base_position(
        2, 3, current=1, nobles=[9, 7, 0],  # 9: w4 u4, 7: w3 u3 g3, 0: r4 k4
        cards={1: [0, 1, 2, 3, 8, 12, 13, 14, 16, 17, 18]},  # bonuses w4 u4 g3
        reserved={0: [(45, True), (80, False)], 1: [(50, True), (20, False)]},
        tokens={0: [1, 0, 2, 0, 0, 1], 1: [0, 1, 0, 1, 0, 1]},
    )
    pos["phase"] = "noble"
    s = load_game("base", 2).state_from_position(pos)
    assert s.legal_actions() == [spec.NOBLE + 7, spec.NOBLE + 9]
    _check(s, rng)
    feats = F.encode(s.to_position())
    o = F.OFFSETS["game"]
    assert feats[o + 6:o + 9] == [0.0, 0.0, 1.0]
    # the mover qualifies for nobles 9 and 7 (remaining need 0), not for 0
    o = F.OFFSETS["nobles"]
    assert [feats[o + j * F.NOBLE + 6] for j in range(3)] == [0.0, 0.0, 8 / 9]
    # seat 0 (the next seat here) reserved card 45 blind: only its level shows
    o = F.OFFSETS["other_reserves"]
    assert feats[o:o + F.RESERVE] == [1.0] + [0.0] * 11 + [1.0, 0.0, 1.0, 0.0] + [0.0, 0.0]
    assert feats[o + F.RESERVE] == 1.0 and feats[o + F.RESERVE + F.CARD] == 0.0  # card 80 face up
    assert feats[o + F.RESERVE + 6] == spec.CARDS[80].points / 5
    # the mover's own blind reserve (card 50) is the mover's to see
    o = F.OFFSETS["mover_reserves"]
    assert feats[o] == 1.0 and feats[o + 1 + spec.CARDS[50].color] == 1.0
    assert feats[o + F.CARD] == 1.0 and feats[o + F.CARD + 2] == 1.0
    # ... but not another seat's: in seat 0's view of it, the card is unknown
    other = _floats(s.view(0).features())
    assert other[o] == 1.0 and sum(other[o + 1:o + F.CARD]) == 0.0 and other[o + F.CARD + 2] == 1.0


def test_other_seats_blind_reserve_never_read():
    """Swapping another seat's blind reserve for another unseen card of its level changes
    nothing, even in a full position."""
    pos = base_position(3, 4, current=2, reserved={0: [(60, True)], 1: [(30, True), (70, False)]})
    game = load_game("base", 3)
    before = _floats(game.state_from_position(pos).features())
    for seat, card, other in ((0, 60, pos["decks"][1][0]), (1, 30, pos["decks"][0][0])):
        p2 = spec.validate_position(pos)
        p2["seats"][seat]["reserved"][0]["card"] = other
        lv = spec.CARDS[card].level - 1
        p2["decks"][lv][p2["decks"][lv].index(other)] = card
        assert _floats(game.state_from_position(p2).features()) == before
