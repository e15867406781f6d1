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

A permutation ``sigma`` maps colour ``c`` to colour ``sigma[c]``. The feature layout is
read from the feature names: a name that ends in ``_<colour letter>`` is a per-colour
feature; every other feature stays where it is. Duel's colours are tied to its board's
cells and its cards' abilities, so it has no such symmetry here (``for_game`` returns None).
"""
from __future__ import annotations

import itertools
import re

import numpy as np

from ..games.cards import spec as cards_spec


class ColourSymmetry:
    """Index maps for every permutation of the five colours: ``features[p]`` and
    ``policy[p]`` are gathers (new[..., j] = old[..., features[p][j]])."""

    def __init__(self, names: list[str], letters: str, policy_size: int, buy: int, return_kinds: int):
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
            fwd = _policy_map(sigma, policy_size, buy, return_kinds)
            pols[p, fwd] = np.arange(policy_size)  # new class fwd[k] reads old class k
        self.features = feats
        self.policy = pols

    def check(self) -> None:
        """Every map is a permutation, and the identity comes first."""
        for table in (self.features, self.policy):
            width = table.shape[1]
            assert (np.sort(table, axis=1) == np.arange(width)).all()
            assert (table[0] == np.arange(width)).all()


def _policy_map(sigma: tuple[int, ...], policy_size: int, buy: int, return_kinds: int) -> np.ndarray:
    """Old policy class -> new class under colour permutation ``sigma``: take actions by
    the colours they take, returns by the colour returned; everything else (reserves by
    slot, buys by target, nobles or locations, pass) stays."""
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


def for_game(game: str) -> ColourSymmetry | None:
    """The game's colour symmetry, or None where it has none (Duel)."""
    if game == "base":
        from ..games.base import features, spec

        return ColourSymmetry(features.NAMES, spec.LETTERS[:5], features.POLICY_SIZE, spec.BUY,
                              len(spec.LETTERS))
    if game == "marvel":
        from ..games.marvel import features, spec

        return ColourSymmetry(features.feature_names(), spec.LETTERS[:5], features.POLICY_SIZE, spec.BUY,
                              len(spec.LETTERS))
    return None
