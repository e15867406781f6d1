"""Bots, the arena and game records."""
from __future__ import annotations

import pytest

from splendor_ai.games import load_game
from splendor_ai.records import RecordError, replay
from splendor_ai.search.arena import lineup, run_arena, wilson
from splendor_ai.search.bots import BotSpecError, GreedyBot, make_bot


def test_lineup_rotates_every_bot_through_every_seat():
    seen = {(g % 3, tuple(lineup(["a", "b"], 3, g))) for g in range(6)}
    seats_of_a = sorted(lu.index("a") for _, lu in seen)
    assert seats_of_a == [0, 1, 2]
    assert lineup(["a", "b"], 3, 0) == ["a", "b", "b"]


@pytest.mark.parametrize("spec", ["nope", "mcts:iterations=x", "mcts:bogus=1", "mcts:iterations=0",
                                  "mcts:threads=0", "level:99", "level:x", "mcts:iterations",
                                  "mcts:c_puct=1.0,iterations=50,c_puct=0.7", "turn:bogus=1", "turn:iterations=0",
                                  "turn:seconds=-1"])
def test_bad_bot_specs_say_what_is_wrong(spec):
    with pytest.raises(BotSpecError):
        make_bot(spec)


def test_a_turn_bot_plays_whole_turns_at_the_budget_it_is_given():
    from splendor_ai.search.bots import MCTSBot, TurnBot

    bot = make_bot("turn:iterations=40,evaluator=heuristic,c_puct=0.7,temperature=0.1", seed=5)
    assert type(bot) is TurnBot and bot.temperature == 0.1
    assert bot.limits_for("duel").iterations == 40 and bot.config.evaluator == "heuristic"
    assert bot.config.c_puct == 0.7
    assert type(make_bot("mcts:iterations=40", seed=5)) is MCTSBot
    # Duel turns often hold more than one searched decision: the turn's first call searches
    # them all, the next calls of the same turn play what it planned without searching again.
    state = load_game("duel", 2).new_initial_state(3)
    calls = 0
    while not state.is_terminal() and not any(len(t) > 1 for t in bot.turns[:-1]) and calls < 200:
        calls += 1
        state.apply_action(bot.choose(state))
    done = bot.turns[:-1]  # the last turn may not be played out
    assert any(len(t) > 1 for t in done)
    assert calls >= sum(len(t) for t in done) and len(bot.turns) < calls  # some decisions came from a plan
    searched = [d.result for t in bot.turns for d in t.decisions if not d.forced]
    assert searched and all(r.iterations == 40 for r in searched)


def test_greedy_buys_the_best_affordable_card():
    from builders import base_position
    from splendor_ai.games.base import spec

    # A 3-point card costing 6 of one colour and a 1-point card costing 4 of that colour:
    # 3 gems and 3 gold afford both; greedy takes the 3 points.
    three = next(c for c in spec.CARDS if c.points == 3 and sorted(c.cost) == [0, 0, 0, 0, 6])
    colour = three.cost.index(6)
    one = next(c for c in spec.CARDS if c.points == 1 and c.level == 1 and c.cost[colour] == 4)
    tokens = [0] * 6
    tokens[colour], tokens[5] = 3, 3
    pos = base_position(2, seed=1, board={(1, 0): three.id, (0, 0): one.id}, tokens={0: tokens})
    state = load_game("base", 2).state_from_position(pos)
    legal = [state.action_to_string(a) for a in state.search_actions()]
    assert f"buy {three.id}" in legal and f"buy {one.id}" in legal
    assert state.action_to_string(GreedyBot().choose(state)) == f"buy {three.id}"


def test_arena_counts_and_records_replay():
    result = run_arena("base", 2, ["greedy", "random"], games=4, seed=3, processes=1, progress=False)
    d = result.to_dict()
    assert [b["seat_games"] for b in d["bots"]] == [4, 4]
    assert sum(b["wins"] for b in d["bots"]) == pytest.approx(4)
    assert d["bots"][0]["win_rate"] == 1.0  # greedy never loses to random
    assert result.mean_rounds > 10
    for rec in result.records:
        states = replay(rec)
        assert states[-1].is_terminal()
        assert states[-1].returns() == rec["returns"]


def test_a_match_saved_game_by_game_resumes_where_it_stopped(tmp_path):
    import json

    first = run_arena("base", 2, ["greedy", "random"], games=2, seed=3, processes=1, progress=False,
                      record_dir=str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-00000.json", "game-00001.json"]
    # mark a saved game, to see that it is read back, not played again
    marked = json.loads((tmp_path / "game-00001.json").read_text())
    marked["returns"] = [0.5, 0.5]
    (tmp_path / "game-00001.json").write_text(json.dumps(marked))
    whole = run_arena("base", 2, ["greedy", "random"], games=4, seed=3, processes=1, progress=False,
                      record_dir=str(tmp_path), resume=True)
    assert len(list(tmp_path.iterdir())) == 4 and whole.records[0] == first.records[0]
    assert whole.records[1]["returns"] == [0.5, 0.5]
    assert whole.to_dict()["bots"][0]["wins"] == pytest.approx(3.5)  # greedy wins the 3 played games
    assert whole.resumed == 2 and "2 games read back from records, 2 played in" in whole.table()
    with pytest.raises(ValueError, match="game-00000.json is not game 0 of this match"):
        run_arena("base", 2, ["random", "greedy"], games=4, seed=3, processes=1, progress=False,
                  record_dir=str(tmp_path), resume=True)
    with pytest.raises(ValueError, match="resume needs a record_dir"):
        run_arena("base", 2, ["greedy"], games=1, resume=True)


def test_arena_counts_each_bots_decisions_by_kind():
    result = run_arena("duel", 2, ["greedy", "random"], games=3, seed=5, processes=1, progress=False)
    for rec in result.records:
        state = load_game("duel").new_initial_state(rec["seed"])
        for move, mover in zip(rec["actions"], rec["movers"], strict=True):
            assert state.current_player() == mover
            state.apply_action(state.string_to_action(move))
    per_bot = {b["bot"]: b["moves_per_game"] for b in result.to_dict()["bots"]}
    decisions = {spec: 0 for spec in per_bot}
    for rec in result.records:
        for mover in rec["movers"]:
            decisions[rec["seats"][mover]] += 1
    for spec, per in per_bot.items():
        assert sum(per.values()) * 3 == pytest.approx(decisions[spec])
        assert set(per) <= {"take", "gold", "reserve", "buy", "privilege", "replenish", "discard",
                            "joker", "token", "steal", "royal", "pass"}
    assert per_bot["greedy"]["buy"] > 0
    table = result.moves_table().splitlines()
    assert table[1].split()[0] == "bot" and "buy" in table[1].split()
    assert [line.split()[0] for line in table[2:]] == ["greedy", "random"]


def test_record_with_an_illegal_action_names_it():
    result = run_arena("base", 2, ["random", "random"], games=1, seed=2, processes=1, progress=False)
    rec = dict(result.records[0])
    rec["actions"] = list(rec["actions"])
    rec["actions"][3] = "take zz"
    with pytest.raises(RecordError, match=r"actions\[3\]"):
        replay(rec)


def test_wilson_interval_contains_the_rate():
    lo, hi = wilson(90, 100)
    assert lo < 0.9 < hi and 0.8 < lo and hi < 0.96


@pytest.mark.parametrize("game", ["duel", "marvel"])
def test_one_ply_greedy_plays_the_other_games_and_beats_random(game):
    result = run_arena(game, 2, ["greedy", "random"], games=4, seed=5, processes=1, progress=False)
    assert result.bots[0].win_rate == 1.0
    assert all(rec["finished"] for rec in result.records)
    for rec in result.records:
        assert replay(rec)[-1].returns() == rec["returns"]


def test_a_selfplay_record_says_what_each_seat_evaluated_with():
    from splendor_ai import nn
    from splendor_ai.records import RecordError, check

    result = run_arena("base", 2, ["level:1", "mcts:iterations=5"], games=2, seed=3, processes=1, progress=False)
    net = nn.shipped_net("base", 2)
    for rec in result.records:
        check(rec)
        by_seat = dict(zip(rec["seats"], rec["evaluators"]))
        assert by_seat["level:1"] == {"kind": "heuristic", "net": "", "checksum": ""}
        assert by_seat["mcts:iterations=5"] == {"kind": "net", "net": net.name, "checksum": net.checksum}
    rec = dict(result.records[0], evaluators=[{"kind": "rollouts"}, None])
    with pytest.raises(RecordError, match="evaluators"):
        check(rec)
    plain = run_arena("base", 2, ["greedy", "random"], games=1, seed=3, processes=1, progress=False)
    assert plain.records[0]["evaluators"] == [None, None]
