"""Requests that are too big or too long are refused or bounded before they cost much (issue 48)."""
import pytest
from splendor.v1 import splendor_pb2 as pb

from splendor_ai.service import convert
from splendor_ai.service.errors import FieldError


@pytest.mark.parametrize("game,n,allowed", [("base", 10002, "2-4"), ("base", 1, "2-4"), ("marvel", 5, "2-4"),
                                             ("duel", 3, "2")])
def test_a_position_with_too_many_seats_is_refused_naming_the_seat_count(game, n, allowed):
    msg = pb.Position()
    part = getattr(msg, game)
    for _ in range(n):
        part.seats.add()  # no tokens: a per-seat check would name seats[0].tokens
    with pytest.raises(FieldError) as err:
        convert.decode_position(msg)
    assert err.value.field == f"position.{game}.seats"
    assert str(err.value) == f"position.{game}.seats: {n} seats; this game has {allowed}"
