"""Proven results in the choice: a search never throws a win it has proven, nor plays a proven
loss over a move that is not one (ActionStats.proven, mcts.order_actions, mcts.choose).

The positions (tests/proven_positions.py) are ones where the most visited move, the choice
before proven results, is not the win: at 100 net iterations (level 5's budget) on every seed.
"""
from __future__ import annotations

import random

import pytest

import proven_positions as P
from splendor_ai import nn
from splendor_ai._core import search as _search
from splendor_ai.analysis import Options, judge
from splendor_ai.games import load_game
from splendor_ai.search import Config, Limits, Search, cores, play_turn, search
from splendor_ai.search.levels import LEVELS, get_level
from splendor_ai.search.mcts import ActionStats, SearchResult, choose, order_actions, proven_losses

SEEDS = range(4)


def _state(pos):
    return cores.to_core(load_game(pos["game"], pos["players"]).state_from_position(pos))


def _outcome(state, action):
    """The mover's result when ``action`` ends the game at once, else None."""
    s = state.clone()
    s.apply_action(action)
    return s.returns()[state.current_player()] if s.is_terminal() else None


def _searched(state):
    """The full position and the mover's view of it."""
    return [("full", state), ("view", state.view(state.current_player()))]


def _wins(state, *moves):
    return {state.string_to_action(m) for m in moves}


def test_a_node_is_still_32_bytes():
    assert _search.NODE_BYTES == 32


@pytest.mark.parametrize("evaluator", ["heuristic", "net"])
@pytest.mark.parametrize("name", ["BASE_WIN", "BASE_SHARED", "BASE_LOSS", "DUEL_WIN"])
def test_the_core_proves_exactly_the_moves_that_end_the_game(name, evaluator):
    """root_stats(proven=True): a visited root move is proven iff it ends the game at once, and
    then with its exact result for the mover (1, 0, 1/2 for a shared win); merged over the
    trees of root parallelism. Without the flag root_stats keeps its five items."""
    state = _state(getattr(P, name))
    net = nn.shipped_net(state.game, 2)
    seen = set()
    for label, searched in _searched(state):
        for trees in (1, 3):
            tree = _search.TreeSearch(cores.game_def(state.game), searched._state_bytes(), searched.current_player(),
                                      trees=trees, iterations=600, seed=7, determinize=label == "view",
                                      net=net.core if evaluator == "net" else None)
            for i in range(trees):
                tree.run_tree(i)
            assert all(len(row) == 5 for row in tree.root_stats())
            for action, visits, _v, _p, _pv, proven in tree.root_stats(proven=True):
                assert visits > 0
                assert proven == _outcome(state, action), state.action_to_string(action)
                seen.add(proven)
    assert 1.0 in seen or name == "BASE_LOSS"
    if name == "BASE_SHARED":
        assert 0.5 in seen


def test_a_move_that_does_not_end_the_game_is_never_proven():
    state = load_game("base", 2).new_initial_state(3)
    result = search(state, Limits(iterations=2000), Config(seed=1))
    assert all(a.proven is None for a in result.actions)


@pytest.mark.parametrize("evaluator", ["heuristic", "net"])
@pytest.mark.parametrize("name,win", [("BASE_WIN", "buy 4"), ("BASE_SHARED", "buy 44"), ("DUEL_WIN", "buy 31")])
def test_search_plays_a_proven_win_over_a_more_visited_move(name, win, evaluator):
    state = _state(getattr(P, name))
    wins = _wins(state, win)
    for label, searched in _searched(state):
        for seed in range(10):
            for iterations in (100, 400):
                r = search(searched, Limits(iterations=iterations), Config(seed=seed, evaluator=evaluator))
                assert r.action in wins and r.actions[0].proven == 1.0, (label, seed, iterations, r.actions[:3])
                assert r.move == win


def test_at_level_5s_budget_the_win_had_fewer_visits():
    """The positions are the failures: by visits alone the net search at 100 iterations plays
    something else (so the tests above test the choice, not a lucky search)."""
    for name, win in [("BASE_WIN", "buy 4"), ("BASE_SHARED", "buy 44"), ("DUEL_WIN", "buy 31")]:
        state = _state(getattr(P, name))
        for label, searched in _searched(state):
            r = search(searched, Limits(iterations=100), Config(seed=0))
            most = max(r.actions, key=lambda a: (a.visits, a.value, -a.action))
            assert most.move != win and any(a.move == win for a in r.actions), (name, label)


@pytest.mark.parametrize("name,win", [("BASE_WIN", "buy 4"), ("DUEL_WIN", "buy 31")])
def test_play_turn_plays_the_win(name, win):
    state = _state(getattr(P, name))
    for label, searched in _searched(state):
        for seed in SEEDS:
            for temperature in (0.0, 1.0):
                turn = play_turn(searched, Limits(iterations=100), Config(seed=seed), temperature)
                assert turn.moves[0] == win, (label, seed, temperature)
        full = play_turn(state, Limits(iterations=100), Config(seed=1))
        assert full.state.is_terminal() and full.state.returns()[state.current_player()] == 1.0


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("name,win", [("BASE_WIN", "buy 4"), ("DUEL_WIN", "buy 31"), ("BASE_LOSS", "buy 30")])
def test_every_level_plays_the_win(name, win, level):
    """Levels 1-10, their temperature included, on the full position and the mover's view."""
    state = _state(getattr(P, name))
    for label, searched in _searched(state):
        for seed in SEEDS:
            turn = get_level(level).settings(state.game, seed=seed).turn(searched, random.Random(seed))
            assert turn.moves[0] == win, (label, seed)


def test_a_proven_loss_is_not_played_over_a_move_that_is_not_one():
    """BASE_LOSS: no move is proven to win; `buy 64`, a proven loss, has the most visits; `buy 30`
    wins through the noble choice after it (not proven: the game goes on after the buy)."""
    state = _state(P.BASE_LOSS)
    for label, searched in _searched(state):
        for seed in range(10):
            r = search(searched, Limits(iterations=100), Config(seed=seed))
            losses = proven_losses(r.actions)
            assert state.string_to_action("buy 64") in losses
            assert r.action not in losses and r.move == "buy 30", (label, seed)
            last = r.actions[-len(losses):]  # the proven losses last, the best of them first
            assert {a.action for a in last} == losses
            assert last == sorted(last, key=lambda a: (-a.proven, -a.visits, -a.value, a.action))
            for draw in range(50):
                assert choose(r, 2.0, random.Random(draw)) not in losses


def test_the_noble_choice_after_the_buy_is_searched_on_the_reused_subtree_and_proven():
    state = _state(P.BASE_LOSS)
    turn = play_turn(state, Limits(iterations=100), Config(seed=3))
    assert turn.moves[0] == "buy 30" and len(turn.decisions) == 2
    noble = turn.decisions[1]
    assert noble.result.actions[0].proven == 1.0 and noble.action == noble.result.action
    assert turn.state.is_terminal() and turn.state.returns()[1] == 1.0


def test_temperature_never_samples_away_from_a_proven_win():
    for name, win in [("BASE_WIN", "buy 4"), ("BASE_SHARED", "buy 44"), ("DUEL_WIN", "buy 31")]:
        state = _state(getattr(P, name))
        r = search(state.view(state.current_player()), Limits(iterations=100), Config(seed=2))
        assert len(r.actions) > 1
        rng = random.Random(0)
        assert {choose(r, t, rng) for t in (0.25, 1.0, 10.0) for _ in range(100)} == _wins(state, win)


def test_analysis_judges_against_the_proven_win():
    state = _state(P.BASE_WIN)
    full = load_game("base", 2).state_from_position(P.BASE_WIN)
    verdict = judge(full, "buy 56", Options(iterations=100), 0)
    assert verdict["best"] == "buy 4" and verdict["best_value"] == 1.0
    assert verdict["drop"] == 1.0 and verdict["mark"] == "blunder"
    assert judge(full, "buy 4", Options(iterations=100), 0)["drop"] == 0.0
    assert state.string_to_action("buy 4") in state.search_actions()


def _stats(*rows):
    """ActionStats from (action, visits, value, proven) rows."""
    return [ActionStats(a, f"m{a}", n, v, 0.0, [], p) for a, n, v, p in rows]


def _result(stats):
    ordered = order_actions(stats)
    return SearchResult(seat=0, action=ordered[0].action, move=ordered[0].move, actions=ordered,
                        win_probability=[0.5, 0.5], iterations=1, nodes=1, elapsed=0.0, iterations_per_second=0.0,
                        tree_bytes=0, node_limit_hit=False, cancelled=False, out_of_time=False)


@pytest.mark.parametrize("rows,order,losses", [
    # nothing proven: most visits, then the higher mean, then the lower id (as before)
    ([(1, 10, 0.4, None), (2, 30, 0.5, None), (3, 30, 0.6, None)], [3, 2, 1], set()),
    # a proven win beats more visits; every other proven result is a loss beside it
    ([(1, 50, 0.9, None), (2, 5, 1.0, 1.0), (3, 60, 0.5, 0.5), (4, 70, 0.0, 0.0)], [2, 1, 3, 4], {3, 4}),
    # several proven wins: the most visited first
    ([(1, 5, 1.0, 1.0), (2, 8, 1.0, 1.0), (3, 90, 0.99, None)], [2, 1, 3], set()),
    # a proven 0 beside an unproven move: the later loss (or better) first
    ([(1, 90, 0.0, 0.0), (2, 3, 0.0, None)], [2, 1], {1}),
    # a shared win (1/2) beside unproven moves is not a loss: visits decide; a proven 0 is
    ([(1, 40, 0.5, 0.5), (2, 50, 0.3, None), (3, 60, 0.0, 0.0)], [2, 1, 3], {3}),
    # 3-4 players: shares of a win; the best proven share rules out the lesser ones
    ([(1, 40, 1 / 3, 1 / 3), (2, 50, 0.25, 0.25), (3, 10, 0.5, 0.5), (4, 30, 0.4, None)], [4, 3, 1, 2], {1, 2}),
    # every move proven, none a win: the best result, whatever its visits
    ([(1, 90, 0.0, 0.0), (2, 4, 0.5, 0.5), (3, 6, 0.0, 0.0)], [2, 1, 3], {1, 3}),
    # every move a proven 0 (Marvel: nobody met the Gauntlet, or another seat won): none is worse
    ([(1, 9, 0.0, 0.0), (2, 20, 0.0, 0.0)], [2, 1], set()),
])
def test_the_choice_rule(rows, order, losses):
    stats = _stats(*rows)
    assert [a.action for a in order_actions(stats)] == order
    assert proven_losses(stats) == losses
    result = _result(stats)
    rng = random.Random(5)
    drawn = {choose(result, t, rng) for t in (0.25, 1.0, 100.0) for _ in range(300)}
    if any(p == 1.0 for *_, p in rows):
        assert drawn == {order[0]}
    else:
        assert drawn == {a for a, *_ in rows} - losses


def test_a_reused_subtree_keeps_its_proofs():
    """A search started from the subtree below the move played keeps what it proved there."""
    state = _state(P.BASE_LOSS)
    first = Search(state, Limits(iterations=300), Config(seed=4))
    first.run()
    buy = state.string_to_action("buy 30")
    after = state.clone()
    after.apply_action(buy)
    assert after.phase() == "noble"
    second = Search(after, Limits(iterations=1), Config(seed=5), reuse=(first, buy)).run()
    assert all(a.proven == 1.0 for a in second.actions) and second.actions[0].visits > 1


def test_the_thrown_wins_bench_counts_none_and_writes_its_section(tmp_path, capsys):
    from splendor_ai.bench import thrown

    out = tmp_path / "BENCHMARKS.md"
    argv = ["--positions", "3", "--top", "1,1,1", "--budgets", "50", "--games", "base,duel"]
    assert thrown.main([*argv, "--write", str(out)]) == 0
    rows = [r.split("|")[1:-1] for r in capsys.readouterr().out.splitlines() if r.startswith(("| base", "| duel"))]
    # levels 1-10 and 50 iterations, in Duel also over the positions with an immediate win
    assert len(rows) == 11 + 2 * 11 and sum("immediate wins" in r[1] for r in rows) == 11
    assert all(r[6].strip() == "0" for r in rows)  # thrown
    text = out.read_text()
    assert "<!-- bench:thrown-wins -->" in text and "splendor-ai bench thrown --positions 3" in text


# ---------------------------------------------------------------- wins within the seat's own moves
def _wins_by_hand(state, seat: int, depth: int) -> dict[int, int]:
    """The root moves of ``seat`` that win within ``depth`` more of its own moves, by brute force on
    the reference rules (independent of the core's look): {move: the fewest more moves}."""
    ref = load_game(state.game, state.players, impl="reference").state_from_position(state.to_position())

    def line(s, left):
        best = None
        for a in s.legal_actions():
            t = s.clone()
            t.apply_action(a)
            if t.is_terminal():
                if t.returns()[seat] >= 1.0:
                    return 0
            elif t.current_player() == seat and left > 0:
                k = line(t, left - 1)
                if k is not None and (best is None or k + 1 < best):
                    best = k + 1
        return best

    out = {}
    for a in ref.search_actions():
        t = ref.clone()
        t.apply_action(a)
        if t.is_terminal():
            k = 0 if t.returns()[seat] >= 1.0 else None
        else:
            k = line(t, depth - 1) if t.current_player() == seat and depth > 0 else None
            k = None if k is None else k + 1
        if k is not None:
            out[a] = k
    return out


def test_the_exhaustive_look_finds_the_privilege_then_the_buy():
    from splendor_ai.search.mcts import FORCED_WIN_DEPTH

    state = load_game("duel").state_from_position(P.DUEL_PRIVILEGE_WIN)
    seat = state.current_player()
    found = Search(state.view(seat), Limits(iterations=1), Config(seed=1))._forced
    assert found == _wins_by_hand(state, seat, FORCED_WIN_DEPTH)
    assert {state.action_to_string(a) for a in found} == {"privilege b2", "privilege c3"}
    assert set(found.values()) == {2}  # a second privilege, then the buy


@pytest.mark.parametrize("level", [1, 3, 5, 7])
def test_every_level_wins_when_the_win_needs_privileges_first(level):
    """On the seat's view, the turn continued as a frontend does after each card it reveals."""
    state = load_game("duel").state_from_position(P.DUEL_PRIVILEGE_WIN)
    seat = state.current_player()
    for seed in range(3):
        settings = get_level(level).settings("duel")
        t = state.clone()
        first = None
        for _ in range(6):
            if t.is_terminal() or t.current_player() != seat:
                break
            turn = play_turn(t.view(seat), settings.limits, Config(**{**settings.config.__dict__, "seed": seed}),
                             settings.temperature, random.Random(seed))
            first = first or turn.moves[0]
            for a in turn.actions:
                t.apply_action(a)
            if turn.complete:
                break
        assert first.startswith("privilege") and t.is_terminal() and t.returns()[seat] == 1.0, (level, seed, first)


@pytest.mark.slow  # a sweep of random positions, each claim checked by brute force
@pytest.mark.parametrize("game, players, n", [("duel", 2, 20), ("base", 2, 60), ("marvel", 3, 60)])
def test_every_forced_win_claimed_on_a_view_is_one_on_the_full_state(game, players, n):
    """The look runs on redraws of what the mover cannot see; what it claims must hold on the real
    deal (checked by brute force on the reference rules), on positions where a win is near."""
    from splendor_ai.bench.thrown import positions
    from splendor_ai.search.mcts import FORCED_WIN_DEPTH

    claims = 0
    for state in positions(game, n, players, 13, winnable_only=False):
        seat = state.current_player()
        found = Search(state.view(seat), Limits(iterations=1), Config(seed=1))._forced
        truth = _wins_by_hand(state, seat, FORCED_WIN_DEPTH)
        for a, k in found.items():
            claims += 1
            assert a in truth and truth[a] <= k, (state.action_to_string(a), k, truth)
    assert claims > 0
