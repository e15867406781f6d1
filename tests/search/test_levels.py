"""The difficulty ladder's definition (its strength is measured in BENCHMARKS.md)."""
import pytest
from builders import base_position
from timing import retried

from splendor_ai.games import GAMES, load_game
from splendor_ai.search import cores
from splendor_ai.search.bots import TurnBot, level_bot, make_bot
from splendor_ai.search.levels import LEVELS, get_level


def test_ten_levels_heuristic_below_net_all_in_iterations():
    assert sorted(LEVELS) == list(range(1, 11))
    heuristic = [LEVELS[i] for i in range(1, 5)]
    net = [LEVELS[i] for i in range(5, 11)]
    assert all(lv.evaluator == "heuristic" for lv in heuristic) and all(lv.evaluator == "auto" for lv in net)
    for group in (heuristic, net):
        its = [lv.iterations for lv in group]
        temps = [lv.temperature for lv in group]
        assert its == sorted(set(its)) and temps == sorted(temps, reverse=True)
    # the top levels: a count, each at least 4x the one below, a time only as a turn's upper bound
    top = [LEVELS[i] for i in range(7, 11)]
    for game in GAMES:
        assert all(b.iterations_for(game) >= 4 * a.iterations_for(game) for a, b in zip(top, top[1:]))
    assert all(lv.seconds is None for lv in heuristic + net[:3])
    assert [lv.seconds for lv in top[1:]] == sorted({lv.seconds for lv in top[1:]})
    assert all(LEVELS[i].temperature == 0 for i in range(8, 11))


@pytest.mark.parametrize("level, evaluator", [(1, "heuristic"), (4, "heuristic"), (5, "auto"), (10, "auto")])
def test_a_level_is_applied_whole(level, evaluator):
    lv = get_level(level)
    settings = lv.settings("base")
    assert settings.config.evaluator == evaluator == lv.evaluator and settings.temperature == lv.temperature
    assert settings.limits.iterations == lv.iterations and settings.limits.seconds == lv.seconds
    assert settings.config.seed is None  # a fresh seed per search unless one is given
    assert lv.settings("base", seed=3).config.seed == 3
    assert lv.budget("base").endswith("heuristic" if evaluator == "heuristic" else "net")
    bot = level_bot(level, seed=3)
    assert isinstance(bot, TurnBot) and bot.config == settings.config and bot.temperature == settings.temperature
    assert all(bot.limits_for(g) == lv.settings(g).limits for g in GAMES)
    assert not hasattr(bot, "limits")  # no game-less limits to read by mistake: only limits_for(game)
    assert isinstance(make_bot(f"level:{level}", seed=3), TurnBot)


def test_a_level_may_count_differently_by_game():
    """Duel's level 10 searches half the base game's count: a Duel turn often has two searched
    decisions and its net is slower, and at 200,000 such a turn reached the 10 s bound on an
    idle core (BENCHMARKS.md, "Difficulty levels: iterations and time per turn")."""
    top = get_level(10)
    assert [top.iterations_for(g) for g in ("base", "duel", "marvel")] == [200_000, 100_000, 200_000]
    assert top.settings("duel").limits.iterations == 100_000 and top.settings("duel").limits.seconds == 10.0
    assert top.budget("duel").startswith("100000 iterations (at most 10 s a turn)")
    assert all(get_level(n).iterations_for("duel") == get_level(n).iterations for n in range(1, 10))
    with pytest.raises(ValueError, match="unknown game 'Duel'"):
        top.settings("Duel")


def test_a_level_bot_searches_its_games_count(monkeypatch):
    """The same level bot gives each game's turn that game's count (the turn itself is not
    searched: level 10 would take seconds)."""
    import splendor_ai.search.bots as bots_module

    seen = {}

    def record_limits(state, limits, *args, **kw):
        seen[state.game] = (limits.iterations, limits.seconds)
        raise StopIteration

    monkeypatch.setattr(bots_module, "play_turn", record_limits)
    bot = level_bot(10, seed=1)
    for game in ("duel", "base"):
        with pytest.raises(StopIteration):
            bot.choose(cores.to_core(load_game(game, 2).new_initial_state(4)))
    assert seen == {"duel": (100_000, 10.0), "base": (200_000, 10.0)}


def test_a_level_searches_with_its_own_evaluator():
    state = load_game("base", 2).new_initial_state(2)
    turn = get_level(2).settings("base", seed=1).turn(state)
    assert turn.evaluator.kind == "heuristic" and all(d.result.evaluator.kind == "heuristic" for d in turn.decisions)
    turn = get_level(5).settings("base", seed=1).turn(state)
    assert turn.evaluator.kind == "net" and len(turn.evaluator.checksum) == 16


def test_level_1_asked_every_move_does_not_replay_one_seed():
    # temperature 1: a fresh seed per call gives different searches, hence (nearly always) moves
    state = load_game("base", 2).new_initial_state(5)
    lv = get_level(1)
    turns = [lv.settings("base").turn(state) for _ in range(6)]
    assert len({t.seed for t in turns}) == 6
    assert len({tuple(t.actions) for t in turns}) > 1


def test_a_top_level_counts_iterations_and_bounds_time():
    state = cores.to_core(load_game("base", 2).new_initial_state(7))
    settings = get_level(8).settings("base", seed=2)
    assert settings.limits.seconds == get_level(8).seconds  # the bound travels with the count

    def check():  # 6,000 iterations take about 0.06 s on an idle core; the bound is 1 s
        turn = settings.turn(state)
        assert all(d.result.iterations == get_level(8).iterations and d.stop == "iterations"
                   for d in turn.decisions if not d.forced)

    retried(check)


@pytest.mark.parametrize("bad", [0, 11, "5", 2.5, True])
def test_unknown_levels_are_rejected(bad):
    with pytest.raises(ValueError):
        get_level(bad)


def test_a_level_bot_plays_whole_turns_of_legal_moves():
    state = load_game("duel", 2).new_initial_state(4)
    bot = level_bot(3, seed=1)
    for _ in range(12):
        action = bot.choose(state)
        assert action in state.search_actions()
        state.apply_action(action)
    # a turn of several decisions is searched once, its later decisions played as planned
    base = load_game("base", 2).state_from_position(
        base_position(2, seed=4, current=0, tokens={0: [3, 3, 2, 2, 0, 0]}, nobles=[]))
    bot = level_bot(5, seed=1)
    while base.current_player() == 0:
        base.apply_action(bot.choose(base))
    assert len(bot.turns) == 1 and len(bot.turns[0].decisions) >= 2


def test_bad_level_specs_name_the_problem():
    from splendor_ai.search.bots import BotSpecError

    with pytest.raises(BotSpecError, match="1..10"):
        make_bot("level:11")
    with pytest.raises(BotSpecError):
        make_bot("level:x")


def test_the_ladder_bench_saves_its_games_and_resumes_from_them(tmp_path, capsys):
    """`bench levels --records DIR`: every match's games are saved there and read back on the
    next run (a ladder that takes hours can be stopped and finished); the section it writes
    says how many games each step won, and without greedy games it has no greedy column."""
    from splendor_ai.bench import levels as bench_levels

    out, rec = tmp_path / "BENCHMARKS.md", tmp_path / "records"
    args = ["--games", "2", "--greedy-games", "0", "--top", "2", "--processes", "1", "--records", str(rec)]
    assert bench_levels.main([*args, "--write", str(out)]) == 0
    assert sorted(p.name for p in rec.iterdir()) == ["base-L2-vs-L1"]
    saved = sorted((rec / "base-L2-vs-L1").iterdir())
    assert len(saved) == 2
    first = out.read_text()
    assert "greedy" not in first.split("| level |")[1] and " of 2) |" in first
    mtimes = [p.stat().st_mtime_ns for p in saved]
    assert bench_levels.main([*args, "--write", str(out)]) == 0  # read back, not played again
    assert [p.stat().st_mtime_ns for p in saved] == mtimes
    row = [line for line in out.read_text().splitlines() if line.startswith("| 2 |")]
    assert row == [line for line in first.splitlines() if line.startswith("| 2 |")]
    with pytest.raises(SystemExit):
        bench_levels.main(["--greedy-games", "1"])
