"""Splendor: Marvel on the wire: MarvelPosition, MarvelMove and MarvelCatalog, both ways (the
shape it shares with the base game is convert_cards.CardGameWire; this module adds its own
fields: the Avengers tile, each seat's icons and Gauntlet, and the catalogue)."""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from ..games.marvel import spec
from . import _wire
from .convert_cards import CardGameWire


def _seat_extra(p: dict, i: int) -> dict:
    return {"points": spec.seat_points(p, i), "avengers_icons": spec.icons(p["seats"][i]["cards"]),
            "meets_gauntlet": spec.meets_gauntlet(p, i)}


WIRE = CardGameWire(spec, "Splendor: Marvel", pb, "marvel",
                    ("yellow", "red", "orange", "blue", "purple", "green", "grey"),
                    pb.MarvelPosition, pb.MarvelSeat, pb.MarvelMove, pb.MarvelTokens,
                    extra=("avengers",), seat_extra=_seat_extra)
# What convert.py calls on every game's converter, named here:
GAME, NAME = WIRE.spec.GAME, WIRE.name
proto_path = WIRE.proto_path
decode = WIRE.decode
encode = WIRE.encode
encode_move = WIRE.encode_move
structured_notation = WIRE.structured_notation


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_MARVEL, marvel=pb.MarvelCatalog(
        cards=[pb.MarvelCard(id=c.id, name=c.name, level=c.level, color=_wire.enum(pb.MarvelColor, c.color + 1),
                             points=c.points,
                             avengers=c.avengers, time_stone=c.time_stone, cost=WIRE.wire_tokens(c.cost))
               for c in spec.CARDS],
        locations=[pb.MarvelLocation(id=loc.id, name=loc.name, tile=loc.tile, side=loc.side, points=loc.points,
                                     requires=WIRE.wire_tokens(loc.requires)) for loc in spec.LOCATIONS],
    ))
