"""The game cores the search can drive, by game name (found in the games' registry)."""
from __future__ import annotations

from ..games import load_game
from ..games.registry import core_module


def module(game: str):
    """The compiled core module of ``game`` (splendor_ai._core.<game>)."""
    return core_module(game)


def game_def(game: str):
    return module(game).game_def()


def to_core(state):
    """`state` as a core state (a reference state is converted through its position)."""
    if isinstance(state, module(state.game).CoreState):
        return state
    return load_game(state.game, state.players).state_from_position(state.to_position())
