"""The search's settings as the core takes them: the heuristic search's (UCT) and the net
search's (PUCT) parameters in their own frozen types, built from a ``Config`` (and the net's
own recommendation) in one place, ``tree_arguments``, the only builder of ``TreeSearch``'s
arguments; and the codes a tree stops with.

``Config`` stays the one flat value a caller fills in (``Config(c_puct=0.7)``, the
``mcts:KEY=VALUE`` bot specs); these types are what it resolves to for one search.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from ..nn.weights import SEARCH_DEFAULTS


class StopCode(enum.IntEnum):
    """Why a tree stopped (``Tree.stopped`` in ext/search_tree.pxi, the same numbers)."""

    RUNNING = 0  # still running, or stopped by its iteration limit or its node cap
    CANCELLED = 1  # cancel(): a client gone, the server stopping, a caller's stop
    TIME = 2  # its deadline (the limit's seconds) passed
    OUT_OF_MEMORY = 3  # a scratch buffer could not be allocated: the run raises MemoryError


@dataclass(frozen=True)
class UctParams:
    """The heuristic search: UCB with a progressive prior bias, rollouts with the game's policy."""

    c_uct: float = 0.4  # exploration constant (values are win probabilities in [0, 1])
    prior_weight: float = 3.0  # progressive bias: prior / (1 + visits)
    rollout_depth: int = 20  # actions before the evaluation scores the rollout; -1: to the end
    rollout_cap: int = 1000  # hard cap on a rollout (a simulated game that will not end)


@dataclass(frozen=True)
class PuctParams:
    """The net search: PUCT with the net's priors and values (docs/learned.md)."""

    c_puct: float = SEARCH_DEFAULTS["c_puct"]  # exploration; n seats use 2/n of it (ext/search_puct.pxi)
    fpu_reduction: float = SEARCH_DEFAULTS["fpu_reduction"]  # an unvisited move: the parent's mean less this
    net_rollout_depth: int = int(SEARCH_DEFAULTS["net_rollout_depth"])  # > 0: blend the net's value with a rollout
    net_rollout_weight: float = SEARCH_DEFAULTS["net_rollout_weight"]  # the rollout's share in that blend
    root_noise: float = 0.0  # Dirichlet noise share in the root's priors (self-play)
    noise_alpha: float = 0.3

    @classmethod
    def of(cls, config, net, players: int | None) -> "PuctParams":
        """The config's settings, else the net's recommendation for ``players`` seats (its
        header's info.search_by_players), else its recommendation (info.search), else the
        defaults (SEARCH_DEFAULTS)."""
        recommended = net.file.search_settings(players) if net is not None else {}
        chosen: dict[str, Any] = {}  # PuctParams' keywords: floats, and an int (net_rollout_depth)
        for name, default in SEARCH_DEFAULTS.items():
            value = getattr(config, name)
            chosen[name] = value if value is not None else type(default)(recommended.get(name, default))
        return cls(**chosen, root_noise=config.root_noise, noise_alpha=config.noise_alpha)


def uct_of(config) -> UctParams:
    return UctParams(config.c_uct, config.prior_weight, config.rollout_depth, config.rollout_cap)


def tree_arguments(config, limits, net, players: int, seed: int, root_actions=None, reuse=None) -> dict:
    """Every keyword of ``TreeSearch`` but the game, the root state and its seat: the limits,
    the UCT and PUCT parameters, the net's core, the seed, the root restriction and the reused
    tree (``(previous TreeSearch, action)`` or None)."""
    return dict(
        trees=config.threads, iterations=limits.iterations or 0, seconds=limits.seconds or 0.0,
        max_nodes=limits.max_nodes, determinize=not config.perfect_information, seed=seed,
        root_actions=root_actions, reuse=reuse[0] if reuse else None, reuse_action=reuse[1] if reuse else -1,
        net=net.core if net is not None else None,
        **_fields(uct_of(config)), **_fields(PuctParams.of(config, net, players)),
    )


def _fields(params) -> dict:
    """A flat parameter type's fields by name (``asdict`` without its deep copy: every call builds this)."""
    return {f.name: getattr(params, f.name) for f in fields(params)}
