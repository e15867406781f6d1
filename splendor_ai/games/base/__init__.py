"""Splendor, the base game, for 2, 3 or 4 players."""
from __future__ import annotations

from ..registry import Game
from . import spec


class BaseGame(Game):
    """The base game for a fixed number of players; makes states."""

    spec = spec
    title = "Splendor"

    def catalog(self) -> dict:
        """Cards and nobles with their stable ids."""
        return {
            "cards": [self.card_entry(c, spec.COLORS) for c in spec.CARDS],
            "nobles": [
                {"id": n.id, "points": n.points, "requires": dict(zip(spec.COLORS, n.requires))}
                for n in spec.NOBLES
            ],
        }


GAME_CLASS = BaseGame
