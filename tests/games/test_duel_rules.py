"""The rules of Splendor Duel, clause by clause (/work/shared/rules/duel.md).

Every test runs against both implementations (the ``impl`` fixture in conftest.py): the
readable reference and the compiled core must both pass all of them. Positions are built by
hand (tests/duel_builders.py) with every card, token, privilege and royal in one place.
"""
from __future__ import annotations

import random

import pytest

from duel_builders import act, counts, duel_position, load, moves
from splendor_ai.games import HiddenInformationError, IllegalActionError, NotationError, PositionError, load_game
from splendor_ai.games.duel import spec

W, U, G, R, K, P, Y = range(7)
# Royal ids (data/royals.csv): 3 points; 2 + extra turn; 2 + steal; 2 + privilege.
R_PLAIN, R_EXTRA, R_STEAL, R_PRIVILEGE = range(4)
FULL_BOARD = ["wugrk", "wugrk", "wugrk", "wugrk", "ppyyy"]
BLANK = [".y...", ".....", ".....", ".....", "....."]  # one gold: room for any seat tokens
SPARSE = ["wy...", ".....", ".....", ".....", "....."]


def privileges(state) -> tuple[int, int, int]:
    pos = state.to_position()
    return pos["privileges"], pos["seats"][0]["privileges"], pos["seats"][1]["privileges"]


def tokens(state, seat: int) -> list[int]:
    return state.to_position()["seats"][seat]["tokens"]


# ----------------------------------------------------------------------------- setup
def test_setup_deals_the_pyramid_the_spiral_and_one_privilege_to_the_second_player(impl):
    state = load_game("duel", 2, impl=impl).new_initial_state(7)
    pos = state.to_position()
    assert [len(r) for r in pos["pyramid"]] == [5, 4, 3] and pos["deck_sizes"] == [25, 20, 10]
    placed = [k for row in pos["board"] for k in row]
    assert sorted(placed) == sorted(k for k in range(7) for _ in range(spec.TOKEN_TOTALS[k]))
    assert pos["bag"] == [] and pos["bag_contents"] == [0] * 7
    assert (pos["privileges"], pos["seats"][0]["privileges"], pos["seats"][1]["privileges"]) == (2, 0, 1)
    assert pos["royals"] == [0, 1, 2, 3] and pos["current"] == 0 and pos["phase"] == "main"
    assert spec.SPIRAL[:2] == (spec.parse_cell("c3"), spec.parse_cell("c4"))
    assert spec.SPIRAL[-1] == spec.parse_cell("e5")


# ----------------------------------------------------------------------------- take tokens
LINE_BOARD = ["wyu..", "gggr.", "..r.k", "...r.", "pp..."]


def test_take_up_to_three_tokens_in_a_row_column_or_diagonal(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    legal = moves(state)
    for ok in ["take a2 b2 c2", "take b2 c3 d4", "take c2 c3", "take a5 b5", "take a1", "take a1 a2"]:
        assert ok in legal, ok
    with pytest.raises(NotationError):
        state.string_to_action("take a2 c2")  # not consecutive
    act(state, "take b2 c3 d4")
    assert tokens(state, 0)[:5] == [0, 0, 1, 2, 0] and state.current_player() == 1


def test_a_line_is_broken_by_gold_or_an_empty_cell(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    legal = moves(state)
    assert "take a1 b1 c1" not in legal and "take a1 b1" not in legal  # gold on b1
    assert "take c1 d1" not in legal and "take c3 d3 e3" not in legal  # d1, d3 empty
    with pytest.raises(IllegalActionError, match="gold and empty cells break it"):
        act(state, "take a1 b1 c1")


def test_three_of_one_colour_give_the_opponent_a_privilege(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    assert privileges(state) == (2, 0, 1)
    act(state, "take a2 b2 c2")
    assert privileges(state) == (1, 0, 2)


def test_both_pearls_give_the_opponent_a_privilege_one_pearl_does_not(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    act(state, "take a5 b5")
    assert privileges(state) == (1, 0, 2)
    state = load(impl, duel_position(board=LINE_BOARD))
    act(state, "take a5")
    assert privileges(state) == (2, 0, 1)


def test_a_privilege_comes_from_the_opponent_when_the_supply_is_empty_and_not_at_three(impl):
    state = load(impl, duel_position(board=LINE_BOARD, privileges=(0, 2, 1)))
    act(state, "take a2 b2 c2")  # seat 1 gains: the supply is empty, so from seat 0
    assert privileges(state) == (0, 1, 2)
    state = load(impl, duel_position(board=LINE_BOARD, privileges=(0, 0, 3)))
    act(state, "take a2 b2 c2")  # seat 1 already holds all 3
    assert privileges(state) == (0, 0, 3)


# ----------------------------------------------------------------------------- privileges
def test_a_privilege_takes_a_gem_or_pearl_from_any_cell_never_gold(impl):
    state = load(impl, duel_position(board=LINE_BOARD, privileges=(1, 2, 0)))
    legal = moves(state)
    assert "privilege a1" in legal and "privilege e3" in legal and "privilege a5" in legal
    assert "privilege b1" not in legal  # gold
    act(state, "privilege e3", "privilege a5")
    assert privileges(state) == (3, 0, 0) and state.current_player() == 0 and state.phase() == "main"
    assert tokens(state, 0)[K] == 1 and tokens(state, 0)[P] == 1
    assert not [m for m in moves(state) if m.startswith("privilege")]  # none left to use


def test_no_privilege_may_be_used_after_replenishing(impl):
    state = load(impl, duel_position(board=LINE_BOARD, privileges=(1, 1, 1)))
    assert "replenish" in moves(state)
    act(state, "replenish")
    assert state.phase() == "mandatory"
    assert not [m for m in moves(state) if m.startswith("privilege") or m == "replenish"]
    with pytest.raises(IllegalActionError, match="after replenishing"):
        act(state, "privilege a1")


# ----------------------------------------------------------------------------- replenish
def test_replenish_fills_empty_cells_in_spiral_order_and_the_opponent_gains_a_privilege(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    before = state.to_position()
    bag = before["bag"]
    assert bag and sum(before["bag_contents"]) == len(bag)
    act(state, "replenish")
    after = state.to_position()
    empty = [c for c in spec.SPIRAL if spec.board_kind(before, c) < 0]
    assert [spec.board_kind(after, c) for c in empty[:len(bag)]] == bag
    assert after["bag"] == [] and privileges(state) == (1, 0, 2)


def test_replenish_needs_a_non_empty_bag(impl):
    state = load(impl, duel_position(board=FULL_BOARD))
    assert state.to_position()["bag"] == [] and "replenish" not in moves(state)


def test_tokens_enter_the_bag_at_a_seeded_random_place(impl):
    """The replenish order is random: two seeds of the bag give two orders of one content."""
    orders = set()
    for seed in range(6):
        pos = duel_position(board=LINE_BOARD, tokens={0: "wwwuuugkkyy"}, phase="discard", bag_seed=seed)
        state = load(impl, pos)
        act(state, "discard w")
        orders.add(tuple(state.to_position()["bag"]))
        assert sorted(state.to_position()["bag"]) == sorted(pos["bag"] + [W])
    assert len(orders) > 1


# ----------------------------------------------------------------------------- forced replenish, pass
def _stuck(pearls_on_board: bool) -> dict:
    """Seat 0 (w4 u4 g2) can buy nothing and holds 3 reserves; seat 1 holds r4 k4 g2; the
    two pearls are on the board or in the bag; the three gold are on the board."""
    stuck = [c.id for c in spec.CARDS if spec.payment(c.cost, [0] * 5, counts("wwwwuuuuggpp")) is None]
    by_level = [[c for c in stuck if spec.CARDS[c].level == lv] for lv in (1, 2, 3)]
    pyramid = {}
    for lv in range(3):
        for s in range(spec.SLOTS[lv]):
            pyramid[spec.SLOT_OFFSET[lv] + s] = by_level[lv][s]
    board = ["pp...", ".....", "..y..", ".y...", "....y"] if pearls_on_board else \
        [".....", ".....", "..y..", ".y...", "....y"]
    return duel_position(board=board, tokens={0: "wwwwuuuugg", 1: "rrrrkkkkgg"}, pyramid=pyramid,
                         reserved={0: [(c, False) for c in by_level[0][5:8]]}, privileges=(0, 2, 1))


def test_forced_replenish_when_no_mandatory_action_is_possible(impl):
    state = load(impl, _stuck(pearls_on_board=False))
    assert moves(state) == ["replenish"]
    act(state, "replenish")
    pos = state.to_position()
    # The empty cells in spiral order are c4 (order 1) and b3 (order 3): c3 and b4 hold gold.
    assert [spec.board_kind(pos, spec.parse_cell(c)) for c in ("c4", "b3")] == [P, P]
    assert privileges(state) == (0, 1, 2)
    assert moves(state) == ["take b3", "take c4", "take b3 c4"]
    act(state, "take b3 c4")
    assert privileges(state) == (0, 0, 3)  # both pearls: seat 1 takes seat 0's last privilege


def test_pass_only_when_even_a_replenish_is_impossible(impl):
    state = load(impl, _stuck(pearls_on_board=True))
    assert "pass" not in moves(state)
    with pytest.raises(IllegalActionError, match="only legal when"):
        act(state, "pass")
    act(state, "privilege a1", "privilege b1")  # the last gems and pearls leave the board
    assert moves(state) == ["pass"]
    act(state, "pass")
    assert state.phase() == "discard" and state.current_player() == 0  # 12 tokens
    act(state, "discard p", "discard p")
    assert state.current_player() == 1 and state.to_position()["bag_contents"][P] == 2
    assert "replenish" in moves(state)


# ----------------------------------------------------------------------------- gold and reserve
def test_take_a_gold_then_reserve_face_up_or_blind(impl):
    pos = duel_position(board=LINE_BOARD)
    state = load(impl, pos)
    act(state, "gold b1")
    assert state.phase() == "reserve" and state.current_player() == 0 and tokens(state, 0)[Y] == 1
    top = pos["decks"][1][-1]
    act(state, "reserve deck2")
    seat = state.to_position()["seats"][0]
    assert seat["reserved"] == [{"card": top, "level": 2, "blind": True}] and state.current_player() == 1
    state = load(impl, pos)
    card = pos["pyramid"][2][1]
    act(state, "gold b1", f"reserve {card}")
    after = state.to_position()
    assert after["pyramid"][2][1] == pos["decks"][2][-1] and after["seats"][0]["reserved"][0]["card"] == card


def test_gold_needs_a_gold_on_the_board_and_fewer_than_three_reserves(impl):
    state = load(impl, duel_position(board=LINE_BOARD, reserved={0: [(0, False), (1, False), (2, True)]}))
    assert not [m for m in moves(state) if m.startswith("gold")]
    with pytest.raises(IllegalActionError, match="3 reserved"):
        act(state, "gold b1")
    state = load(impl, duel_position(board=["wugrk", "wugrk", "wugrk", "wugrk", "pp..."]))
    assert not [m for m in moves(state) if m.startswith("gold")]


# ----------------------------------------------------------------------------- buying
def test_buy_pays_cost_minus_bonuses_pearls_with_pearls_into_the_bag(impl):
    # card 33: white 2 points, take_privilege, cost w4 k2 p1; seat 0 owns a white card (bonus 1)
    state = load(impl, duel_position(board=BLANK, cards={0: [1]}, tokens={0: "wwwkkp"}, pyramid={5: 33}))
    bag_before = state.to_position()["bag_contents"]
    act(state, "buy 33")
    pos = state.to_position()
    assert 33 in pos["seats"][0]["cards"] and pos["seats"][0]["tokens"] == [0] * 7
    assert [a - b for a, b in zip(pos["bag_contents"], bag_before)] == [3, 0, 0, 0, 2, 1, 0]


def test_gold_replaces_any_gem_or_pearl_and_the_payment_is_the_players_choice(impl):
    state = load(impl, duel_position(board=BLANK, tokens={0: "wwwwkkpy"}, pyramid={5: 33}))
    legal = moves(state)
    assert "buy 33" in legal and "buy 33 pay wwwkkpy" in legal and "buy 33 pay wwwwkky" in legal
    act(state, "buy 33 pay wwwwkky")
    assert tokens(state, 0) == [0, 0, 0, 0, 0, 1, 0]
    state = load(impl, duel_position(board=BLANK, tokens={0: "wwwkky"}, pyramid={5: 33}))
    assert "buy 33" not in moves(state)  # one short of w4 k2 p1 with a single gold


def test_a_double_bonus_card_gives_two_bonuses(impl):
    state = load(impl, duel_position(board=BLANK, cards={0: [7]}, tokens={0: "uuuugg"}, pyramid={5: 31}))
    act(state, "buy 31")
    assert state.bonuses(0) == [2, 1, 0, 0, 0]


def test_buy_a_reserved_card(impl):
    state = load(impl, duel_position(board=BLANK, tokens={0: "uuu"}, reserved={0: [(3, True)]}))
    act(state, "buy 3")
    pos = state.to_position()
    assert pos["seats"][0]["reserved"] == [] and pos["seats"][0]["cards"] == [3]


# ----------------------------------------------------------------------------- abilities
def test_the_joker_needs_a_card_with_a_bonus_colour(impl):
    # card 26: joker, 1 point, cost k4 p1; card 29 has no colour (none)
    state = load(impl, duel_position(board=BLANK, cards={0: [29]}, tokens={0: "kkkkp"}, pyramid={0: 26}))
    assert "buy 26" not in moves(state)
    with pytest.raises(IllegalActionError, match="bonus colour"):
        act(state, "buy 26")


def test_the_joker_takes_one_of_the_owned_colours_for_good(impl):
    state = load(impl, duel_position(board=BLANK, cards={0: [1, 9]}, tokens={0: "kkkkp"}, pyramid={0: 26}))
    act(state, "buy 26")
    assert state.phase() == "joker" and state.current_player() == 0
    assert moves(state) == ["joker w", "joker u"]
    act(state, "joker u")
    pos = state.to_position()
    assert pos["seats"][0]["jokers"] == [{"card": 26, "color": U}] and state.bonuses(0) == [1, 2, 0, 0, 0]
    assert spec.color_points(pos["seats"][0]) == [0, 2, 0, 0, 0] and state.current_player() == 1


def test_take_token_is_compulsory_when_the_colour_is_on_the_board(impl):
    # card 0: white, take_token, cost r2 k2
    state = load(impl, duel_position(board=SPARSE, tokens={0: "rrkk"}, pyramid={0: 0}))
    act(state, "buy 0")
    assert state.phase() == "token" and moves(state) == ["token a1"]
    act(state, "token a1")
    assert tokens(state, 0)[W] == 1 and state.current_player() == 1
    board = ["..u..", ".....", ".....", ".....", "....."]  # no white on the board: ignored
    state = load(impl, duel_position(board=board, tokens={0: "rrkk"}, pyramid={0: 0}))
    act(state, "buy 0")
    assert state.current_player() == 1 and tokens(state, 0)[W] == 0


def test_take_privilege_ability(impl):
    state = load(impl, duel_position(board=BLANK, tokens={0: "wwwwkkp"}, pyramid={5: 33}, privileges=(0, 0, 3)))
    act(state, "buy 33")  # the supply is empty: from the opponent
    assert privileges(state) == (0, 1, 2)


def test_steal_a_gem_or_pearl_from_the_opponent(impl):
    # card 30: white, steal_token, cost u4 r3
    state = load(impl, duel_position(board=BLANK, tokens={0: "uuuurrr", 1: "py"}, pyramid={5: 30}))
    act(state, "buy 30")
    assert state.phase() == "steal" and moves(state) == ["steal p"]
    act(state, "steal p")
    assert tokens(state, 0)[P] == 1 and tokens(state, 1) == [0, 0, 0, 0, 0, 0, 1]


def test_no_steal_from_an_opponent_holding_only_gold(impl):
    state = load(impl, duel_position(board=BLANK, tokens={0: "uuuurrr", 1: "yy"}, pyramid={5: 30}))
    act(state, "buy 30")
    assert state.current_player() == 1 and tokens(state, 1)[Y] == 2
    with pytest.raises(IllegalActionError):
        state.apply_action(spec.STEAL + Y)


def test_extra_turn_the_same_seat_plays_a_new_turn(impl):
    # card 2: white, extra_turn, cost u2 g2 p1
    state = load(impl, duel_position(board=SPARSE, tokens={0: "uuggp"}, pyramid={0: 2}, privileges=(1, 1, 1)))
    turn = state.to_position()["turn"]
    act(state, "buy 2")
    pos = state.to_position()
    assert state.current_player() == 0 and pos["phase"] == "main" and pos["turn"] == turn + 1
    assert "privilege a1" in moves(state) and not pos["extra_turn"]
    act(state, "take a1")
    assert state.current_player() == 1


# ----------------------------------------------------------------------------- crowns and royals
def test_reaching_3_and_then_6_crowns_in_one_game_earns_two_royals(impl):
    # seat 0 owns crown cards 3 and 6 (1 crown each) and buys crown cards 11 (r3), 15 (k3),
    # 23 (w3, w2 with its white bonus), then the level-2 crown card 32 (g1 r1 k1 p1 net).
    board = ["wyu..", "ggg..", ".....", ".....", "gp..."]
    pos = duel_position(board=board, cards={0: [3, 6]}, tokens={0: "rrrrkkkkww"},
                        pyramid={0: 11, 1: 15, 2: 23, 5: 32})
    state = load(impl, pos)
    act(state, "buy 11")
    assert state.phase() == "royal" and moves(state) == ["royal 0", "royal 1", "royal 2", "royal 3"]
    act(state, "royal 3")  # 2 points and a privilege
    assert privileges(state) == (1, 1, 1) and state.points(0) == 2 and state.current_player() == 1
    act(state, "take c1", "buy 15", "take a1", "buy 23", "take b2", "take a5 b5", "take c2")
    assert state.crowns(0) == 5 and state.current_player() == 0
    act(state, "buy 32")
    assert state.phase() == "royal" and moves(state) == ["royal 0", "royal 1", "royal 2"]
    act(state, "royal 1")  # 2 points and an extra turn
    pos = state.to_position()
    assert pos["seats"][0]["royals"] == [R_EXTRA, R_PRIVILEGE] and pos["royals"] == [R_PLAIN, R_STEAL]
    assert state.current_player() == 0 and pos["phase"] == "main" and state.points(0) == 6


def test_royal_after_the_card_ability_and_its_own_ability(impl):
    # seat 0: 2 crowns (cards 3, 6); buys joker 25 (1 crown, cost w4 p1): joker colour first,
    # then the royal; the steal royal then takes a token from seat 1.
    pos = duel_position(board=BLANK, cards={0: [3, 6]}, tokens={0: "wwwwp", 1: "g"}, pyramid={0: 25})
    state = load(impl, pos)
    act(state, "buy 25")
    assert state.phase() == "joker"
    act(state, "joker w")
    assert state.phase() == "royal"
    act(state, "royal 2")
    assert state.phase() == "steal" and moves(state) == ["steal g"]
    act(state, "steal g")
    assert tokens(state, 0)[G] == 1 and state.current_player() == 1
    pos = state.to_position()
    assert pos["royals"] == [0, 1, 3] and pos["seats"][0]["royals"] == [2]


def test_the_second_royal_at_six_crowns(impl):
    # seat 0: 5 crowns (cards 3, 6, 11, 15, 23) and royal 3 for its first three; card 25's
    # crown makes 6: a second royal, the extra-turn one.
    pos = duel_position(board=BLANK, cards={0: [3, 6, 11, 15, 23]}, royals={0: [R_PRIVILEGE]},
                        tokens={0: "wwwwp"}, pyramid={0: 25}, privileges=(2, 0, 1))
    state = load(impl, pos)
    act(state, "buy 25", "joker u")
    assert moves(state) == ["royal 0", "royal 1", "royal 2"]
    act(state, "royal 1")
    pos = state.to_position()
    assert pos["seats"][0]["royals"] == [R_EXTRA, R_PRIVILEGE] and state.current_player() == 0
    assert pos["phase"] == "main" and state.points(0) == 4


# ----------------------------------------------------------------------------- end of turn
def test_tokens_above_ten_return_to_the_bag_gold_and_pearls_count(impl):
    state = load(impl, duel_position(board=LINE_BOARD, tokens={0: "wwwuuukkyy"}))
    act(state, "take a5 b5")
    assert state.phase() == "discard" and state.current_player() == 0
    assert moves(state) == ["discard w", "discard u", "discard k", "discard p", "discard y"]
    act(state, "discard y")
    assert state.phase() == "discard"
    act(state, "discard p")
    assert state.current_player() == 1 and sum(tokens(state, 0)) == 10


def test_victory_by_20_points(impl):
    # 6 + 5 + 3 (no colour) + 4 (white) = 18; card 37 (blue, 2 points, u4 w2 p1) makes 20
    pos = duel_position(board=BLANK, cards={0: [66, 53, 29, 55]}, tokens={0: "uuuuwwp"}, pyramid={5: 37})
    state = load(impl, pos)
    act(state, "buy 37")
    assert state.is_terminal() and state.returns() == [1.0, 0.0] and state.points(0) == 20
    assert state.legal_actions() == [] and state.current_player() == -1


def test_victory_by_10_crowns(impl):
    # jokers 64 (3 crowns), 50 and 51 (2 each) + crown cards 3 and 6: 9 crowns, two royals;
    # card 11 (1 crown, cost r3) makes 10
    pos = duel_position(board=BLANK, cards={0: [64, 50, 51, 3, 6]}, jokers={0: {64: W, 50: W, 51: U}},
                        royals={0: [R_PLAIN, R_STEAL]}, tokens={0: "rrr"}, pyramid={0: 11})
    state = load(impl, pos)
    act(state, "buy 11")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_victory_by_10_points_in_one_colour_a_joker_counting_in_its_colour(impl):
    # white cards 55, 54, 31, 4: 4 + 3 + 1 + 1 = 9 white points (and 2 crowns); joker 28
    # (1 point, cost w2 g2 k1 p1) makes 10 in white, not in blue (card 7).
    pos = duel_position(board=BLANK, cards={0: [55, 54, 31, 4, 7]}, tokens={0: "ggkp"}, pyramid={0: 28})
    state = load(impl, pos)
    act(state, "buy 28")
    assert not state.is_terminal()
    act(state, "joker w")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    state = load(impl, pos)
    act(state, "buy 28", "joker u")
    assert not state.is_terminal() and state.current_player() == 1


def test_a_win_ends_the_game_before_an_extra_turn(impl):
    # 17 points; the level-3 joker 65 (3 points, bonus_wild + extra_turn, cost r8) makes 20
    pos = duel_position(board=BLANK, cards={0: [66, 53, 29, 4, 9, 14, 43, 38]},
                        tokens={0: "rrrryy"}, pyramid={9: 65})
    state = load(impl, pos)
    assert state.points(0) == 6 + 5 + 3 + 1 + 1 + 1 + 1 + 1 and state.bonuses(0)[R] == 2
    act(state, "buy 65", "joker r")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    assert state.to_position()["extra_turn"] is False


# ----------------------------------------------------------------------------- invariants
def _conserved(pos: dict) -> None:
    board = [k for row in pos["board"] for k in row if k >= 0]
    held = [sum(s["tokens"][k] for s in pos["seats"]) for k in range(7)]
    for k in range(7):
        assert board.count(k) + held[k] + pos["bag_contents"][k] == spec.TOKEN_TOTALS[k]
    assert sum(pos["bag_contents"]) == len(pos["bag"])
    assert pos["privileges"] + sum(s["privileges"] for s in pos["seats"]) == 3
    cards = [c for row in pos["pyramid"] for c in row if c >= 0] + [c for d in pos["decks"] for c in d]
    for s in pos["seats"]:
        cards += s["cards"] + [r["card"] for r in s["reserved"]]
    assert sorted(cards) == list(range(67))
    assert sorted(pos["royals"] + pos["seats"][0]["royals"] + pos["seats"][1]["royals"]) == [0, 1, 2, 3]


def test_conservation_of_tokens_privileges_cards_and_royals_after_every_action(impl):
    rng = random.Random(9)
    game = load_game("duel", 2, impl=impl)
    for seed in range(6 if impl == "reference" else 40):
        state = game.new_initial_state(seed)
        steps = 0
        while not state.is_terminal() and steps < 400:
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            _conserved(state.to_position())


# ----------------------------------------------------------------------------- information
def test_a_view_hides_decks_blind_reserves_and_the_bag_order(impl):
    pos = duel_position(board=LINE_BOARD, reserved={1: [(40, True)], 0: [(41, False)]})
    state = load(impl, pos)
    view = state.view(0).to_position()
    assert view["decks"] is None and view["bag"] is None and view["bag_seed"] is None
    assert view["bag_contents"] == pos["bag_contents"]
    assert view["seats"][1]["reserved"] == [{"card": None, "level": 2, "blind": True}]
    with pytest.raises(HiddenInformationError):
        state.view(0).apply_action(spec.REPLENISH)
    full = state.view(0).resample(0, random.Random(1)).to_position()
    assert sorted(full["bag"]) == sorted(pos["bag"]) and full["seats"][1]["reserved"][0]["card"] is not None
    assert state.view(0).resample(0, random.Random(1)).view(0).to_position() == view


def test_resample_redraws_the_bag_order(impl):
    state = load(impl, duel_position(board=LINE_BOARD))
    orders = {tuple(state.resample(0, random.Random(s)).to_position()["bag"]) for s in range(5)}
    assert len(orders) > 1


# ----------------------------------------------------------------------------- notation, positions
def test_notation_of_every_move_form_round_trips(impl):
    board = [".y...", ".g...", "..r..", "...r.", "....."]
    state = load(impl, duel_position(board=board, tokens={0: "wwwwkkpy"}, pyramid={5: 33}, privileges=(1, 1, 1)))
    for text in ["privilege b2", "replenish", "take b2 c3 d4", "gold b1", "buy 33", "buy 33 pay wwwkkpy"]:
        assert state.action_to_string(state.string_to_action(text)) == text
    assert state.string_to_action("TAKE D4 B2 C3") == state.string_to_action("take b2 c3 d4")
    for bad in ["take f1", "take a0", "privilege", "gold a1 a2", "steal y", "joker p", "royal 4",
                "discard x", "buy 33 pay zz", "buy 33 pay w", "reserve 999", "reserve deck4"]:
        with pytest.raises(NotationError):
            state.string_to_action(bad)


@pytest.mark.parametrize("field, change", [
    ("board[0][0]", lambda p: p["board"][0].__setitem__(0, 9)),
    ("board", lambda p: p["board"].__setitem__(3, [0] * 5)),
    ("bag", lambda p: p["bag"].append(0)),
    ("privileges", lambda p: p.__setitem__("privileges", 3)),
    ("seats[1].tokens[6]", lambda p: p["seats"][1]["tokens"].__setitem__(6, 4)),
    ("royals", lambda p: p["royals"].pop()),
    ("pyramid[2][0]", lambda p: p["pyramid"][2].__setitem__(0, 0)),
    ("phase", lambda p: p.__setitem__("phase", "royal")),
    ("seats[0].jokers", lambda p: p["seats"][0]["cards"].append(p["decks"][0].pop(p["decks"][0].index(26)))
     or p["deck_sizes"].__setitem__(0, len(p["decks"][0]))),
    ("deck_sizes[0]", lambda p: p["deck_sizes"].__setitem__(0, 3)),
    ("players", lambda p: p.__setitem__("players", 3)),
    ("seats[0].royals", lambda p: p["seats"][0]["royals"].append(p["royals"].pop())),
])
def test_malformed_positions_name_the_field(impl, field, change):
    pos = duel_position(board=LINE_BOARD)
    change(pos)
    with pytest.raises(PositionError) as err:
        load_game("duel", 2, impl=impl).state_from_position(pos)
    assert err.value.field == field


def test_resample_does_not_depend_on_the_true_bag_order(impl):
    # The bag's order is hidden: a determinization must shuffle it from a canonical order, so
    # that two full positions differing only in it resample alike for the same seed.
    game = load_game("duel", impl=impl)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    while len(set(state.to_position()["bag"])) < 2:
        state.apply_action(rng.choice(state.search_actions()))
    pos = state.to_position()
    other = dict(pos, bag=list(reversed(pos["bag"])))
    assert other["bag"] != pos["bag"]
    a = game.state_from_position(pos).resample(0, random.Random(11)).to_position()
    b = game.state_from_position(other).resample(0, random.Random(11)).to_position()
    assert a == b
