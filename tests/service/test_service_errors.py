"""Bad input gets the right status naming the right field, and the server stays healthy."""
import time

import grpc
import pytest
from splendor_ai_client import IllegalMove, InvalidArgument, pb, with_drawn_card

from game_checks import deck_card, malformed_position_tests, move_tokens, reserve_mutators
from splendor_ai.games import load_game
from splendor_ai.games.base import spec
from splendor_ai.service import convert


def new_position(seed=1) -> pb.Position:
    return convert.encode_position(load_game("base", 2).new_initial_state(seed))


def _move_tokens(p, seat, colour, n):
    move_tokens(p.base, seat, colour, n)


def _deck_card(p, level, i=0):
    return deck_card(p.base, level, i)


def m_players(p): p.base.players = 5
def m_current(p): p.base.current = 2
def m_start_seat(p): p.base.start_seat = -1
def m_turn(p): p.base.turn = -3
def m_passes(p): p.base.passes = 3
def m_phase(p): p.base.phase = pb.BasePosition.PHASE_UNSPECIFIED
def m_phase_unknown(p): p.base.phase = 99
def m_no_game(p): p.ClearField("base")
def m_no_supply(p): p.base.ClearField("supply")
def m_supply_range(p): p.base.supply.gold = 6
def m_tokens_conserved(p): p.base.seats[0].tokens.red = 1
def m_negative_tokens(p): p.base.seats[1].tokens.white = -1
def m_seat_tokens_missing(p): p.base.seats[1].ClearField("tokens")
def m_seat_count(p): p.base.seats.add().tokens.SetInParent()
def m_board_row_short(p): del p.base.board[1].cards[3]
def m_board_rows(p): del p.base.board[2]
def m_unknown_card(p): p.base.board[0].cards[0] = 95
def m_wrong_level_on_board(p): p.base.board[0].cards[1] = p.base.decks[1].cards[0]


def m_card_in_two_places(p):
    p.base.seats[0].cards.append(p.base.board[0].cards[2])


m_more_than_3_reserved, m_hidden_in_full_position = reserve_mutators("base", _deck_card, 1)


def m_reserved_level(p):
    p.base.seats[0].reserved.add(card=_deck_card(p, 1), level=2)


def m_hidden_not_blind(p):
    _deck_card(p, 2)
    p.base.observer = 0
    del p.base.decks[:]
    p.base.seats[1].reserved.add(level=2, blind=False)


def m_unknown_noble(p): p.base.nobles[0] = 12
def m_duplicate_noble(p): p.base.nobles[1] = p.base.nobles[0]


def m_noble_not_earned(p):
    p.base.seats[0].nobles.append(p.base.nobles.pop(0))


def m_deck_size(p): p.base.deck_sizes[0] = 10
def m_full_without_decks(p): del p.base.decks[:]
def m_observer_range(p): p.base.observer = 3


def m_wrong_level_in_deck(p):
    d0, d1 = p.base.decks[0].cards, p.base.decks[1].cards
    d0[0], d1[0] = d1[0], d0[0]


def m_too_many_tokens(p):
    for colour, n in (("white", 3), ("blue", 3), ("green", 3), ("red", 2)):
        _move_tokens(p, 0, colour, n)


def m_return_phase(p): p.base.phase = pb.BasePosition.PHASE_RETURN
def m_noble_phase(p): p.base.phase = pb.BasePosition.PHASE_NOBLE
def m_final_round(p): p.base.final_round = True
def m_reserved_unknown_card(p): p.base.seats[1].reserved.add(card=-5)


MALFORMED = [
    (m_players, "position.base.players"),
    (m_current, "position.base.current"),
    (m_start_seat, "position.base.start_seat"),
    (m_turn, "position.base.turn"),
    (m_passes, "position.base.passes"),
    (m_phase, "position.base.phase"),
    (m_phase_unknown, "position.base.phase"),
    (m_no_game, "position"),
    (m_no_supply, "position.base.supply"),
    (m_supply_range, "position.base.supply.gold"),
    (m_tokens_conserved, "position.base.supply.red"),
    (m_negative_tokens, "position.base.seats[1].tokens.white"),
    (m_seat_tokens_missing, "position.base.seats[1].tokens"),
    (m_seat_count, "position.base.seats"),
    (m_board_row_short, "position.base.board[1].cards"),
    (m_board_rows, "position.base.board"),
    (m_unknown_card, "position.base.board[0].cards[0]"),
    (m_wrong_level_on_board, "position.base.board[0].cards[1]"),
    (m_card_in_two_places, "position.base.seats[0].cards[0]"),
    (m_more_than_3_reserved, "position.base.seats[0].reserved"),
    (m_hidden_in_full_position, "position.base.seats[1].reserved[0].card"),
    (m_reserved_level, "position.base.seats[0].reserved[0].level"),
    (m_hidden_not_blind, "position.base.seats[1].reserved[0].card"),
    (m_reserved_unknown_card, "position.base.seats[1].reserved[0].card"),
    (m_unknown_noble, "position.base.nobles[0]"),
    (m_duplicate_noble, "position.base.nobles[1]"),
    (m_noble_not_earned, "position.base.seats[0].nobles[0]"),
    (m_deck_size, "position.base.deck_sizes[0]"),
    (m_full_without_decks, "position.base.decks"),
    (m_observer_range, "position.base.observer"),
    (m_wrong_level_in_deck, "position.base.decks[0].cards[0]"),
    (m_too_many_tokens, "position.base.seats[0].tokens"),
    (m_return_phase, "position.base.phase"),
    (m_noble_phase, "position.base.phase"),
    (m_final_round, "position.base.final_round"),
]


test_malformed_position_names_the_field, test_server_healthy_after_bad_positions = \
    malformed_position_tests(MALFORMED, new_position, "take wug", analyze=False, min_fields=20)


def test_at_least_twenty_kinds_of_malformed_positions():
    assert len({f for _, f in MALFORMED}) >= 20 and len(MALFORMED) >= 30


@pytest.mark.parametrize("moves, field", [
    (["take"], "moves[0].notation"),
    (["take wug", "fly away"], "moves[1].notation"),
    ([pb.Move()], "moves[0]"),
    ([pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_RESERVE))], "moves[0].base.card"),
    ([pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_RESERVE_DECK, level=4))], "moves[0].base.level"),
    ([pb.Move(base=pb.BaseMove())], "moves[0].base.kind"),
    ([pb.Move(notation="take wug", base=pb.BaseMove(kind=pb.BaseMove.KIND_PASS))], "moves[0]"),
    ([pb.Move(notation="take wug", drawn_card=3)], "moves[0].drawn_card"),
])
def test_bad_moves_name_the_field(client, moves, field):
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(new_position(), moves)
    assert err.value.field == field, err.value.message


def test_structured_moves_are_accepted(client):
    p = new_position()
    take = pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_TAKE, tokens=pb.Tokens(white=1, blue=1, green=1)))
    reserve = pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_RESERVE_DECK, level=2))
    played = client.apply_actions(p, [take, reserve])
    assert [m.notation for m in played.moves] == ["take wug", "reserve deck2"]
    assert played.moves[1].kind == "reserve_deck" and played.moves[1].level == 2


def test_illegal_move_is_failed_precondition_with_the_reason(client):
    p = new_position()
    with pytest.raises(IllegalMove) as err:
        client.apply_actions(p, ["take wug", "take wu"])
    assert err.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert err.value.field == "moves[1]"
    assert "take 3 different colours" in err.value.precondition_violations[0].description
    with pytest.raises(IllegalMove) as err:
        client.apply_actions(p, [f"buy {p.base.board[2].cards[0]}"])
    assert "not affordable" in err.value.message


def test_game_over_cannot_be_searched(client):
    pos = spec.initial_position(2, 1)
    pos["phase"], pos["current"] = "over", 1
    p = convert.encode_position(load_game("base", 2).state_from_position(pos))
    with pytest.raises(IllegalMove) as err:
        client.get_move(p, level=1)
    assert "game is over" in err.value.message
    with pytest.raises(IllegalMove):
        client.apply_actions(p, ["take wug"])


@pytest.mark.parametrize("kwargs, field", [
    (dict(level=11), "level"),
    (dict(level=0), "level"),
    (dict(), "level"),
    (dict(iterations=-1), "limits.iterations"),
    (dict(time_ms=-5), "limits.time_ms"),
    (dict(level=1, threads=-1), "threads"),
    (dict(level=1, lines=-2), "lines"),
    (dict(level=1, temperature=-1.0), "temperature"),
    (dict(level=1, temperature=float("nan")), "temperature"),
    (dict(level=1, perfect_information=True), "perfect_information"),
])
def test_bad_get_move_options(client, kwargs, field):
    view = new_position()
    view.base.observer = 0
    del view.base.decks[:]
    with pytest.raises(InvalidArgument) as err:
        client.get_move(view, **kwargs)
    assert err.value.field == field, err.value.message


def test_limits_must_not_be_both_zero(client):
    req = pb.GetMoveRequest(position=new_position(), limits=pb.SearchLimits())
    with pytest.raises(grpc.RpcError) as err:
        client.stub.GetMove(req, timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.mark.parametrize("kwargs, field", [
    (dict(report_every_ms=5), "report_every_ms"),
    (dict(report_every_ms=-1), "report_every_ms"),
    (dict(candidates=["take wugr"]), "candidates[0].notation"),
])
def test_bad_analyze_options(client, kwargs, field):
    with pytest.raises(InvalidArgument) as err:
        client.analyze(new_position(), iterations=100, **kwargs).result()
    assert err.value.field == field, err.value.message


def test_illegal_candidate(client):
    p = new_position()
    with pytest.raises(IllegalMove) as err:
        client.analyze(p, iterations=100, candidates=["take wug", f"buy {p.base.board[2].cards[0]}"]).result()
    assert err.value.field == "candidates[1]"


def test_unknown_game_and_bad_players(client):
    for call in (lambda: client.stub.NewGame(pb.NewGameRequest(game=9), timeout=10),
                 lambda: client.stub.GetCatalog(pb.GetCatalogRequest(game=7), timeout=10)):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "unknown game" in err.value.details()
    for game, players in (("base", 5), ("marvel", 5), ("duel", 3)):
        with pytest.raises(InvalidArgument) as err:
            client.new_game(players, game=game)
        assert err.value.field == "players" and f"not {players}" in err.value.message


def test_a_view_cannot_act_for_a_seat_whose_cards_it_does_not_know(client):
    full = load_game("base", 2).new_initial_state(4)
    full.apply_action(full.string_to_action("reserve deck1"))  # seat 0 reserves blind; seat 1 to act
    full.apply_action(full.string_to_action("take wug"))  # seat 1; seat 0 to act
    view1 = convert.encode_position(full.view(1))  # seat 1's view: seat 0's reserve hidden
    for call in (lambda: client.legal_actions(view1), lambda: client.get_move(view1, level=1)):
        with pytest.raises(InvalidArgument) as err:
            call()
        assert err.value.field == "position.base.observer"
    drawn = full.to_position()["decks"][0][-1]
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(view1, [with_drawn_card("reserve deck1", drawn)])
    assert err.value.field == "position.base.observer"


def test_errors_are_logged_one_line_per_call(client, server):
    rid = f"log-check-{time.time()}"
    with pytest.raises(InvalidArgument):
        client.legal_actions(pb.Position(), request_id=rid)
    deadline = time.monotonic() + 5
    while rid not in server.text() and time.monotonic() < deadline:
        time.sleep(0.02)
    [line] = [x for x in server.text().splitlines() if rid in x]
    assert "LegalActions" in line and "outcome=INVALID_ARGUMENT" in line and "elapsed=" in line


def test_oversized_requests_are_refused_cheaply(client):
    p = new_position()
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(p, ["take wug"] * 1001)
    assert err.value.field == "moves"
    huge = pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_TAKE, tokens=pb.Tokens(white=2**31 - 1)))
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(p, [huge])
    assert err.value.field == "moves[0].base.tokens.white"
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(p, ["take " + "w" * 10_000])
    assert err.value.field == "moves[0].notation"
    with pytest.raises(InvalidArgument) as err:
        client.analyze(p, iterations=10, candidates=["take wug"] * 1001).result()
    assert err.value.field == "candidates"


def test_a_request_id_is_capped(client, server):
    p = new_position()
    assert client.legal_actions(p, request_id="r" * convert.MAX_REQUEST_ID).request_id == "r" * convert.MAX_REQUEST_ID
    huge = "x" * 3_000_000  # once written to the log as is
    for call in (lambda: client.legal_actions(p, request_id=huge), lambda: client.get_move(p, level=1, request_id=huge),
                 lambda: client.analyze(p, iterations=10, request_id=huge).result()):
        with pytest.raises(InvalidArgument) as err:
            call()
        assert err.value.field == "request_id" and "at most 128 characters, got 3000000" in err.value.message
    deadline = time.monotonic() + 5
    while "(3000000 characters)" not in server.text() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert max(len(line) for line in server.text().splitlines()) < 1000, "a long request_id reached the log"


@pytest.mark.parametrize("method", ["GetMove", "Analyze", "LegalActions", "NewGame"])
def test_bytes_that_do_not_parse_are_invalid_argument_without_a_traceback(client, server, method):
    channel = client.channel
    path = f"/splendor.v1.SplendorService/{method}"
    rpc = channel.unary_stream(path) if method == "Analyze" else channel.unary_unary(path)
    # a bad tag, a truncated field, a request_id (field 1) that is not UTF-8
    for garbage in (b"\xff\xff\xff\xff", b"\x0a\x05abc", b"\x0a\x02\xc3\x28"):
        with pytest.raises(grpc.RpcError) as err:
            reply = rpc(garbage, timeout=10)
            if method == "Analyze":
                list(reply)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
        assert err.value.details().startswith("request: the bytes do not parse as a splendor.v1.")
    assert "Traceback" not in server.text() and "Exception deserializing" not in server.text()


@pytest.mark.parametrize("game, moves", [
    ("base", ["buy 5", "reserve 5"]),
    ("duel", ["buy 5", "reserve 5"]),
    ("marvel", ["buy 5", "reserve 5"]),
])
def test_buying_or_reserving_a_card_that_is_not_available_is_an_illegal_move(client, game, moves):
    state = load_game(game, 2).new_initial_state(1)
    position = convert.encode_position(state)
    for text in moves:
        with pytest.raises(IllegalMove) as err:
            client.apply_actions(position, [text])
        assert err.value.code == grpc.StatusCode.FAILED_PRECONDITION and err.value.field == "moves[0]"
        assert "card 5 is" in err.value.precondition_violations[0].description
    with pytest.raises(InvalidArgument) as err:  # a card that does not exist is bad notation
        client.apply_actions(position, ["buy 300"])
    assert err.value.field == "moves[0].notation" and "not in the catalogue" in err.value.message
