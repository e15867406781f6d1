"""The game cores the search can drive, by game name."""
from __future__ import annotations

from ..games import UnknownGameError, load_game

_MODULES = {}


def _module(game: str):
    if game not in _MODULES:
        if game == "base":
            from .._core import base as mod
        elif game == "marvel":
            from .._core import marvel as mod
        elif game == "duel":
            from .._core import duel as mod
        else:
            raise UnknownGameError(f"no search core for game {game!r}")
        _MODULES[game] = mod
    return _MODULES[game]


def game_def(game: str):
    return _module(game).game_def()


def to_core(state):
    """`state` as a core state (a reference state is converted through its position)."""
    mod = _module(state.game)
    if isinstance(state, mod.CoreState):
        return state
    return load_game(state.game, state.players).state_from_position(state.to_position())
