"""The base game on the wire: BasePosition, BaseMove and BaseCatalog, both ways (the shape it
shares with Marvel is convert_cards.CardGameWire; this module adds the catalogue)."""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from ..games.base import spec
from . import _wire
from .convert_cards import CardGameWire

WIRE = CardGameWire(spec, "Splendor", pb, "base", ("white", "blue", "green", "red", "black", "gold"),
                    pb.BasePosition, pb.BaseSeat, pb.BaseMove, pb.Tokens,
                    seat_extra=lambda p, i: {"points": spec.seat_points(p["seats"][i])})
# What convert.py calls on every game's converter, named here:
GAME, NAME = WIRE.spec.GAME, WIRE.name
proto_path = WIRE.proto_path
decode = WIRE.decode
encode = WIRE.encode
encode_move = WIRE.encode_move
structured_notation = WIRE.structured_notation


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_BASE, base=pb.BaseCatalog(
        cards=[pb.Card(id=c.id, level=c.level, color=_wire.enum(pb.Color, c.color + 1), points=c.points,
                       cost=WIRE.wire_tokens(c.cost))
               for c in spec.CARDS],
        nobles=[pb.Noble(id=n.id, points=n.points, requires=WIRE.wire_tokens(n.requires)) for n in spec.NOBLES],
    ))
