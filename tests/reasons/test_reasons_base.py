"""The reasons of the base game, code by code: a position built to show each one and one built
not to (docs/reasons.md). Every fact a test sees is checked by the brute-force verifier
(``reason_checks.seen``), and each claim shown is refuted when one of its subjects is changed.

Positions are hand-built from a deal (card_builders.py): cards, tokens and nobles moved where
a test needs them. Card ids and costs are those of the catalogue (docs/notation.md): 87 is a
black 4-point card costing 7 red, 7 a white 1-point card costing 4 green, and so on.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from card_builders import CardPositions
from reason_checks import gives, lacks, refuted, result_of, state_of
from splendor_ai.reasons import Reason

B = CardPositions("base")


def deal(nobles=(), seed=1, players=2) -> dict:
    pos = B.fresh(players, seed)
    pos["nobles"] = list(nobles)
    return pos


def last_turn(seat1_cards) -> dict:
    """Seat 1 plays the last turn (seat 0 has 15 points); card 87 (4 points) is face up and
    seat 1 can pay for it (red bonuses 2, four red tokens and a gold)."""
    p = deal()
    B.give_cards(p, 0, 73, 77, 81)
    B.give_cards(p, 1, *seat1_cards)
    B.on_board(p, 87, 0)
    B.give_tokens(p, 1, r=4, y=1)
    p.update(current=1, final_round=True)
    return state_of(p)


def threat(seat1_cards=(85, 63, 42, 59)) -> object:
    """Seat 0 to move; seat 1 (the last seat) has 11 points and can pay for card 87 (4 points):
    buying it ends the game with seat 1 ahead."""
    p = deal()
    B.give_cards(p, 1, *seat1_cards)
    B.give_cards(p, 0, 73)
    B.on_board(p, 87, 0)
    B.on_board(p, 71, 1)
    B.give_tokens(p, 1, r=4, y=1)
    return state_of(p)


# ---------------------------------------------------------------------------- game-deciding
def test_wins_game_on_the_last_turn():
    s = last_turn((85, 89, 63))  # 13 points: 87 brings 17 against 15
    r = gives(s, "buy 87", "WINS_GAME", points=17)
    refuted(s, "buy 87", replace(r, points=16))
    lacks(s, "take wug", "WINS_GAME")
    refuted(s, "take wug", Reason("WINS_GAME", points=17))


def test_no_win_when_the_buy_falls_short():
    s = last_turn((85, 63))  # 8 points: 87 brings 12 against 15
    lacks(s, "buy 87", "WINS_GAME")
    gives(s, "buy 87", "LOSES_GAME")


def test_loses_game_ends_the_game_behind():
    s = last_turn((85, 89, 63))
    gives(s, "take wug", "LOSES_GAME")
    lacks(s, "buy 87", "LOSES_GAME")
    refuted(s, "buy 87", Reason("LOSES_GAME"))


def test_triggers_the_final_round():
    p = deal()
    B.give_cards(p, 0, 85, 63, 76)  # 12 points, red bonuses 2
    B.on_board(p, 87, 0)
    B.give_tokens(p, 0, r=4, y=1)
    s = state_of(p)
    r = gives(s, "buy 87", "TRIGGERS_END", points=16)
    refuted(s, "buy 87", replace(r, points=15))
    lacks(s, "take wug", "TRIGGERS_END")
    p = deal()
    B.give_cards(p, 0, 85, 63)  # 8 points: 87 brings 12
    B.on_board(p, 87, 0)
    B.give_tokens(p, 0, r=4, y=1)
    lacks(state_of(p), "buy 87", "TRIGGERS_END")


def test_lets_the_next_seat_win_and_the_reserve_that_blocks_it():
    s = threat()
    r = gives(s, "take wug", "LETS_OPPONENT_WIN", seat=1, card=87)
    refuted(s, "take wug", replace(r, card=71))
    gives(s, "reserve 71", "LETS_OPPONENT_WIN", seat=1, card=87)
    lacks(s, "reserve 87", "LETS_OPPONENT_WIN")
    refuted(s, "reserve 87", r)
    gives(s, "reserve 87", "BLOCKS_OPPONENT_WIN", seat=1, card=87)
    lacks(s, "reserve 71", "BLOCKS_OPPONENT_WIN")
    refuted(s, "reserve 71", Reason("BLOCKS_OPPONENT_WIN", seat=1, card=71))


def test_no_win_to_block_when_the_card_would_not_win():
    s = threat(seat1_cards=(85, 63))  # 8 points: 87 brings 12, the game goes on
    lacks(s, "reserve 87", "BLOCKS_OPPONENT_WIN")
    gives(s, "reserve 87", "DENIES_CARD", seat=1, card=87)
    lacks(s, "take wug", "LETS_OPPONENT_WIN")
    refuted(s, "reserve 87", Reason("BLOCKS_OPPONENT_WIN", seat=1, card=87))


# ---------------------------------------------------------------------------- the next seat's cards
def test_denies_a_card_the_next_seat_can_buy():
    s = threat(seat1_cards=(85, 63))
    r = gives(s, "reserve 87", "DENIES_CARD", seat=1, card=87)
    refuted(s, "reserve 87", replace(r, seat=0))
    lacks(s, "reserve 71", "DENIES_CARD")  # seat 1 cannot pay for 71 (7 black)
    refuted(s, "reserve 71", Reason("DENIES_CARD", seat=1, card=71))


def test_an_opponent_can_buy_a_card_next_turn():
    s = threat(seat1_cards=(85, 63))
    r = gives(s, "take wug", "OPPONENT_CAN_BUY", seat=1, card=87, points=4)
    refuted(s, "take wug", replace(r, points=3))
    lacks(s, "reserve 87", "OPPONENT_CAN_BUY", card=87)
    refuted(s, "reserve 87", r)


# ---------------------------------------------------------------------------- nobles and points
def noble_position(whites: int) -> object:
    """Noble 9 needs 4 white and 4 blue; seat 0 holds ``whites`` white and 3 blue bonuses and
    can buy blue card 11."""
    p = deal(nobles=(9, 0, 1))
    B.give_cards(p, 0, *(0, 1, 2, 3)[:whites], 8, 9, 10)
    B.on_board(p, 11, 0)
    B.give_tokens(p, 0, k=2)
    return state_of(p)


def test_completes_a_noble():
    s = noble_position(4)
    r = gives(s, "buy 11", "COMPLETES_NOBLE", piece=9, points=3)
    refuted(s, "buy 11", replace(r, piece=0))
    lacks(noble_position(3), "buy 11", "COMPLETES_NOBLE")
    refuted(noble_position(3), "buy 11", r)


def test_comes_within_one_card_of_a_noble():
    s = noble_position(3)
    r = gives(s, "buy 11", "NEAR_NOBLE", piece=9, colour=0)
    refuted(s, "buy 11", replace(r, colour=1))
    lacks(noble_position(2), "buy 11", "NEAR_NOBLE")
    lacks(noble_position(4), "buy 11", "NEAR_NOBLE")  # completed, not near
    refuted(noble_position(2), "buy 11", r)


def test_scores_a_cards_points_and_a_chosen_noble():
    s = last_turn((85, 89, 63))
    r = gives(s, "buy 87", "SCORES", card=87, points=4, count=17)
    refuted(s, "buy 87", replace(r, count=16))
    p = deal()
    B.on_board(p, 16, 0)  # green, no points, costs 3 red
    B.give_tokens(p, 0, r=3)
    lacks(state_of(p), "buy 16", "SCORES")
    # two nobles qualify: the choice scores 3
    p = deal(nobles=(9, 8, 1))
    B.give_cards(p, 0, 0, 1, 2, 3, 8, 9, 10, 11, 32, 33, 34)  # w4 u4 k3: noble 9 qualifies
    B.on_board(p, 36, 1)
    B.give_tokens(p, 0, w=1, u=2, g=1, r=1)
    s = state_of(p)
    s.apply_action(s.string_to_action("buy 36"))  # k4: nobles 9 and 8 both qualify
    assert s.phase() == "noble"
    r = gives(s, "noble 8", "SCORES", piece=8, points=3)
    refuted(s, "noble 8", replace(r, piece=9))


def test_gains_a_bonus_colour_that_visible_cards_need():
    s = noble_position(3)
    r = gives(s, "buy 11", "NEEDED_BONUS", colour=1)
    refuted(s, "buy 11", replace(r, count=r.count + 1))
    p = deal()  # seven white bonuses: no card costs more white than that
    B.give_cards(p, 0, 0, 1, 2, 3, 4, 5, 6)
    B.on_board(p, 40, 0)  # white, costs 3 green 2 red 2 black
    B.give_tokens(p, 0, g=3, r=2, k=2)
    lacks(state_of(p), "buy 40", "NEEDED_BONUS")
    refuted(state_of(p), "buy 40", Reason("NEEDED_BONUS", colour=0, count=1))


# ---------------------------------------------------------------------------- tokens
def test_toward_a_card_affordable_next_turn():
    p = deal()
    B.on_board(p, 7, 0)  # 1 point, costs 4 green
    B.give_tokens(p, 0, y=2)  # two gold
    s = state_of(p)
    r = gives(s, "take gg", "TOWARD_CARD", card=7, turns=1)
    refuted(s, "take gg", replace(r, card=23))
    lacks(s, "take wur", "TOWARD_CARD", card=7)
    refuted(s, "take wur", r)
    r = gives(s, "take wug", "TOWARD_CARD", card=7, turns=2)  # one green and two gold: one more take
    refuted(s, "take wug", replace(r, turns=1))


def test_toward_a_card_the_game_ends_before():
    """Seat 1 (the last seat) qualifies for a second noble that visits at the end of its next
    turn and brings it to 15 points: the game ends before any later turn, so a card two turns
    away is not claimed."""
    p = deal(nobles=(9, 8))
    B.give_cards(p, 1, 0, 1, 2, 3, 8, 9, 10, 11, 32, 33, 34, 35, 85, 89)  # w4 u4 k4: both nobles; 10 points
    p["seats"][1]["nobles"] = [9]
    p["nobles"] = [8]
    B.on_board(p, 7, 0)
    p["current"] = 1
    s = state_of(p)
    lacks(s, "take wug", "TOWARD_CARD", card=7)
    refuted(s, "take wug", Reason("TOWARD_CARD", card=7, turns=2))
    refuted(s, "take wug", Reason("TOWARD_CARD", card=7, turns=3))


def test_passes_up_a_free_buy():
    p = deal()
    B.give_cards(p, 0, 32, 33, 34)  # three black bonuses
    B.on_board(p, 8, 0)  # blue, costs 3 black: free
    s = state_of(p)
    r = gives(s, "take wug", "PASSES_FREE_BUY", card=8)
    refuted(s, "take wug", replace(r, card=16))
    lacks(s, "buy 8", "PASSES_FREE_BUY")
    refuted(s, "buy 8", r)


def test_passes_up_a_better_buy():
    p = deal()
    B.on_board(p, 25, 0)  # red, 0 points, costs 5 tokens
    B.on_board(p, 7, 1)  # white, 1 point, costs 4 green
    B.give_tokens(p, 0, w=1, r=1, k=3, g=4)
    s = state_of(p)
    r = gives(s, "buy 25", "BETTER_BUY_PASSED", card=7, points=1)
    refuted(s, "buy 25", replace(r, points=2))
    lacks(s, "buy 7", "BETTER_BUY_PASSED")
    refuted(s, "buy 7", Reason("BETTER_BUY_PASSED", card=25, points=1))


def test_takes_the_last_tokens_of_a_colour_an_opponent_needs():
    p = deal()
    B.on_board(p, 5, 0)  # white, costs 3 blue
    B.give_tokens(p, 1, u=2)
    B.give_tokens(p, 0, u=1)  # one blue left in the supply
    s = state_of(p)
    r = gives(s, "take wug", "TAKES_LAST_TOKENS", colour=1, seat=1, card=5)
    refuted(s, "take wug", replace(r, colour=0))
    lacks(s, "take wgr", "TAKES_LAST_TOKENS")
    refuted(s, "take wgr", r)
    p = deal()
    B.on_board(p, 5, 0)
    B.give_tokens(p, 1, u=2)  # two blue left: one stays
    lacks(state_of(p), "take wug", "TAKES_LAST_TOKENS")
    refuted(state_of(p), "take wug", r)


def test_tokens_over_the_limit():
    p = deal()
    B.give_tokens(p, 0, w=2, u=2, g=2, r=2, k=1)  # 9
    s = state_of(p)
    r = gives(s, "take wug", "OVER_TOKEN_LIMIT", count=2)
    refuted(s, "take wug", replace(r, count=1))
    p = deal()
    B.give_tokens(p, 0, w=2, u=2, g=2, r=1)  # 7: 10 after
    lacks(state_of(p), "take wug", "OVER_TOKEN_LIMIT")
    refuted(state_of(p), "take wug", Reason("OVER_TOKEN_LIMIT", count=0))


def test_returns_the_least_needed_token():
    p = deal()
    B.on_board(p, 7, 0)  # costs 4 green
    B.give_tokens(p, 0, w=2, u=2, g=3, r=2)
    s = state_of(p)
    s.apply_action(s.string_to_action("take wgk"))  # w3 u2 g4 r2 k1: two to return
    assert s.phase() == "return"
    # one white less leaves two cards further away (68 and 77 cost 5 and 7 white); every
    # other colour more
    r = gives(s, "return w", "RETURNS_LEAST_NEEDED", colour=0, count=2)
    refuted(s, "return w", replace(r, count=1))
    for move in ("return u", "return g", "return r", "return k"):
        lacks(s, move, "RETURNS_LEAST_NEEDED")
    refuted(s, "return g", replace(r, colour=2))


# ---------------------------------------------------------------------------- what the search says
def test_the_search_choice_and_the_line_it_plans():
    p = deal()
    B.on_board(p, 7, 0)
    B.give_tokens(p, 0, y=2)
    s = state_of(p)
    result = result_of(s, [("take gg", 90, 0.61, ["take gg", "take wur", "buy 7"]),
                           ("take wug", 10, 0.40, ["take wug", "take ugr", "take wug"])])
    r = gives(s, "take gg", "SEARCH_BEST", result, count=61)
    refuted(s, "take gg", replace(r, count=60), result)
    lacks(s, "take wug", "SEARCH_BEST", result)
    refuted(s, "take wug", r, result)
    refuted(s, "take gg", r)  # without the result, nothing to say it
    r = gives(s, "take gg", "PLANS_BUY", result, card=7, turns=1)
    refuted(s, "take gg", replace(r, card=23), result)
    lacks(s, "take wug", "PLANS_BUY", result)
    refuted(s, "take wug", replace(r, card=7), result)


@pytest.mark.parametrize("players", [3, 4])
def test_the_next_seat_in_bigger_games(players):
    """With more seats only the next seat's turn is looked at: seat 1 here, whose buy of 87
    does not end the game (it is not the last seat)."""
    p = deal(players=players)
    B.give_cards(p, 1, 85, 63, 42, 59)
    B.on_board(p, 87, 0)
    B.give_tokens(p, 1, r=4, y=1)
    s = state_of(p)
    gives(s, "take wug", "OPPONENT_CAN_BUY", seat=1, card=87)
    lacks(s, "take wug", "LETS_OPPONENT_WIN")
    refuted(s, "take wug", Reason("LETS_OPPONENT_WIN", seat=1, card=87))


def test_works_toward_a_card_out_of_reach():
    p = deal()
    B.on_board(p, 87, 0)  # 4 points, costs 7 red: beyond three turns of takes from four red
    s = state_of(p)
    r = gives(s, "take wrk", "CLOSER_TO_CARD", card=87, count=6)
    refuted(s, "take wrk", replace(r, count=7))
    lacks(s, "take wrk", "TOWARD_CARD", card=87)
    lacks(s, "take wug", "CLOSER_TO_CARD", card=87)
    refuted(s, "take wug", replace(r, count=7))
