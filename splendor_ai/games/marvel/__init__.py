"""Splendor: Marvel, for 2, 3 or 4 players."""
from __future__ import annotations

from ..registry import Game
from . import spec


class MarvelGame(Game):
    """Splendor: Marvel for a fixed number of players; makes states."""

    spec = spec
    title = "Splendor: Marvel"
    position_doc = "docs/marvel.md"

    def catalog(self) -> dict:
        """Character cards and location sides with their stable ids and names."""
        return {
            "cards": [self.card_entry(c, spec.COLORS, name=c.name, avengers=c.avengers, time_stone=c.time_stone)
                      for c in spec.CARDS],
            "locations": [
                {"id": loc.id, "name": loc.name, "tile": loc.tile, "side": loc.side,
                 "points": loc.points, "requires": dict(zip(spec.COLORS, loc.requires))}
                for loc in spec.LOCATIONS
            ],
        }


GAME_CLASS = MarvelGame
