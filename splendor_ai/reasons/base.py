"""The base game's facts: the shared ones of the games of its shape (``cards.py``), with its
pieces, the nobles (COMPLETES_NOBLE, NEAR_NOBLE)."""
from __future__ import annotations

from ..games.base import spec
from .cards import CardFacts


class BaseFacts(CardFacts):
    spec = spec
    complete_code, near_code = "COMPLETES_NOBLE", "NEAR_NOBLE"

    def piece_points(self, piece: int) -> int:
        return spec.NOBLES[piece].points


FACTS = BaseFacts()
