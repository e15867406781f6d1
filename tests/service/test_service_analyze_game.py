"""AnalyzeGame through the real server: a verdict per decision with progress, one final
summary, the same verdicts as ``splendor-ai analyze``, bad requests, cancellation."""
import asyncio
import time

import pytest
from splendor_ai_client import AsyncClient, Busy, Client, IllegalMove, InvalidArgument, ServiceError, with_drawn_card

from splendor_ai import analysis
from splendor_ai.games import load_game
from splendor_ai.search.arena import play_game
from splendor_ai.service import convert

ITERATIONS = 120


@pytest.fixture(scope="module")
def game():
    """A whole greedy-against-level-1 game: its record and its full initial position."""
    record = play_game("base", 2, ["greedy", "level:1"], 21)
    deal = convert.encode_position(load_game("base", 2).new_initial_state(record["seed"]))
    return record, deal


def test_a_verdict_per_decision_then_one_final_summary_as_the_cli_gives(client, game):
    record, deal = game
    reports = list(client.analyze_game(deal, record["actions"], iterations=ITERATIONS, seed=3, request_id="g-1"))
    n = len(record["actions"])
    assert len(reports) == n + 1 and [r.final for r in reports].count(True) == 1 and reports[-1].final
    assert [r.sequence for r in reports] == list(range(n + 1)) and all(r.request_id == "g-1" for r in reports)
    assert [r.done for r in reports[:-1]] == list(range(1, n + 1)) and all(r.total == n for r in reports)

    expected = analysis.analyze(record, analysis.Options(iterations=ITERATIONS, seed=3))
    for report, e in zip(reports, expected["decisions"]):
        v = report.decision
        assert (v.index, v.turn, v.seat, v.played.notation, v.best.notation) == \
            (e["index"], e["turn"], e["seat"], e["move"], e["best"])
        assert (v.played_value, v.best_value, v.drop) == pytest.approx((e["value"], e["best_value"], e["drop"]))
        assert v.mark == e["mark"] and v.forced == e["forced"]
        assert (v.played_visits, v.extra_visits) == (e["visits"], e["extra_visits"])
        assert [(t.move.notation, t.visits) for t in v.top] == [(t["move"], t["visits"]) for t in e["top"]]
        assert v.win_probability == pytest.approx(e["win_probability"])
    final = reports[-1]
    assert final.decision is None and final.status.game_over and final.status.returns == record["returns"]
    assert [(s.seat, s.decisions, s.mistakes, s.blunders, s.agreed) for s in final.seats] == \
        [(s["seat"], s["decisions"], s["mistakes"], s["blunders"], s["agreed"]) for s in expected["summary"]]
    assert [s.accuracy for s in final.seats] == pytest.approx([s["accuracy"] for s in expected["summary"]])
    assert [(s.loss_per_decision, s.given_away) for s in final.seats] == \
        [(s["loss_per_decision"], s["given_away"]) for s in expected["summary"]]
    for s, e in zip(final.seats, expected["summary"]):  # the CLI's estimate, field by field
        est = e["estimate"]
        assert est is not None and s.estimate is not None and est["off_budget"]  # analysed at ITERATIONS, not 2,000
        assert (s.estimate.level, s.estimate.level_low, s.estimate.level_high, s.estimate.elo, s.estimate.elo_low,
                s.estimate.elo_high, s.estimate.decisions, s.estimate.calibrated_iterations,
                s.estimate.off_budget) == \
            (est["level"], est["level_low"], est["level_high"], est["elo"], est["elo_low"], est["elo_high"],
             est["decisions"], est["calibrated_iterations"], est["off_budget"])
        assert str(s.estimate).startswith(f"plays like level {est['level']:.1f} (")
    o = final.options
    assert (o.iterations, o.threads, o.seed, o.played_visits, o.mistake, o.blunder) == \
        (ITERATIONS, 1, 3, ITERATIONS // 4, 0.10, 0.25)


def test_an_unfinished_game_and_no_moves_at_all(client, game):
    record, deal = game
    reports = list(client.analyze_game(deal, record["actions"][:4], iterations=50, mistake=0.05, blunder=0.2,
                                       played_visits=30))
    assert len(reports) == 5 and not reports[-1].status.game_over
    assert all(r.decision.played_visits >= 30 or r.decision.played == r.decision.best for r in reports[:-1])
    assert reports[-1].options.mistake == 0.05 and reports[-1].options.played_visits == 30
    only = list(client.analyze_game(deal, [], iterations=50))
    assert len(only) == 1 and only[0].final and only[0].total == 0 and len(only[0].seats) == 2


@pytest.mark.parametrize("kwargs, field", [
    (dict(iterations=-1), "iterations"),
    (dict(threads=-1), "threads"),
    (dict(iterations=100, played_visits=101), "played_visits"),
    (dict(mistake=1.5), "mistake"),
    (dict(mistake=float("nan")), "mistake"),
    (dict(mistake=0.3, blunder=0.2), "blunder"),
])
def test_bad_options_name_the_field(client, game, kwargs, field):
    record, deal = game
    with pytest.raises(InvalidArgument) as err:
        client.analyze_game(deal, record["actions"][:2], **kwargs).result()
    assert err.value.field == field, err.value.message


def test_a_view_is_refused_and_bad_moves_are_named(client, game):
    record, deal = game
    view = convert.encode_position(load_game("base", 2).new_initial_state(record["seed"]).view(0))
    with pytest.raises(InvalidArgument) as err:
        client.analyze_game(view, record["actions"][:2]).result()
    assert err.value.field == "initial_position.base.observer" and "full position" in err.value.message
    with pytest.raises(InvalidArgument) as err:
        client.analyze_game(deal, ["take wug", "take wugr"]).result()
    assert err.value.field == "moves[1].notation"
    with pytest.raises(IllegalMove) as err:
        client.analyze_game(deal, ["take uu", "take uu"]).result()  # 2 blue left: not 4
    assert err.value.field == "moves[1]"
    with pytest.raises(InvalidArgument) as err:
        client.analyze_game(deal, [with_drawn_card(record["actions"][0], 3)]).result()
    assert err.value.field == "moves[0].drawn_card"


def test_cancelling_stops_the_analysis_and_frees_the_slot(client, server, game):
    record, deal = game
    running = client.analyze_game(deal, record["actions"], iterations=50_000)
    first = next(running)
    assert first.done == 1 and not first.final
    running.cancel()
    assert list(running) == []
    deadline = time.monotonic() + 5
    while True:  # every batch slot is free again: as many game analyses as their cap start at once
        try:
            calls = [client.analyze_game(deal, record["actions"][:1], iterations=100) for _ in
                     range(server.max_batch)]
            assert all(c.result().final for c in calls)
            break
        except Busy:
            assert time.monotonic() < deadline, "the cancelled call kept its search slot"
            time.sleep(0.05)


def test_the_documented_example_runs(client, capsys):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    code = doc.split("### Python: a whole game reviewed", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    record = play_game("base", 2, ["greedy", "greedy"], 7)  # the deal of NewGame(seed=7)
    exec(compile(code, "protocol.md", "exec"), {"ai": client, "moves": record["actions"][:30]})
    out = capsys.readouterr().out
    assert out.count("plays like level ") == 2 and "seat 0: " in out and "% of a win a decision" in out


def test_a_server_shutdown_ends_a_game_analysis_with_unavailable(spawn_server, game):
    record, deal = game
    srv = spawn_server("--grace", "2")
    with Client(srv.target, timeout=30) as c:
        running = c.analyze_game(deal, record["actions"], iterations=50_000)
        assert next(running).done == 1
        t0 = time.monotonic()
        srv.proc.send_signal(15)
        with pytest.raises(ServiceError) as err:
            list(running)
        assert err.value.code.name == "UNAVAILABLE" and "shutting down" in err.value.message
        # Well inside the analysis's own time (minutes at 50,000 iterations a decision): the 2 s
        # grace plus room for a loaded machine (a nice'd run beside self-play took 3.5 s).
        assert srv.proc.wait(10) == 0 and time.monotonic() - t0 < 8
    assert "AnalyzeGame grpc shutdown: 1" in srv.text()  # counted in the refusals' summary line


def test_the_async_client_streams_the_same_verdicts(server, game):
    record, deal = game

    async def main():
        async with AsyncClient(server.target, timeout=30) as c:
            return [r async for r in c.analyze_game(deal, record["actions"][:6], iterations=60, seed=2)]

    reports = asyncio.run(main())
    with Client(server.target, timeout=30) as c:
        blocking = list(c.analyze_game(deal, record["actions"][:6], iterations=60, seed=2))
    assert [r.decision for r in reports] == [r.decision for r in blocking] and reports[-1].final
