"""apply_with_outcome: moves that draw a card the view does not know ("the frontend deals")."""
import copy
import random

import pytest

from splendor_ai.games import HiddenInformationError, IllegalActionError, PositionError, load_game
from splendor_ai.games.base import spec
from splendor_ai.games.chance import apply_with_outcome

from builders import base_position


def state_of(impl, pos):
    return load_game("base", pos["players"], impl=impl).state_from_position(pos)


def with_on_top(pos, level, card):
    """The full position with `card` (now in the deck of `level`) moved to that deck's top."""
    pos = copy.deepcopy(pos)
    deck = pos["decks"][level - 1]
    i = deck.index(card)
    deck[i], deck[-1] = deck[-1], deck[i]
    return pos


def test_full_state_plays_as_is_and_refuses_a_drawn_card(impl):
    state = state_of(impl, spec.initial_position(2, 3))
    reserve = state.string_to_action(f"reserve {state.to_position()['board'][0][0]}")
    after = apply_with_outcome(state, reserve)
    expected = state.clone()
    expected.apply_action(reserve)
    assert after.to_position() == expected.to_position()
    assert state.to_position() == spec.initial_position(2, 3)  # unchanged
    with pytest.raises(PositionError) as err:
        apply_with_outcome(state, reserve, drawn_card=5)
    assert err.value.field == "drawn_card"


def test_view_move_without_a_draw_needs_no_card(impl):
    view = state_of(impl, spec.initial_position(2, 3)).view(0)
    take = view.string_to_action("take wug")
    after = apply_with_outcome(view, take)
    assert after.to_position()["observer"] == 0
    assert after.to_position()["seats"][0]["tokens"] == [1, 1, 1, 0, 0, 0]
    with pytest.raises(PositionError) as err:
        apply_with_outcome(view, take, drawn_card=5)
    assert err.value.field == "drawn_card"


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("move", ["reserve board", "reserve deck1", "reserve deck3", "buy board"])
def test_drawn_card_gives_the_view_of_the_real_deal(impl, seed, move):
    """Playing a view with the card that is really on top of the deck gives exactly the
    view of the position the full game reaches."""
    rng = random.Random(seed)
    pos = base_position(2, seed, tokens={0: [2, 2, 2, 2, 2, 0]})
    view = state_of(impl, pos).view(0)
    level = {"reserve board": 1, "reserve deck1": 1, "reserve deck3": 3, "buy board": 1}[move]
    unseen = spec.unseen_cards(view.to_position(), 0)[level - 1]
    drawn = rng.choice(unseen)
    full = state_of(impl, with_on_top(pos, level, drawn))
    if move.startswith("reserve deck"):
        action = full.string_to_action(move)
    elif move == "reserve board":
        action = full.string_to_action(f"reserve {pos['board'][0][rng.randrange(4)]}")
    else:
        buys = [a for a in (full.string_to_action(f"buy {c}") for c in pos["board"][0])
                if a in full.legal_actions()]
        assert buys, "no level-1 card affordable with two of each colour"
        action = buys[0]
    expected = full.clone()
    expected.apply_action(action)
    with pytest.raises(HiddenInformationError):
        apply_with_outcome(view, action)
    got = apply_with_outcome(view, action, drawn_card=drawn, rng=random.Random(seed))
    assert got.to_position() == expected.view(0).to_position()
    assert type(got) is type(view)


def test_blind_reserve_of_the_observer_shows_the_drawn_card(impl):
    view = state_of(impl, spec.initial_position(2, 4)).view(0)
    drawn = spec.unseen_cards(view.to_position(), 0)[1][0]
    after = apply_with_outcome(view, view.string_to_action("reserve deck2"), drawn_card=drawn)
    assert after.to_position()["seats"][0]["reserved"] == [{"card": drawn, "level": 2, "blind": True}]
    assert after.to_position()["deck_sizes"][1] == view.to_position()["deck_sizes"][1] - 1


def test_drawn_card_may_be_one_another_seat_holds_hidden(impl):
    """From seat 0's view, a card seat 1 reserved blind is unseen: it may be the one drawn
    (the view cannot tell where an unseen card is); seat 1's reserve stays hidden."""
    pos = base_position(2, 5, reserved={1: [(3, True)]})
    view = state_of(impl, pos).view(0)
    assert view.to_position()["seats"][1]["reserved"][0]["card"] is None
    after = apply_with_outcome(view, view.string_to_action("reserve deck1"), drawn_card=3)
    out = after.to_position()
    assert out["seats"][0]["reserved"] == [{"card": 3, "level": 1, "blind": True}]
    assert out["seats"][1]["reserved"] == [{"card": None, "level": 1, "blind": True}]
    spec.validate_position(out)


def test_drawn_card_of_the_wrong_level_or_already_seen_is_refused(impl):
    pos = spec.initial_position(2, 6)
    view = state_of(impl, pos).view(0)
    reserve = view.string_to_action(f"reserve {pos['board'][0][1]}")
    wrong_level = spec.unseen_cards(view.to_position(), 0)[1][0]
    on_board = pos["board"][0][2]
    for bad in (wrong_level, on_board, 999, -1, True):
        with pytest.raises(PositionError) as err:
            apply_with_outcome(view, reserve, drawn_card=bad)
        assert err.value.field == "drawn_card", bad


def test_illegal_move_is_illegal_whatever_the_card(impl):
    pos = spec.initial_position(2, 7)
    view = state_of(impl, pos).view(0)
    unaffordable = view.string_to_action(f"buy {pos['board'][2][0]}")  # no tokens, no bonuses
    drawn = spec.unseen_cards(pos, 0)[2][0]
    with pytest.raises(IllegalActionError):
        apply_with_outcome(view, unaffordable, drawn_card=drawn)


def test_a_view_that_does_not_know_the_movers_cards_cannot_play_for_it(impl):
    pos = base_position(2, 8, reserved={1: [(3, True)]}, current=1)
    view = state_of(impl, pos).view(0)
    with pytest.raises(PositionError) as err:
        apply_with_outcome(view, view.string_to_action("reserve deck1"), drawn_card=5)
    assert err.value.field == "observer"
