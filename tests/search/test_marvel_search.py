"""The search plays Splendor: Marvel through the core's GameDef (ext/marvel.pyx): it runs from
a deal and from a seat's view, and its evaluation knows that points alone do not win -- the
Infinity Gauntlet also needs every colour and a green token."""
from __future__ import annotations

from marvel_builders import ONE_OF_EACH, card, fresh, give_cards, give_tokens, on_board
from splendor_ai.games import load_game
from splendor_ai.games.marvel import spec
from splendor_ai.search import Config, Limits, search


def test_search_runs_from_the_deal():
    state = load_game("marvel", 2).new_initial_state(1)
    result = search(state, Limits(iterations=2000))
    assert result.iterations == 2000 and result.action in state.search_actions()
    assert result.move == state.action_to_string(result.action)
    assert abs(sum(result.win_probability) - 1.0) < 1e-6


def test_search_runs_from_a_seats_view_with_hidden_cards():
    state = load_game("marvel", 3).new_initial_state(4)
    for text in ("reserve deck1", "reserve deck2"):  # seats 0 and 1 reserve blind
        state.apply_action(state.string_to_action(text))
    view = state.view(2)
    result = search(view, Limits(iterations=1000), Config(seed=3))
    assert result.seat == 2 and result.action in state.search_actions()


def _green_or_points() -> tuple[dict, int, int]:
    """Seat 0 (not the last seat) has 14 points and every colour but no green token. It can
    recruit Jessica Jones (3 points) or Black Widow (3 points, the Time Stone: a green token,
    which completes the Gauntlet). On points and bonuses alone the two are alike."""
    pos = fresh(2, seed=2)
    give_cards(pos, 0, *ONE_OF_EACH, "Hela", "Red Skull", "Daredevil", "Rocket", "Wong")
    on_board(pos, "Jessica Jones", 0)
    on_board(pos, "Black Widow", 0)
    give_tokens(pos, 0, y=3, r=2, b=2, p=2)  # enough for either
    return pos, card("Jessica Jones"), card("Black Widow")


def test_search_completes_the_gauntlet_rather_than_take_equal_points():
    pos, jessica, widow = _green_or_points()
    # Seat 1 (13 points, every colour, green) can reach 16 with Nebula on its turn: after
    # Jessica Jones it would end the game as the only seat meeting the condition; after
    # Black Widow seat 0 has triggered with 17 and wins.
    give_cards(pos, 1, "Loki", "Karnak", "Punisher", "Miles Morales", "Ronan")
    on_board(pos, "Nebula", 1)
    give_tokens(pos, 1, p=2, s=3)
    state = load_game("marvel", 2).state_from_position(pos)
    legal = [state.action_to_string(a) for a in state.search_actions()]
    assert f"buy {jessica}" in legal and f"buy {widow}" in legal
    after = state.clone()
    after.apply_action(after.string_to_action(f"buy {jessica}"))
    after.apply_action(after.string_to_action("buy 63"))  # Nebula
    assert after.is_terminal() and after.returns() == [0.0, 1.0]
    for config in (Config(seed=1, rollout_depth=0), Config(seed=2)):
        assert search(state, Limits(iterations=2000), config).move == f"buy {widow}"


def _evaluate(pos: dict) -> list[float]:
    return load_game("marvel", pos["players"]).state_from_position(pos).evaluate()


def test_evaluation_ranks_the_gauntlet_above_points():
    # Seat 1 (the start seat) met the condition with 16 points; seat 0, the last seat, has
    # 19 points and every colour but no green token: it cannot win on points.
    pos = fresh(2, seed=3)
    pos["start_seat"], pos["current"], pos["final_round"] = 1, 0, True
    give_cards(pos, 0, *ONE_OF_EACH, "Hela", "Red Skull", "Daredevil", "Nebula", "Punisher")
    give_cards(pos, 1, "Loki", "Luke Cage", "Karnak", "Star-Lord", "Miles Morales")
    p = load_game("marvel", 2).state_from_position(pos).to_position()
    assert (spec.seat_points(p, 0), spec.seat_points(p, 1)) == (19, 16)
    assert spec.meets_gauntlet(p, 1) and not spec.meets_gauntlet(p, 0)
    value = _evaluate(pos)
    assert value[1] > 0.6 > value[0] and abs(sum(value) - 1) < 1e-9


def test_evaluation_values_a_missing_colour_and_the_green_token():
    # Seat 0 has 15 points in each variant; only the complete one is a point from the end.
    variants = {
        "complete": (*ONE_OF_EACH, "Loki", "Jessica Jones", "Karnak"),
        "no green": (*ONE_OF_EACH, "Jessica Jones", "Hela", "Karnak", "Punisher"),
        "no blue": ("Vulture", "Sandman", "Yondu", "Scorpion", "Loki", "Jessica Jones", "Hela"),
    }
    v = {}
    for name, cards in variants.items():
        pos = fresh(2, seed=3)
        give_cards(pos, 1, "Daredevil", "Ronan", "Maximus", "Venom", "Gamora")  # 14, ready but for points
        give_cards(pos, 0, *cards)
        assert spec.seat_points(pos, 0) == 15
        v[name] = _evaluate(pos)[0]
    assert v["complete"] > v["no green"] + 0.1 and v["complete"] > v["no blue"] + 0.1


def test_last_seat_finds_the_only_winning_recruit():
    # Seat 0 triggered the end with 16 points; seat 1, the last seat, wins only by completing
    # its own Gauntlet with more points: Black Widow gives the green token and 3 points.
    pos, jessica, widow = _green_or_points()
    pos["seats"][0], pos["seats"][1] = pos["seats"][1], pos["seats"][0]
    give_cards(pos, 0, "Loki", "Luke Cage", "Karnak", "Punisher", "Miles Morales")
    pos["current"], pos["final_round"] = 1, True
    state = load_game("marvel", 2).state_from_position(pos)
    assert spec.meets_gauntlet(state.to_position(), 0) and spec.seat_points(state.to_position(), 0) == 16
    result = search(state, Limits(iterations=3000), Config(seed=5))
    assert result.move == f"buy {widow}"
    assert result.win_probability[1] > 0.9
