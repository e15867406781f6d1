"""The rules of the base game, clause by clause (docs: /work/shared/rules/base.md).

Every test runs against both implementations (the ``impl`` fixture in conftest.py): the
readable reference and the compiled core must both pass all of them. Rule tests build their
positions by hand: a dealt position from ``spec.initial_position`` with cards and tokens
moved where the test needs them, conservation kept.
"""
from __future__ import annotations

import pytest

from builders import dead_position
from card_builders import CardPositions
from splendor_ai.games import (
    TERMINAL,
    IllegalActionError,
    NotationError,
    PositionError,
    load_game,
)
from splendor_ai.games.base import spec

CARDS = spec.CARDS
W, U, G, R, K, Y = range(6)
GEMS = {2: 4, 3: 5, 4: 7}


# ----------------------------------------------------------------------------- helpers
POSITIONS = CardPositions("base")
fresh, load, on_board, on_deck_top, give_cards, give_reserved, give_tokens, of_kind, act, random_playout_states = (
    POSITIONS.fresh, POSITIONS.load, POSITIONS.on_board, POSITIONS.on_deck_top, POSITIONS.give_cards,
    POSITIONS.give_reserved, POSITIONS.give_tokens, POSITIONS.of_kind, POSITIONS.act, POSITIONS.random_playout_states)


def card_points(cards) -> int:
    return sum(CARDS[c].points for c in cards)


def level3_deck_empty_position() -> dict:
    """4 players; card 76 (blue, 4 points, costs 7 white) face up in level-3 slot 0, and the
    level-3 deck empty: its cards are reserved (3 by seats 1-3, 2 by seat 0) or bought."""
    pos = fresh(4, seed=2)
    on_board(pos, 76, 0)
    rest = iter(list(pos["decks"][2]))
    for seat in (1, 2, 3):
        give_reserved(pos, seat, next(rest), next(rest), next(rest), blind=True)
    give_reserved(pos, 0, next(rest), next(rest))
    give_cards(pos, 0, next(rest))
    give_cards(pos, 1, next(rest), next(rest))
    give_cards(pos, 2, next(rest), next(rest))
    assert pos["deck_sizes"][2] == 0 and next(rest, None) is None
    return pos


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_counts(impl, players):
    # What both games deal alike (decks, board, seats, actions): test_cards_rules.py.
    pos = load_game("base", players=players, impl=impl).new_initial_state(seed=7).to_position()
    assert pos["supply"] == [GEMS[players]] * 5 + [5]
    assert len(pos["nobles"]) == len(set(pos["nobles"])) == players + 1


# ----------------------------------------------------------------------------- taking gems
def test_take_three_needs_three_different_colours(impl):
    s = load(impl, fresh(2))
    act(s, "take wug")
    assert s.to_position()["supply"] == [3, 3, 3, 4, 4, 5]
    with pytest.raises(NotationError):
        s.string_to_action("take wwu")
    with pytest.raises(NotationError):
        s.string_to_action("take wuy")  # never gold

    pos = fresh(2)
    give_tokens(pos, 1, w=4)  # white is empty, four colours left
    s = load(impl, pos)
    expected = [spec.TAKE3 + i for i, cs in enumerate(spec.TAKE3_SETS) if W not in cs]
    assert len(expected) == 4
    assert of_kind(s.legal_actions(), "take3") == expected
    assert of_kind(s.legal_actions(), "take2diff", "take1") == []  # 3+ colours: take 3
    for text in ("take wug", "take ug", "take u"):
        with pytest.raises(IllegalActionError):
            act(s, text)


def test_fewer_than_three_colours_allows_two_or_one(impl):
    pos = fresh(2)
    give_tokens(pos, 0, w=4, r=4)
    give_tokens(pos, 1, k=4)  # only blue and green are left, 4 each
    s = load(impl, pos)
    takes = of_kind(s.legal_actions(), "take3", "take2diff", "take1", "take2same")
    assert takes == sorted([
        spec.TAKE2_DIFF + spec.TAKE2_DIFF_SETS.index((U, G)),
        spec.TAKE1 + U,
        spec.TAKE1 + G,
        spec.TAKE2_SAME + U,
        spec.TAKE2_SAME + G,
    ])
    act(s, "take ug")
    p = s.to_position()
    assert p["seats"][0]["tokens"] == [4, 1, 1, 4, 0, 0]
    assert p["supply"] == [0, 3, 3, 0, 0, 5]
    # Seat 1: two colours of 3 tokens; one token alone is allowed too.
    takes = of_kind(s.legal_actions(), "take3", "take2diff", "take1", "take2same")
    assert takes == [spec.TAKE2_DIFF + spec.TAKE2_DIFF_SETS.index((U, G)), spec.TAKE1 + U, spec.TAKE1 + G]
    act(s, "take g")
    assert s.to_position()["seats"][1]["tokens"] == [0, 0, 1, 0, 4, 0]

    pos = fresh(2)
    give_tokens(pos, 0, w=4, u=4, g=1)
    give_tokens(pos, 1, r=4, k=4, g=1)  # only 2 green left
    s = load(impl, pos)
    assert of_kind(s.legal_actions(), "take3", "take2diff", "take1", "take2same") == [spec.TAKE1 + G]
    for text in ("take gr", "take gg", "take wgr"):
        with pytest.raises(IllegalActionError):
            act(s, text)
    act(s, "take g")
    assert s.to_position()["supply"][G] == 1


def test_take_two_same_needs_four_in_pile(impl):
    pos = fresh(2)
    give_tokens(pos, 1, r=1)  # red pile: 3
    s = load(impl, pos)
    assert of_kind(s.legal_actions(), "take2same") == [
        spec.TAKE2_SAME + c for c in (W, U, G, K)
    ]
    with pytest.raises(IllegalActionError):
        act(s, "take rr")
    act(s, "take ww")
    assert s.to_position()["supply"][W] == 2
    assert s.to_position()["seats"][0]["tokens"][W] == 2

    s = load(impl, fresh(4))  # 7 red: two seats may take 2, the third may not
    act(s, "take rr")
    act(s, "take rr")
    assert s.to_position()["supply"][R] == 3
    assert spec.TAKE2_SAME + R not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        act(s, "take rr")


# ----------------------------------------------------------------------------- reserving
def test_reserve_gives_gold_when_available(impl):
    pos = fresh(2)
    s = load(impl, pos)
    card, top2 = pos["board"][1][1], pos["decks"][1][-1]
    assert s.string_to_action(f"reserve {card}") == spec.RESERVE_BOARD + 5
    s.apply_action(spec.RESERVE_BOARD + 5)
    p = s.to_position()
    assert p["seats"][0]["reserved"] == [{"card": card, "level": 2, "blind": False}]
    assert p["seats"][0]["tokens"] == [0, 0, 0, 0, 0, 1]
    assert p["supply"][Y] == 4
    assert p["board"][1][1] == top2  # refilled at once from the top of its deck
    assert p["decks"][1] == pos["decks"][1][:-1] and p["deck_sizes"][1] == 25

    top3 = pos["decks"][2][-1]
    act(s, "reserve deck3")  # seat 1, blind
    p = s.to_position()
    assert p["seats"][1]["reserved"] == [{"card": top3, "level": 3, "blind": True}]
    assert p["seats"][1]["tokens"][Y] == 1 and p["supply"][Y] == 3
    assert p["deck_sizes"][2] == 15 and p["board"][2] == pos["board"][2]


def test_reserve_without_gold_left(impl):
    pos = fresh(2)
    give_tokens(pos, 1, y=5)
    s = load(impl, pos)
    legal = s.legal_actions()
    assert of_kind(legal, "reserve_board") == list(range(spec.RESERVE_BOARD, spec.RESERVE_BOARD + 12))
    assert of_kind(legal, "reserve_deck") == [42, 43, 44]
    card = pos["board"][0][0]
    s.apply_action(spec.RESERVE_BOARD)
    p = s.to_position()
    assert p["seats"][0]["reserved"] == [{"card": card, "level": 1, "blind": False}]
    assert p["seats"][0]["tokens"] == [0] * 6 and p["supply"][Y] == 0


def test_max_three_reserved(impl):
    pos = fresh(2)
    give_reserved(pos, 0, *pos["decks"][0][:3])
    s = load(impl, pos)
    assert of_kind(s.legal_actions(), "reserve_board", "reserve_deck") == []
    for a in (spec.RESERVE_BOARD, spec.RESERVE_DECK + 2):
        with pytest.raises(IllegalActionError):
            s.apply_action(a)
    act(s, "take wug")  # seat 1 has none reserved: may reserve
    assert len(of_kind(s.legal_actions(), "reserve_board", "reserve_deck")) == 15


def test_blind_reserve_from_empty_deck_impossible(impl):
    s = load(impl, level3_deck_empty_position())
    legal = s.legal_actions()
    assert of_kind(legal, "reserve_deck") == [spec.RESERVE_DECK, spec.RESERVE_DECK + 1]
    with pytest.raises(IllegalActionError):
        act(s, "reserve deck3")
    act(s, "reserve deck2")
    assert s.to_position()["seats"][0]["reserved"][-1]["blind"] is True


# ----------------------------------------------------------------------------- buying
def test_buy_uses_bonuses_then_gems_then_gold(impl):
    # Card 41: level 2, white, 1 point, costs w2 u3 r3. Seat 0 has a white bonus.
    pos = fresh(2)
    target = on_board(pos, 41, 1)
    give_cards(pos, 0, 0)
    give_tokens(pos, 0, w=2, u=2, r=3, y=1)
    top2 = pos["decks"][1][-1]
    s = load(impl, pos)
    a = s.string_to_action("buy 41")
    assert a == spec.buy_action(target, 0) and a in s.legal_actions()
    s.apply_action(a)
    p = s.to_position()
    # price w1 u3 r3: one white (bonus for the other), both blue + 1 gold, three red
    assert p["seats"][0]["tokens"] == [1, 0, 0, 0, 0, 0]
    assert p["supply"] == [3, 4, 4, 4, 4, 5]
    assert p["seats"][0]["cards"] == [0, 41]
    assert p["board"][1][1] == top2


def test_bonuses_reduce_price_never_below_zero(impl):
    pos = fresh(2)
    target = on_board(pos, 41, 0)
    give_cards(pos, 0, 0, 1, 2)  # three white bonuses against a cost of w2
    give_tokens(pos, 0, w=1, u=3, r=3)
    s = load(impl, pos)
    assert [a for a in of_kind(s.legal_actions(), "buy") if spec.split_buy(a)[0] == target] == [
        spec.buy_action(target, 0)
    ]
    act(s, "buy 41")
    p = s.to_position()
    assert p["seats"][0]["tokens"] == [1, 0, 0, 0, 0, 0]  # the white token is kept
    assert p["supply"] == [3, 4, 4, 4, 4, 5]


def test_unaffordable_card_cannot_be_bought(impl):
    pos = fresh(2)
    target = on_board(pos, 41, 0)
    give_tokens(pos, 0, w=2, u=2, r=3, y=0)  # one blue short, no gold
    s = load(impl, pos)
    assert not [a for a in of_kind(s.legal_actions(), "buy") if spec.split_buy(a)[0] == target]
    with pytest.raises(IllegalActionError):
        s.apply_action(spec.buy_action(target))


def test_buy_any_legal_payment_accepted(impl):
    pos = fresh(2)
    target = on_board(pos, 41, 1)
    give_cards(pos, 0, 0)
    give_tokens(pos, 0, w=2, u=3, r=3, y=2)  # price w1 u3 r3, two spare gold
    s = load(impl, pos)
    variants = sorted(
        spec.split_buy(a)[1] for a in of_kind(s.legal_actions(), "buy") if spec.split_buy(a)[0] == target
    )
    expected = sorted(
        spec.PAY_VARIANT_INDEX[(a, b, 0, c, 0)]
        for a in range(2) for b in range(4) for c in range(4) if a + b + c <= 2
    )
    assert variants == expected and len(expected) == 9
    a = s.string_to_action("buy 41 pay uuurryy")  # gold for the white and for one red
    assert spec.split_buy(a) == (target, spec.PAY_VARIANT_INDEX[(1, 0, 0, 1, 0)])
    assert s.action_to_string(a) == "buy 41 pay uuurryy"
    with pytest.raises(IllegalActionError):  # gold replacing a green: no green is paid
        s.apply_action(spec.buy_action(target, spec.PAY_VARIANT_INDEX[(0, 0, 1, 0, 0)]))
    with pytest.raises(NotationError):
        s.string_to_action("buy 41 pay wwuuurrr")  # not a payment of this card
    s.apply_action(a)
    p = s.to_position()
    assert p["seats"][0]["tokens"] == [2, 0, 0, 1, 0, 0]
    assert p["supply"] == [2, 4, 4, 3, 4, 5]
    assert p["seats"][0]["cards"] == [0, 41]


def test_gold_last_is_default_payment(impl):
    pos = fresh(2)
    target = on_board(pos, 41, 1)
    give_cards(pos, 0, 0)
    give_tokens(pos, 0, w=2, u=3, r=3, y=2)
    s = load(impl, pos)
    assert s.string_to_action("buy 41") == spec.buy_action(target, 0)
    assert s.action_to_string(spec.buy_action(target, 0)) == "buy 41"
    assert [a for a in of_kind(s.search_actions(), "buy") if spec.split_buy(a)[0] == target] == [
        spec.buy_action(target, 0)
    ]
    act(s, "buy 41")
    assert s.to_position()["seats"][0]["tokens"] == [1, 0, 0, 0, 0, 2]  # both gold kept


def test_buy_reserved_card_removes_it_from_reserve(impl):
    pos = fresh(2)
    give_reserved(pos, 0, 1, 5)  # card 5: white, costs u3
    give_reserved(pos, 0, 30, blind=True)
    give_tokens(pos, 0, u=3)
    s = load(impl, pos)
    a = s.string_to_action("buy 5")
    assert a == spec.buy_action(13) and a in s.legal_actions()
    s.apply_action(a)
    p = s.to_position()
    assert p["seats"][0]["cards"] == [5]
    assert p["seats"][0]["reserved"] == [
        {"card": 1, "level": 1, "blind": False},
        {"card": 30, "level": 1, "blind": True},
    ]
    assert p["board"] == pos["board"] and p["deck_sizes"] == pos["deck_sizes"]
    assert p["seats"][0]["tokens"] == [0] * 6 and p["supply"][U] == 4


def test_empty_deck_leaves_slot_empty(impl):
    pos = level3_deck_empty_position()
    give_tokens(pos, 0, w=7)
    s = load(impl, pos)
    act(s, "buy 76")
    p = s.to_position()
    assert p["board"][2][0] == -1 and p["deck_sizes"][2] == 0
    for _ in range(4):  # a full round later the slot is still empty and not a target
        assert not [a for a in of_kind(s.legal_actions(), "buy") if spec.split_buy(a)[0] == 8]
        assert spec.RESERVE_BOARD + 8 not in s.legal_actions()
        act(s, "take ugr")
    assert s.to_position()["board"][2][0] == -1

    s = load(impl, level3_deck_empty_position())
    card = pos["board"][2][1]
    s.apply_action(spec.RESERVE_BOARD + 9)
    p = s.to_position()
    assert p["board"][2][1] == -1
    assert p["seats"][0]["reserved"][-1] == {"card": card, "level": 3, "blind": False}


# ----------------------------------------------------------------------------- passing
def test_every_seat_passing_in_a_row_ends_the_game(impl):
    s = load(impl, dead_position())
    act(s, "pass")
    assert s.legal_actions() == [spec.PASS]  # seat 1 is stuck as well
    act(s, "pass")
    assert s.is_terminal() and s.current_player() == TERMINAL
    p = s.to_position()
    assert (p["phase"], p["passes"], p["turn"]) == ("over", 2, 2)
    assert s.returns() == [0.5, 0.5]  # 0 points and 0 cards each


def test_passes_count_consecutive_passed_turns(impl):
    s = load(impl, dead_position(seat1_reserved=2))
    act(s, "pass")
    assert s.to_position()["passes"] == 1
    s.apply_action(spec.RESERVE_DECK)  # seat 1 reserves: 11 tokens with the gold
    assert s.phase() == "return" and s.current_player() == 1
    assert s.to_position()["passes"] == 1  # counted when the turn ends
    act(s, "return y")
    p = s.to_position()
    assert (p["passes"], p["current"], p["phase"], p["turn"]) == (0, 0, "main", 2)


# ----------------------------------------------------------------------------- end of the turn
def test_return_tokens_above_ten_is_players_choice(impl):
    pos = fresh(2)
    give_tokens(pos, 0, w=2, u=2, g=2, r=2, y=1)
    s = load(impl, pos)
    act(s, "take wug")
    assert s.phase() == "return" and s.current_player() == 0
    assert s.legal_actions() == [spec.RETURN + k for k in (W, U, G, R, Y)]
    for bad in ("take rk", "return k", "pass"):
        with pytest.raises(IllegalActionError):
            act(s, bad)
    act(s, "return y")
    assert s.phase() == "return" and s.current_player() == 0
    act(s, "return w")  # a token just taken may go back
    p = s.to_position()
    assert (p["phase"], p["current"], p["turn"]) == ("main", 1, 1)
    assert p["seats"][0]["tokens"] == [2, 3, 3, 2, 0, 0]
    assert p["supply"] == [2, 1, 1, 2, 4, 5]


def test_gold_counts_towards_token_limit(impl):
    pos = fresh(2)
    give_tokens(pos, 0, w=2, u=2, g=2, r=2, k=2)
    s = load(impl, pos)
    s.apply_action(spec.RESERVE_BOARD)
    assert s.phase() == "return"
    assert s.legal_actions() == [spec.RETURN + k for k in (W, U, G, R, K, Y)]
    act(s, "return k")
    p = s.to_position()
    assert p["phase"] == "main" and p["current"] == 1
    assert p["seats"][0]["tokens"] == [2, 2, 2, 2, 1, 1]


def test_noble_visit_compulsory_and_automatic_when_one(impl):
    pos = fresh(2)
    pos["nobles"] = [9, 0, 1]  # 9 needs w4 u4
    give_cards(pos, 0, 0, 1, 2, 3, 12, 13, 14)  # bonuses w4 u3
    on_board(pos, 8, 0)  # blue, costs k3
    give_tokens(pos, 0, k=3)
    s = load(impl, pos)
    act(s, "buy 8")
    p = s.to_position()
    assert (p["phase"], p["current"]) == ("main", 1)
    assert p["nobles"] == [0, 1]
    assert p["seats"][0]["nobles"] == [9]
    assert spec.seat_points(p["seats"][0]) == 3


def test_nobles_count_bonuses_not_tokens(impl):
    pos = fresh(2)
    pos["nobles"] = [9, 0, 1]
    give_cards(pos, 0, 0, 1, 2, 3, 12, 13, 14)  # bonuses w4 u3
    give_tokens(pos, 0, u=3)
    s = load(impl, pos)
    act(s, "take ugr")
    p = s.to_position()
    assert p["nobles"] == [9, 0, 1] and p["seats"][0]["nobles"] == []


def test_noble_choice_when_several(impl):
    pos = fresh(2)
    pos["nobles"] = [9, 7, 0]  # 9: w4 u4, 7: w3 u3 g3, 0: r4 k4
    give_cards(pos, 0, 0, 1, 2, 3, 12, 13, 14, 16, 17, 18)  # bonuses w4 u3 g3
    on_board(pos, 8, 0)
    give_tokens(pos, 0, k=3)
    s = load(impl, pos)
    act(s, "buy 8")
    assert s.phase() == "noble" and s.current_player() == 0
    assert s.legal_actions() == [spec.NOBLE + 7, spec.NOBLE + 9]
    for bad in (spec.NOBLE + 0, spec.NOBLE + 3, spec.TAKE3):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    assert s.action_to_string(spec.NOBLE + 7) == "noble 7"
    act(s, "noble 7")
    p = s.to_position()
    assert p["seats"][0]["nobles"] == [7] and p["nobles"] == [9, 0]
    assert (p["phase"], p["current"], p["turn"]) == ("main", 1, 1)


def test_one_noble_per_turn_leftover_visits_later(impl):
    pos = fresh(2)
    pos["nobles"] = [9, 7, 0]
    give_cards(pos, 0, 0, 1, 2, 3, 12, 13, 14, 16, 17, 18)
    on_board(pos, 8, 0)
    give_tokens(pos, 0, k=3)
    s = load(impl, pos)
    act(s, "buy 8")
    act(s, "noble 9")
    assert s.to_position()["seats"][0]["nobles"] == [9]
    act(s, "take wug")  # seat 1
    assert s.to_position()["nobles"] == [7, 0]
    act(s, "take wug")  # seat 0's next turn ends: the leftover noble visits
    p = s.to_position()
    assert p["seats"][0]["nobles"] == [7, 9] and p["nobles"] == [0]  # owned: listed sorted
    assert p["current"] == 1 and p["phase"] == "main"


def test_noble_visits_at_end_of_a_pass_turn(impl):
    # bonuses w4 u4 (cards that do not make any stuck card affordable)
    pos = dead_position(seat0_cards=(0, 5, 7, 42, 8, 9, 15, 48))
    pos["nobles"] = [9, 0, 1]
    s = load(impl, pos)
    assert s.legal_actions() == [spec.PASS]
    act(s, "pass")
    p = s.to_position()
    assert p["seats"][0]["nobles"] == [9] and p["nobles"] == [0, 1]
    # a pass during which a noble visited is not a dead turn: it does not count as a pass
    assert (p["passes"], p["current"], p["turn"]) == (0, 1, 1)
    act(s, "pass")
    assert s.to_position()["passes"] == 1 and not s.is_terminal()


# ----------------------------------------------------------------------------- end of the game
def _fifteen_for(pos: dict, seat: int) -> None:
    """Seat holds 14 points (77, 81, 79) and can reach 15 by buying card 7 (1 point, costs g4,
    price g2 with the two green bonuses) from level-1 slot 0."""
    give_cards(pos, seat, 77, 81, 79)
    on_board(pos, 7, 0)
    give_tokens(pos, seat, g=2)


def test_end_after_round_when_15_reached(impl):
    pos = fresh(3)
    _fifteen_for(pos, 0)
    s = load(impl, pos)
    act(s, "buy 7")
    p = s.to_position()
    assert p["final_round"] is True and spec.seat_points(p["seats"][0]) == 15
    assert (p["phase"], p["current"]) == ("main", 1) and not s.is_terminal()
    act(s, "take wug")
    assert not s.is_terminal() and s.current_player() == 2
    act(s, "take wug")
    assert s.is_terminal() and s.current_player() == TERMINAL and s.phase() == "over"
    assert s.legal_actions() == []
    assert s.returns() == [1.0, 0.0, 0.0]
    assert s.to_position()["turn"] == 3
    with pytest.raises(IllegalActionError):
        s.apply_action(spec.TAKE3)


@pytest.mark.parametrize(
    "players,start_seat,current,ends_now",
    [(2, 0, 1, True), (2, 0, 0, False), (3, 1, 0, True), (3, 1, 2, False), (4, 2, 1, True)],
)
def test_last_seat_reaching_15_ends_immediately(impl, players, start_seat, current, ends_now):
    pos = fresh(players)
    pos["start_seat"], pos["current"] = start_seat, current
    _fifteen_for(pos, current)
    s = load(impl, pos)
    act(s, "buy 7")
    assert s.is_terminal() is ends_now
    if ends_now:
        assert s.returns() == [1.0 if i == current else 0.0 for i in range(players)]
    else:
        assert s.current_player() == (current + 1) % players
        while not s.is_terminal():  # the others finish the round
            act(s, "take wug")
        assert s.to_position()["current"] == (start_seat - 1) % players
        assert s.returns() == [1.0 if i == current else 0.0 for i in range(players)]


def test_returns_zero_until_over(impl):
    for s, a in random_playout_states(impl, 2, seed=3):
        if a is not None:
            assert s.returns() == [0.0, 0.0]
    assert sum(s.returns()) == pytest.approx(1.0)


def _tie_position(extra_card_for_seat1: bool) -> dict:
    pos = fresh(2)
    _fifteen_for(pos, 0)  # seat 0: 15 points with 4 cards
    give_cards(pos, 1, 85, 89)  # seat 1: 10 points, bonuses r1 k1
    if extra_card_for_seat1:
        give_cards(pos, 1, 34)  # black, 0 points
    on_board(pos, 73, 0)  # white, 5 points, costs w3 k7
    give_tokens(pos, 1, w=3, k=4, y=2)
    return pos


def test_tie_break_fewest_cards(impl):
    s = load(impl, _tie_position(extra_card_for_seat1=False))
    act(s, "buy 7")
    act(s, "buy 73")
    p = s.to_position()
    assert [spec.seat_points(x) for x in p["seats"]] == [15, 15]
    assert [len(x["cards"]) for x in p["seats"]] == [4, 3]
    assert s.is_terminal() and s.returns() == [0.0, 1.0]


def test_shared_win_splits_returns(impl):
    s = load(impl, _tie_position(extra_card_for_seat1=True))
    act(s, "buy 7")
    act(s, "buy 73")
    p = s.to_position()
    assert [spec.seat_points(x) for x in p["seats"]] == [15, 15]
    assert [len(x["cards"]) for x in p["seats"]] == [4, 4]
    assert s.is_terminal() and s.returns() == [0.5, 0.5]


# ----------------------------------------------------------------------------- errors, notation
def test_rejected_action_leaves_state_unchanged(impl):
    # The actions both games reject alike: test_cards_rules.py. Then a take is still playable,
    # and in the return phase only a return of a held kind is.
    pos = fresh(2)
    give_tokens(pos, 1, u=4, r=1)  # blue empty, red 3
    s = load(impl, pos)
    with pytest.raises(IllegalActionError):
        act(s, "take wug")
    act(s, "take wgr")  # still playable
    assert s.to_position()["seats"][0]["tokens"] == [1, 0, 1, 1, 0, 0]

    pos = fresh(2)
    give_tokens(pos, 0, w=4, u=4, g=2)
    s = load(impl, pos)
    act(s, "take grk")
    assert s.phase() == "return"
    before = s.to_position()
    for action in (spec.TAKE3, spec.RETURN + Y, spec.PASS, spec.buy_action(0)):
        with pytest.raises(IllegalActionError):
            s.apply_action(action)
        assert s.to_position() == before


# ----------------------------------------------------------------------------- invariants
def _check_invariants(s, players: int, initial_nobles: list[int]) -> None:
    p = POSITIONS.check_invariants(s, [GEMS[players]] * 5 + [5])
    taken = [n for x in p["seats"] for n in x["nobles"]]
    assert sorted(p["nobles"] + taken) == sorted(initial_nobles)
    for x in p["seats"]:
        assert spec.seat_points(x) == card_points(x["cards"]) + 3 * len(x["nobles"])
    if s.is_terminal():
        assert sum(s.returns()) == pytest.approx(1.0)


def test_conservation_invariants_random_games(impl):
    games = 0
    for players in (2, 3, 4):
        for seed in range(16 if players == 2 else 17):
            initial = spec.initial_position(players, seed)["nobles"]
            for s, _ in random_playout_states(impl, players, seed, buy_bias=0.5 if seed % 2 else 0.0):
                _check_invariants(s, players, initial)
            games += 1
    assert games == 50


def test_legal_buys_are_exactly_the_possible_payments(impl):
    for seed in range(4):
        for step, (s, _) in enumerate(random_playout_states(impl, 2 + seed % 3, seed=200 + seed)):
            if s.phase() != "main" or step % 2:
                continue
            p = s.to_position()
            seat = p["seats"][p["current"]]
            bonus = spec.bonuses(seat["cards"])
            expected = []
            for target in range(spec.BUY_TARGETS):
                cid = spec.buy_target_card(p, target)
                if cid is None:
                    continue
                expected += [
                    spec.buy_action(target, v) for v in range(spec.N_PAY)
                    if spec.payment(CARDS[cid].cost, bonus, seat["tokens"], v) is not None
                ]
            assert of_kind(s.legal_actions(), "buy") == sorted(expected)


# ----------------------------------------------------------------------------- positions
def _dup_board_card_in_seat(p):
    p["seats"][0]["cards"].append(p["board"][0][0])


def _dup_board_card_in_deck(p):
    p["decks"][0].insert(0, p["board"][0][2])
    p["deck_sizes"][0] += 1


def _too_many_tokens(p):
    p["seats"][0]["tokens"][W] = 5  # 2 players: 4 white in the game


def _tokens_not_conserved(p):
    p["seats"][1]["tokens"][R] = 2  # the supply still holds all 4


def _four_reserved(p):
    give_reserved(p, 0, *p["decks"][0][:4])


def _hidden_card_in_full_position(p):
    p["seats"][1]["reserved"].append({"card": None, "level": 1, "blind": True})


def _noble_without_bonuses(p):
    p["seats"][1]["nobles"].append(p["nobles"].pop())


def _final_round_without_15(p):
    p["final_round"] = True


def _return_phase_with_few_tokens(p):
    p["phase"] = "return"


def _card_of_wrong_level(p):
    p["board"][1][0], p["board"][0][0] = p["board"][0][0], p["board"][1][0]


def _deck_size_mismatch(p):
    p["deck_sizes"][2] = 15


def _missing_key(p):
    del p["supply"]


@pytest.mark.parametrize(
    "mutate,field",
    [
        (_dup_board_card_in_seat, "seats[0].cards[0]"),
        (_dup_board_card_in_deck, "decks[0][0]"),
        (_too_many_tokens, "seats[0].tokens[0]"),
        (_tokens_not_conserved, "supply[3]"),
        (_four_reserved, "seats[0].reserved"),
        (lambda p: p.update(current=2), "current"),
        (lambda p: p.update(start_seat=-1), "start_seat"),
        (lambda p: p.update(observer=5), "observer"),
        (lambda p: p.update(phase="setup"), "phase"),
        (lambda p: p.update(players=5), "players"),
        (lambda p: p.update(turn="3"), "turn"),
        (_hidden_card_in_full_position, "seats[1].reserved[0].card"),
        (_noble_without_bonuses, "seats[1].nobles[0]"),
        (_final_round_without_15, "final_round"),
        (_return_phase_with_few_tokens, "phase"),
        (_card_of_wrong_level, "board[0][0]"),
        (_deck_size_mismatch, "deck_sizes[2]"),
        (_missing_key, "supply"),
        (lambda p: p.update(decks=None), "decks"),
    ],
)
def test_position_validation_errors_name_the_field(impl, mutate, field):
    pos = fresh(2)
    mutate(pos)
    with pytest.raises(PositionError) as err:
        load_game("base", players=2, impl=impl).state_from_position(pos)
    assert err.value.field == field


def test_position_for_another_player_count_rejected(impl):
    with pytest.raises(PositionError) as err:
        load_game("base", players=3, impl=impl).state_from_position(fresh(2))
    assert err.value.field == "players"
