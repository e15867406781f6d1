"""What the service tests check alike for every game, through the real server: a whole game
of GetMove turns, the frontend's dealing (the card each draw reveals), every call naming the
field of a malformed position, and a server still healthy after all of them."""
import time

import grpc
import pytest
from splendor_ai_client import InvalidArgument


def play_to_the_end(client, position, iterations: int, seed: int, max_turns: int, max_seconds: float = 1e9):
    """GetMove for whichever seat is to act, each turn played through ApplyActions (the two
    must agree), until the game is over; the final position, the seats that moved, the kinds
    of moves played."""
    seats_moved, kinds = set(), set()
    started = time.monotonic()
    for _ in range(max_turns):
        if client.legal_actions(position).status.game_over:
            return position, seats_moved, kinds
        assert time.monotonic() - started < max_seconds, "the game takes too long"
        turn = client.get_move(position, iterations=iterations, seed=seed)
        assert turn.turn_complete and turn.moves and len(turn.searches) == len(turn.moves)
        seats_moved.add(turn.searches[0].seat)
        kinds.update(m.kind for m in turn.moves)
        played = client.apply_actions(position, [m.notation for m in turn.moves])
        assert played.position == turn.position, "ApplyActions and GetMove agree on the new position"
        assert [m.notation for m in played.moves] == [m.notation for m in turn.moves]
        position = played.position
    pytest.fail("the game did not end")


def drawn_card(full, action):
    """The card ``action`` draws from a deck in the full state ``full`` (None if none)."""
    before, after = full.to_position(), full.clone()
    after.apply_action(action)
    for lv in range(3):
        if after.to_position()["deck_sizes"][lv] < before["deck_sizes"][lv]:
            return before["decks"][lv][-1]
    return None


def assert_calls_name_the_field(client, p, field: str, move: str, analyze: bool = True) -> None:
    """LegalActions, GetMove, ApplyActions (with ``move``) and Analyze all answer
    INVALID_ARGUMENT naming ``field``, with a description."""
    calls = [lambda: client.legal_actions(p), lambda: client.get_move(p, level=1),
             lambda: client.apply_actions(p, [move])]
    if analyze:
        calls.append(lambda: client.analyze(p, iterations=10).result())
    for call in calls:
        with pytest.raises(InvalidArgument) as err:
            call()
        assert err.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert err.value.field == field, err.value.message
        assert err.value.field_violations[0].description


def assert_healthy_after(client, server, health, malformed, new_position) -> None:
    """After GetMove on every malformed position (each refused), the server still serves."""
    for mutate, _ in malformed:
        p = new_position()
        mutate(p)
        with pytest.raises(InvalidArgument):
            client.get_move(p, iterations=10)
    assert health(server.target, "splendor.v1.SplendorService") == "SERVING"
    assert client.get_move(new_position(), iterations=10).moves
    time.sleep(0.05)
    assert "INTERNAL" not in server.text() and "Traceback" not in server.text()


def malformed_position_tests(malformed, new_position, move: str, analyze: bool = True, min_fields: int = 10):
    """The tests every game's table of malformed positions gets (a test module binds them to
    its own names): each call names the offending field, and the server serves on after all."""
    @pytest.mark.parametrize("mutate, field", malformed, ids=[m.__name__[2:] for m, _ in malformed])
    def test_malformed_position_names_the_field(client, mutate, field):
        p = new_position()
        client.legal_actions(p)  # the unmodified position is fine
        mutate(p)
        assert_calls_name_the_field(client, p, field, move, analyze=analyze)

    def test_server_healthy_after_bad_positions(client, server, health):
        assert len({f for _, f in malformed}) >= min_fields
        assert_healthy_after(client, server, health, malformed, new_position)
        assert health(server.target) == "SERVING"

    return test_malformed_position_names_the_field, test_server_healthy_after_bad_positions


def reserve_mutators(game: str, deck_card, level: int):
    """Two malformations every card game's position can have: four reserved cards, and a
    blind reserve in a full position (whose card must be known)."""
    def m_more_than_3_reserved(p):
        for _ in range(4):
            getattr(p, game).seats[0].reserved.add(card=deck_card(p, 1))

    def m_hidden_in_full_position(p):
        deck_card(p, level)
        getattr(p, game).seats[1].reserved.add(level=level, blind=True)

    return m_more_than_3_reserved, m_hidden_in_full_position


def assert_analysis_stream(reports, game: str, lines: int, players: int) -> None:
    """One Analyze stream: several reports in sequence, exactly one final (the last one),
    with at most ``lines`` lines of ``game`` and a win probability per seat."""
    assert len(reports) >= 3 and [r.final for r in reports].count(True) == 1 and reports[-1].final
    assert [r.sequence for r in reports] == list(range(len(reports)))
    final = reports[-1].stats
    assert final.stop_reason in ("time", "iterations") and 1 <= len(final.lines) <= lines
    assert final.lines[0].move.game == game and len(final.win_probability) == players
    assert sum(final.win_probability) == pytest.approx(1.0)


def frontend_turn(client, full, iterations: int, seed: int, outcome=None) -> tuple[object, int]:
    """One turn of a game the frontend deals: GetMove on the view of the seat to act, each
    move sent back with what it drew (the card; ``outcome(move, action)`` for what else the
    game draws), ApplyActions on the view, which must match the frontend's own game. The
    turn's GetMove answer and the number of cards drawn."""
    from splendor_ai_client import with_drawn_card

    from splendor_ai.service import convert

    seat = full.current_player()
    view = convert.encode_position(full.view(seat))
    turn = client.get_move(view, iterations=iterations, seed=seed)
    moves, draws = [], 0
    for m in turn.moves:
        action = full.string_to_action(m.notation)
        card = drawn_card(full, action)
        extra = outcome(m, action) if outcome else None
        moves.append(extra if extra is not None else with_drawn_card(m, card) if card is not None else m)
        draws += card is not None
        full.apply_action(action)
    played = client.apply_actions(view, moves)
    assert convert.decode_position(played.position).to_position() == full.view(seat).to_position()
    return turn, draws


def deck_card(game_position, level: int, i: int = 0) -> int:
    """Takes card i of the deck of ``level`` out of a position message's deck (for the
    game's own message: ``p.base``, ``p.marvel``, ``p.duel``); the deck size follows."""
    cid = game_position.decks[level - 1].cards.pop(i)
    game_position.deck_sizes[level - 1] -= 1
    return cid


def move_tokens(game_position, seat: int, kind: str, n: int = 1) -> None:
    """Moves ``n`` tokens of ``kind`` from the supply to a seat of a position message."""
    setattr(game_position.supply, kind, getattr(game_position.supply, kind) - n)
    setattr(game_position.seats[seat].tokens, kind, getattr(game_position.seats[seat].tokens, kind) + n)
