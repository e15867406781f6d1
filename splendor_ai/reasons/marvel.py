"""Splendor: Marvel's facts: the shared ones of the games of the base game's shape
(``cards.py``), with its pieces, the locations (COMPLETES_LOCATION, NEAR_LOCATION), and what
the Infinity Gauntlet needs (16 points, a bonus of every colour, a green Time Stone token:
TRIGGERS_END, COMPLETES_COLOURS, GAINS_TIME_STONE) and the Avengers Assemble tile
(TAKES_AVENGERS)."""
from __future__ import annotations

from ..games.marvel import spec
from .cards import CardFacts
from .vocabulary import Reason


class MarvelFacts(CardFacts):
    spec = spec
    complete_code, near_code = "COMPLETES_LOCATION", "NEAR_LOCATION"
    green = spec.GREEN

    def piece_points(self, piece: int) -> int:
        return spec.LOCATIONS[piece].points

    def end_key(self, pos: dict) -> tuple:
        return (pos["avengers"], pos["supply"][spec.GREEN])

    def own_facts(self, ctx, action: int, kind: str, after, apos: dict, ends) -> list[Reason]:
        if kind != "buy":
            return []
        pos, m = ctx.pos, ctx.mover
        out = []
        cid = spec.buy_target_card(pos, spec.split_buy(action)[0])
        assert cid is not None, "a legal buy's card is one the mover sees"
        card = spec.CARDS[cid]
        if apos["seats"][m]["tokens"][spec.GREEN] > pos["seats"][m]["tokens"][spec.GREEN]:
            out.append(Reason("GAINS_TIME_STONE"))
        bonus = self.bonus(pos, m)
        if bonus[card.color] == 0 and sum(1 for b in bonus if b == 0) == 1:
            out.append(Reason("COMPLETES_COLOURS"))
        if ends and pos["avengers"] != m and any(e.to_position()["avengers"] == m for e in ends):
            out.append(Reason("TAKES_AVENGERS", points=spec.AVENGERS_POINTS, seat=pos["avengers"]))
        return out


FACTS = MarvelFacts()
