"""GetMove on a view whose turn ends on a card draw: complete, but without a position."""
from splendor_ai_client import with_drawn_card

from builders import base_position
from game_checks import drawn_card
from splendor_ai.games import load_game
from splendor_ai.service import convert


def test_a_turn_that_ends_on_a_hidden_refill_is_complete_without_a_position(client):
    # 3 seats, no gems left to take, seat 0 at 5 tokens: every move draws a card seat 0's view
    # does not know, and none leaves it a decision (no returns, no nobles).
    full = load_game("base", 3).state_from_position(base_position(
        3, seed=1, current=0, nobles=[], tokens={0: [1, 1, 1, 1, 1, 0], 1: [2, 2, 2, 2, 2, 0], 2: [2, 2, 2, 2, 2, 0]}))
    view = convert.encode_position(full.view(0))
    turn = client.get_move(view, iterations=100, seed=2)
    assert turn.turn_complete and turn.incomplete_reason == "" and len(turn.moves) == 1
    assert turn.position is None and turn.status is None  # the view cannot know the refill
    [move] = turn.moves
    action = full.string_to_action(move.notation)
    card = drawn_card(full, action)
    full.apply_action(action)
    played = client.apply_actions(view, [with_drawn_card(move, card)])
    assert convert.decode_position(played.position).to_position() == full.view(0).to_position()
    assert full.current_player() == 1
