"""The reasons' interface: the closed list and its document, the machine form, the sentence,
what a hint and a mistake return, and that nothing the mover cannot see changes them."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from reason_checks import result_of, state_of
from card_builders import CardPositions
from splendor_ai.games import load_game
from splendor_ai.reasons import CODES, Reason, ReasonError, explain_mistake, explain_move, facts, sentence
from splendor_ai.reasons.vocabulary import RANK, SUBJECTS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "reasons.md").read_text()
B = CardPositions("base")


def test_the_closed_list_is_the_documented_one_in_order():
    names = [c.name for c in CODES]
    assert len(names) == len(set(names)) == 31
    documented = re.findall(r"^### \d+\. `([A-Z_]+)`", DOC, flags=re.M)
    assert documented == names, "docs/reasons.md lists the codes in the closed order"
    for i, c in enumerate(CODES, 1):
        section = DOC.split(f"### {i}. `{c.name}`", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
        games = re.search(r"^- Games: ([a-z, ]+)\.", section, flags=re.M)
        assert games and set(games[1].split(", ")) == set(c.games), f"{c.name}: the games it applies to"
        assert "Example" in section and "Sentence" in section, c.name


@pytest.mark.parametrize("code", CODES, ids=lambda c: c.name)
def test_every_code_has_a_sentence_and_round_trips(code):
    r = Reason(code.name, **{s: 1 for s in code.subjects})
    for game in code.games:
        text = sentence(r, game)
        assert text and "None" not in text, text
        assert sentence(r.with_move("take wug"), game).startswith("take wug ")
    d = r.to_dict()
    assert d["code"] == code.name and Reason.from_dict(json.loads(json.dumps(d))) == r
    assert set(d) - {"code"} <= set(SUBJECTS)


def test_machine_form_rejects_what_is_not_a_reason():
    with pytest.raises(ReasonError):
        Reason("NO_SUCH_CODE")
    with pytest.raises(ReasonError):
        Reason.from_dict({"code": "SCORES", "cards": 3})
    with pytest.raises(ReasonError):
        Reason.from_dict({"points": 3})
    with pytest.raises(ReasonError):
        Reason("SCORES", points="3")
    assert Reason.from_dict({"code": "SCORES", "points": 3, "card": 7, "count": 4}).points == 3


def test_the_sentences_name_pieces_in_each_games_words():
    assert sentence(Reason("COMPLETES_NOBLE", piece=3, points=3), "base") == "completes noble 3 (+3 points)"
    assert sentence(Reason("COMPLETES_LOCATION", piece=7, points=3), "marvel") == \
        "completes location 7 (Avengers Tower, NYC) (+3 points)"
    assert sentence(Reason("SCORES", piece=0, points=3, count=5), "duel") == \
        "scores 3 points with royal card 0 (5 in all)"
    assert sentence(Reason("LETS_OPPONENT_WIN", seat=1, card=77, move="take wug"), "base") == \
        "take wug lets seat 1 buy card 77 and win next turn"
    assert sentence(Reason("TAKES_LAST_TOKENS", colour=1, seat=1, card=5), "base") == \
        "takes the last blue tokens, which seat 1 needs for card 5"


def threat():
    p = B.fresh(2, 1)
    p["nobles"] = []
    B.give_cards(p, 1, 85, 63, 42, 59)
    B.give_cards(p, 0, 73)
    B.on_board(p, 87, 0)
    B.give_tokens(p, 1, r=4, y=1)
    return state_of(p)


def test_a_hint_is_ordered_by_importance_and_a_few_of_each():
    s = threat()
    hint = explain_move(s, "take wug")
    assert hint[0].code == "LETS_OPPONENT_WIN"
    assert [r.rank for r in hint] == sorted(r.rank for r in hint)
    assert len(hint) <= 6 and len(hint) <= len(facts(s, "take wug"))
    assert explain_move(s, s.string_to_action("take wug")) == hint  # an id or notation


def test_a_mistake_names_what_the_better_move_does_and_what_the_played_one_allows():
    s = threat()
    why = explain_mistake(s, "take wug", "reserve 87")
    codes = {(r.move, r.code) for r in why}
    assert ("reserve 87", "BLOCKS_OPPONENT_WIN") in codes and ("take wug", "LETS_OPPONENT_WIN") in codes
    assert all(r.move in ("take wug", "reserve 87") for r in why)
    assert all(r.good == (r.move == "reserve 87") for r in why)
    assert explain_mistake(s, "take wug", "take wug") == []


def test_a_mistake_falls_back_on_the_search_when_the_facts_agree():
    p = B.fresh(2, 1)
    s = state_of(p)
    result = result_of(s, [("take wug", 70, 0.52, ["take wug"]), ("take wur", 30, 0.49, ["take wur"])])
    why = explain_mistake(s, "take wur", "take wug", result)
    assert why, "some reason"
    if all(r.code == "SEARCH_BEST" for r in why):
        assert why == [Reason("SEARCH_BEST", count=52, move="take wug")]


@pytest.mark.parametrize("game", ["base", "duel", "marvel"])
def test_only_what_the_mover_sees_counts(game):
    """The reasons of a move are the same from the full state, from the mover's view, and from
    other full states that differ only in what the mover cannot see (deck order, the others'
    blind reserves, Duel's bag)."""
    rng = random.Random(3)
    g = load_game(game, 2)
    compared = 0
    for deal in range(40):
        s = g.new_initial_state(deal)
        for _ in range(rng.randrange(10, 60)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.search_actions()))
        if s.is_terminal():
            continue
        seat = s.current_player()
        view = s.view(seat)
        other = view.resample(seat, random.Random(deal))
        for a in rng.sample(s.search_actions(), min(3, len(s.search_actions()))):
            assert facts(s, a) == facts(view, a) == facts(other, a)
            compared += 1
    assert compared > 30


def test_a_view_of_another_seat_or_an_illegal_move_is_refused():
    s = threat()
    with pytest.raises(ReasonError):
        explain_move(s.view(1), "take wug")
    with pytest.raises(ReasonError):
        explain_move(s, "buy 71")  # seat 0 cannot pay for card 71
    assert RANK["WINS_GAME"] == 0


def test_the_documented_interface_is_the_code_s():
    """docs/reasons.md's interface block (a listing, not a program): each function it lists takes
    the parameters it names, with the defaults it shows, so the page cannot drift from the code."""
    import inspect
    import re
    from pathlib import Path

    from splendor_ai import reasons as R
    from splendor_ai.reasons import verify as V

    text = (Path(__file__).resolve().parents[2] / "docs" / "reasons.md").read_text()
    block = text.split("## The interface\n\n```text\n", 1)[1].split("```", 1)[0]
    exec(block.split("\n\n", 1)[0], {})  # its imports run
    listed = re.findall(r"^(\w+)\(([^)]*)\) ->", block, re.M)
    assert {name for name, _ in listed} >= {"explain_move", "explain_mistake", "facts", "sentence", "verify"}
    for name, params in listed:
        fn = getattr(V, name) if callable(getattr(V, name, None)) else getattr(R, name)
        actual = [p.name + (f"={p.default!r}" if p.default is not inspect.Parameter.empty else "")
                  for p in inspect.signature(fn).parameters.values()]
        shown = [p.strip() for p in params.split(",")]
        assert actual[:len(shown)] == shown, (name, shown, actual)
        assert all("=" in p for p in actual[len(shown):]), (name, "undocumented parameters without a default")
