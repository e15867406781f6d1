"""The converter and the engine in-process: round trips, paths, options, stopping."""
import gc
import random
import threading
import time
import weakref

import pytest
from builders import base_position
from splendor.v1 import splendor_pb2 as pb
from timing import PAUSE

from splendor_ai.games import load_game
from splendor_ai.games.base import spec
from splendor_ai.search import Search
from splendor_ai.search.turns import MIN_SECONDS
from splendor_ai.service import budget, convert, engine
from splendor_ai.service.errors import ClientGone, FieldError


def random_states(players, seed, every=7):
    """States along a random game (every `every` actions), the end included."""
    rng = random.Random(seed)
    state = load_game("base", players).new_initial_state(seed)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state.clone()
        state.apply_action(rng.choice(state.search_actions()))
        n += 1
    yield state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_round_trip_full_and_views(players):
    for state in random_states(players, seed=players):
        assert convert.decode_position(convert.encode_position(state)).to_position() == state.to_position()
        for seat in range(players):
            view = state.view(seat)
            msg = convert.encode_position(view)
            assert not msg.base.decks and msg.base.observer == seat
            assert convert.decode_position(msg).to_position() == view.to_position()


def test_derived_figures_are_output_only():
    state = list(random_states(2, seed=9))[-1]
    msg = convert.encode_position(state)
    true_points = [s.points for s in msg.base.seats]
    assert max(true_points) >= 15
    for s in msg.base.seats:
        s.points = 99
        s.bonuses.white = 42
    again = convert.encode_position(convert.decode_position(msg))
    assert [s.points for s in again.base.seats] == true_points


def noble_phase_state():
    """Seat 0 to choose between the first two revealed nobles."""
    pos = spec.initial_position(2, 1)
    a, b = (spec.NOBLES[n].requires for n in pos["nobles"][:2])
    need = [max(x, y) for x, y in zip(a, b)]
    cards = []
    for lv, deck in enumerate(pos["decks"]):
        for c in list(deck):
            if need[spec.CARDS[c].color] > 0:
                need[spec.CARDS[c].color] -= 1
                cards.append(c)
                deck.remove(c)
        pos["deck_sizes"][lv] = len(deck)
    pos["seats"][0]["cards"], pos["phase"] = cards, "noble"
    return load_game("base", 2).state_from_position(pos)


@pytest.mark.parametrize("seed", [1, 3])
def test_every_legal_move_round_trips_by_notation_and_by_structured_form(seed):
    checked, kinds = 0, set()
    for state in [noble_phase_state(), *random_states(2, seed=seed, every=1)]:
        if state.is_terminal():
            continue
        position = state.to_position()
        for action in state.legal_actions():  # every payment variant too
            move = convert.encode_move(position, action)
            assert move.action_id == action
            by_notation = pb.Move(notation=move.notation)
            by_structure = pb.Move(base=move.base)
            assert convert.decode_move(state, by_notation, "m") == action
            assert convert.decode_move(state, by_structure, "m") == action, (move.notation, move.base)
            assert convert.decode_move(state, move, "m") == action
            checked += 1
            kinds.add(move.notation.split()[0] + (" pay" if " pay " in move.notation else ""))
    assert checked > 300 and {"take", "reserve", "buy", "buy pay", "return", "noble"} <= kinds, (checked, kinds)


@pytest.mark.parametrize("path, proto", [
    ("supply[3]", "red"),
    ("seats[1].tokens[5]", "seats[1].tokens.gold"),
    ("board[2][1]", "board[2].cards[1]"),
    ("board[2]", "board[2].cards"),
    ("decks[0][12]", "decks[0].cards[12]"),
    ("seats[0].reserved[1].card", "seats[0].reserved[1].card"),
    ("card 5 is also at decks[1][3]", "card 5 is also at decks[1].cards[3]"),
])
def test_position_paths_become_message_paths(path, proto):
    expected = proto if proto != "red" else "supply.red"
    assert convert._proto_path(path) == expected


MAXIMA = budget.Maxima(iterations=10_000, seconds=5.0, threads=2)


def test_search_plans_apply_defaults_and_caps():
    plan = budget.move_plan(pb.GetMoveRequest(level=4), "base", MAXIMA, None)
    assert (plan.iterations, plan.seconds, plan.threads, plan.temperature) == (1200, 5.0, 1, 0.2)
    assert plan.config().evaluator == "heuristic"  # the lowest levels search without the net
    plan = budget.move_plan(pb.GetMoveRequest(level=6), "base", MAXIMA, None)
    assert (plan.iterations, plan.temperature, plan.config().evaluator) == (400, 0.2, "auto")
    plan = budget.move_plan(pb.GetMoveRequest(level=9), "base", MAXIMA, None)
    assert (plan.iterations, plan.seconds, plan.temperature) == (10_000, 3.0, 0.0)  # iterations capped by the maxima
    roomy = budget.Maxima(iterations=10**9, seconds=60.0, threads=2)  # a level's count is per game
    assert [budget.move_plan(pb.GetMoveRequest(level=10), g, roomy, None).iterations
            for g in ("base", "duel", "marvel")] == [200_000, 100_000, 200_000]
    plan = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(iterations=10**9), threads=64, seed=3,
                                               temperature=0.25), "base", MAXIMA, None)
    assert (plan.iterations, plan.threads, plan.seed, plan.temperature) == (10_000, 2, 3, 0.25)
    assert plan.config().evaluator == "auto"
    plan = budget.analyze_plan(pb.AnalyzeRequest(report_every_ms=100), MAXIMA, None)
    assert (plan.iterations, plan.seconds, plan.report_every) == (10_000, 5.0, 0.1)
    plan = budget.analyze_plan(pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=250)), MAXIMA, 1.0)
    assert 0.2 < plan.limits().seconds <= 0.25 and not plan.deadline_bound  # counted from the call's start
    plan = budget.analyze_plan(pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=2500)), MAXIMA, 1.0)
    assert plan.limits().seconds <= 1.0 - budget.deadline_margin(1.0) and plan.deadline_bound



def test_a_turn_shares_the_time_before_the_deadline_less_the_margin_fixed_at_the_start():
    """GetMove's decisions share the time up to the call's deadline less the margin computed once,
    at the call's start (before, each decision recomputed the margin from what was left, and the
    turn crept closer to the deadline). Checked on the budget each decision was given: the
    machine's pauses do not change it."""
    state = load_game("base", 2).state_from_position(  # 10 tokens, nothing to buy: 2+ decisions
        base_position(2, seed=4, current=0, tokens={0: [3, 3, 2, 2, 0, 0]}, nobles=[]))
    plan = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(iterations=10**9), seed=1), "base",
                             budget.Maxima(10**9, 60.0, 1), 1.0)
    assert plan.answer_by == pytest.approx(plan.deadline - budget.deadline_margin(1.0))
    turn = engine.play_turn(state, plan, engine.Stopper(), lambda s: s.view(s.current_player()))
    searched = [d for d in turn.decisions if not d.forced]
    assert len(searched) >= 2 and {d.stop for d in searched} == {"deadline"}
    assert sum(d.seconds for d in searched) <= plan.answer_by - plan.started + MIN_SECONDS * len(searched)

@pytest.mark.parametrize("request_, field", [
    (pb.GetMoveRequest(), "level"),
    (pb.GetMoveRequest(level=0), "level"),
    (pb.GetMoveRequest(limits=pb.SearchLimits()), "limits"),
    (pb.GetMoveRequest(limits=pb.SearchLimits(iterations=-1)), "limits.iterations"),
    (pb.GetMoveRequest(level=1, threads=-1), "threads"),
    (pb.GetMoveRequest(level=1, temperature=float("inf")), "temperature"),
    (pb.GetMoveRequest(level=1, lines=-1), "lines"),
])
def test_bad_options_name_their_field(request_, field):
    with pytest.raises(FieldError) as err:
        budget.move_plan(request_, "base", MAXIMA, None)
    assert err.value.field == field


def _analysis(time_s=20.0, every=0.02):
    state = load_game("base", 2).new_initial_state(1)
    req = pb.AnalyzeRequest(limits=pb.SearchLimits(time_ms=int(time_s * 1000)), report_every_ms=int(every * 1000))
    plan = budget.analyze_plan(req, budget.Maxima(10**9, 60.0, 2), None)
    return state.view(0), plan


def test_a_stopped_analysis_ends_promptly_and_frees_its_tree(monkeypatch):
    searches = []
    real_init = Search.__init__

    def spy(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        searches.append(weakref.ref(self))

    monkeypatch.setattr(Search, "__init__", spy)
    searched, plan = _analysis()
    stopper = engine.Stopper()
    reports = engine.analyze(searched, plan, stopper)
    result, reason = next(reports)
    assert reason is None
    threading.Timer(0.05, stopper.stop, args=("client",)).start()
    t0 = time.monotonic()
    with pytest.raises(ClientGone):
        for _ in reports:
            pass
    assert time.monotonic() - t0 < 0.05 + PAUSE  # not the 20 s it was given
    del reports, result
    gc.collect()
    assert searches and all(ref() is None for ref in searches), "the search (and its tree) is still alive"


def test_a_shutdown_stop_gives_a_final_cancelled_result():
    searched, plan = _analysis()
    stopper = engine.Stopper()
    reports = engine.analyze(searched, plan, stopper)
    next(reports)
    stopper.stop("shutdown")
    rest = list(reports)
    assert len(rest) <= 2 and rest[-1][1] == pb.STOP_REASON_CANCELLED and rest[-1][0].cancelled


def test_a_stopper_stopped_before_the_search_stops_it_at_once():
    stopper = engine.Stopper()
    stopper.stop("shutdown")
    state = load_game("base", 2).new_initial_state(1)
    plan = budget.move_plan(pb.GetMoveRequest(limits=pb.SearchLimits(time_ms=20_000)), "base", MAXIMA, None)
    t0 = time.monotonic()
    turn = engine.play_turn(state, plan, stopper, lambda s: s.view(s.current_player()))
    assert time.monotonic() - t0 < PAUSE and turn.decisions[0].stop == "cancelled"


@pytest.mark.parametrize("game, players", [("marvel", 2), ("marvel", 4), ("duel", 2)])
def test_duel_and_marvel_positions_and_moves_round_trip(game, players):
    """Full positions and every seat's view come back unchanged; every legal move (every
    payment) is named alike by its notation and its structured form."""
    rng = random.Random(players)
    state = load_game(game, players).new_initial_state(players)
    kinds, n = set(), 0
    while not state.is_terminal():
        if n % 4 == 0:
            assert convert.decode_position(convert.encode_position(state)).to_position() == state.to_position()
            for seat in range(players):
                view = state.view(seat)
                msg = convert.encode_position(view)
                assert getattr(msg, game).observer == seat and not getattr(msg, game).decks
                assert convert.decode_position(msg).to_position() == view.to_position()
        position = state.to_position()
        for action in state.legal_actions():
            move = convert.encode_move(position, action)
            structured = pb.Move()
            getattr(structured, game).CopyFrom(getattr(move, game))
            assert convert.decode_move(state, pb.Move(notation=move.notation), "m") == action
            assert convert.decode_move(state, structured, "m") == action, (move.notation, structured)
            kinds.add(move.notation.split()[0])
        state.apply_action(rng.choice(state.search_actions()))
        n += 1
    assert {"take", "buy", "reserve"} <= kinds
    if game == "duel":
        assert {"privilege", "replenish", "gold"} <= kinds


@pytest.mark.parametrize("game, path, proto", [
    ("duel", "board[0][3]", "board[3]"),
    ("duel", "board[4][4]", "board[24]"),
    ("duel", "board[2]", "board"),
    ("duel", "seats[1].tokens[5]", "seats[1].tokens.pearl"),
    ("duel", "card 3 is also at pyramid[1][2]", "card 3 is also at pyramid[1].cards[2]"),
    ("marvel", "supply[6]", "supply.grey"),
    ("marvel", "seats[0].tokens[5]", "seats[0].tokens.green"),
    ("marvel", "decks[2][0]", "decks[2].cards[0]"),
])
def test_duel_and_marvel_paths_become_message_paths(game, path, proto):
    assert convert._proto_path(path, game) == proto


def test_a_variation_stops_at_a_move_not_legal_in_the_position_sent():
    # The search finds its variations in deals of the hidden cards; one can hold a move that
    # parses but is not legal in the position the client sent (a card the mover cannot pay
    # for here). The variation shown stops before it instead of failing the whole request.
    from splendor_ai.search.mcts import ActionStats, _pv_steps

    state = load_game("base", 2).new_initial_state(1)
    ids = {text: state.string_to_action(text) for text in ("take wug", "buy 8")}
    assert ids["buy 8"] not in state.legal_actions()
    after = state.clone()
    after.apply_action(ids["take wug"])
    line = [ids["take wug"], after.string_to_action("take wur"), ids["buy 8"], ids["take wug"]]

    def shown(actions):
        position = state.to_position()
        steps = _pv_steps(state, actions, position)
        stats = ActionStats(actions[0], state.action_to_string(actions[0]), 1, 0.5, 0.0, [t for _, _, t in steps],
                            pv_steps=[(p, a) for p, a, _ in steps])
        return [m.notation for m in convert._line(position, stats, []).pv]

    assert shown(line) == ["take wug", "take wur"]  # it stops before the buy this seat cannot pay
    assert _pv_steps(state, [ids["buy 8"], ids["take wug"]], state.to_position()) == []


def test_every_line_of_a_views_search_starts_with_its_move_also_one_that_draws_an_unknown_card():
    # A view does not know the decks' order: a reserve or a buy from the board refills from one.
    # Such a move still starts its line (the variation stops after it, not before it), and a
    # line's moves are the ones an encoder that reads the position gives.
    from splendor_ai.bench.service import positions
    from splendor_ai.games.base import spec as base_spec
    from splendor_ai.search.mcts import Config, Limits, search

    drawing = 0
    for view in positions(12, seed=3):
        state = convert.decode_position(view)
        assert state.to_position()["observer"] is not None
        position = state.to_position()
        result = search(state, Limits(iterations=400), Config(seed=2, evaluator="heuristic"))
        for stats in result.actions:
            line = convert._line(position, stats, [])
            assert line.pv and line.pv[0] == line.move == convert.encode_move(position, stats.action)
            drawing += base_spec.action_kind(stats.action) in ("reserve_board", "buy")
            # a step's position is left out only for a move that is the same in every position
            for (p, action), move in zip(stats.pv_steps, line.pv):
                assert (p is None) == (action in base_spec.FIXED_NOTATION)
                if p is not None:
                    assert move == convert.encode_move(p, action)
    assert drawing > 10


@pytest.mark.parametrize("game,players", [("base", 3), ("duel", 2), ("marvel", 4)])
def test_moves_the_same_in_every_position_are_looked_up_as_they_would_be_made(game, players):
    # FIXED_NOTATION and the converters' copies of fixed moves stand for the notation and the
    # message made from the position: the same in every position along random games.

    from splendor_ai.games.registry import spec as game_spec

    spec = game_spec(game)
    notation = spec.RULES._notation if game != "duel" else spec._notation
    wire = convert.CONVERTERS[game]
    encode_slow = wire.WIRE._encode_move if game != "duel" else wire._encode_move
    rng = random.Random(5)
    seen = set()
    for deal in range(6):
        state = load_game(game, players).new_initial_state(deal)
        while not state.is_terminal():
            position = state.to_position()
            for a in state.legal_actions():
                assert spec.action_to_string(position, a) == notation(position, a)
                if a in spec.FIXED_NOTATION:
                    seen.add(spec.action_kind(a))
                    assert wire.encode_move(position, a) == wire.encode_move(None, a) == encode_slow(position, a, None)
            state.apply_action(rng.choice(state.search_actions()))
    assert len(seen) >= 3  # takes, returns or privileges, the own pieces, ...
    assert not any(spec.action_kind(a) in ("buy", "reserve_board", "reserve") for a in spec.FIXED_NOTATION)
