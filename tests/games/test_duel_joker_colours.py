"""A Duel joker's colour in a position: the gem's index 0..4 (the normalised form) or its
letter, as the move `joker u` names it (docs/duel.md)."""
import copy

import pytest

from duel_builders import duel_position
from splendor_ai.games import PositionError, load_game
from splendor_ai.games.duel import spec
from splendor_ai.records import make_record, replay
from splendor_ai.service import convert
from splendor_ai.service.errors import FieldError

JOKER = next(c.id for c in spec.CARDS if c.color == spec.JOKER)
BLUE = next(c.id for c in spec.CARDS if c.color == 1 and c.level == 1)


def _with_joker(colour) -> dict:
    pos = duel_position(cards={0: [JOKER, BLUE]}, jokers={0: {JOKER: 1}})
    out = copy.deepcopy(pos)
    out["seats"][0]["jokers"][0]["color"] = colour
    return out


@pytest.mark.parametrize("colour", ["u", "U", " u "])
def test_a_letter_is_the_gem_index(colour):
    by_index = spec.validate_position(_with_joker(1))
    by_letter = spec.validate_position(_with_joker(colour))
    assert by_letter == by_index and by_letter["seats"][0]["jokers"] == [{"card": JOKER, "color": 1}]
    state = load_game("duel").state_from_position(_with_joker(colour))
    assert state.to_position()["seats"][0]["jokers"] == [{"card": JOKER, "color": 1}]


@pytest.mark.parametrize("colour, why", [
    ("p", "its letter (w u g r k)"), ("blue", "got 'blue'"), ("", "got ''"), (5, "0..4"), (-1, "0..4"),
    (True, ""), (None, ""),
])
def test_anything_else_is_refused_naming_the_field(colour, why):
    with pytest.raises(PositionError) as exc:
        spec.validate_position(_with_joker(colour))
    assert exc.value.field == "seats[0].jokers[0].color" and why in str(exc.value)


def test_a_record_may_give_its_jokers_letters():
    pos = _with_joker("u")
    record = make_record("duel", 2, initial_position=pos)
    assert replay(record)[0].to_position()["seats"][0]["jokers"] == [{"card": JOKER, "color": 1}]


def test_the_wire_carries_the_index_and_a_bad_one_names_its_field():
    # DuelJoker.color is an int32 on the wire (0..4); the letter is for position dictionaries.
    message = convert.encode_position(load_game("duel").state_from_position(_with_joker("k")))
    assert [(j.card, j.color) for j in message.duel.seats[0].jokers] == [(JOKER, 4)]
    message.duel.seats[0].jokers[0].color = 7
    with pytest.raises((PositionError, FieldError)) as exc:
        convert.decode_position(message)
    assert "seats[0].jokers[0].color" in str(exc.value) and "0..4" in str(exc.value)
