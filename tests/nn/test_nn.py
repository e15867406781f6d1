"""The learned evaluation at serving time: the weights file, the C network, the search with it."""
from __future__ import annotations

import json
import random
import struct
import threading
import time
from array import array

import numpy as np
import pytest

from splendor_ai import nn
from splendor_ai._core import nn as core_nn
from splendor_ai.games import load_game
from splendor_ai.nn import weights as W
from splendor_ai.search import Config, Limits, Search, SearchError, cores, search

GAMES = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}


def random_netfile(game="base", hidden=(32, 16), seed=0, scale=0.3, players=None) -> W.NetFile:
    core = cores.module(game)
    net = W.NetFile(game=game, players=list(players or GAMES[game]), feature_version=core.FEATURE_VERSION,
                    num_features=core.NUM_FEATURES, policy_size=core.POLICY_SIZE, max_players=4,
                    hidden=list(hidden), payload=array("f"), generation=3, info={"test": True})
    rng = np.random.default_rng(seed)
    net.payload = array("f", (rng.standard_normal(net.expected_floats()) * scale).astype(np.float32).tolist())
    return net


def numpy_forward(net: W.NetFile, x: np.ndarray, n_seats: int):
    """The network evaluated from the file's PyTorch layout with NumPy (the specification)."""
    p = np.asarray(net.payload, dtype=np.float32)
    pos, h, prev = 0, x.astype(np.float32), net.num_features

    def take(rows, cols):
        nonlocal pos
        w = p[pos:pos + rows * cols].reshape(rows, cols)
        pos += rows * cols
        b = p[pos:pos + rows]
        pos += rows
        return w, b

    for size in net.hidden:
        w, b = take(size, prev)
        h = np.maximum(w @ h + b, 0)
        prev = size
    wv, bv = take(net.max_players, prev)
    wp, bp = take(net.policy_size, prev)
    v = (wv @ h + bv)[:n_seats]
    v = np.exp(v - v.max())
    return v / v.sum(), wp @ h + bp


# ---------------------------------------------------------------- the weights file
def test_weights_round_trip(tmp_path):
    net = random_netfile()
    path = tmp_path / "n.splnn"
    W.save(path, net)
    back = W.read(path)
    assert back.header() == net.header()
    assert list(back.payload) == list(net.payload)
    loaded = nn.load(path, "base")
    assert loaded.generation == 3 and loaded.players == (2, 3, 4) and loaded.covers(3)


def _rewrite(path, mutate_header=None, body=None):
    data = path.read_bytes()
    (hlen,) = struct.unpack("<I", data[8:12])
    header = json.loads(data[12:12 + hlen])
    payload = data[12 + hlen:] if body is None else body
    if mutate_header:
        mutate_header(header)
    raw = json.dumps(header).encode()
    path.write_bytes(data[:8] + struct.pack("<I", len(raw)) + raw + payload)


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.write_bytes(b"PK\x03\x04" + p.read_bytes()[4:]), "bad magic"),
    (lambda p: p.write_bytes(p.read_bytes()[:7] + b"\x02" + p.read_bytes()[8:]), "format 2 is not supported"),
    (lambda p: p.write_bytes(p.read_bytes()[:-40]), "truncated"),
    (lambda p: p.write_bytes(p.read_bytes()[:-4] + b"\x00\x00\x80\x7f"), "checksum"),
    (lambda p: p.write_bytes(p.read_bytes()[:12] + b"#" + p.read_bytes()[13:]), "not JSON"),
    (lambda p: _rewrite(p, lambda h: h.pop("hidden")), "header.hidden is missing"),
    (lambda p: _rewrite(p, lambda h: h.update(hidden="big")), "header.hidden must be list"),
    (lambda p: _rewrite(p, lambda h: h.update(hidden=[32, 0])), "header.hidden must be a non-empty list"),
    (lambda p: _rewrite(p, lambda h: h.update(payload_floats=5)), "header.payload_floats"),
    (lambda p: p.write_bytes(p.read_bytes()[:8] + struct.pack("<I", 10**7) + p.read_bytes()[12:]), "header length"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search={"cpuct": 1.0})), r"info.search.cpuct: not a search"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search={"c_puct": "high"})), r"info.search.c_puct must be"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search={"net_rollout_depth": 2.5})),
     r"net_rollout_depth must be a non-negative integer"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search_by_players={"5": {"c_puct": 1.0}})),
     r"search_by_players: '5' is not one of the net's player counts"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search_by_players={"3": {"c_puct": -1}})),
     r"search_by_players.3.c_puct must be a non-negative number"),
    (lambda p: _rewrite(p, lambda h: h["info"].update(search_by_players=[0.5])), r"keyed by player count"),
])
def test_a_damaged_file_is_refused_naming_the_fault(tmp_path, damage, message):
    path = tmp_path / "n.splnn"
    W.save(path, random_netfile())
    damage(path)
    with pytest.raises(nn.WeightsError, match=message) as err:
        nn.load(path, "base")
    assert str(path) in str(err.value)


def test_a_net_that_does_not_fit_the_core_is_refused(tmp_path):
    path = tmp_path / "n.splnn"
    W.save(path, random_netfile("duel"))
    with pytest.raises(nn.WeightsError, match="a net for 'duel', not 'base'"):
        nn.load(path, "base")
    for change, message in (({"feature_version": 99}, "feature version 99"),
                            ({"num_features": 7}, "7 features"),
                            ({"policy_size": 9}, "policy of 9 classes")):
        net = random_netfile()
        for k, v in change.items():
            setattr(net, k, v)
        net.payload = array("f", [0.0] * net.expected_floats())
        W.save(path, net)
        with pytest.raises(nn.WeightsError, match=message):
            nn.load(path, "base")


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(nn.WeightsError, match="cannot read"):
        nn.load(tmp_path / "nope.splnn", "base")
    with pytest.raises(SearchError, match="config.net: .*cannot read"):
        search(load_game("base", 2).new_initial_state(1), Limits(iterations=10),
               Config(evaluator="net", net=str(tmp_path / "nope.splnn")))


# ---------------------------------------------------------------- the C network
@pytest.mark.parametrize("hidden", [(48, 24, 16), (75, 13)])  # widths off the kernels' 8-lane blocks too
@pytest.mark.parametrize("game", sorted(GAMES))
def test_c_evaluation_equals_the_specification(game, hidden):
    netfile = random_netfile(game, hidden=hidden, seed=1)
    net = nn.load(netfile, game)
    core = cores.module(game)
    rng = random.Random(2)
    for players in GAMES[game]:
        state = load_game(game, players).new_initial_state(rng.randrange(10**6))
        for _ in range(40):
            if state.is_terminal():
                break
            feats = state.features()
            legal = state.search_actions()
            classes = sorted({core.policy_index(a) for a in legal})
            values, logits = net.evaluate(feats, players, classes)
            want_v, want_p = numpy_forward(netfile, np.frombuffer(feats, dtype=np.float32), players)
            assert np.allclose(values, want_v, atol=1e-5)
            assert np.allclose(logits, want_p[classes], atol=1e-4)
            state.apply_action(rng.choice(legal))


def test_evaluation_refuses_wrong_sizes():
    net = nn.load(random_netfile(), "base")
    with pytest.raises(ValueError, match="features"):
        net.evaluate(b"\x00" * 8, 2)
    with pytest.raises(ValueError, match="n_seats"):
        net.evaluate(load_game("base", 2).new_initial_state(1).features(), 5)
    with pytest.raises(ValueError, match="payload"):
        core_nn.NetCore(4, [3], 4, 2, array("f", [0.0] * 5))


# ---------------------------------------------------------------- the search with a net
@pytest.fixture(scope="module")
def base_net():
    return nn.load(random_netfile(hidden=(64, 32), seed=5, scale=0.2), "base")


def test_net_search_respects_iterations_and_reports(base_net):
    state = load_game("base", 3).new_initial_state(2)
    r = search(state, Limits(iterations=700), Config(evaluator="net", net=base_net, seed=1))
    assert r.iterations == 700 and sum(s.visits for s in r.actions) == 700
    assert len(r.win_probability) == 3 and abs(sum(r.win_probability) - 1) < 1e-5
    assert abs(sum(s.prior for s in r.actions) - 1) < 0.05 or len(r.actions) < len(state.search_actions())


def test_net_search_finds_a_win_in_one(base_net):
    from builders import ending_position as _ending_position

    pos, target = _ending_position(11, 14, 4, final_round=False)
    state = load_game("base", 2).state_from_position(pos)
    r = search(state, Limits(iterations=3000), Config(evaluator="net", net=base_net, seed=1))
    assert r.move == f"buy {target}" and r.actions[0].value > 0.95


def test_net_search_is_deterministic_for_a_seed(base_net):
    state = load_game("base", 2).new_initial_state(11)
    key = lambda r: [(s.action, s.visits, s.value, s.prior) for s in r.actions]
    a = search(state, Limits(iterations=1500), Config(evaluator="net", net=base_net, seed=5))
    b = search(state, Limits(iterations=1500), Config(evaluator="net", net=base_net, seed=5))
    assert key(a) == key(b) and a.nodes == b.nodes
    noisy = lambda seed: search(state, Limits(iterations=1500),
                                Config(evaluator="net", net=base_net, seed=seed, root_noise=0.25))
    assert key(noisy(1)) == key(noisy(1)) and key(noisy(1)) != key(noisy(2))


def test_net_search_never_reads_hidden_cards(base_net):
    from builders import base_position
    from splendor_ai.games.base import spec

    blind = spec.CARDS_BY_LEVEL[1][5]
    pos = base_position(2, seed=4, current=1, reserved={0: [(blind, True)]}, tokens={0: [1, 0, 0, 0, 0, 1]})
    game = load_game("base", 2)
    other = {**pos, "decks": [list(d) for d in pos["decks"]], "seats": [dict(s) for s in pos["seats"]]}
    swap = other["decks"][1][0]
    other["decks"][1][0] = blind
    other["seats"][0]["reserved"] = [{"card": swap, "level": 2, "blind": True}]
    for d in other["decks"]:
        random.Random(9).shuffle(d)
    cfg = Config(evaluator="net", net=base_net, seed=3)
    r1 = search(game.state_from_position(pos), Limits(iterations=1500), cfg)
    r2 = search(game.state_from_position(other), Limits(iterations=1500), cfg)
    r3 = search(game.state_from_position(pos).view(1), Limits(iterations=1500), cfg)
    key = lambda r: [(s.action, s.visits, s.value) for s in r.actions]
    assert key(r1) == key(r2) == key(r3)


def test_net_search_stops_on_time_and_on_cancel(base_net):
    state = load_game("base", 2).new_initial_state(2)
    r = search(state, Limits(seconds=0.2), Config(evaluator="net", net=base_net, seed=1))
    assert r.out_of_time and r.iterations > 0
    s = Search(state, Limits(iterations=10**9), Config(evaluator="net", net=base_net, seed=1))
    out = {}
    th = threading.Thread(target=lambda: out.setdefault("r", s.run()))
    th.start()
    time.sleep(0.2)
    t0 = time.perf_counter()
    s.cancel()
    th.join(5)
    assert not th.is_alive() and time.perf_counter() - t0 < 1.0
    assert out["r"].cancelled


def test_net_search_node_cap_and_threads(base_net):
    state = load_game("base", 4).new_initial_state(3)
    r = search(state, Limits(iterations=3000, max_nodes=300), Config(evaluator="net", net=base_net, seed=1))
    assert r.node_limit_hit and r.nodes <= 300 and r.iterations == 3000
    r = search(state, Limits(iterations=2000), Config(evaluator="net", net=base_net, seed=1, threads=2))
    assert r.iterations == 2000 and sum(s.visits for s in r.actions) == 2000


def test_net_search_makes_a_child_only_when_it_is_chosen(base_net):
    # Each iteration adds at most one node: a long think is not stopped by a tree filled
    # with children that were never visited (every legal action is only an edge until then).
    state = load_game("base", 2).new_initial_state(5)
    r = search(state, Limits(iterations=4000), Config(evaluator="net", net=base_net, seed=1))
    assert not r.node_limit_hit and r.nodes <= 4001
    # The budget counts the edges too (32 bytes a unit, four edges to a unit): a cap that the
    # edges exhaust is reported, and the tree stays inside it.
    r = search(state, Limits(iterations=4000, max_nodes=2000), Config(evaluator="net", net=base_net, seed=1))
    assert r.node_limit_hit and r.nodes < 2000 and r.tree_bytes <= 2 * 2000 * 32 + 512 * 8


def visits(result):
    """A search's visit counts per action, most visited first."""
    return [(s.action, s.visits) for s in result.actions]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_searches_with_a_net(game):
    net = nn.load(random_netfile(game, hidden=(32,), seed=2), game)
    for players in GAMES[game]:
        state = load_game(game, players).new_initial_state(5)
        r = search(state, Limits(iterations=400), Config(evaluator="net", net=net, seed=1,
                                                         net_rollout_depth=4, net_rollout_weight=0.5))
        assert r.iterations == 400 and r.move in [state.action_to_string(a) for a in state.search_actions()]


def test_bad_net_settings_are_rejected(base_net):
    state = load_game("base", 2).new_initial_state(1)
    for cfg, message in ((Config(evaluator="neural"), "config.evaluator"),
                         (Config(evaluator="net", net=base_net, c_puct=0), "config.c_puct"),
                         (Config(evaluator="net", net=base_net, root_noise=2), "config.root_noise"),
                         (Config(evaluator="net", net=42), "config.net must be")):
        with pytest.raises(SearchError, match=message):
            search(state, Limits(iterations=10), cfg)
    duel_net = nn.load(random_netfile("duel", hidden=(8,)), "duel")
    with pytest.raises(SearchError, match="a net for 'duel', not 'base'"):
        search(state, Limits(iterations=10), Config(evaluator="net", net=duel_net))


def test_heuristic_stays_selectable_and_unchanged(base_net):
    state = load_game("base", 2).new_initial_state(11)
    a = search(state, Limits(iterations=1000), Config(evaluator="heuristic", seed=5))
    b = search(state, Limits(iterations=1000), Config(evaluator="heuristic", net=base_net, seed=5))
    assert visits(a) == visits(b)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_net_covers_every_player_count_and_is_the_default(game):
    """Each game ships a net that loads (header, checksum, sizes), covers all the game's player
    counts, and is what the default ("auto") search evaluates with; "heuristic" still differs."""
    assert nn.shipped_path(game).is_file(), f"no net shipped for {game}"
    for players in GAMES[game]:
        net = nn.shipped_net(game, players)
        assert net is not None and net.game == game
        state = load_game(game, players).new_initial_state(3)
        auto = search(state, Limits(iterations=300), Config(seed=4))
        with_net = search(state, Limits(iterations=300), Config(evaluator="net", net=net, seed=4))
        heuristic = search(state, Limits(iterations=300), Config(evaluator="heuristic", seed=4))
        assert visits(auto) == visits(with_net)
        assert visits(auto) != visits(heuristic)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_net_shipped_for_one_player_count_is_preferred_there(game):
    """`nets/<game>-<N>p.splnn`, where shipped, is the default at N players and covers only N;
    every other player count keeps the game's net."""
    for players in GAMES[game]:
        path = nn.shipped_path(game, players)
        net = nn.shipped_net(game, players)
        if path.name == f"{game}-{players}p.splnn":
            assert net.players == (players,) and net.source == str(path)
        else:
            assert path == nn.shipped_path(game) and net.source == str(path)


def test_ship_a_net_for_one_player_count(tmp_path, monkeypatch):
    from splendor_ai.train import ship

    run = tmp_path / "run"
    run.mkdir()
    (run / "state.json").write_text('{"best": null}')
    (run / "history.md").write_text("# history\n")
    monkeypatch.setattr(ship, "ROOT", tmp_path)
    source = nn.shipped_path("base")
    assert ship.main([str(run), "--net", str(source), "--players", "3", "--made", "a test"]) == 0
    out = nn.read(tmp_path / "splendor_ai" / "nets" / "base-3p.splnn")
    assert out.players == [3] and out.info["made"] == "a test"
    assert out.payload == nn.read(source).payload
    assert (tmp_path / "training" / "history" / "base-3p.md").read_text() == "# history\n"
    assert (tmp_path / "training" / "history" / "base-3p.state.json").is_file()
    assert not (tmp_path / "training" / "base-3p").exists()  # no checkpoints or run copies in the tree
    with pytest.raises(SystemExit, match="covers"):
        ship.main([str(run), "--net", str(source), "--players", "5"])


def test_each_shipped_net_searches_with_the_settings_docs_learned_gives_it():
    """docs/learned.md §4: base, Marvel 2p and Duel at c_puct 1.0 (their headers), Marvel at 0.5 for 3
    players and 0.7 for 4 (one net, its header's search_by_players)."""
    from splendor_ai.search.mcts import Config, net_search_settings, resolve_net

    want = {("base", 2): ("base-2p.splnn", 1.0), ("base", 3): ("base.splnn", 1.0), ("base", 4): ("base.splnn", 1.0),
            ("marvel", 2): ("marvel-2p.splnn", 1.0), ("marvel", 3): ("marvel.splnn", 0.5),
            ("marvel", 4): ("marvel.splnn", 0.7),
            ("duel", 2): ("duel.splnn", 1.0)}
    for (game, players), (name, c_puct) in want.items():
        net = resolve_net(Config(), game, players)
        assert net.name == name, (game, players)
        assert net_search_settings(Config(), net, players)["c_puct"] == c_puct, (game, players)
        assert net_search_settings(Config(c_puct=2.0), net)["c_puct"] == 2.0  # a config's own setting wins


def test_a_net_recommends_settings_for_one_player_count():
    """header.info.search_by_players["3"] takes the place of info.search at 3 players only, a
    Config's own setting still wins, and the search runs with it (the same tree as asking for it)."""
    from splendor_ai.search.mcts import Config, net_search_settings

    netfile = random_netfile("marvel", hidden=(16,), seed=2)
    netfile.info = {"search": {"c_puct": 0.7, "fpu_reduction": 0.2}, "search_by_players": {"3": {"c_puct": 0.4}}}
    net = nn.load(netfile, "marvel")
    assert net_search_settings(Config(), net, 2)["c_puct"] == 0.7
    assert net_search_settings(Config(), net, 4)["c_puct"] == 0.7
    three = net_search_settings(Config(), net, 3)
    assert three["c_puct"] == 0.4 and three["fpu_reduction"] == 0.2
    assert net_search_settings(Config(c_puct=2.0), net, 3)["c_puct"] == 2.0
    state = load_game("marvel", 3).new_initial_state(7)
    run = lambda **kw: visits(search(state, Limits(iterations=600), Config(evaluator="net", net=net, seed=3, **kw)))
    assert run() == run(c_puct=0.4, fpu_reduction=0.2)
    assert run() != run(c_puct=0.7, fpu_reduction=0.2)


def test_ship_writes_settings_for_one_player_count(tmp_path, monkeypatch):
    from splendor_ai.train import ship

    run = tmp_path / "run"
    run.mkdir()
    (run / "state.json").write_text('{"best": null}')
    monkeypatch.setattr(ship, "ROOT", tmp_path)
    source = nn.shipped_path("base")
    assert ship.main([str(run), "--net", str(source), "--search", "c_puct=1.0",
                      "--search-for", "3:c_puct=0.5,fpu_reduction=0.05", "--search-for", "4:c_puct=0.7"]) == 0
    out = nn.read(tmp_path / "splendor_ai" / "nets" / "base.splnn")
    assert out.info["search"] == {"c_puct": 1.0}
    assert out.info["search_by_players"] == {"3": {"c_puct": 0.5, "fpu_reduction": 0.05}, "4": {"c_puct": 0.7}}
    assert out.search_settings(3) == {"c_puct": 0.5, "fpu_reduction": 0.05}
    assert out.search_settings(2) == {"c_puct": 1.0}
    for bad, message in (("5:c_puct=1", "one of the net's player counts"), ("3c_puct=1", "give N:k=v"),
                         ("3:cpuct=1", "unknown setting 'cpuct'"), ("3:c_puct=x", "is not a number"),
                         ("3:c_puct=-1", "c_puct must be a non-negative number"),
                         ("3:net_rollout_depth=2.5", "is not an integer")):
        with pytest.raises(SystemExit, match=message):
            ship.main([str(run), "--net", str(source), "--search-for", bad])
    with pytest.raises(SystemExit, match=r"one of the net's player counts \[3\]"):
        ship.main([str(run), "--net", str(source), "--players", "3", "--search-for", "4:c_puct=0.7"])


def test_search_settings_parse_the_same_for_ship_and_train():
    """`train --net-search` and `ship --search` read k=v,... with one parser, checked as a header is."""
    from splendor_ai.cli import _net_search
    from splendor_ai.nn.weights import parse_settings

    assert parse_settings("c_puct=0.7,net_rollout_depth=3", "x") == {"c_puct": 0.7, "net_rollout_depth": 3}
    assert parse_settings("", "x") == {} and _net_search(None) == {}
    assert _net_search("fpu_reduction=0.2") == {"fpu_reduction": 0.2}
    for bad, message in (("cpuct=1", "--net-search: unknown setting 'cpuct'"),
                         ("fpu_reduction=-0.1", "--net-search.fpu_reduction must be a non-negative number"),
                         ("c_puct=nan", "--net-search.c_puct must be a non-negative number")):
        with pytest.raises(SystemExit, match=message):
            _net_search(bad)
