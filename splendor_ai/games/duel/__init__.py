"""Splendor Duel, for 2 players."""
from __future__ import annotations

from ..registry import Game
from . import spec


class DuelGame(Game):
    """Splendor Duel (2 players only); makes states."""

    spec = spec
    title = "Splendor Duel"
    position_doc = "docs/duel.md"

    def catalog(self) -> dict:
        """Jewel cards, royal cards and the board's spiral, with their stable ids."""
        def abilities(bits):
            return [name for name, bit in spec.ABILITY_BITS.items() if bit and bits & bit]

        return {
            "cards": [
                self.card_entry(c, spec.CARD_COLORS, spec.COLORS + ("pearl",), crowns=c.crowns, bonus=c.bonus,
                                abilities=abilities(c.abilities))
                for c in spec.CARDS
            ],
            "royals": [{"id": r.id, "points": r.points, "abilities": abilities(r.abilities)} for r in spec.ROYALS],
            "spiral": [spec.cell_name(c) for c in spec.SPIRAL],
        }


GAME_CLASS = DuelGame
