"""Proven results in the search tree: a root move that ends the game at once in every visit is
proven, with its exact value (TreeSearch.root_stats(proven=True))."""
from __future__ import annotations

import pytest

import proven_positions as P
from splendor_ai import nn
from splendor_ai._core import search as _search
from splendor_ai.games import load_game
from splendor_ai.search import cores


def _state(pos):
    return cores.to_core(load_game(pos["game"], pos["players"]).state_from_position(pos))


def _outcome(state, action):
    """The mover's result when ``action`` ends the game at once, else None."""
    s = state.clone()
    s.apply_action(action)
    return s.returns()[state.current_player()] if s.is_terminal() else None


def _searched(state):
    """The full position and the mover's view of it."""
    return [("full", state), ("view", state.view(state.current_player()))]


def test_a_node_is_still_32_bytes():
    assert _search.NODE_BYTES == 32


@pytest.mark.parametrize("evaluator", ["heuristic", "net"])
@pytest.mark.parametrize("name", ["BASE_WIN", "BASE_SHARED", "BASE_LOSS", "DUEL_WIN"])
def test_the_core_proves_exactly_the_moves_that_end_the_game(name, evaluator):
    """root_stats(proven=True): a visited root move is proven iff it ends the game at once, and
    then with its exact result for the mover (1, 0, 1/2 for a shared win); merged over the
    trees of root parallelism. Without the flag root_stats keeps its five items."""
    state = _state(getattr(P, name))
    net = nn.shipped_net(state.game, 2)
    seen = set()
    for label, searched in _searched(state):
        for trees in (1, 3):
            tree = _search.TreeSearch(cores.game_def(state.game), searched._state_bytes(), searched.current_player(),
                                      trees=trees, iterations=600, seed=7, determinize=label == "view",
                                      net=net.core if evaluator == "net" else None)
            for i in range(trees):
                tree.run_tree(i)
            assert all(len(row) == 5 for row in tree.root_stats())
            for action, visits, _v, _p, _pv, proven in tree.root_stats(proven=True):
                assert visits > 0
                assert proven == _outcome(state, action), state.action_to_string(action)
                seen.add(proven)
    assert 1.0 in seen or name == "BASE_LOSS"
    if name == "BASE_SHARED":
        assert 0.5 in seen
