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
from .state import TERMINAL, State

# The registered games: each names a package splendor_ai.games.<name> whose GAME_CLASS is a
# registry.Game (see registry.py).
GAMES = ("base", "marvel", "duel")

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
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (one of {', '.join(GAMES)})")
    from .registry import load

    return load(name, players, impl)
