"""Behaviour of the information-set MCTS (not its speed: see BENCHMARKS.md)."""
from __future__ import annotations

import random
import threading
import time

import pytest

from builders import base_position
from builders import ending_position as _ending_position
from splendor_ai.games import load_game
from splendor_ai.games.base import spec
from splendor_ai.search import Config, Limits, Search, SearchError, play_turn, search


def test_finds_a_win_in_one():
    pos, target = _ending_position(11, 14, 4, final_round=False)
    state = load_game("base", 2).state_from_position(pos)
    result = search(state, Limits(iterations=3000), Config(seed=1))
    assert result.move == f"buy {target}"
    assert result.actions[0].value > 0.95


def test_chooses_the_only_winning_buy_when_the_game_ends():
    # Seat 0 reached 15: this is the last turn. Only the 5-point card lifts seat 1 above 15.
    pos, target = _ending_position(11, 15, 5, final_round=True)
    state = load_game("base", 2).state_from_position(pos)
    result = search(state, Limits(iterations=2000), Config(seed=2))
    assert result.move == f"buy {target}"
    assert result.win_probability[1] > 0.5


def test_same_seed_same_result_bit_for_bit():
    state = load_game("base", 2).new_initial_state(11)
    a = search(state, Limits(iterations=3000), Config(seed=5))
    b = search(state, Limits(iterations=3000), Config(seed=5))
    key = lambda r: [(s.action, s.visits, s.value, s.prior, s.pv) for s in r.actions]
    assert key(a) == key(b) and a.win_probability == b.win_probability and a.nodes == b.nodes
    c = search(state, Limits(iterations=3000), Config(seed=6))
    assert key(c) != key(a)


def test_search_never_reads_hidden_cards():
    # Seat 0 holds a blind reserve; seat 1 searches. Change what seat 1 cannot see (the
    # identity of that card, the order of every deck): the result must not change.
    blind = spec.CARDS_BY_LEVEL[1][5]
    pos = base_position(2, seed=4, current=1, reserved={0: [(blind, True)]}, tokens={0: [1, 0, 0, 0, 0, 1]})
    game = load_game("base", 2)
    other = {**pos, "decks": [list(d) for d in pos["decks"]], "seats": [dict(s) for s in pos["seats"]]}
    swap = other["decks"][1][0]
    other["decks"][1][0] = blind
    other["seats"][0]["reserved"] = [{"card": swap, "level": 2, "blind": True}]
    for d in other["decks"]:
        random.Random(9).shuffle(d)
    r1 = search(game.state_from_position(pos), Limits(iterations=2000), Config(seed=3))
    r2 = search(game.state_from_position(other), Limits(iterations=2000), Config(seed=3))
    assert [(s.action, s.visits, s.value) for s in r1.actions] == [(s.action, s.visits, s.value) for s in r2.actions]
    # and a seat's view (hidden cards unknown) searches the same way
    r3 = search(game.state_from_position(pos).view(1), Limits(iterations=2000), Config(seed=3))
    assert [(s.action, s.visits) for s in r3.actions] == [(s.action, s.visits) for s in r1.actions]


def test_iteration_limit_is_exact_and_reported():
    state = load_game("base", 3).new_initial_state(2)
    r = search(state, Limits(iterations=1234), Config(seed=1))
    assert r.iterations == 1234
    assert sum(s.visits for s in r.actions) == 1234
    assert len(r.win_probability) == 3 and abs(sum(r.win_probability) - 1) < 1e-6
    assert r.nodes >= 2 and r.tree_bytes > 0 and not r.cancelled


def test_time_limit_stops_the_search():
    state = load_game("base", 2).new_initial_state(2)
    t0 = time.perf_counter()
    r = search(state, Limits(seconds=0.2), Config(seed=1))
    assert r.out_of_time and r.iterations > 0
    assert time.perf_counter() - t0 < 2.0


def test_cancel_stops_a_running_search_promptly():
    state = load_game("base", 2).new_initial_state(2)
    s = Search(state, Limits(iterations=10**9), Config(seed=1))
    out = {}
    th = threading.Thread(target=lambda: out.setdefault("r", s.run()))
    th.start()
    time.sleep(0.2)
    t0 = time.perf_counter()
    s.cancel()
    th.join(5)
    assert not th.is_alive()
    assert time.perf_counter() - t0 < 1.0
    assert out["r"].cancelled and 0 < out["r"].iterations < 10**9


def test_node_cap_stops_expansion_and_says_so():
    state = load_game("base", 2).new_initial_state(2)
    r = search(state, Limits(iterations=5000, max_nodes=200), Config(seed=1))
    assert r.node_limit_hit and r.nodes <= 200 and r.iterations == 5000


def test_threads_search_in_parallel_and_merge():
    state = load_game("base", 2).new_initial_state(2)
    r = search(state, Limits(iterations=4000), Config(seed=1, threads=2))
    assert r.iterations == 4000 and sum(s.visits for s in r.actions) == 4000


def test_two_python_threads_search_at_once():
    state = load_game("base", 2).new_initial_state(2)
    results = []
    ths = [threading.Thread(target=lambda: results.append(search(state, Limits(iterations=3000), Config(seed=1))))
           for _ in range(2)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    assert len(results) == 2 and results[0].actions[0].visits == results[1].actions[0].visits


def test_whole_turn_includes_returning_tokens():
    # Seat 0 holds 10 tokens: any take leads to a 'return' phase, which is part of its turn.
    pos = base_position(2, seed=5, current=0, tokens={0: [2, 2, 2, 2, 2, 0]}, nobles=[])
    state = load_game("base", 2).state_from_position(pos)
    turn = play_turn(state, Limits(iterations=300), Config(seed=1))
    s = state.clone()
    for action, _ in turn:
        assert s.current_player() == 0
        s.apply_action(action)
    assert s.current_player() == 1 and s.phase() == "main"


def test_principal_variation_starts_with_the_move():
    state = load_game("base", 2).new_initial_state(8)
    r = search(state, Limits(iterations=2000), Config(seed=1))
    assert all(s.pv and s.pv[0] == s.move for s in r.actions)


def test_reference_states_are_searched_through_the_core():
    ref = load_game("base", 2, impl="reference").new_initial_state(3)
    core = load_game("base", 2).new_initial_state(3)
    a = search(ref, Limits(iterations=500), Config(seed=4))
    b = search(core, Limits(iterations=500), Config(seed=4))
    assert [(s.action, s.visits) for s in a.actions] == [(s.action, s.visits) for s in b.actions]


@pytest.mark.parametrize("limits,config", [
    (Limits(), Config()),
    (Limits(iterations=0), Config()),
    (Limits(seconds=-1), Config()),
    (Limits(iterations=10), Config(threads=0)),
    (Limits(iterations=10), Config(c_uct=-1)),
    (Limits(iterations=10), Config(rollout_depth=-5)),
])
def test_bad_limits_are_rejected_clearly(limits, config):
    state = load_game("base", 2).new_initial_state(1)
    with pytest.raises(SearchError):
        search(state, limits, config)


def test_terminal_position_cannot_be_searched():
    state = load_game("base", 2).new_initial_state(1)
    state.random_playout(1)
    assert state.is_terminal()
    with pytest.raises(SearchError, match="over"):
        search(state, Limits(iterations=10))


def test_root_actions_restrict_the_candidates():
    state = load_game("base", 2).new_initial_state(8)
    allowed = [state.string_to_action("take ww"), state.string_to_action("take wug")]
    r = Search(state, Limits(iterations=500), Config(seed=1), root_actions=allowed).run()
    assert {s.action for s in r.actions} == set(allowed)
    assert sum(s.visits for s in r.actions) == 500
    with pytest.raises(SearchError, match="root_actions"):
        Search(state, Limits(iterations=10), root_actions=[state.string_to_action("pass")])


def test_snapshot_during_a_running_search():
    state = load_game("base", 2).new_initial_state(8)
    s = Search(state, Limits(iterations=400_000), Config(seed=1, threads=2))
    th = threading.Thread(target=s.run)
    th.start()
    seen = []
    try:
        for _ in range(5):
            time.sleep(0.02)
            snap = s.snapshot()
            seen.append(snap.iterations)
            assert sum(a.visits for a in snap.actions) == snap.iterations
    finally:
        s.cancel()
        th.join(5)
    assert not th.is_alive()
    assert seen == sorted(seen) and seen[-1] > seen[0] > 0


def test_next_decision_reuses_the_subtree_below_the_move_played():
    pos = base_position(2, seed=5, current=0, tokens={0: [2, 2, 2, 2, 2, 0]}, nobles=[])
    state = load_game("base", 2).state_from_position(pos)
    take = state.string_to_action("take wug")
    first = Search(state, Limits(iterations=3000), Config(seed=1), root_actions=[take])
    r1 = first.run()
    after = state.clone()
    after.apply_action(r1.action)
    assert after.phase() == "return" and after.current_player() == 0
    below = next(a for a in r1.actions if a.action == r1.action)
    second = Search(after, Limits(iterations=10), Config(seed=1), reuse=(first, r1.action))
    r2 = second.run()
    # the reused children keep the visits they had; ten more iterations went on top
    assert sum(a.visits for a in r2.actions) == below.visits - 1 + 10
    fresh = Search(after, Limits(iterations=10), Config(seed=1)).run()
    assert sum(a.visits for a in fresh.actions) == 10


def test_reuse_into_a_smaller_node_budget_keeps_a_consistent_tree():
    # The copy of the subtree stops at the new search's node cap: what did not fit is unchosen
    # again (a net search's edges get their priors back), and the search goes on from there
    # (at the cap an iteration that picks a root action without a child scores the root).
    state = load_game("duel", 2).new_initial_state(3)
    first = Search(state, Limits(iterations=4000), Config(seed=2, evaluator="net"))
    r1 = first.run()
    after = state.clone()
    after.apply_action(r1.action)
    below = next(a for a in r1.actions if a.action == r1.action)
    runs = []
    for _ in range(2):
        second = Search(after, Limits(iterations=200, max_nodes=150), Config(seed=2, evaluator="net"),
                        reuse=(first, r1.action))
        r2 = second.run()
        actions = [a.action for a in r2.actions]
        assert len(actions) == len(set(actions))
        assert set(actions) <= set(after.search_actions())
        assert r2.iterations == 200 and r2.node_limit_hit
        assert 0 < sum(a.visits for a in r2.actions) <= below.visits - 1 + 200
        runs.append([(a.action, a.visits, a.value) for a in r2.actions])
    assert runs[0] == runs[1]


def test_a_result_says_what_evaluated_it_and_a_net_prints_short():
    import hashlib

    from splendor_ai import nn
    from splendor_ai.search.mcts import Evaluator, evaluator_info

    state = load_game("base", 2).new_initial_state(3)
    net = nn.shipped_net("base", 2)
    checksum = hashlib.sha256(nn.shipped_path("base", 2).read_bytes()).hexdigest()[:16]
    assert net.checksum == checksum and net.name == nn.shipped_path("base", 2).name
    by_net = search(state, Limits(iterations=20), Config(seed=1))
    assert by_net.evaluator == Evaluator("net", net.name, checksum) == Config().evaluator_info("base", 2)
    by_heuristic = search(state, Limits(iterations=20), Config(seed=1, evaluator="heuristic"))
    assert by_heuristic.evaluator == Evaluator("heuristic") == evaluator_info(Config(evaluator="heuristic"), "base", 2)
    assert str(by_net.evaluator) == f"net {net.name} ({checksum})" and str(by_heuristic.evaluator) == "heuristic"
    # a net in memory is named by the bytes its file would have
    assert nn.load(net.file, "base").checksum == checksum
    # the weights are megabytes; their repr (in logs, tracebacks) is one line
    assert len(repr(net)) < 200 and checksum in repr(net)
    assert len(repr(Config(net=net))) < 600 and len(repr(net.file)) < 200


@pytest.mark.parametrize("evaluator", ["net", "heuristic"])
def test_a_search_without_one_iteration_plays_the_evaluators_choice_not_the_first_legal_action(evaluator):
    from splendor_ai import nn
    from splendor_ai._core import search as core_search
    from splendor_ai.search import cores

    # Seat 0 holds 10 tokens (gold among them); with the net it must then give tokens back.
    pos = base_position(2, seed=4, current=0, tokens={0: [3, 3, 2, 1, 0, 1]}, nobles=[])
    state = cores.to_core(load_game("base", 2).state_from_position(pos))
    if evaluator == "net":
        state.apply_action(next(a for a in state.search_actions() if state.action_to_string(a).startswith("take")))
        assert state.phase() == "return" and state.current_player() == 0
    legal = state.search_actions()
    s = Search(state, Limits(iterations=1000), Config(seed=1, evaluator=evaluator))
    s.cancel()  # before its first iteration
    result = s.run()
    assert result.iterations == 0 and result.cancelled
    if evaluator == "net":
        index = cores.module("base").policy_index
        _, logits = nn.shipped_net("base", 2).evaluate(state.features(), 2, [index(a) for a in legal])
        expected = legal[max(range(len(legal)), key=lambda i: logits[i])]
        assert 0 < result.actions[0].prior <= 1
    else:
        expected = core_search.one_ply_action(cores.game_def("base"), state._state_bytes())
    assert result.action == expected != legal[0]


def test_the_search_modules_import_each_other_without_circles():
    """Every import inside splendor_ai.search (also those inside functions) points one way."""
    import ast
    from pathlib import Path

    import splendor_ai.search as package

    folder = Path(package.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names.update([node.module] if node.module else [a.name for a in node.names])
        graph[path.stem] = {n.split(".")[0] for n in names} & {p.stem for p in folder.glob("*.py")}
    graph.pop("__init__")

    def reaches(start, goal, seen=()):
        return any(n == goal or (n not in seen and reaches(n, goal, (*seen, n))) for n in graph.get(start, ()))

    assert graph["bots"] >= {"levels"} and graph["turns"] >= {"mcts"}
    assert [m for m in graph if reaches(m, m)] == []


def test_a_reused_subtree_answers_only_with_moves_legal_in_the_position():
    # Below a Duel replenish the reused subtree grew in many bag orders: some of its root's
    # moves (lines of tokens that this bag did not place) are not legal in the true position.
    from splendor_ai.search import cores

    s = cores.to_core(load_game("duel", 2).new_initial_state(2))
    rng = random.Random(2)
    while "replenish" not in [s.action_to_string(a) for a in s.search_actions()]:
        s.apply_action(rng.choice(s.search_actions()))
    replenish = next(a for a in s.search_actions() if s.action_to_string(a) == "replenish")
    first = Search(s, Limits(iterations=3000), Config(seed=1, evaluator="heuristic"))
    first.run()
    s.apply_action(replenish)
    second = Search(s, Limits(iterations=1), Config(seed=2, evaluator="heuristic"), reuse=(first, replenish))
    legal = set(s.search_actions())
    assert [a for a, n, *_ in second._tree.root_stats() if n and a not in legal]  # the trap is there
    result = second.run()
    assert result.action in legal and all(a.action in legal for a in result.actions)


def test_a_search_cancelled_at_once_on_a_reused_subtree_plays_its_most_visited_move():
    state = load_game("base", 2).new_initial_state(6)
    first = Search(state, Limits(iterations=3000), Config(seed=1))
    played = first.run().action
    after = state.clone()
    after.apply_action(played)
    second = Search(after, Limits(iterations=1000), Config(seed=2), reuse=(first, played))
    second.cancel()
    result = second.run()
    reused = [(n, a) for a, n, *_ in second._tree.root_stats() if n]
    assert result.iterations == 0 and reused and result.actions[0].visits == max(reused)[0] > 0
