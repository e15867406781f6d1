"""Colour-symmetry augmentation (splendor_ai/train/augment.py): the index maps are
permutations, and permuting a base position's colours permutes its features and its legal
take and return actions exactly as the maps say."""
from __future__ import annotations

import dataclasses
import random
import types

import numpy as np
import pytest

pytest.importorskip("torch")

from splendor_ai.games import load_game  # noqa: E402
from splendor_ai.games.base import features as F  # noqa: E402
from splendor_ai.games.base import spec  # noqa: E402
from splendor_ai.games.cards import spec as cards_spec  # noqa: E402
from splendor_ai.train import augment  # noqa: E402


@pytest.mark.parametrize("game", ["base", "marvel", "duel"])
def test_maps_are_permutations(game):
    sym = augment.for_game(game)
    sym.check()
    assert len(sym.perms) == 120
    # The per-colour features move, five at a time; the others never do.
    moved = (sym.features != np.arange(sym.features.shape[1])).any(0)
    assert moved.sum() > 100 and moved.sum() % 5 == 0 and not moved.all()


def test_duel_names_follow_the_layout():
    from splendor_ai.games.duel import features as DF

    names = augment.duel_names()
    assert len(names) == len(set(names)) == DF.NUM_FEATURES
    at = DF.OFFSETS["pyramid"] + 2 * 24  # slot 2: present, then the card's colour one-hot
    assert names[at + 1:at + 7] == [f"slot2.colour_{k}" for k in "wugrk"] + ["slot2.joker"]


def _move(sigma):
    def move(values):
        out = list(values)
        for c in range(5):
            out[sigma[c]] = values[c]
        return type(values)(out) if isinstance(values, tuple) else out
    return move


def _permuted_spec(sigma):
    """The base spec as the features module reads it, with every card's and noble's colours
    moved by sigma (colour c becomes sigma[c])."""
    def move(values):
        out = [0] * 5
        for c in range(5):
            out[sigma[c]] = values[c]
        return tuple(out)

    cards = tuple(dataclasses.replace(c, color=sigma[c.color], cost=move(c.cost)) for c in spec.CARDS)
    nobles = tuple(dataclasses.replace(n, requires=move(n.requires)) for n in spec.NOBLES)

    def bonuses(owned):
        b = [0] * 5
        for cid in owned:
            b[cards[cid].color] += 1
        return b

    proxy = types.SimpleNamespace(**{k: getattr(spec, k) for k in dir(spec) if not k.startswith("__")})
    proxy.CARDS, proxy.NOBLES, proxy.bonuses = cards, nobles, bonuses
    return proxy, move


def _permuted_position(pos, move):
    pos = {**pos, "supply": list(move(pos["supply"][:5])) + pos["supply"][5:]}
    pos["seats"] = [{**s, "tokens": list(move(s["tokens"][:5])) + s["tokens"][5:]} for s in pos["seats"]]
    return pos


def test_permuting_a_position_permutes_its_features(monkeypatch):
    sym = augment.for_game("base")
    rng = random.Random(5)
    checked = 0
    for players in (2, 3, 4):
        s = load_game("base", players).new_initial_state(players)
        while not s.is_terminal() and checked < 60 * players:
            if s.current_player() >= 0 and rng.random() < 0.3:
                pos = s.to_position()
                want = np.array(F.encode(pos))
                p = rng.randrange(1, len(sym.perms))
                sigma = sym.perms[p]
                proxy, move = _permuted_spec(sigma)
                with monkeypatch.context() as m:
                    m.setattr(F, "spec", proxy)
                    got = np.array(F.encode(_permuted_position(pos, move)))
                np.testing.assert_allclose(got, want[sym.features[p]], atol=1e-6)
                # A legal take's class moves to the class of the same take in permuted colours.
                for a in s.legal_actions():
                    if a < cards_spec.RESERVE_BOARD:
                        new = sorted(sigma[c] for c in cards_spec.taken_tokens(a))
                        k = int(np.nonzero(sym.policy[p] == F.policy_index(a))[0][0])
                        assert sorted(cards_spec.taken_tokens(k)) == new
                    elif cards_spec.RETURN <= a < cards_spec.RETURN + 5:
                        assert sym.policy[p][cards_spec.RETURN + sigma[a - cards_spec.RETURN]] == a
                checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 100


def test_permuting_a_duel_position_permutes_its_features_and_colour_actions(monkeypatch):
    from splendor_ai.games.duel import features as DF
    from splendor_ai.games.duel import spec as dspec

    sym = augment.for_game("duel")
    rng = random.Random(9)
    checked = 0
    for game in range(6):
        s = load_game("duel", 2).new_initial_state(game)
        while not s.is_terminal() and checked < 40 * (game + 1):
            if rng.random() < 0.4:
                pos = s.to_position()
                want = np.array(DF.encode(pos))
                p = rng.randrange(1, len(sym.perms))
                sigma = sym.perms[p]
                move = _move(sigma)
                cards = tuple(dataclasses.replace(c, color=sigma[c.color] if c.color < 5 else c.color,
                                                  cost=move(c.cost)) for c in dspec.CARDS)
                proxy = types.SimpleNamespace(**{k: getattr(dspec, k) for k in dir(dspec) if not k.startswith("__")})
                proxy.CARDS = cards
                proxy.bonuses = lambda seat: move(dspec.bonuses(seat))
                proxy.color_points = lambda seat: move(dspec.color_points(seat))
                moved = {**pos, "board": [[sigma[k] if 0 <= k < 5 else k for k in row] for row in pos["board"]],
                         "seats": [{**st, "tokens": move(st["tokens"])} for st in pos["seats"]]}
                with monkeypatch.context() as m:
                    m.setattr(DF, "spec", proxy)
                    got = np.array(DF.encode(moved))
                np.testing.assert_allclose(got, want[sym.features[p]], atol=1e-6)
                checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 100
    # The colour-naming actions move with the colour; lines, cells and buys stay.
    sigma = sym.perms[7]
    inverse = np.argsort(sym.policy[7])  # old class -> new class
    for c in range(5):
        assert inverse[dspec.JOKER_COLOR + c] == dspec.JOKER_COLOR + sigma[c]
        assert inverse[dspec.STEAL + c] == dspec.STEAL + sigma[c]
        assert inverse[dspec.DISCARD + c] == dspec.DISCARD + sigma[c]
    assert inverse[dspec.STEAL + 5] == dspec.STEAL + 5 and inverse[dspec.TAKE + 3] == dspec.TAKE + 3
