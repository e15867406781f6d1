"""The reasons of Splendor Duel, code by code: a position built to show each one and one built
not to (docs/reasons.md). Duel's own: three victories (20 points, 10 crowns, 10 points in one
colour), royal cards, privileges given and gained, extra turns, a board of tokens the opponent
can take with its privileges before it buys. Every fact a test sees is checked by the
brute-force verifier, and each claim shown is refuted when one of its subjects is changed.

Positions are hand-built (duel_builders.py): boards as five rows of token letters (``.`` an
empty cell; cells a1..e5, column letter then row from the top).
"""
from __future__ import annotations

from dataclasses import replace

from duel_builders import duel_position
from reason_checks import gives, lacks, refuted, result_of, state_of
from splendor_ai.reasons import Reason

W, U, G, R, K, P = range(6)
def act(state, *moves):
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


# ---------------------------------------------------------------------------- victories
def test_wins_game_by_points_crowns_or_a_colour():
    # 19 points in cards of no colour or few points each; card 19 (red, 1 point) costs w2 u3
    s = state_of(duel_position(cards={0: [66, 53, 29, 59, 9]}, tokens={0: "wwuu"}, pyramid={0: 19},
                               board=["ugrk.", "gr...", ".....", "pp...", "y...."]))
    r = gives(s, "buy 19", "WINS_GAME", points=20)
    refuted(s, "buy 19", replace(r, points=21))
    lacks(s, "take a1", "WINS_GAME")
    refuted(s, "take a1", r)
    # nine crowns and both royals: card 6 (blue, a crown, costs 3 green) makes ten
    s = state_of(duel_position(cards={0: [54, 56, 58, 60, 3]}, royals={0: [0, 3]}, tokens={0: "ggg"}, pyramid={1: 6},
                               board=["wurk.", "wurk.", "k....", "pp...", "y...."]))
    gives(s, "buy 6", "WINS_GAME", count=10)
    # nine points of red: card 44 (red, 2 points) makes eleven
    s = state_of(duel_position(cards={0: [61, 60, 19]}, tokens={0: "ggrp"}, pyramid={5: 44}))
    r = gives(s, "buy 44", "WINS_GAME", colour=R, points=10)
    refuted(s, "buy 44", replace(r, colour=W))


def seat1_threat(points_cards=(66, 53, 29, 59, 9), tokens="wwu", privileges=(2, 0, 1)) -> dict:
    """Seat 0 to move; seat 1 holds 19 points and w2 u1, with a privilege: card 19 (red, 1
    point, costs w2 u3) on the pyramid is one blue (taken with the privilege) away."""
    return duel_position(cards={1: list(points_cards)}, tokens={1: tokens}, pyramid={0: 19},
                         privileges=privileges, board=["wugrk", "kgruw", "g.r.k", "pp.y.", "....y"])


def test_lets_the_opponent_win_with_its_privilege_and_the_reserve_that_blocks_it():
    s = state_of(seat1_threat())
    r = gives(s, "take a3", "LETS_OPPONENT_WIN", seat=1, card=19)
    refuted(s, "take a3", replace(r, card=29))
    act(s, "gold d4")  # then the reserve
    assert s.phase() == "reserve"
    gives(s, "reserve 19", "BLOCKS_OPPONENT_WIN", seat=1, card=19)
    lacks(s, "reserve 19", "LETS_OPPONENT_WIN")
    other = next(c for c in s.to_position()["pyramid"][1] if c >= 0)
    lacks(s, f"reserve {other}", "BLOCKS_OPPONENT_WIN")
    gives(s, f"reserve {other}", "LETS_OPPONENT_WIN", seat=1, card=19)
    refuted(s, f"reserve {other}", Reason("BLOCKS_OPPONENT_WIN", seat=1, card=other))


def test_no_win_to_let_without_the_privilege():
    s = state_of(seat1_threat(privileges=(3, 0, 0)))  # no privilege: the blue is out of reach
    lacks(s, "take a3", "LETS_OPPONENT_WIN")
    lacks(s, "take a3", "OPPONENT_CAN_BUY", card=19)
    refuted(s, "take a3", Reason("LETS_OPPONENT_WIN", seat=1, card=19))
    s = state_of(seat1_threat(points_cards=(66, 53, 9)))  # 12 points: 19 brings 13, no win
    lacks(s, "take a3", "LETS_OPPONENT_WIN")
    gives(s, "take a3", "OPPONENT_CAN_BUY", seat=1, card=19, points=1)


def test_denies_a_card_the_opponent_could_buy():
    s = act(state_of(seat1_threat(points_cards=(66, 9))), "gold d4")
    r = gives(s, "reserve 19", "DENIES_CARD", seat=1, card=19)
    refuted(s, "reserve 19", replace(r, seat=0))
    other = next(c for c in s.to_position()["pyramid"][1] if c >= 0)
    lacks(s, f"reserve {other}", "DENIES_CARD")
    refuted(s, f"reserve {other}", Reason("DENIES_CARD", seat=1, card=other))


# ---------------------------------------------------------------------------- royals, crowns, colours, turns
def test_gains_a_royal_at_three_crowns():
    s = state_of(duel_position(cards={0: [3, 23]}, tokens={0: "ggg"}, pyramid={1: 6}))  # 2 crowns; 6 has one
    r = gives(s, "buy 6", "GAINS_ROYAL", count=3)
    refuted(s, "buy 6", replace(r, count=4))
    gives(s, "buy 6", "CROWNS", count=3)
    s = state_of(duel_position(cards={0: [3, 23, 11]}, royals={0: [0]}, tokens={0: "ggg"}, pyramid={1: 6}))
    lacks(s, "buy 6", "GAINS_ROYAL")  # three crowns and a royal already: four is no threshold
    refuted(s, "buy 6", Reason("GAINS_ROYAL", count=4))
    r = gives(s, "buy 6", "CROWNS", count=4)
    refuted(s, "buy 6", replace(r, count=5))


def test_crowns_only_from_crowned_cards():
    s = state_of(duel_position(tokens={0: "wwuu"}, pyramid={0: 13}))  # card 13: green, no crown, costs w2 u2
    lacks(s, "buy 13", "CROWNS")
    refuted(s, "buy 13", Reason("CROWNS", count=1))


def test_earns_an_extra_turn():
    s = state_of(duel_position(tokens={0: "uuggp"}, pyramid={0: 2, 1: 1}))  # 2: extra turn; 1: none
    gives(s, "buy 2", "EXTRA_TURN")
    s = state_of(duel_position(tokens={0: "uggrk"}, pyramid={0: 2, 1: 1}))
    lacks(s, "buy 1", "EXTRA_TURN")
    refuted(s, "buy 1", Reason("EXTRA_TURN"))


def test_scores_with_a_card_and_a_royal():
    s = state_of(duel_position(cards={0: [61, 60]}, tokens={0: "ggrrp"}, pyramid={5: 44}))  # red: 7 points
    r = gives(s, "buy 44", "SCORES", card=44, points=2, count=9)
    refuted(s, "buy 44", replace(r, count=8))
    r = gives(s, "buy 44", "COLOUR_POINTS", colour=R, points=9)
    refuted(s, "buy 44", replace(r, points=8))
    s = state_of(duel_position(cards={0: [3, 23]}, tokens={0: "ggg"}, pyramid={1: 6}))
    lacks(s, "buy 6", "SCORES")
    lacks(s, "buy 6", "COLOUR_POINTS")
    act(s, "buy 6")
    assert s.phase() == "royal"
    r = gives(s, "royal 0", "SCORES", piece=0, points=3, count=3)
    refuted(s, "royal 1", replace(r, piece=1))
    gives(s, "royal 1", "EXTRA_TURN")
    lacks(s, "royal 0", "EXTRA_TURN")
    r = gives(s, "royal 3", "GAINS_PRIVILEGE")
    refuted(s, "royal 0", r)


# ---------------------------------------------------------------------------- privileges
def test_gives_the_opponent_a_privilege():
    board = ["www..", "ugrk.", "kgruw", "pp...", "y...."]
    s = state_of(duel_position(board=board, privileges=(2, 0, 1)))
    r = gives(s, "take a1 b1 c1", "GIVES_PRIVILEGE", seat=1, count=2)  # three of one colour
    refuted(s, "take a1 b1 c1", replace(r, count=3))
    gives(s, "take a4 b4", "GIVES_PRIVILEGE", seat=1, count=2)  # both pearls
    lacks(s, "take a2 b2 c2", "GIVES_PRIVILEGE")
    refuted(s, "take a2 b2 c2", r)
    s = state_of(duel_position(board=["wugrk", "kgruw", ".....", ".....", "y...."], privileges=(2, 0, 1)))
    gives(s, "replenish", "GIVES_PRIVILEGE", seat=1, count=2)


def test_gains_a_privilege_with_a_card():
    s = state_of(duel_position(tokens={0: "wwwwkkp"}, pyramid={5: 33, 6: 30}))  # 33: take a privilege
    r = gives(s, "buy 33", "GAINS_PRIVILEGE", count=1)
    refuted(s, "buy 33", replace(r, count=2))
    lacks(state_of(duel_position(tokens={0: "uuuurrr"}, pyramid={5: 30})), "buy 30", "GAINS_PRIVILEGE")


# ---------------------------------------------------------------------------- bonuses and tokens
def test_needed_bonus():
    s = state_of(duel_position(tokens={0: "wwuu"}, pyramid={0: 13}))
    r = gives(s, "buy 13", "NEEDED_BONUS", colour=G)
    refuted(s, "buy 13", replace(r, count=r.count + 1))
    s = state_of(duel_position(tokens={0: "rrrrp"}, pyramid={0: 29}))  # no colour, no bonus
    lacks(s, "buy 29", "NEEDED_BONUS")
    refuted(s, "buy 29", Reason("NEEDED_BONUS", colour=G, count=1))


def test_toward_a_card_with_a_take_and_with_a_privilege():
    board = ["ww...", "ugrk.", "kgr..", "p....", "y...."]  # card 19 costs w2 u3
    s = state_of(duel_position(board=board, tokens={0: "uuu"}, pyramid={0: 19}, privileges=(2, 1, 0)))
    r = gives(s, "take a1 b1", "TOWARD_CARD", card=19, turns=1)
    refuted(s, "take a1 b1", replace(r, turns=0))
    lacks(s, "take a3 b3", "TOWARD_CARD", card=19)
    refuted(s, "take a3 b3", r)
    s = state_of(duel_position(board=board, tokens={0: "uuuw"}, pyramid={0: 19}, privileges=(2, 1, 0)))
    r = gives(s, "privilege a1", "TOWARD_CARD", card=19, turns=0)  # the second white: buy it now
    lacks(s, "privilege b2", "TOWARD_CARD", card=19)
    refuted(s, "privilege b2", r)


def test_passes_up_a_free_buy_and_a_better_one():
    s = state_of(duel_position(cards={0: [13, 12, 10]}, pyramid={0: 6}))  # 6 costs 3 green: free
    r = gives(s, "take a1", "PASSES_FREE_BUY", card=6)
    lacks(s, "buy 6", "PASSES_FREE_BUY")
    refuted(s, "buy 6", r)
    # 18: red, 0 points, costs w2 k2 p1; 14: green, 1 point, costs w3 k2: five tokens each
    s = state_of(duel_position(tokens={0: "wwwkkp"}, pyramid={0: 18, 1: 14}))
    r = gives(s, "buy 18", "BETTER_BUY_PASSED", card=14, points=1)
    refuted(s, "buy 18", replace(r, points=2))
    lacks(s, "buy 14", "BETTER_BUY_PASSED")
    # 8: blue, 0 points, costs w2 k2: four tokens, one fewer than 14
    s = state_of(duel_position(tokens={0: "wwwkk"}, pyramid={0: 8, 1: 14}))
    lacks(s, "buy 8", "BETTER_BUY_PASSED")
    refuted(s, "buy 8", Reason("BETTER_BUY_PASSED", card=14, points=1))


def test_over_the_token_limit_and_the_least_needed_discard():
    board = ["wug..", "rk...", ".....", ".....", "y...."]
    s = state_of(duel_position(board=board, tokens={0: "wwuuggrrk"}, pyramid={0: 19}))  # 9 tokens
    r = gives(s, "take a1 b1 c1", "OVER_TOKEN_LIMIT", count=2)
    refuted(s, "take a1 b1 c1", replace(r, count=1))
    lacks(s, "take a1", "OVER_TOKEN_LIMIT")
    act(s, "take a1 b1 c1")
    assert s.phase() == "discard"
    # w3 u3 g3 r2 k2 and the face-up cards: a white or a red less sets three cards back, any
    # other kind more (card 19 needs the three blue)
    r = gives(s, "discard w", "RETURNS_LEAST_NEEDED", colour=W, count=3)
    gives(s, "discard r", "RETURNS_LEAST_NEEDED", colour=R, count=3)
    refuted(s, "discard w", replace(r, count=2))
    for move in ("discard u", "discard g", "discard k"):
        lacks(s, move, "RETURNS_LEAST_NEEDED")
    refuted(s, "discard u", replace(r, colour=U))


def test_the_search_choice_and_its_line():
    board = ["ww...", "ugrk.", "kgr..", "p....", "y...."]
    s = state_of(duel_position(board=board, tokens={0: "uuu"}, pyramid={0: 19}))
    result = result_of(s, [("take a1 b1", 70, 0.55, ["take a1 b1", "take a3", "buy 19"]),
                           ("take a3", 30, 0.41, ["take a3", "take b3", "take a2"])])
    r = gives(s, "take a1 b1", "SEARCH_BEST", result, count=55)
    refuted(s, "take a1 b1", replace(r, count=41), result)
    lacks(s, "take a3", "SEARCH_BEST", result)
    refuted(s, "take a3", r, result)
    p = gives(s, "take a1 b1", "PLANS_BUY", result, card=19, turns=1)
    lacks(s, "take a3", "PLANS_BUY", result)
    refuted(s, "take a3", p, result)


def test_works_toward_a_card_out_of_reach():
    board = ["wug..", "rk...", ".....", ".....", "y...."]
    s = state_of(duel_position(board=board, pyramid={9: 66}))  # 66: 6 points, costs 8 white
    r = gives(s, "take a1 b1 c1", "CLOSER_TO_CARD", card=66, count=7)
    refuted(s, "take a1 b1 c1", replace(r, count=8))
    lacks(s, "take a2 b2", "CLOSER_TO_CARD", card=66)
    refuted(s, "take a2 b2", r)
