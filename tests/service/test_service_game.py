"""Whole games through the real server: the server deals, and the frontend deals."""
import pytest
from splendor_ai_client import InvalidArgument, pb, with_drawn_card

from game_checks import drawn_card, frontend_turn, play_to_the_end
from splendor_ai.games import load_game
from splendor_ai.games.base import spec
from splendor_ai.service import convert

MAX_CALLS = 600


def test_catalog_and_new_game(client):
    cat = client.catalog()
    assert [c.id for c in cat.cards] == list(range(90)) and [n.id for n in cat.nobles] == list(range(10))
    assert cat.cards[0].level == 1 and cat.cards[89].level == 3 and cat.cards[0].cost.gold == 0
    a, b = client.new_game(2, seed=11, request_id="r1"), client.new_game(2, seed=11)
    assert a.request_id == "r1" and a.seed == 11
    assert a.position == b.position, "the same seed deals the same game"
    assert a.position.base.players == 2 and len(a.position.base.decks) == 3
    assert not a.position.base.HasField("observer")
    assert client.new_game(4).position.base.players == 4
    assert client.new_game(2).seed != client.new_game(2).seed  # random seeds when none is given


def test_full_two_player_game_to_the_end_server_deals(client):
    """GetMove for both seats, each turn played through ApplyActions, to the end."""
    position, seats_moved, _ = play_to_the_end(client, client.new_game(2, seed=3).position, 40, 1, MAX_CALLS)
    assert seats_moved == {0, 1}
    status = client.legal_actions(position).status
    assert status.game_over and status.to_move == -1 and sum(status.returns) == pytest.approx(1.0)
    assert position.base.phase == pb.BasePosition.PHASE_OVER
    assert client.legal_actions(position).moves == []


def test_full_game_frontend_deals(client):
    """The frontend keeps the deck: it sends the mover's view and says which card each draw
    reveals; the server's views match the frontend's own game at every step."""
    full = load_game("base", 2).new_initial_state(seed=21)
    draws = 0
    for _ in range(MAX_CALLS):
        if full.is_terminal():
            break
        draws += frontend_turn(client, full, 40, 2)[1]
    else:
        pytest.fail("the game did not end")
    assert draws > 5


def _only_reserves_position():
    """A full position where seat 0 (to act, 10 tokens, no gems left to take) can only reserve."""
    for seed in range(500):
        pos = spec.initial_position(2, seed)
        pos["seats"][0]["tokens"] = [4, 4, 2, 0, 0, 0]
        pos["seats"][1]["tokens"] = [0, 0, 2, 4, 4, 0]
        pos["supply"] = [0, 0, 0, 0, 0, 5]
        state = load_game("base", 2).state_from_position(pos)
        if all(spec.action_kind(a).startswith("reserve") for a in state.legal_actions()):
            return state
    raise AssertionError("no such deal among the first 500 seeds")


def test_turn_with_a_hidden_draw_is_finished_in_two_calls(client):
    """Seat 0 can only reserve (then returns a token, holding 11): from its view GetMove
    stops after the reserve, whose drawn card the view cannot know; ApplyActions takes the
    drawn card; GetMove then finishes the turn."""
    full = _only_reserves_position()
    view = convert.encode_position(full.view(0))
    first = client.get_move(view, iterations=50, seed=3)
    assert not first.turn_complete and first.position is None and first.status is None
    assert len(first.moves) == 1 and first.moves[0].kind in ("reserve", "reserve_deck")
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(view, first.moves)
    assert err.value.field == "moves[0].drawn_card"
    action = full.string_to_action(first.moves[0].notation)
    card = drawn_card(full, action)
    full.apply_action(action)
    played = client.apply_actions(view, [with_drawn_card(first.moves[0], card)])
    assert convert.decode_position(played.position).to_position() == full.view(0).to_position()
    assert played.position.base.phase == pb.BasePosition.PHASE_RETURN
    rest = client.get_move(played.position, iterations=50, seed=3)
    assert rest.turn_complete and [m.kind for m in rest.moves] == ["return"]
    assert rest.status.to_move == 1


def test_the_call_that_finishes_a_turn_shares_the_turns_time(client):
    """A turn split over two GetMove calls has one time budget: the first answer says how long
    the turn took (turn_elapsed_ms); given back, the second call searches only what is left of
    `time_ms` (here nothing: the least time a decision gets), not the whole of it again."""
    full = _only_reserves_position()
    view = convert.encode_position(full.view(0))
    first = client.get_move(view, time_ms=400, seed=3)
    assert not first.turn_complete and 100 <= first.turn_elapsed_ms <= 5_000
    action = full.string_to_action(first.moves[0].notation)
    card = drawn_card(full, action)
    after = client.apply_actions(view, [with_drawn_card(first.moves[0], card)]).position
    # the turn's 400 ms are spent: the return is searched for the least time there is
    shared = client.get_move(after, time_ms=400, seed=3, turn_elapsed_ms=400)
    assert shared.turn_complete and [m.kind for m in shared.moves] == ["return"]
    [search] = shared.searches
    assert search.stop_reason == "time" and search.elapsed_seconds < 0.2
    assert shared.turn_elapsed_ms >= 400
    # without it the return starts a turn of its own and gets the whole 400 ms
    alone = client.get_move(after, time_ms=400, seed=3)
    assert alone.searches[0].stop_reason == "time" and alone.searches[0].elapsed_seconds >= 0.3
    assert alone.turn_elapsed_ms < shared.turn_elapsed_ms + 5_000


def test_turn_elapsed_ms_is_bounded(client):
    view = convert.encode_position(_only_reserves_position().view(0))
    with pytest.raises(InvalidArgument) as err:
        client.get_move(view, iterations=10, turn_elapsed_ms=86_400_001)
    assert err.value.field == "turn_elapsed_ms" and "86,400,000" in str(err.value)
    with pytest.raises(ValueError, match="turn_elapsed_ms"):
        client.get_move(view, iterations=10, turn_elapsed_ms=-1)
