"""The learned evaluation's encoding of Splendor: Marvel (docs/learned.md, section 1): the C
encoder (ext/marvel_features.pxi) computes what splendor_ai/games/marvel/features.py
defines, for the seat to act, and never reads what that seat cannot see."""
from __future__ import annotations

import ctypes
import random
from array import array
from collections import Counter

import pytest

from marvel_builders import fresh, give_cards, give_tokens
from splendor_ai._core import marvel as core
from splendor_ai.games import load_game
from splendor_ai.games.marvel import features as F
from splendor_ai.games.marvel import spec

TOL = 1e-6


def _floats(data: bytes) -> array:
    out = array("f")
    out.frombytes(data)
    return out


def _close(c_values, py_values) -> list[tuple[str, float, float]]:
    """The features where C and Python differ by more than TOL (name, C, Python)."""
    names = F.feature_names()
    return [(names[i], c, p) for i, (c, p) in enumerate(zip(c_values, py_values)) if abs(c - p) > TOL]


def _play(players: int, seed: int):
    """A random game: random legal actions (all payment variants), recruiting more often than
    uniform choice would so that tableaux grow and every phase comes up. Yields each state
    before its decision; once the game is over, checks that its features() raise."""
    rng = random.Random(seed)
    state = load_game("marvel", players).new_initial_state(seed)
    for _ in range(400):
        if state.is_terminal():
            break
        yield state, rng
        legal = state.legal_actions()
        buys = [a for a in legal if a >= spec.BUY]
        state.apply_action(rng.choice(buys) if buys and rng.random() < 0.7 else rng.choice(legal))
    assert state.is_terminal(), f"{players}p seed {seed}: no end in 400 actions"
    with pytest.raises(ValueError):
        state.features()


def test_sizes_agree_between_core_and_definition():
    assert core.NUM_FEATURES == F.NUM_FEATURES == sum(size for _, size in F.BLOCKS) == 696
    assert core.POLICY_SIZE == F.POLICY_SIZE == 76
    assert core.FEATURE_VERSION == F.FEATURE_VERSION == 1
    assert len(F.feature_names()) == len(set(F.feature_names())) == F.NUM_FEATURES


def test_game_def_carries_the_encoder():
    """The search reads the sizes from the GameDef (ext/game.pxd): they are filled in."""
    fn = ctypes.c_void_p

    class GameDef(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p)] + [(k, ctypes.c_int) for k in (
            "state_size", "max_actions", "num_actions", "max_players")] + [(k, fn) for k in (
            "n_players", "current_player", "legal_actions", "apply", "returns", "resample",
            "evaluate", "rollout_action", "priors")] + [
            ("num_features", ctypes.c_int), ("policy_size", ctypes.c_int),
            ("features", fn), ("policy_index", fn)]

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    gd = GameDef.from_address(get(core.game_def(), b"splendor_ai.GameDef"))
    assert gd.name == b"marvel" and gd.num_actions == spec.NUM_ACTIONS
    assert (gd.num_features, gd.policy_size) == (F.NUM_FEATURES, F.POLICY_SIZE)
    assert gd.features and gd.policy_index


def test_policy_index_refuses_what_is_not_an_action_id():
    # The classes themselves: test_features_policy.py (every game).
    for bad in (-1, spec.NUM_ACTIONS, True, 3.0):
        with pytest.raises(ValueError):
            core.policy_index(bad)
        with pytest.raises(ValueError):
            F.policy_index(bad)


def test_c_and_python_agree_and_see_no_hidden_information():
    """At every decision of random games, 2 to 4 players: the C encoding of the full state,
    of the mover's view and of that view resampled are the same bytes, and the Python
    encoding of either position matches them."""
    phases: Counter = Counter()
    blind_elsewhere = 0
    positions = 0
    for players, games in ((2, 12), (3, 10), (4, 10)):
        for seed in range(games):
            for state, rng in _play(players, 1000 * players + seed):
                mover = state.current_player()
                full = state.features()
                assert len(full) == 4 * F.NUM_FEATURES
                view = state.view(mover)
                assert view.features() == full
                assert view.resample(mover, rng).features() == full
                full_pos = state.to_position()
                values = _floats(full)
                bad = _close(values, F.encode(full_pos))
                assert not bad, (players, seed, full_pos["turn"], bad[:5])
                if positions % 3 == 0:  # the view's dictionary: hidden cards are None
                    bad = _close(values, F.encode(view.to_position()))
                    assert not bad, (players, seed, full_pos["turn"], bad[:5])
                assert all(0.0 <= x <= 2.0 for x in values)  # scaled
                phases[full_pos["phase"]] += 1
                blind_elsewhere += any(r["blind"] for i, s in enumerate(full_pos["seats"])
                                       if i != mover for r in s["reserved"])
                positions += 1
    assert positions > 2500
    assert set(phases) == {"main", "return", "location"}, phases
    assert blind_elsewhere > 100


def _by_name(state) -> dict[str, float]:
    return dict(zip(F.feature_names(), _floats(state.features())))


def test_seat_blocks_are_mover_relative_and_absent_seats_are_zeros():
    pos = fresh(4, seed=3)
    pos["start_seat"], pos["current"] = 1, 2  # seat 0 is the last seat of the round
    give_tokens(pos, 3, y=2, s=1)
    give_cards(pos, 0, "Vulture", "Sandman")
    state = load_game("marvel", 4).state_from_position(pos)
    f = _by_name(state)
    assert f["global.players_4"] == 1 and f["global.phase_main"] == 1
    assert f["seats.s1.tokens_y"] == pytest.approx(2 / 7) and f["seats.s1.tokens_s"] == pytest.approx(1 / 5)
    assert f["seats.s2.cards"] == pytest.approx(2 / 20)
    assert sum(f[f"seats.s2.bonus_{c}"] for c in "yrobp") == pytest.approx(2 / 7)
    # seat 2 (mover), 3 and 0 still play this round; seat 1, the start seat, does not
    assert [f[f"seats.s{i}.acts_this_round"] for i in range(4)] == [1, 1, 1, 0]
    two = load_game("marvel", 2).new_initial_state(3)
    f = _by_name(two)
    assert f["global.players_2"] == 1
    assert all(v == 0 for k, v in f.items() if k.startswith(("seats.s2.", "seats.s3.", "locations.2.",
                                                              "locations.3.", "other_reserves.s2",
                                                              "other_reserves.s3")))


def test_a_blind_reserve_is_only_a_level_to_the_other_seats():
    state = load_game("marvel", 2).new_initial_state(8)
    state.apply_action(state.string_to_action("reserve deck3"))  # seat 0, blind
    hidden = state.to_position()["seats"][0]["reserved"][0]["card"]
    f = _by_name(state)  # seat 1 to act
    assert f["other_reserves.s1_0.present"] == 1 and f["other_reserves.s1_0.level_3"] == 1
    assert f["other_reserves.s1_0.blind"] == 1
    assert not any(f[f"other_reserves.s1_0.color_{c}"] for c in "yrobp")
    # swapping the hidden card for another unseen level-3 card changes nothing
    pos = state.to_position()
    other = pos["decks"][2][0]
    pos["decks"][2][0] = hidden
    pos["seats"][0]["reserved"][0]["card"] = other
    assert load_game("marvel", 2).state_from_position(pos).features() == state.features()
    # the owner sees its own card
    state.apply_action(state.search_actions()[0])
    f = _by_name(state)
    assert f["own_reserves.0.present"] == 1 and f["own_reserves.0.blind"] == 1
    assert f[f"own_reserves.0.color_{spec.LETTERS[spec.CARDS[hidden].color]}"] == 1
    # another seat's view (not the search's case): the mover's own blind card is unknown there
    other = state.view(1)
    f = _by_name(other)
    assert f["own_reserves.0.present"] == 1 and f["own_reserves.0.level_3"] == 1
    assert not any(f[f"own_reserves.0.color_{c}"] for c in "yrobp")
    assert not _close(_floats(other.features()), F.encode(other.to_position()))


def test_what_a_seat_lacks_for_a_face_up_card():
    pos = fresh(2, seed=5)
    cid = pos["board"][0][0]
    cost = spec.CARDS[cid].cost
    c = max(range(5), key=lambda k: cost[k])  # a colour the card costs
    give_tokens(pos, 0, s=1)
    state = load_game("marvel", 2).state_from_position(pos)
    f = _by_name(state)
    assert f[f"board.l1_0.lack_{spec.LETTERS[c]}"] == pytest.approx(cost[c] / 7)
    assert f["board.l1_0.shortfall"] == pytest.approx((sum(cost) - 1) / 10)
    assert f["board.l1_0.affordable"] == 0 and f["board.l1_0.new_color"] == 1
    assert f["board.l1_0.lack_s1"] == pytest.approx(sum(cost) / 10)
