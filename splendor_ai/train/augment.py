"""Colour symmetry: training positions multiplied by permuting the five gem colours.

In the base game and Marvel the five colours play the same part: permuting them in a
position (tokens, bonuses, card colours and costs, noble or location requirements, the
supply) gives a position that is worth the same, whose take and return actions are the
permuted ones. The card sets are not exactly symmetric (the hidden decks differ a little
per colour), so this is an approximation, and a good one: the features describe cards by
their attributes, never by their identity, so a permuted position is one the net could
meet. Self-play on two cores yields a few hundred thousand positions, which a net
otherwise memorises within an epoch or two (docs/learned.md); each training batch draws a
permutation per position, 120 views of every one.

In Splendor Duel the five gem colours are symmetric too (pearls, gold, jokers and the
board's geometry are not touched): the token on each cell, the bag, the seats' tokens,
bonuses and points per colour, cards' colours and costs, and the actions that name a colour
(steal, a joker's colour, discard) are permuted; taking a line or using a privilege names
cells, which stay.

A permutation ``sigma`` maps colour ``c`` to colour ``sigma[c]``. The feature layout is
read from the feature names: a name that ends in ``_<colour letter>`` is a per-colour
feature; every other feature stays where it is (Duel's module has no names, so
``duel_names`` writes them from its documented layout).
"""
from __future__ import annotations

import itertools
import re
from types import ModuleType

import numpy as np

from ..games.cards import spec as cards_spec


class ColourSymmetry:
    """Index maps for every permutation of the five colours: ``features[p]`` and
    ``policy[p]`` are gathers (new[..., j] = old[..., features[p][j]])."""

    def __init__(self, names: list[str], letters: str, policy_size: int, colour_actions):
        """``colour_actions(sigma)``: old policy class -> new class, an array."""
        self.perms = list(itertools.permutations(range(5)))
        index = {n: i for i, n in enumerate(names)}
        pat = re.compile(r"_([" + letters + r"])$")
        feats = np.empty((len(self.perms), len(names)), dtype=np.int64)
        pols = np.empty((len(self.perms), policy_size), dtype=np.int64)
        for p, sigma in enumerate(self.perms):
            inv = [0] * 5
            for c in range(5):
                inv[sigma[c]] = c
            for j, name in enumerate(names):
                m = pat.search(name)
                if m is None:
                    feats[p, j] = j
                else:  # new colour c' reads the old colour inv[c']
                    old = letters[inv[letters.index(m.group(1))]]
                    feats[p, j] = index[name[:m.start(1)] + old]
            pols[p] = np.arange(policy_size)
            fwd = colour_actions(sigma)
            pols[p, fwd] = np.arange(policy_size)  # new class fwd[k] reads old class k
        self.features = feats
        self.policy = pols

    def check(self) -> None:
        """Every map is a permutation, and the identity comes first."""
        for table in (self.features, self.policy):
            width = table.shape[1]
            assert (np.sort(table, axis=1) == np.arange(width)).all()
            assert (table[0] == np.arange(width)).all()


def _card_game_actions(sigma: tuple[int, ...], policy_size: int, buy: int, return_kinds: int) -> np.ndarray:
    """Base and Marvel: old policy class -> new class under colour permutation ``sigma``:
    take actions by the colours they take, returns by the colour returned; everything else
    (reserves by slot, buys by target, nobles or locations, pass) stays."""
    takes = {}
    for a in range(cards_spec.TAKE3, cards_spec.RESERVE_BOARD):
        takes[tuple(sorted(cards_spec.taken_tokens(a)))] = a
    out = np.arange(policy_size)
    for a in range(cards_spec.TAKE3, cards_spec.RESERVE_BOARD):
        out[a] = takes[tuple(sorted(sigma[c] for c in cards_spec.taken_tokens(a)))]
    for c in range(5):
        out[cards_spec.RETURN + c] = cards_spec.RETURN + sigma[c]
    assert buy > cards_spec.RETURN + return_kinds - 1
    return out


def _duel_actions(sigma: tuple[int, ...]) -> np.ndarray:
    """Duel: old policy class -> new class; the actions that name a gem colour move."""
    from ..games.duel import features, spec

    out = np.arange(features.POLICY_SIZE)
    for c in range(5):
        out[spec.STEAL + c] = spec.STEAL + sigma[c]
        out[spec.JOKER_COLOR + c] = spec.JOKER_COLOR + sigma[c]
        out[spec.DISCARD + c] = spec.DISCARD + sigma[c]
    return out


def duel_names() -> list[str]:
    """A name per Duel feature, from the layout in splendor_ai/games/duel/features.py:
    per-colour features end in ``_<letter>`` (w u g r k), the others are named by place."""
    from ..games.duel import features as F, spec

    kinds = spec.LETTERS  # w u g r k, pearl p, gold y
    card = ([f"colour_{k}" for k in kinds[:5]] + ["joker", "points", "crowns", "bonus"]
            + [f"ability{i}" for i in range(4)] + [f"cost_{k}" for k in kinds[:6]])
    seat = ([f"tokens_{k}" for k in kinds] + [f"bonus_{k}" for k in kinds[:5]]
            + [f"colour_points_{k}" for k in kinds[:5]]
            + ["points", "crowns", "best_colour", "privileges", "royals", "cards", "reserved"]
            + [f"need_{k}" for k in kinds[:6]])
    lacks = ["lack0", "affordable0", "lack1", "affordable1"]
    blocks = {
        "bag": [f"bag_{k}" for k in kinds],
        "pending": [f"pending_{k}" for k in kinds[:5]] + ["pending_points"],
        "line_max": [f"line_max_{k}" for k in kinds[:6]],
    }
    names = []
    for block, size in F.BLOCKS:
        if block in blocks:
            part = blocks[block]
        elif block == "board":
            part = [f"cell{i}.{k}" for i in range(spec.CELLS) for k in kinds]
            part = [n[:-2] + "_" + n[-1] for n in part]  # cell3_w
        elif block == "seats":
            part = [f"seat{i}.{n}" for i in range(2) for n in seat]
        elif block == "pyramid":
            part = [f"slot{t}.{n}" for t in range(spec.PYRAMID) for n in ["present", *card, *lacks]]
        elif block == "reserves":
            part = [f"reserve{i}_{j}.{n}" for i in range(2) for j in range(spec.MAX_RESERVED)
                    for n in ["present", "hidden", "level", *card, *lacks[:2]]]
        else:
            part = [f"{block}{i}" for i in range(size)]
        assert len(part) == size, block
        names += part
    return names


def for_game(game: str) -> ColourSymmetry:
    """The game's colour symmetry."""
    from functools import partial

    if game == "duel":
        from ..games.duel import features as duel_features, spec as duel_spec

        return ColourSymmetry(duel_names(), duel_spec.LETTERS[:5], duel_features.POLICY_SIZE, _duel_actions)
    features: ModuleType
    spec: ModuleType
    if game == "base":
        from ..games.base import features as base_features, spec as base_spec

        features, spec, names = base_features, base_spec, base_features.NAMES
    elif game == "marvel":
        from ..games.marvel import features as marvel_features, spec as marvel_spec

        features, spec, names = marvel_features, marvel_spec, marvel_features.feature_names()
    else:
        raise ValueError(f"no game {game!r}")
    return ColourSymmetry(names, spec.LETTERS[:5], features.POLICY_SIZE,
                          partial(_card_game_actions, policy_size=features.POLICY_SIZE, buy=spec.BUY,
                                  return_kinds=len(spec.LETTERS)))
