"""The policy head's classes, the same rule in every game: an action id below BUY is its own
class, every payment variant of one buy target shares the target's class (BUY + target).
The core (ext/<game>_features.pxi) and the readable definition (games/<game>/features.py)
must agree on every action id."""
from __future__ import annotations

import collections
import importlib

import pytest


@pytest.mark.parametrize("game", ["base", "marvel", "duel"])
def test_policy_index_agrees_and_groups_payment_variants(game):
    core = importlib.import_module(f"splendor_ai._core.{game}")
    spec = importlib.import_module(f"splendor_ai.games.{game}.spec")
    features = importlib.import_module(f"splendor_ai.games.{game}.features")
    seen = collections.defaultdict(set)
    for a in range(spec.NUM_ACTIONS):
        k = core.policy_index(a)
        assert k == features.policy_index(a) and 0 <= k < features.POLICY_SIZE
        assert k == (a if a < spec.BUY else spec.BUY + spec.split_buy(a)[0])
        seen[k].add(a)
    assert len(seen) == features.POLICY_SIZE
    assert all(len(seen[spec.BUY + t]) == spec.N_PAY for t in range(spec.BUY_TARGETS))
    for bad in (-1, spec.NUM_ACTIONS):
        with pytest.raises(ValueError):
            core.policy_index(bad)
        with pytest.raises(ValueError):
            features.policy_index(bad)
