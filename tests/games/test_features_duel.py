"""The Duel feature encoding: the C core (ext/duel_features.pxi) against the readable
definition (splendor_ai/games/duel/features.py), and the encoding's promises (no hidden
information, mover-relative, scaled), on seeded random games that reach every phase."""
from __future__ import annotations

import random
import struct

import pytest

from splendor_ai._core import duel as core
from splendor_ai.games import load_game
from splendor_ai.games.duel import features, spec

GAMES = 24
MAX_ACTIONS = 400
PY_EVERY = 3  # the Python encoding (slower) at every third decision, both positions


def _floats(data: bytes) -> list[float]:
    assert len(data) == 4 * features.NUM_FEATURES
    return list(struct.unpack(f"={features.NUM_FEATURES}f", data))


def _close(a, b, what):
    assert len(a) == len(b) == features.NUM_FEATURES
    bad = [i for i in range(len(a)) if abs(a[i] - b[i]) > 1e-6]
    if bad:
        names = []
        for i in bad[:5]:
            block = max((off, name) for name, off in features.OFFSETS.items() if off <= i)
            names.append(f"{block[1]}+{i - block[0]}: {a[i]} != {b[i]}")
        pytest.fail(f"{what}: {len(bad)} features differ, e.g. {'; '.join(names)}")


def _games():
    """(state, rng) at every decision of seeded random games, then the terminal state."""
    game = load_game("duel", 2)
    for g in range(GAMES):
        rng = random.Random(9000 + g)
        s = game.new_initial_state(9000 + g)
        for _ in range(MAX_ACTIONS):
            if s.is_terminal():
                break
            yield s, rng
            # both action sets, so that unusual payments (and so gold-rich seats) occur
            s.apply_action(rng.choice(s.legal_actions() if rng.random() < 0.3 else s.search_actions()))
        yield s, rng


def test_sizes_and_constants_agree():
    assert core.NUM_FEATURES == features.NUM_FEATURES == 700
    assert core.POLICY_SIZE == features.POLICY_SIZE == 274
    assert core.FEATURE_VERSION == features.FEATURE_VERSION == 1
    assert sum(size for _, size in features.BLOCKS) == features.NUM_FEATURES


def test_c_and_python_agree_on_full_states_views_and_resamples():
    phases = set()
    decisions = python_checked = hidden_reserves = 0
    for s, rng in _games():
        if s.is_terminal():
            with pytest.raises(ValueError):
                s.features()
            with pytest.raises(ValueError):
                features.encode(s.to_position())
            continue
        decisions += 1
        mover = s.current_player()
        phases.add(s.phase())
        full = _floats(s.features())
        view = s.view(mover)
        _close(full, _floats(view.features()), "full state vs the mover's view")
        _close(full, _floats(view.resample(mover, rng).features()), "full state vs a resample of the view")
        _close(full, _floats(s.resample(mover, rng).features()), "full state vs a resample of it")
        if any(r["blind"] for r in s.to_position()["seats"][1 - mover]["reserved"]):
            hidden_reserves += 1
        if decisions % PY_EVERY == 0:
            python_checked += 1
            _close(full, features.encode(s.to_position()), "C vs Python on the full position")
            _close(full, features.encode(view.to_position()), "C vs Python on the view")
        assert all(0.0 <= x <= 4.0 for x in full)
    assert phases == set(spec.PHASES) - {"over"}, f"phases not reached: {set(spec.PHASES) - phases}"
    assert decisions > 3000 and python_checked > 1000 and hidden_reserves > 50


def _state(pos):
    return load_game("duel", 2).state_from_position(pos)


def test_the_opponents_blind_reserve_never_shows_but_its_face_up_one_does():
    pos = spec.initial_position(2, 5)
    # seat 1 holds a blind card and a face-up one, both taken from the level-3 deck
    blind, face_up = pos["decks"][2].pop(), pos["decks"][2].pop()
    pos["deck_sizes"][2] -= 2
    pos["seats"][1]["reserved"] = [{"card": blind, "level": 3, "blind": True},
                                   {"card": face_up, "level": 3, "blind": False}]
    pos["seats"][1]["tokens"][spec.GOLD] = 2  # the golds taken to reserve, off the board
    golds = [c for c in range(spec.CELLS) if pos["board"][c // 5][c % 5] == spec.GOLD][:2]
    for c in golds:
        pos["board"][c // 5][c % 5] = -1
    st = _state(pos)
    x = _floats(st.features())
    base = features.OFFSETS["reserves"] + 3 * features.RESERVE  # the opponent's first place
    assert x[base:base + 3] == [1.0, 1.0, 1.0] and not any(x[base + 3:base + features.RESERVE])
    second = base + features.RESERVE
    assert x[second:second + 3] == [1.0, 0.0, 1.0]
    assert x[second + 3:second + 3 + features.CARD] == pytest.approx(features._card(face_up), abs=1e-6)
    # swapping the blind card for another unseen level-3 card changes nothing
    other = dict(pos, decks=[d[:] for d in pos["decks"]])
    other["seats"] = [dict(s) for s in pos["seats"]]
    swap = other["decks"][2][0]
    other["decks"][2][0] = blind
    other["seats"][1]["reserved"] = [{"card": swap, "level": 3, "blind": True},
                                     pos["seats"][1]["reserved"][1]]
    assert _floats(_state(other).features()) == x


def test_mover_relative_seat_blocks():
    s = load_game("duel", 2).new_initial_state(11)
    x = _floats(s.features())
    seats = features.OFFSETS["seats"]
    privileges = 20  # index of privileges in a SEAT block
    # seat 0 to act holds none; the second player started with one
    assert x[seats + privileges] == 0.0 and x[seats + features.SEAT + privileges] == pytest.approx(1 / 3)
    assert x[features.OFFSETS["phase"]] == 1.0 and x[features.OFFSETS["supply_privileges"]] == pytest.approx(2 / 3)


def test_a_view_that_hides_the_movers_reserve_cannot_be_encoded():
    game = load_game("duel", 2)
    rng = random.Random(3)
    s = game.new_initial_state(3)
    for _ in range(2000):
        pos = s.to_position()
        mover = s.current_player()
        if any(r["blind"] for r in pos["seats"][mover]["reserved"]):
            other_view = s.view(1 - mover)
            with pytest.raises(ValueError):
                other_view.features()
            with pytest.raises(ValueError):
                features.encode(other_view.to_position())
            return
        s.apply_action(rng.choice(s.search_actions()))
        if s.is_terminal():
            s = game.new_initial_state(rng.randrange(10**6))
    pytest.fail("no blind reserve of the seat to act was reached")
