"""The reasons of Splendor: Marvel, code by code: a position built to show each one and one built
not to (docs/reasons.md). Marvel is the base game with locations for nobles, the Avengers
Assemble tile and the Infinity Gauntlet (16 points, a bonus of every colour and a green Time
Stone token) as the end; every fact a test sees is checked by the brute-force verifier, and
each claim shown is refuted when one of its subjects is changed. Cards are named by their
characters (marvel_builders.py); the moves name their ids.
"""
from __future__ import annotations

from dataclasses import replace

from marvel_builders import (ASGARD, ONE_OF_EACH, TOWER, WAKANDA, card, fresh, give_cards, give_price, give_tokens,
                             on_board)
from reason_checks import gives, lacks, refuted, result_of, state_of
from splendor_ai.games.marvel import spec
from splendor_ai.reasons import Reason

JESSICA = card("Jessica Jones")  # 69: purple, 3 points, costs 6 yellow


def gauntlet_in_reach(seat: int, current: int, extra=("Hela",)) -> dict:
    """``seat`` holds a bonus of every colour, Loki (the green token) and ``extra``: 13 points;
    Jessica Jones (3 points) is face up and it can pay for her."""
    pos = fresh(2)
    pos["current"] = current
    give_cards(pos, seat, *ONE_OF_EACH, "Loki", *extra)
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, seat, "Jessica Jones")
    return pos


# ---------------------------------------------------------------------------- game-deciding
def test_wins_game_meeting_the_gauntlet_on_the_last_seat():
    s = state_of(gauntlet_in_reach(1, 1))
    r = gives(s, "buy 69", "WINS_GAME", points=16)
    refuted(s, "buy 69", replace(r, points=17))
    lacks(s, "take rob", "WINS_GAME")
    refuted(s, "take rob", r)


def test_triggers_the_gauntlet_on_a_middle_seat():
    s = state_of(gauntlet_in_reach(0, 0))  # seat 0 is not the last seat: the round goes on
    r = gives(s, "buy 69", "TRIGGERS_END", points=16)
    refuted(s, "buy 69", replace(r, points=15))
    lacks(s, "buy 69", "WINS_GAME")
    pos = fresh(2)  # 17 points and every colour, but no green token: no trigger
    give_cards(pos, 0, *ONE_OF_EACH, "Hela", "Red Skull", "Daredevil")
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, 0, "Jessica Jones")
    lacks(state_of(pos), "buy 69", "TRIGGERS_END")
    refuted(state_of(pos), "buy 69", Reason("TRIGGERS_END", points=20))


def test_loses_game_when_the_last_turn_cannot_meet_the_gauntlet():
    pos = fresh(2)
    give_cards(pos, 0, *ONE_OF_EACH, "Loki", "Hela", "Jessica Jones")  # 16: the trigger came
    pos.update(current=1, final_round=True)
    s = state_of(pos)
    gives(s, "take yro", "LOSES_GAME")
    pos = fresh(2)  # seat 0 has not met the Gauntlet: the game goes on
    give_cards(pos, 0, *ONE_OF_EACH, "Hela", "Jessica Jones")
    pos["current"] = 1
    lacks(state_of(pos), "take yro", "LOSES_GAME")
    refuted(state_of(pos), "take yro", Reason("LOSES_GAME"))


def test_lets_the_next_seat_meet_the_gauntlet_and_the_reserve_that_blocks_it():
    s = state_of(gauntlet_in_reach(1, 0))  # seat 1, the last seat, can end the game with a win
    r = gives(s, "take rob", "LETS_OPPONENT_WIN", seat=1, card=JESSICA)
    refuted(s, "take rob", replace(r, seat=0))
    lacks(s, "reserve 69", "LETS_OPPONENT_WIN")
    refuted(s, "reserve 69", r)
    gives(s, "reserve 69", "BLOCKS_OPPONENT_WIN", seat=1, card=JESSICA)
    gives(s, "reserve 69", "DENIES_CARD", seat=1, card=JESSICA)
    other = next(c for c in spec.CARDS[40:70] if c.id != JESSICA and c.id in sum(s.to_position()["board"], []))
    lacks(s, f"reserve {other.id}", "BLOCKS_OPPONENT_WIN")
    refuted(s, f"reserve {other.id}", Reason("BLOCKS_OPPONENT_WIN", seat=1, card=other.id))


def test_no_win_without_the_green_token():
    pos = fresh(2)  # 13 points and every colour but no green: Jessica makes 16, no Gauntlet
    give_cards(pos, 1, *ONE_OF_EACH, "Hela", "Daredevil")
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, 1, "Jessica Jones")
    s = state_of(pos)
    lacks(s, "take rob", "LETS_OPPONENT_WIN")
    gives(s, "take rob", "OPPONENT_CAN_BUY", seat=1, card=JESSICA, points=3)
    lacks(s, "reserve 69", "BLOCKS_OPPONENT_WIN")
    refuted(s, "take rob", Reason("LETS_OPPONENT_WIN", seat=1, card=JESSICA))


def test_the_next_seat_can_buy_a_card_and_the_reserve_that_denies_it():
    pos = fresh(2)
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, 1, "Jessica Jones")
    s = state_of(pos)
    r = gives(s, "take rob", "OPPONENT_CAN_BUY", seat=1, card=JESSICA, points=3)
    refuted(s, "take rob", replace(r, points=2))
    gives(s, "reserve 69", "DENIES_CARD", seat=1, card=JESSICA)
    lacks(s, "reserve 69", "OPPONENT_CAN_BUY", card=JESSICA)
    pos = fresh(2)  # seat 1 cannot pay for her
    on_board(pos, "Jessica Jones", 0)
    lacks(state_of(pos), "reserve 69", "DENIES_CARD")
    refuted(state_of(pos), "reserve 69", Reason("DENIES_CARD", seat=1, card=JESSICA))


# ---------------------------------------------------------------------------- locations, the tile, the Gauntlet
def locations_reach(blues: int, locations) -> dict:
    """Seat 0 has bonuses y4 r4 and ``blues`` blue; it can recruit Lockjaw (blue)."""
    pos = fresh(2, locations=locations)
    give_cards(pos, 0, "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.", "Wong", "Triton", "Electro",
               "Mysterio", *("Moon Knight", "Spider-Man 2099", "Elektra")[:blues])
    on_board(pos, "Lockjaw", 0)
    give_price(pos, 0, "Lockjaw")
    return state_of(pos)


def test_completes_a_location():
    s = locations_reach(3, [ASGARD, TOWER])
    r = gives(s, "buy 29", "COMPLETES_LOCATION", piece=TOWER, points=3)
    refuted(s, "buy 29", replace(r, piece=ASGARD))
    lacks(locations_reach(2, [ASGARD, TOWER]), "buy 29", "COMPLETES_LOCATION")
    refuted(locations_reach(2, [ASGARD, TOWER]), "buy 29", r)


def test_comes_within_one_card_of_a_location():
    s = locations_reach(2, [TOWER, WAKANDA])  # b3 after: one blue short of both
    r = gives(s, "buy 29", "NEAR_LOCATION", piece=TOWER, colour=spec.BLUE)
    gives(s, "buy 29", "NEAR_LOCATION", piece=WAKANDA, colour=spec.BLUE)
    refuted(s, "buy 29", replace(r, colour=spec.YELLOW))
    lacks(locations_reach(1, [TOWER]), "buy 29", "NEAR_LOCATION")
    refuted(locations_reach(1, [TOWER]), "buy 29", r)


def avengers(icons: int, holder=None) -> object:
    """Seat 0 has ``icons`` Avengers icons and can recruit Ms. Marvel (1 icon); ``holder``
    holds the tile (seat 1 with 3 icons) or nobody."""
    pos = fresh(2, seed=3)
    give_cards(pos, 0, *("Spider-Woman", "Squirrel Girl", "Hawkeye")[:icons])
    if holder is not None:
        give_cards(pos, 1, "Kate Bishop", "Valkyrie", "Wasp")
        pos["avengers"] = holder
    on_board(pos, "Ms. Marvel", 0)
    give_price(pos, 0, "Ms. Marvel")
    return state_of(pos)


def test_takes_the_avengers_tile():
    s = avengers(2)
    r = gives(s, "buy 8", "TAKES_AVENGERS", points=3, seat=None)
    refuted(s, "buy 8", replace(r, seat=1))
    s = avengers(3, holder=1)  # four icons against three: taken from seat 1
    gives(s, "buy 8", "TAKES_AVENGERS", points=3, seat=1)
    lacks(avengers(1), "buy 8", "TAKES_AVENGERS")
    lacks(avengers(2, holder=1), "buy 8", "TAKES_AVENGERS")  # a tie leaves it with the holder
    refuted(avengers(2, holder=1), "buy 8", Reason("TAKES_AVENGERS", points=3, seat=1))


def test_gains_the_time_stone_and_every_colour():
    pos = fresh(2)
    give_cards(pos, 0, "Vulture", "Sandman", "Yondu", "Taskmaster")  # no purple yet
    on_board(pos, "Drax", 0)  # purple, Time Stone, costs 7 orange
    give_price(pos, 0, "Drax")
    s = state_of(pos)
    gives(s, "buy 88", "GAINS_TIME_STONE")
    gives(s, "buy 88", "COMPLETES_COLOURS")
    pos = fresh(2)
    give_cards(pos, 0, "Vulture", "Sandman", "Yondu", "Taskmaster", "Scorpion", "Loki")  # green and every colour
    on_board(pos, "Drax", 0)
    give_price(pos, 0, "Drax")
    s = state_of(pos)
    lacks(s, "buy 88", "GAINS_TIME_STONE")
    lacks(s, "buy 88", "COMPLETES_COLOURS")
    refuted(s, "buy 88", Reason("GAINS_TIME_STONE"))
    refuted(s, "buy 88", Reason("COMPLETES_COLOURS"))


# ---------------------------------------------------------------------------- points, bonuses, tokens
def test_scores_and_needed_bonus():
    s = state_of(gauntlet_in_reach(0, 0))
    r = gives(s, "buy 69", "SCORES", card=JESSICA, points=3, count=16)
    refuted(s, "buy 69", replace(r, count=13))
    r = gives(s, "buy 69", "NEEDED_BONUS", colour=spec.PURPLE)
    refuted(s, "buy 69", replace(r, count=r.count + 1))
    s = locations_reach(0, [])
    lacks(s, "buy 29", "SCORES")  # Lockjaw is worth no points
    refuted(s, "buy 29", Reason("SCORES", card=29, points=1, count=1))
    pos = fresh(2)  # seven yellow bonuses: no card costs more yellow than that
    give_cards(pos, 0, "Spider-Woman", "Squirrel Girl", "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.", "Prowler")
    on_board(pos, "Vulture", 0)  # yellow, costs 4 red
    give_price(pos, 0, "Vulture")
    lacks(state_of(pos), "buy 7", "NEEDED_BONUS")
    refuted(state_of(pos), "buy 7", Reason("NEEDED_BONUS", colour=spec.YELLOW, count=1))


def test_toward_a_card_and_a_free_buy_passed_up():
    pos = fresh(2)
    on_board(pos, "Vulture", 0)  # 1 point, costs 4 red
    give_tokens(pos, 0, s=2)
    s = state_of(pos)
    r = gives(s, "take rr", "TOWARD_CARD", card=card("Vulture"), turns=1)
    refuted(s, "take rr", replace(r, turns=0))
    lacks(s, "take yob", "TOWARD_CARD", card=card("Vulture"))
    pos = fresh(2)
    give_cards(pos, 0, "Moon Knight", "Spider-Man 2099", "Elektra")  # three blue bonuses
    on_board(pos, "Kraven", 0)  # purple, costs 3 blue: free
    s = state_of(pos)
    r = gives(s, "take yro", "PASSES_FREE_BUY", card=card("Kraven"))
    lacks(s, "buy 37", "PASSES_FREE_BUY")
    refuted(s, "buy 37", r)


def test_better_buy_passed_up():
    pos = fresh(2)
    on_board(pos, "Mysterio", 0)  # red, 0 points, costs 3 orange
    on_board(pos, "Yondu", 1)  # orange, 1 point, costs 4 purple
    give_tokens(pos, 0, o=3, p=4)
    s = state_of(pos)
    lacks(s, "buy 13", "BETTER_BUY_PASSED")  # Yondu costs 4 tokens, Mysterio 3
    refuted(s, "buy 13", Reason("BETTER_BUY_PASSED", card=card("Yondu"), points=1))
    pos = fresh(2)
    on_board(pos, "Spider-Woman", 0)  # yellow, 0 points, costs 5 tokens
    on_board(pos, "Yondu", 1)
    give_tokens(pos, 0, y=1, r=3, b=1, p=4)
    s = state_of(pos)
    r = gives(s, "buy 0", "BETTER_BUY_PASSED", card=card("Yondu"), points=1)
    refuted(s, "buy 0", replace(r, card=card("Vulture")))


def test_last_tokens_and_the_limit_with_green():
    pos = fresh(2)
    on_board(pos, "Baron Zemo", 0)  # yellow, costs 3 red
    give_tokens(pos, 1, r=2)
    give_tokens(pos, 0, r=1)  # one red left
    s = state_of(pos)
    r = gives(s, "take yro", "TAKES_LAST_TOKENS", colour=spec.RED, seat=1, card=card("Baron Zemo"))
    lacks(s, "take yob", "TAKES_LAST_TOKENS")
    refuted(s, "take yob", r)
    pos = fresh(2)
    give_cards(pos, 0, "Loki")  # the green token counts toward the limit
    give_tokens(pos, 0, y=2, r=2, o=2, b=2)  # 9 with the green
    s = state_of(pos)
    r = gives(s, "take yrp", "OVER_TOKEN_LIMIT", count=2)
    refuted(s, "take yrp", replace(r, count=1))
    pos = fresh(2)
    give_tokens(pos, 0, y=2, r=2, o=2, b=1)
    lacks(state_of(pos), "take yrp", "OVER_TOKEN_LIMIT")


def test_returns_the_least_needed_token():
    pos = fresh(2)
    on_board(pos, "Vulture", 0)  # costs 4 red
    give_cards(pos, 0, "Drax")  # the green token: never returned
    give_tokens(pos, 0, y=2, r=3, o=2, b=2)
    s = state_of(pos)
    s.apply_action(s.string_to_action("take rbp"))  # y2 r4 o2 b3 p1 and the green: 13
    assert s.phase() == "return"
    r = gives(s, "return o", "RETURNS_LEAST_NEEDED", colour=spec.ORANGE, count=2)
    refuted(s, "return o", replace(r, count=1))
    for move in ("return y", "return r", "return b", "return p"):
        lacks(s, move, "RETURNS_LEAST_NEEDED")
    refuted(s, "return r", replace(r, colour=spec.RED))  # red is what Vulture needs


def test_the_search_choice_and_its_line():
    pos = fresh(2)
    on_board(pos, "Vulture", 0)
    give_tokens(pos, 0, s=2)
    s = state_of(pos)
    result = result_of(s, [("take rr", 80, 0.58, ["take rr", "take yob", "buy 7"]),
                           ("take yro", 20, 0.45, ["take yro"])])
    r = gives(s, "take rr", "SEARCH_BEST", result, count=58)
    gives(s, "take rr", "PLANS_BUY", result, card=7, turns=1)
    lacks(s, "take yro", "SEARCH_BEST", result)
    lacks(s, "take yro", "PLANS_BUY", result)
    refuted(s, "take yro", r, result)


def test_works_toward_a_card_out_of_reach():
    pos = fresh(2)
    on_board(pos, "Drax", 0)  # purple, 4 points, costs 7 orange
    s = state_of(pos)
    r = gives(s, "take yro", "CLOSER_TO_CARD", card=card("Drax"), count=6)
    refuted(s, "take yro", replace(r, card=card("Vulture")))
    lacks(s, "take yrb", "CLOSER_TO_CARD", card=card("Drax"))
    refuted(s, "take yrb", r)
