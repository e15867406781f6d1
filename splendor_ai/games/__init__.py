"""The games: one lookup, ``load_game(name, players=N)``, for every variant."""
from __future__ import annotations

from .errors import (
    HiddenInformationError,
    IllegalActionError,
    NotationError,
    PositionError,
    SplendorError,
    UnknownGameError,
)
from .registry import GAMES
from .state import TERMINAL, State

__all__ = [
    "GAMES",
    "TERMINAL",
    "HiddenInformationError",
    "IllegalActionError",
    "NotationError",
    "PositionError",
    "SplendorError",
    "State",
    "UnknownGameError",
    "load_game",
]


def load_game(name: str, players: int = 2, impl: str = "core"):
    """The game ``name`` for ``players`` seats.

    ``impl="core"`` (the default) is the compiled Cython core; ``impl="reference"`` is the
    readable pure-Python reference of the rules (slow; the executable specification).
    """
    if impl not in ("core", "reference"):
        raise UnknownGameError(f"unknown implementation {impl!r} (core or reference)")
    from .registry import load

    return load(name, players, impl)
