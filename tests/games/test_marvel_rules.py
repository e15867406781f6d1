"""The rules of Splendor: Marvel, clause by clause (/work/shared/rules/marvel.md, the
differences from the base game; docs/marvel.md for the engine's decisions).

Every test runs against both implementations (the ``impl`` fixture in conftest.py): the
readable reference and the compiled core must both pass all of them. Rule tests build their
positions by hand: a dealt position from ``spec.initial_position`` with cards, tokens and
locations moved where the test needs them, conservation kept. Cards are named by their
character names, so that a reader can check them against the catalogue.
"""
from __future__ import annotations

import pytest

from marvel_builders import (
    ASGARD, B, CARDS, G, KNOWHERE, ONE_OF_EACH, O, P, R, S, TOWER, WAKANDA, Y, act, card, fresh,
    give_cards, give_price, give_reserved, give_tokens, load, of_kind, on_board, points,
    random_playout_states, dead_position, POSITIONS,
)
from splendor_ai.games import (
    TERMINAL,
    IllegalActionError,
    NotationError,
    PositionError,
    load_game,
)
from splendor_ai.games.marvel import MarvelGame, spec

STONES = {2: 4, 3: 5, 4: 7}
GREENS = {2: 2, 3: 3, 4: 4}


# ----------------------------------------------------------------------------- catalogue
def test_catalogue_has_names_icons_and_time_stones():
    cat = MarvelGame(2).catalog()
    assert len(cat["cards"]) == 90 and len(cat["locations"]) == 8
    iron_man = cat["cards"][card("Iron Man")]
    assert iron_man == {
        "id": 70, "name": "Iron Man", "level": 3, "color": "yellow", "points": 3, "avengers": 2,
        "time_stone": True, "cost": {"yellow": 3, "red": 3, "orange": 3, "blue": 5, "purple": 0},
    }
    assert cat["cards"][0]["name"] == "Spider-Woman" and cat["cards"][0]["time_stone"] is False
    assert [c["id"] for c in cat["cards"] if c["time_stone"]] == list(range(70, 90))
    assert sum(c["avengers"] for c in cat["cards"]) == 35
    assert cat["locations"][0] == {
        "id": 0, "name": "Asgard", "tile": 1, "side": "A", "points": 3,
        "requires": {"yellow": 3, "red": 0, "orange": 3, "blue": 0, "purple": 3},
    }
    assert [(x["tile"], x["side"]) for x in cat["locations"]] == [
        (t, s) for t in (1, 2, 3, 4) for s in "AB"]
    assert all(c["name"] for c in cat["cards"] + cat["locations"])


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_by_player_count(impl, players):
    # What both games deal alike (decks, board, seats, actions): test_cards_rules.py.
    pos = load_game("marvel", players=players, impl=impl).new_initial_state(seed=7).to_position()
    assert pos["supply"] == [STONES[players]] * 5 + [GREENS[players], 5]
    assert len(pos["locations"]) == players
    assert len({spec.tile_of(lid) for lid in pos["locations"]}) == players  # one side per tile
    assert pos["avengers"] is None and pos["final_round"] is False


def test_setup_draws_random_tiles_on_random_sides():
    sides = set()
    for seed in range(200):
        for players in (2, 3, 4):
            locations = spec.initial_position(players, seed)["locations"]
            assert len({spec.tile_of(lid) for lid in locations}) == len(locations) == players
            sides.update(locations)
    assert sides == set(range(8))  # every side of every tile comes up


# ----------------------------------------------------------------------------- actions
def test_take_three_different_colours_never_green_or_grey(impl):
    s = load(impl, fresh(2))
    act(s, "take yro")
    assert s.to_position()["supply"] == [3, 3, 3, 4, 4, 2, 5]
    for text in ("take yrg", "take gg", "take yrs", "take ss", "take g"):
        with pytest.raises(NotationError):
            s.string_to_action(text)


def test_take_fewer_only_when_fewer_than_three_colours(impl):
    pos = fresh(2)
    give_tokens(pos, 0, y=4, r=4)
    give_tokens(pos, 1, o=4)  # only blue and purple left, 4 each; green and grey do not count
    s = load(impl, pos)
    takes = of_kind(s.legal_actions(), "take3", "take2diff", "take1", "take2same")
    assert takes == sorted([
        spec.TAKE2_DIFF + spec.TAKE2_DIFF_SETS.index((B, P)),
        spec.TAKE1 + B, spec.TAKE1 + P, spec.TAKE2_SAME + B, spec.TAKE2_SAME + P,
    ])
    act(s, "take bp")
    assert s.to_position()["seats"][0]["tokens"] == [4, 4, 0, 1, 1, 0, 0]

    pos = fresh(2)
    give_tokens(pos, 1, y=4, r=4)  # three colours left: take three, never fewer
    s = load(impl, pos)
    assert of_kind(s.legal_actions(), "take3", "take2diff", "take1") == [
        spec.TAKE3 + spec.TAKE3_SETS.index((O, B, P))]
    for text in ("take ob", "take o"):
        with pytest.raises(IllegalActionError, match="3 colours"):
            act(s, text)


def test_take_two_same_needs_four_in_pile(impl):
    pos = fresh(2)
    give_tokens(pos, 1, r=1)  # red pile: 3
    s = load(impl, pos)
    assert of_kind(s.legal_actions(), "take2same") == [spec.TAKE2_SAME + c for c in (Y, O, B, P)]
    with pytest.raises(IllegalActionError):
        act(s, "take rr")
    act(s, "take pp")
    assert s.to_position()["supply"][P] == 2


def test_reserve_gives_grey_when_available(impl):
    pos = fresh(2)
    s = load(impl, pos)
    face_up, top2 = pos["board"][1][1], pos["decks"][1][-1]
    act(s, f"reserve {face_up}")
    p = s.to_position()
    assert p["seats"][0]["reserved"] == [{"card": face_up, "level": 2, "blind": False}]
    assert p["seats"][0]["tokens"] == [0, 0, 0, 0, 0, 0, 1] and p["supply"][S] == 4
    assert p["board"][1][1] == top2  # replaced at once from its deck
    top3 = pos["decks"][2][-1]
    act(s, "reserve deck3")
    p = s.to_position()
    assert p["seats"][1]["reserved"] == [{"card": top3, "level": 3, "blind": True}]
    assert p["seats"][1]["tokens"][S] == 1 and p["supply"][S] == 3


def test_reserve_without_grey_left_and_max_three(impl):
    pos = fresh(2)
    give_tokens(pos, 1, s=5)
    give_reserved(pos, 1, *pos["decks"][0][:2])
    s = load(impl, pos)
    act(s, "reserve deck1")
    assert s.to_position()["seats"][0]["tokens"] == [0] * 7  # nothing to take, still reserved
    act(s, "reserve deck2")  # seat 1: a third reserve is allowed
    act(s, "take yro")
    assert of_kind(s.legal_actions(), "reserve_board", "reserve_deck") == []  # seat 1 holds 3
    with pytest.raises(IllegalActionError):
        act(s, "reserve deck1")


def test_recruit_pays_bonuses_then_stones_then_grey(impl):
    pos = fresh(2)
    target = on_board(pos, "Shuri", 1)  # level 2 yellow, costs y3 o3 b2
    give_cards(pos, 0, "Rocket")  # a yellow bonus
    give_tokens(pos, 0, y=2, o=2, b=2, s=1)
    s = load(impl, pos)
    a = s.string_to_action("buy 40")
    assert a == spec.buy_action(target) and a in s.legal_actions()
    s.apply_action(a)
    p = s.to_position()
    # price y2 o3 b2: both yellow, both orange + 1 grey, both blue
    assert p["seats"][0]["tokens"] == [0] * 7
    assert p["supply"] == [4, 4, 4, 4, 4, 2, 5]
    assert p["seats"][0]["cards"] == [card("Rocket"), card("Shuri")]


def test_recruit_accepts_any_legal_grey_payment(impl):
    pos = fresh(2)
    target = on_board(pos, "Electro", 0)  # red, costs r1 o2
    give_tokens(pos, 0, r=1, o=2, s=1)
    s = load(impl, pos)
    variants = sorted(spec.split_buy(a)[1] for a in of_kind(s.legal_actions(), "buy")
                      if spec.split_buy(a)[0] == target)
    assert variants == sorted(spec.PAY_VARIANT_INDEX[v] for v in
                              [(0, 0, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0)])
    a = s.string_to_action("buy 12 pay ros")
    assert s.action_to_string(a) == "buy 12 pay ros"
    s.apply_action(a)
    assert s.to_position()["seats"][0]["tokens"] == [0, 0, 1, 0, 0, 0, 0]


def test_green_never_pays(impl):
    pos = fresh(2)
    give_cards(pos, 0, "Doctor Octopus")  # yellow; brings the green token
    target = on_board(pos, "Electro", 0)  # costs r1 o2
    give_tokens(pos, 0, r=1, o=1)  # one orange short; the green cannot cover it
    s = load(impl, pos)
    assert s.to_position()["seats"][0]["tokens"][G] == 1
    assert not [a for a in of_kind(s.legal_actions(), "buy") if spec.split_buy(a)[0] == target]
    with pytest.raises(IllegalActionError, match="green never pays"):
        s.apply_action(spec.buy_action(target))
    with pytest.raises(NotationError):
        s.string_to_action("buy 12 pay rog")


def test_green_never_a_bonus_nor_a_location_requirement(impl):
    # A green token is no bonus: Knowhere (y3 r3 b3) needs cards, whatever tokens are held.
    pos = fresh(2, locations=[KNOWHERE, WAKANDA])
    give_cards(pos, 0, "Rocket", "Grandmaster", "Baron Zemo", "Wong", "Triton", "Electro",
               "Moon Knight", "Spider-Man 2099", "Black Bolt")  # y3 r3 b2 o1
    give_tokens(pos, 0, b=4)
    s = load(impl, pos)
    assert s.bonuses(0) == [3, 3, 1, 2, 0]
    act(s, "take yro")
    assert s.to_position()["seats"][0]["locations"] == []


# ----------------------------------------------------------------------------- passing
def test_dead_position_ends_the_game_and_nobody_without_the_gauntlet_wins(impl):
    s = load(impl, dead_position())
    act(s, "pass")
    act(s, "pass")
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.to_position()["passes"] == 2
    assert s.returns() == [0.0, 0.0]  # nobody meets the Infinity Gauntlet condition


# ----------------------------------------------------------------------------- the Time Stone
def test_time_stone_first_recruit_from_the_board_gives_green(impl):
    pos = fresh(2)
    on_board(pos, "Iron Fist", 2)  # level 3 blue, Time Stone, costs r7
    give_cards(pos, 0, "Wong", "Triton", "Electro", "Mysterio")  # r4
    give_tokens(pos, 0, r=3)
    s = load(impl, pos)
    act(s, "buy 84")
    p = s.to_position()
    assert p["seats"][0]["tokens"] == [0, 0, 0, 0, 0, 1, 0]
    assert p["supply"][G] == 1 and p["supply"][R] == 4


def test_time_stone_from_the_reserve_gives_green(impl):
    pos = fresh(2)
    give_reserved(pos, 0, "Drax")  # purple, costs o7
    give_cards(pos, 0, "Spider-Girl", "Kingpin", "Spider-Ham", "Scarlet Spider")  # o4
    give_tokens(pos, 0, o=3)
    s = load(impl, pos)
    act(s, "buy 88")
    p = s.to_position()
    assert p["seats"][0]["reserved"] == [] and p["seats"][0]["tokens"][G] == 1


def test_reserving_a_time_stone_card_gives_no_green(impl):
    pos = fresh(2)
    on_board(pos, "Loki", 0)
    s = load(impl, pos)
    act(s, "reserve 77")
    act(s, "reserve deck3")  # seat 1, blind, a level-3 card: Time Stone too
    p = s.to_position()
    assert [x["tokens"][G] for x in p["seats"]] == [0, 0] and p["supply"][G] == 2


def test_time_stone_never_more_than_one_green_per_player(impl):
    pos = fresh(2)
    give_cards(pos, 0, "Black Bolt")  # the first Time Stone card, with its green
    on_board(pos, "Iron Fist", 2)
    give_price(pos, 0, "Iron Fist")
    s = load(impl, pos)
    act(s, "buy 84")
    p = s.to_position()
    assert p["seats"][0]["tokens"][G] == 1 and p["supply"][G] == 1
    assert p["seats"][0]["cards"] == [card("Black Bolt"), card("Iron Fist")]


# ----------------------------------------------------------------------------- end of turn: tokens
def _strange_for_free(pos: dict, seat: int) -> None:
    """The seat holds seven purple bonuses (no icons) and two icons (Spider-Woman, Squirrel
    Girl); Doctor Strange (red, 4 points, 1 icon, Time Stone, costs p7) is face up: free."""
    give_cards(pos, seat, "Gorgon", "Rhino", "Abomination", "Kraven", "Lizard", "Scorpion",
               "Carnage", "Spider-Woman", "Squirrel Girl")
    on_board(pos, "Doctor Strange", 0)


def test_green_at_the_ten_token_limit_is_never_returned(impl):
    pos = fresh(2)
    _strange_for_free(pos, 0)
    give_tokens(pos, 0, r=4, o=4, s=2)  # 10 tokens
    s = load(impl, pos)
    act(s, "buy 75")  # free; the green makes 11
    assert s.phase() == "return" and s.current_player() == 0
    assert s.to_position()["seats"][0]["tokens"] == [0, 4, 4, 0, 0, 1, 2]
    assert s.legal_actions() == [spec.RETURN + k for k in (R, O, S)]
    before = s.to_position()
    with pytest.raises(IllegalActionError, match="never be returned"):
        act(s, "return g")
    assert s.to_position() == before
    act(s, "return s")
    p = s.to_position()
    assert (p["phase"], p["current"]) == ("main", 1)
    assert p["seats"][0]["tokens"] == [0, 4, 4, 0, 0, 1, 1]


def test_token_limit_counts_green_and_grey(impl):
    pos = fresh(2)
    give_cards(pos, 0, "Black Bolt")
    give_tokens(pos, 0, y=2, r=2, o=2, b=2, s=1)  # 9 + the green = 10
    s = load(impl, pos)
    act(s, "take ybp")  # 13
    for _ in range(3):
        assert s.phase() == "return" and G not in [a - spec.RETURN for a in s.legal_actions()]
        act(s, "return y")
    p = s.to_position()
    assert p["phase"] == "main" and p["current"] == 1
    assert p["seats"][0]["tokens"] == [0, 2, 2, 3, 1, 1, 1] and sum(p["seats"][0]["tokens"]) == 10


# ----------------------------------------------------------------------------- end of turn: Avengers
def test_avengers_first_to_three_icons_takes_the_tile(impl):
    pos = fresh(2)
    give_cards(pos, 0, "Spider-Woman", "Squirrel Girl")  # 2 icons
    on_board(pos, "Ms. Marvel", 0)  # 1 icon
    give_price(pos, 0, "Ms. Marvel")
    s = load(impl, pos)
    act(s, "buy 8")
    p = s.to_position()
    assert p["avengers"] == 0 and spec.seat_points(p, 0) == 3


def test_avengers_checked_after_the_returns(impl):
    pos = fresh(2)
    _strange_for_free(pos, 0)
    give_tokens(pos, 0, r=4, o=4, s=2)
    s = load(impl, pos)
    act(s, "buy 75")  # 3 icons, but first the token limit
    assert s.phase() == "return" and s.to_position()["avengers"] is None
    act(s, "return r")
    assert s.to_position()["avengers"] == 0


def _holder_and_rival(rival_icons: int) -> dict:
    """Seat 0 holds the tile with 3 icons; seat 1 has ``rival_icons`` and can recruit Quake
    (red, 1 icon, costs o3 b1 p1) on its turn."""
    pos = fresh(2, seed=3)
    give_cards(pos, 0, "Spider-Woman", "Squirrel Girl", "Ms. Marvel")
    rivals = ["Hawkeye", "Kate Bishop", "Valkyrie"][:rival_icons]
    give_cards(pos, 1, *rivals)
    pos["avengers"] = 0
    pos["current"] = 1
    on_board(pos, "Quake", 0)
    give_price(pos, 1, "Quake")
    return pos


def test_avengers_tie_leaves_the_tile_with_the_holder(impl):
    s = load(impl, _holder_and_rival(2))
    act(s, "buy 9")  # seat 1 reaches 3 icons: a tie
    p = s.to_position()
    assert p["avengers"] == 0 and spec.icons(p["seats"][1]["cards"]) == 3
    assert spec.seat_points(p, 0) == 3 and spec.seat_points(p, 1) == 0


def test_avengers_strictly_more_icons_take_the_tile_over(impl):
    s = load(impl, _holder_and_rival(3))
    assert points(s, 0) == 3
    act(s, "buy 9")  # seat 1 reaches 4 icons against 3
    p = s.to_position()
    assert p["avengers"] == 1
    assert spec.seat_points(p, 0) == 0 and spec.seat_points(p, 1) == 3
    assert s.points(0) == 0 and s.points(1) == 3


# ----------------------------------------------------------------------------- end of turn: locations
def _two_locations_in_reach(locations) -> dict:
    """Seat 0 has bonuses y4 r4 b3 and can recruit Lockjaw (blue): b4 meets both Avengers
    Tower (y4 b4) and Wakanda (r4 b4) at once."""
    pos = fresh(2, locations=locations)
    give_cards(pos, 0, "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.", "Wong", "Triton",
               "Electro", "Mysterio", "Moon Knight", "Spider-Man 2099", "Elektra")
    on_board(pos, "Lockjaw", 0)
    give_price(pos, 0, "Lockjaw")
    return pos


def test_location_is_compulsory_and_automatic_when_one_qualifies(impl):
    s = load(impl, _two_locations_in_reach([ASGARD, TOWER]))
    act(s, "buy 29")
    p = s.to_position()
    assert (p["phase"], p["current"]) == ("main", 1)
    assert p["seats"][0]["locations"] == [TOWER] and p["locations"] == [ASGARD]
    assert spec.seat_points(p, 0) == 3  # the cards are worth 0 points: the location's 3


def test_two_locations_at_once_the_player_chooses_one(impl):
    s = load(impl, _two_locations_in_reach([TOWER, WAKANDA]))
    act(s, "buy 29")
    assert s.phase() == "location" and s.current_player() == 0
    assert s.legal_actions() == [spec.LOCATION + WAKANDA, spec.LOCATION + TOWER]
    for bad in (spec.LOCATION + ASGARD, spec.TAKE3, spec.PASS):
        with pytest.raises(IllegalActionError):
            s.apply_action(bad)
    assert s.action_to_string(spec.LOCATION + TOWER) == "location 7"
    act(s, "location 7")
    p = s.to_position()
    assert p["seats"][0]["locations"] == [TOWER] and p["locations"] == [WAKANDA]
    assert (p["phase"], p["current"], p["turn"]) == ("main", 1, 1)
    # At most one per turn: the other comes at the end of seat 0's next turn.
    act(s, "take yro")
    act(s, "take yro")
    p = s.to_position()
    assert p["seats"][0]["locations"] == [WAKANDA, TOWER] and p["locations"] == []


def test_locations_count_bonuses_not_tokens(impl):
    pos = fresh(2, locations=[TOWER, ASGARD])
    give_cards(pos, 0, "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.")  # y4
    give_tokens(pos, 0, b=4)
    s = load(impl, pos)
    act(s, "take yro")
    assert s.to_position()["seats"][0]["locations"] == []


# ----------------------------------------------------------------------------- the Infinity Gauntlet
def _gauntlet_ready(pos: dict, seat: int, *extra, slot: int = 0) -> None:
    """The seat holds one bonus of each colour (5 points), Loki (5 points, Time Stone: the
    green) and ``extra`` cards, and can recruit Jessica Jones (purple, 3 points) from the
    level-2 ``slot``."""
    give_cards(pos, seat, *ONE_OF_EACH, "Loki", *extra)
    if card("Jessica Jones") not in pos["board"][1]:
        on_board(pos, "Jessica Jones", slot)
    give_price(pos, seat, "Jessica Jones")


def test_gauntlet_needs_points_every_colour_and_a_green_token(impl):
    pos = fresh(2)
    _gauntlet_ready(pos, 0, "Hela")  # 13 points; Jessica Jones makes 16
    s = load(impl, pos)
    act(s, "buy 69")
    p = s.to_position()
    assert spec.seat_points(p, 0) == 16 and p["final_round"] is True
    assert spec.meets_gauntlet(p, 0) and not s.is_terminal()

    pos = fresh(2)  # 17 points and every colour, but no green token
    give_cards(pos, 0, *ONE_OF_EACH, "Hela", "Red Skull", "Daredevil")
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, 0, "Jessica Jones")
    s = load(impl, pos)
    act(s, "buy 69")
    p = s.to_position()
    assert spec.seat_points(p, 0) == 17 and p["final_round"] is False

    pos = fresh(2)  # 17 points and the green token, but no blue bonus
    give_cards(pos, 0, "Vulture", "Sandman", "Yondu", "Loki", "Hela", "Red Skull")
    on_board(pos, "Jessica Jones", 0)
    give_price(pos, 0, "Jessica Jones")
    s = load(impl, pos)
    act(s, "buy 69")
    p = s.to_position()
    assert spec.seat_points(p, 0) == 17 and s.bonuses(0)[B] == 0 and p["final_round"] is False


def test_gauntlet_trigger_on_a_middle_seat_finishes_the_round(impl):
    pos = fresh(3)
    pos["current"] = 1
    _gauntlet_ready(pos, 1, "Hela")
    s = load(impl, pos)
    act(s, "buy 69")
    p = s.to_position()
    assert p["final_round"] is True and (p["phase"], p["current"]) == ("main", 2)
    act(s, "take yro")  # seat 2, the last seat, plays the last turn
    assert s.is_terminal() and s.phase() == "over" and s.legal_actions() == []
    assert s.returns() == [0.0, 1.0, 0.0] and s.to_position()["turn"] == 2
    with pytest.raises(IllegalActionError):
        s.apply_action(spec.TAKE3)


@pytest.mark.parametrize(
    "players,start_seat,current,ends_now",
    [(2, 0, 1, True), (2, 0, 0, False), (3, 1, 0, True), (3, 1, 2, False), (4, 2, 1, True), (4, 0, 0, False)],
)
def test_gauntlet_trigger_on_the_last_seat_ends_the_game_at_once(impl, players, start_seat, current, ends_now):
    pos = fresh(players)
    pos["start_seat"], pos["current"] = start_seat, current
    _gauntlet_ready(pos, current, "Hela")
    s = load(impl, pos)
    act(s, "buy 69")
    assert s.is_terminal() is ends_now
    if not ends_now:
        while not s.is_terminal():  # the others finish the round
            assert s.to_position()["final_round"]
            act(s, "take yro")
        assert s.to_position()["current"] == (start_seat - 1) % players
    assert s.returns() == [1.0 if i == current else 0.0 for i in range(players)]


def test_only_players_meeting_the_gauntlet_can_win(impl):
    pos = fresh(2)
    _gauntlet_ready(pos, 0, "Hela")  # 16 at the end
    # Seat 1: 19 points, every colour but no green token.
    give_cards(pos, 1, "Karnak", "Venom", "Punisher", "Miles Morales", "Ronan", "Red Skull",
               "Daredevil", "Nebula")
    s = load(impl, pos)
    act(s, "buy 69")
    act(s, "take yro")
    p = s.to_position()
    assert s.is_terminal() and spec.seat_points(p, 1) == 19 > spec.seat_points(p, 0) == 16
    assert s.returns() == [1.0, 0.0]


# ----------------------------------------------------------------------------- the winner
def _tie_position(seat0_avengers: bool, seat1_extra=()) -> dict:
    """Seat 0 reaches 16 with Jessica Jones (8 cards; or 12 with 3 icons and the tile instead of
    Hela); seat 1, the last seat, then reaches 16 with Shuri (7 cards + extra)."""
    pos = fresh(2, seed=4)
    if seat0_avengers:
        _gauntlet_ready(pos, 0, "Spider-Woman", "Squirrel Girl", "Ms. Marvel")
        pos["avengers"] = 0
    else:
        _gauntlet_ready(pos, 0, "Hela")
    give_cards(pos, 1, "Karnak", "Venom", "Punisher", "Miles Morales", "Ronan", "Gamora", *seat1_extra)
    on_board(pos, "Shuri", 1)
    give_price(pos, 1, "Shuri")
    return pos


def _play_tie(impl, pos):
    s = load(impl, pos)
    act(s, "buy 69")
    act(s, "buy 40")
    p = s.to_position()
    assert s.is_terminal() and spec.meets_gauntlet(p, 0) and spec.meets_gauntlet(p, 1)
    assert spec.seat_points(p, 0) == spec.seat_points(p, 1) == 16
    return s, p


def test_tie_break_avengers_tile_holder(impl):
    s, p = _play_tie(impl, _tie_position(seat0_avengers=True))
    assert p["avengers"] == 0 and len(p["seats"][0]["cards"]) > len(p["seats"][1]["cards"])
    assert s.returns() == [1.0, 0.0]


def test_tie_break_fewest_recruited_cards(impl):
    s, p = _play_tie(impl, _tie_position(seat0_avengers=False))
    assert p["avengers"] is None and [len(x["cards"]) for x in p["seats"]] == [8, 7]
    assert s.returns() == [0.0, 1.0]


def test_still_tied_is_a_shared_victory(impl):
    s, p = _play_tie(impl, _tie_position(seat0_avengers=False, seat1_extra=("Rocket",)))
    assert [len(x["cards"]) for x in p["seats"]] == [8, 8]
    assert s.returns() == [0.5, 0.5]


# ----------------------------------------------------------------------------- the undone trigger
def _trigger_with_the_tile(players: int = 2) -> dict:
    """Seat 0 (the start seat) reaches exactly 16 with the Avengers tile (3 icons, 13 points,
    then Jessica Jones); seat 1 has 3 icons and can take the tile with Quake (4 icons)."""
    pos = fresh(players, seed=6)
    _gauntlet_ready(pos, 0, "Spider-Woman", "Squirrel Girl", "Ms. Marvel")
    pos["avengers"] = 0
    give_cards(pos, 1, "Hawkeye", "Kate Bishop", "Valkyrie")
    on_board(pos, "Quake", 0)
    give_price(pos, 1, "Quake")
    return pos


def test_undone_trigger_the_game_goes_on(impl):
    s = load(impl, _trigger_with_the_tile())
    act(s, "buy 69")
    p = s.to_position()
    assert p["final_round"] is True and spec.seat_points(p, 0) == 16
    assert spec.validate_position(p) == p
    act(s, "buy 9")  # seat 1, the last seat, takes the tile: seat 0 drops to 13
    p = s.to_position()
    assert p["avengers"] == 1 and spec.seat_points(p, 0) == 13
    assert not s.is_terminal() and p["final_round"] is False  # the trigger is undone
    assert (p["phase"], p["current"], p["turn"]) == ("main", 0, 2)
    assert s.returns() == [0.0, 0.0]
    # Play goes on; the condition met again triggers the end again.
    on = s.to_position()
    give_cards(on, 0, "Hela")
    on["current"] = 1
    s = load(impl, on)
    act(s, "take yro")
    assert s.to_position()["final_round"] is False and s.current_player() == 0
    act(s, "take yro")
    assert s.to_position()["final_round"] is True


def test_undone_trigger_another_player_meeting_the_condition_ends_the_game(impl):
    pos = _trigger_with_the_tile()
    give_cards(pos, 1, "Karnak", "Venom", "Punisher", "Miles Morales", "Ronan", "Gamora")
    s = load(impl, pos)
    act(s, "buy 69")
    act(s, "buy 9")  # seat 1 takes the tile and meets the condition itself: 18 points
    p = s.to_position()
    assert s.is_terminal() and spec.seat_points(p, 1) == 18 and spec.seat_points(p, 0) == 13
    assert s.returns() == [0.0, 1.0]


def test_undone_trigger_waits_for_the_end_of_the_round(impl):
    pos = _trigger_with_the_tile(players=3)
    s = load(impl, pos)
    act(s, "buy 69")
    act(s, "buy 9")  # seat 1 takes the tile; seat 2 still plays this round
    p = s.to_position()
    assert p["final_round"] is True and (p["current"], p["phase"]) == (2, "main")
    act(s, "take yro")
    p = s.to_position()
    assert not s.is_terminal() and p["final_round"] is False and p["current"] == 0


# ----------------------------------------------------------------------------- errors, notation
def test_green_returns_and_locations_are_well_formed_moves(impl):
    # The malformed moves both games refuse alike: test_cards_rules.py.
    s = load(impl, fresh(2))
    assert s.string_to_action("take oyr") == spec.TAKE3
    assert s.string_to_action("return g") == spec.RETURN + G  # well formed, never legal
    assert s.string_to_action("location 3") == spec.LOCATION + 3


# ----------------------------------------------------------------------------- invariants
def _check_invariants(s, players: int, initial_tiles: set[int]) -> None:
    p = POSITIONS.check_invariants(s, spec.token_totals(players))
    for x in p["seats"]:
        assert x["tokens"][G] == (1 if any(CARDS[c].time_stone for c in x["cards"]) else 0)
    owned = [lid for x in p["seats"] for lid in x["locations"]]
    assert {spec.tile_of(lid) for lid in p["locations"] + owned} == initial_tiles
    assert len(p["locations"] + owned) == players
    icons = [spec.icons(x["cards"]) for x in p["seats"]]
    if p["phase"] != "return":
        if p["avengers"] is None:
            assert max(icons) < 3
        else:
            assert icons[p["avengers"]] == max(icons) >= 3
    for i, x in enumerate(p["seats"]):
        expected = (sum(CARDS[c].points for c in x["cards"]) + 3 * len(x["locations"])
                    + 3 * (p["avengers"] == i))
        assert spec.seat_points(p, i) == s.points(i) == expected
    if s.is_terminal():
        winners = [i for i, r in enumerate(s.returns()) if r > 0]
        assert all(spec.meets_gauntlet(p, i) for i in winners)
        assert sum(s.returns()) == pytest.approx(1.0 if winners else 0.0)
    else:
        assert spec.RETURN + G not in s.legal_actions()


def test_conservation_invariants_after_every_action(impl):
    games = 0
    for players in (2, 3, 4):
        for seed in range(10):
            tiles = {spec.tile_of(lid) for lid in spec.initial_position(players, seed)["locations"]}
            for s, _ in random_playout_states(impl, players, seed, buy_bias=0.5 if seed % 2 else 0.2):
                _check_invariants(s, players, tiles)
            games += 1
    assert games == 30


def test_clone_and_position_share_no_locations_nor_tokens(impl):
    s = load_game("marvel", players=3, impl=impl).new_initial_state(seed=21)
    p = s.to_position()
    s.clone().apply_action(s.legal_actions()[0])
    assert s.to_position() == p
    p["locations"].append(9)
    p["seats"][0]["tokens"][G] += 1
    assert s.to_position() != p


# ----------------------------------------------------------------------------- positions
def _green_without_time_stone(p):
    give_tokens(p, 0, g=1)


def _time_stone_without_green(p):
    p["seats"][1]["cards"].append(p["decks"][2].pop())
    p["deck_sizes"][2] -= 1


def _two_greens(p):
    give_cards(p, 0, "Loki")
    give_tokens(p, 0, g=1)


def _two_sides_of_a_tile(p):
    p["locations"] = [2, 3]


def _tile_in_play_and_taken(p):
    give_cards(p, 0, "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.", "Moon Knight",
               "Spider-Man 2099", "Elektra", "Lockjaw")
    p["locations"] = [TOWER]
    p["seats"][0]["locations"] = [6]  # Attilan: the other side of tile 4


def _location_without_bonuses(p):
    p["seats"][1]["locations"] = [ASGARD]


def _too_many_locations(p):
    p["locations"] = [0, 2, 4]


def _holder_without_icons(p):
    give_cards(p, 0, "Spider-Woman", "Squirrel Girl")
    p["avengers"] = 0


def _icons_without_holder(p):
    give_cards(p, 1, "Spider-Woman", "Squirrel Girl", "Ms. Marvel")


def _rival_ahead_of_holder(p):
    give_cards(p, 0, "Spider-Woman", "Squirrel Girl", "Ms. Marvel")
    give_cards(p, 1, "Hawkeye", "Kate Bishop", "Valkyrie", "Wasp")
    p["avengers"] = 0


def _final_round_without_gauntlet(p):
    give_cards(p, 0, *ONE_OF_EACH, "Hela", "Red Skull", "Daredevil")  # 14 points, no green
    p["final_round"] = True


def _location_phase_with_one(p):
    p["locations"] = [TOWER]
    give_cards(p, 0, "Rocket", "Grandmaster", "Baron Zemo", "M.O.D.O.K.", "Moon Knight",
               "Spider-Man 2099", "Elektra", "Lockjaw")
    p["phase"] = "location"


def _seven_supply_kinds_needed(p):
    p["supply"] = p["supply"][:6]


def _six_seat_tokens(p):
    p["seats"][0]["tokens"] = [0] * 6


@pytest.mark.parametrize(
    "mutate,field",
    [
        (_green_without_time_stone, "seats[0].tokens[5]"),
        (_time_stone_without_green, "seats[1].tokens[5]"),
        (_two_greens, "seats[0].tokens[5]"),
        (_two_sides_of_a_tile, "locations[1]"),
        (_tile_in_play_and_taken, "seats[0].locations[0]"),
        (_location_without_bonuses, "seats[1].locations[0]"),
        (_too_many_locations, "locations"),
        (_holder_without_icons, "avengers"),
        (_icons_without_holder, "avengers"),
        (_rival_ahead_of_holder, "avengers"),
        (lambda p: p.update(avengers=2), "avengers"),
        (lambda p: p.update(avengers="0"), "avengers"),
        (_final_round_without_gauntlet, "final_round"),
        (_location_phase_with_one, "phase"),
        (lambda p: p.update(phase="return"), "phase"),
        (lambda p: p.update(phase="noble"), "phase"),
        (_seven_supply_kinds_needed, "supply"),
        (_six_seat_tokens, "seats[0].tokens"),
        (lambda p: p["supply"].__setitem__(S, 4), "supply[6]"),
        (lambda p: p["seats"][1].pop("locations"), "seats[1].locations"),
        (lambda p: p.pop("locations"), "locations"),
        (lambda p: p.update(locations=[8]), "locations[0]"),
        (lambda p: p.update(game="base"), "game"),
        (lambda p: p.update(players=5), "players"),
        (lambda p: p.update(current=2), "current"),
        (lambda p: p.update(decks=None), "decks"),
        (lambda p: p["seats"][0]["cards"].append(p["board"][0][0]), "seats[0].cards[0]"),
        (lambda p: p["seats"][1]["reserved"].append({"card": None, "level": 1, "blind": True}),
         "seats[1].reserved[0].card"),
        (lambda p: p["deck_sizes"].__setitem__(2, 15), "deck_sizes[2]"),
    ],
)
def test_malformed_positions_raise_position_error_naming_the_field(impl, mutate, field):
    pos = fresh(2, locations=[KNOWHERE, WAKANDA])
    mutate(pos)
    with pytest.raises(PositionError) as err:
        load_game("marvel", players=2, impl=impl).state_from_position(pos)
    assert err.value.field == field, str(err.value)


def test_return_phase_may_show_icons_ahead_of_the_tile(impl):
    # Before the end-of-turn step that moves the tile, the seat to act may be ahead of it.
    pos = fresh(2)
    _strange_for_free(pos, 0)
    give_tokens(pos, 0, r=4, o=4, s=2)
    s = load(impl, pos)
    act(s, "buy 75")
    p = s.to_position()
    assert p["phase"] == "return" and p["avengers"] is None
    assert load(impl, p).to_position() == p
    p["phase"] = "main"
    p["seats"][0]["tokens"][R] -= 1
    p["supply"][R] += 1
    with pytest.raises(PositionError) as err:
        load(impl, p)
    assert err.value.field == "avengers"


def test_position_for_another_player_count_rejected(impl):
    with pytest.raises(PositionError) as err:
        load_game("marvel", players=3, impl=impl).state_from_position(fresh(2))
    assert err.value.field == "players"
