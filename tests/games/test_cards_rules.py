"""The rules the base game and Marvel share (the card-game layer, splendor_ai/games/cards/ and
ext/cards.pxd), tested once on both games and both implementations: the deal's actions,
taking three colours, passing, rejected actions and malformed notation, notation round
trips, hidden information (views and resampling), search actions, positions and clones.
Each game's own clauses are in test_base_rules.py and test_marvel_rules.py.
"""
from __future__ import annotations

import random

import pytest

import marvel_builders
from builders import dead_position as base_dead_position
from card_builders import CardPositions, assert_all_rejected, rejected_everywhere
from splendor_ai.games import HiddenInformationError, IllegalActionError, NotationError, load_game

POSITIONS = {"base": CardPositions("base"), "marvel": marvel_builders.POSITIONS}
DEAD = {"base": base_dead_position, "marvel": marvel_builders.dead_position}
TAKE3 = {"base": "take wug", "marvel": "take yro"}  # the first three colours


@pytest.fixture(params=["base", "marvel"])
def game(request):
    return request.param


def _zeros_but(spec, **at) -> list[int]:
    counts = [0] * spec.RULES.kinds
    for kind, n in at.items():
        counts[int(kind[1:])] = n
    return counts


# ----------------------------------------------------------------------------- the deal, taking
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal(impl, game, players):
    b = POSITIONS[game]
    spec = b.spec
    s = load_game(game, players=players, impl=impl).new_initial_state(seed=7)
    pos = s.to_position()
    assert pos == spec.initial_position(players, 7)  # the same seed deals the same game
    assert pos["deck_sizes"] == [36, 26, 16]
    for lv in range(3):
        assert all(b.cards[c].level == lv + 1 for c in pos["board"][lv])
    pieces = spec.RULES.own.name + "s"
    assert all(seat == {"tokens": [0] * spec.RULES.kinds, "cards": [], "reserved": [], pieces: []}
               for seat in pos["seats"])
    assert (pos["current"], pos["phase"], pos["turn"], pos["passes"]) == (0, "main", 0, 0)
    assert s.current_player() == 0 and s.phase() == "main" and not s.is_terminal()
    assert s.returns() == [0.0] * players
    # 10 three-colour takes, 5 two-same takes (piles of 4+), 12 board and 3 blind reserves.
    assert s.legal_actions() == (
        list(range(spec.TAKE3, spec.TAKE3 + 10))
        + list(range(spec.TAKE2_SAME, spec.TAKE2_SAME + 5))
        + list(range(spec.RESERVE_BOARD, spec.RESERVE_BOARD + 12))
        + [spec.RESERVE_DECK, spec.RESERVE_DECK + 1, spec.RESERVE_DECK + 2]
    )


def test_take_three_different_colours(impl, game):
    b = POSITIONS[game]
    s = b.load(impl, b.fresh(2))
    assert b.of_kind(s.legal_actions(), "take3") == list(range(10))
    assert b.of_kind(s.legal_actions(), "take2diff", "take1") == []
    b.act(s, TAKE3[game])
    assert s.to_position()["seats"][0]["tokens"] == _zeros_but(b.spec, k0=1, k1=1, k2=1)


# ----------------------------------------------------------------------------- passing
def test_pass_only_when_nothing_else_legal(impl, game):
    b = POSITIONS[game]
    s = b.load(impl, b.fresh(2))
    assert b.spec.PASS not in s.legal_actions()
    with pytest.raises(IllegalActionError):
        b.act(s, "pass")
    s = b.load(impl, DEAD[game]())
    assert s.legal_actions() == [b.spec.PASS] and s.search_actions() == [b.spec.PASS]
    b.act(s, "pass")
    p = s.to_position()
    assert (p["current"], p["turn"], p["passes"], p["phase"]) == (1, 1, 1, "main")


# ----------------------------------------------------------------------------- errors, notation
# Per game: tokens that empty the blue pile (red left at 3), a dear card, a take of blue.
REJECTED = {
    "base": ({"u": 4, "r": 1}, 73, "take wug"),
    "marvel": ({"b": 4, "r": 1}, marvel_builders.card("Luke Cage"), "take ybp"),
}


def test_rejected_action_leaves_state_unchanged(impl, game):
    b = POSITIONS[game]
    spec = b.spec
    tokens, dear, take_blue = REJECTED[game]
    pos = b.fresh(2)
    b.give_tokens(pos, 1, **tokens)
    b.give_reserved(pos, 0, *pos["decks"][0][:3])  # seat 0 holds 3 reserved
    expensive = b.on_board(pos, dear, 0)
    s = b.load(impl, pos)
    own = spec.RULES.own
    piece = own.first + (pos[own.name + "s"] or [0])[0]
    assert_all_rejected(s, [
        (s.string_to_action(take_blue), ("take", "empty")),
        (s.string_to_action("take rr"), ("take", "")),
        (spec.RESERVE_BOARD, ("reserve", "3")),
        (spec.RESERVE_DECK, ("reserve", "3")),
        (spec.buy_action(expensive), ("buy", "afford")),
        (spec.RETURN, ("return", "")),
        (piece, (own.name, "")),
        (spec.PASS, ("pass", "")),
        (TAKE3[game], ("", "")),
        *rejected_everywhere(spec),
    ])


# Per game: moves that are not well formed (with {on}: a card face up, {off}: one that is not).
MALFORMED = {
    "base": ["", "   ", "fly", "take", "take wugr", "take wwu", "take yy", "take wx", "take w u", "buy",
             "buy 999", "buy abc", "buy {on} pay", "buy {on} pay zz", "buy {on} with wu", "buy {off}", "reserve",
             "reserve deck4", "reserve deck", "reserve 90", "reserve {off}", "return", "return wu", "return x",
             "noble", "noble 10", "noble x", "pass now"],
    "marvel": ["", "fly", "take", "take yrob", "take yyr", "take yg", "take ss", "take y r o", "buy", "buy 90",
               "buy abc", "buy {on} pay", "buy {on} pay zz", "buy {on} pay g", "buy {off}", "reserve",
               "reserve deck4", "reserve 90", "reserve {off}", "return", "return yr", "return x", "location",
               "location 8", "location x", "noble 1", "pass now"],
}


def test_malformed_notation_raises_notation_error(impl, game):
    b = POSITIONS[game]
    pos = b.fresh(2)
    s = b.load(impl, pos)
    on, off = pos["board"][0][0], pos["decks"][0][0]
    for text in [t.format(on=on, off=off) for t in MALFORMED[game]] + [42, None]:
        with pytest.raises(NotationError):
            s.string_to_action(text)
    for action in (-1, b.spec.NUM_ACTIONS):
        with pytest.raises(NotationError):
            s.action_to_string(action)
    assert s.string_to_action(f"  {TAKE3[game].upper()} ") == s.string_to_action(TAKE3[game]) == b.spec.TAKE3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_notation_round_trip_random_games(impl, game, players):
    for seed in range(4):
        for s, _ in POSITIONS[game].random_playout_states(impl, players, seed=100 + seed):
            legal = s.legal_actions()
            texts = [s.action_to_string(a) for a in legal]
            assert len(set(texts)) == len(texts)
            assert [s.string_to_action(t) for t in texts] == legal


# ----------------------------------------------------------------------------- hidden information
def _with_blind_reserves(impl, game):
    spec = POSITIONS[game].spec
    s = load_game(game, players=2, impl=impl).new_initial_state(seed=3)
    s.apply_action(spec.RESERVE_DECK)  # seat 0: blind level 1
    s.apply_action(spec.RESERVE_DECK + 1)  # seat 1: blind level 2
    s.apply_action(spec.RESERVE_BOARD + 8)  # seat 0: face-up level 3
    return s  # seat 1 to act


def test_view_hides_deck_order_and_others_blind_reserves(impl, game):
    b = POSITIONS[game]
    spec = b.spec
    s = _with_blind_reserves(impl, game)
    full = s.to_position()
    v0 = s.view(0).to_position()
    assert v0 == spec.view_position(full, 0)
    assert v0["decks"] is None and v0["observer"] == 0
    assert v0["deck_sizes"] == full["deck_sizes"] and v0["board"] == full["board"]
    pieces = spec.RULES.own.name + "s"
    assert v0[pieces] == full[pieces]  # nobles, locations: public
    assert v0["seats"][0]["reserved"] == full["seats"][0]["reserved"]
    assert v0["seats"][1]["reserved"] == [{"card": None, "level": 2, "blind": True}]
    v1 = s.view(1)
    p1 = v1.to_position()
    assert p1["seats"][0]["reserved"] == [
        {"card": None, "level": 1, "blind": True},
        full["seats"][0]["reserved"][1],  # reserved face up: public
    ]
    assert p1["seats"][1]["reserved"] == full["seats"][1]["reserved"]
    # the seat to act sees what it needs to choose; another seat's view does not
    assert v1.legal_actions() == s.legal_actions() and v1.current_player() == 1
    with pytest.raises(HiddenInformationError):
        s.view(0).legal_actions()
    # a move that draws an unknown card cannot be played on a view
    before = v1.to_position()
    for action in (spec.RESERVE_DECK, spec.RESERVE_BOARD):
        with pytest.raises(HiddenInformationError):
            v1.apply_action(action)
        assert v1.to_position() == before
    b.act(v1, TAKE3[game])
    assert v1.to_position()["seats"][1]["tokens"] == _zeros_but(spec, k0=1, k1=1, k2=1, **{f"k{spec.RULES.wild}": 1})


@pytest.mark.parametrize("seat", [0, 1])
def test_resample_keeps_what_seat_sees_and_redraws_unseen_pool(impl, game, seat):
    spec = POSITIONS[game].spec
    s = _with_blind_reserves(impl, game)
    full = s.to_position()
    seen = s.view(seat).to_position()
    pool = spec.unseen_cards(seen, seat)
    other = 1 - seat
    orders = set()
    for rng_seed in range(6):
        for source in (s, s.view(seat)):
            r = source.resample(seat, random.Random(rng_seed))
            rp = r.to_position()
            assert rp["observer"] is None and spec.validate_position(rp) == rp
            assert r.view(seat).to_position() == seen
            for lv in range(3):
                hidden = [x["card"] for x in rp["seats"][other]["reserved"] if x["blind"] and x["level"] == lv + 1]
                assert sorted(rp["decks"][lv] + hidden) == pool[lv]
            orders.add(tuple(map(tuple, rp["decks"])))
    assert len(orders) > 1
    assert s.to_position() == full
    with pytest.raises(HiddenInformationError):  # this view does not know seat's blind reserve
        s.view(other).resample(seat, random.Random(0))
    assert (
        s.resample(seat, random.Random(9)).to_position()
        == s.resample(seat, random.Random(9)).to_position()
    )


# ----------------------------------------------------------------------------- actions, positions
def test_search_actions_are_legal_actions_with_default_payment(impl, game):
    b = POSITIONS[game]
    for s, _ in b.random_playout_states(impl, 3, seed=11):
        if s.is_terminal():
            assert s.search_actions() == []
            break
        legal, search = s.legal_actions(), s.search_actions()
        assert search == [a for a in legal if b.spec.action_kind(a) != "buy" or b.spec.split_buy(a)[1] == 0]


def test_position_round_trip_and_clone_independence(impl, game):
    b = POSITIONS[game]
    rules = load_game(game, players=3, impl=impl)
    for s, a in b.random_playout_states(impl, 3, seed=21):
        p = s.to_position()
        t = rules.state_from_position(p)
        assert t.to_position() == p and t.legal_actions() == s.legal_actions()
        if a is None:
            break
        c = s.clone()
        c.apply_action(a)
        assert s.to_position() == p  # the clone shares nothing
        p["supply"][0] += 1
        p["seats"][0]["tokens"].append(9)
        p["board"][0][0] = 99
        if p["decks"][0]:
            p["decks"][0].pop()
        assert s.to_position() != p  # nor does the position dictionary
