"""The game cores the search can drive, by game name."""
from __future__ import annotations

import importlib

from ..games import GAMES, UnknownGameError, load_game


def module(game: str):
    """The compiled core module of ``game`` (splendor_ai._core.<game>)."""
    if game not in GAMES:
        raise UnknownGameError(f"no search core for game {game!r}")
    return importlib.import_module(f"splendor_ai._core.{game}")


def game_def(game: str):
    return module(game).game_def()


def to_core(state):
    """`state` as a core state (a reference state is converted through its position)."""
    if isinstance(state, module(state.game).CoreState):
        return state
    return load_game(state.game, state.players).state_from_position(state.to_position())
