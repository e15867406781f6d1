"""The base game on the wire: BasePosition, BaseMove and BaseCatalog, both ways (the shape it
shares with Marvel is convert_cards.CardGameWire; this module adds the catalogue)."""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from ..games.base import spec
from .convert_cards import CardGameWire

GAME = "base"
NAME = "Splendor"
TOKEN_FIELDS = ("white", "blue", "green", "red", "black", "gold")

WIRE = CardGameWire(spec, NAME, "base", TOKEN_FIELDS, pb.BasePosition, pb.BaseSeat, pb.BaseMove, pb.Tokens,
                    seat_extra=lambda p, i: {"points": spec.seat_points(p["seats"][i])})
proto_path = WIRE.proto_path
decode = WIRE.decode
structured_notation = WIRE.structured_notation


def encode(p: dict) -> pb.Position:
    return WIRE.encode(p, pb)


def encode_move(position: dict, action: int) -> pb.Move:
    return WIRE.encode_move(position, action, pb)


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_BASE, base=pb.BaseCatalog(
        cards=[pb.Card(id=c.id, level=c.level, color=c.color + 1, points=c.points, cost=WIRE.wire_tokens(c.cost))
               for c in spec.CARDS],
        nobles=[pb.Noble(id=n.id, points=n.points, requires=WIRE.wire_tokens(n.requires)) for n in spec.NOBLES],
    ))
