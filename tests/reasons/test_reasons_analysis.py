"""The analysis says why: each verdict of ``analysis.judge`` carries reasons (a mistake's from
``explain_mistake``, any other decision's from ``explain_move``), every one of them true, and the
table and summary print a mistake's first reasons; reports of version 2 still print."""
from __future__ import annotations

from card_builders import CardPositions
from reason_checks import state_of
from splendor_ai import analysis
from splendor_ai.reasons import Reason
from splendor_ai.reasons.verify import check
from splendor_ai.search.arena import play_game
from splendor_ai.records import replay

B = CardPositions("base")
# Seat 0 is behind whatever it does: low thresholds mark the move that lets seat 1 win.
OPTIONS = analysis.Options(iterations=300, seed=1, mistake=0.02, blunder=0.04)


def threat():
    """Seat 0 to move, 10 points; seat 1, the last seat, 11 points, can buy card 87 and win
    next turn."""
    p = B.fresh(2, 1)
    p["nobles"] = []
    B.give_cards(p, 1, 85, 63, 42, 59)
    B.give_cards(p, 0, 73, 77)
    B.on_board(p, 87, 0)
    B.give_tokens(p, 1, r=4, y=1)
    return state_of(p)


def test_a_blunder_says_what_it_lets_the_opponent_do():
    s = threat()
    v = analysis.judge(s, "take wug", OPTIONS, 0)
    assert v["mark"] == "blunder"
    why = [Reason.from_dict(d) for d in v["reasons"]]
    assert Reason("LETS_OPPONENT_WIN", seat=1, card=87, move="take wug") in why
    view = s.view(0)
    for r in why:
        assert r.move in (v["move"], v["best"])
        if r.code != "SEARCH_BEST":
            check(view, r.move, r)
    text = analysis.table([v], "base")
    assert "why: " in text and "take wug lets seat 1 buy card 87 and win next turn" in text


def test_a_good_move_is_explained_by_what_it_does():
    s = threat()
    best = analysis.judge(s, "take wug", OPTIONS, 0)["best"]
    v = analysis.judge(s, best, OPTIONS, 0)
    assert v["mark"] == "" and v["reasons"], v
    why = [Reason.from_dict(d) for d in v["reasons"]]
    assert all(r.move is None for r in why)
    assert any(r.code in ("BLOCKS_OPPONENT_WIN", "WINS_GAME", "DENIES_CARD") for r in why), why
    for r in why:
        if r.code not in ("SEARCH_BEST", "PLANS_BUY"):
            check(s.view(0), best, r)


def test_every_verdict_of_a_game_has_true_reasons_and_the_summary_names_the_worst():
    record = play_game("base", 2, ["random", "greedy"], 3)
    report = analysis.analyze(record, analysis.Options(iterations=60, seed=2))
    states = replay(record)
    marked = 0
    for d in report["decisions"]:
        view = states[d["index"]].view(d["seat"])
        for r in map(Reason.from_dict, d["reasons"]):
            if r.code not in ("SEARCH_BEST", "PLANS_BUY"):  # claims about the search: checked with its result elsewhere
                check(view, r.move or d["move"], r)
        marked += bool(d["mark"])
    assert marked
    text = analysis.summary(report)
    assert "  worst: turn " in text


def test_old_reports_without_reasons_still_print():
    record = play_game("base", 2, ["random", "greedy"], 3)
    report = analysis.analyze(record, analysis.Options(iterations=40, seed=2))
    for d in report["decisions"]:
        del d["reasons"]
    report["version"] = 2
    assert "why:" not in analysis.table(report["decisions"], "base")
    assert "worst:" not in analysis.summary(report)
    assert analysis.table(report["decisions"])  # no game named: no sentences either
