"""Splendor: Marvel through the real server: catalogue, whole games, analysis, bad positions."""
import pytest
from splendor_ai_client import InvalidArgument, IllegalMove, pb

from game_checks import (assert_analysis_stream, deck_card, frontend_turn, malformed_position_tests, move_tokens,
                         play_to_the_end, reserve_mutators)
from splendor_ai.games import load_game
from splendor_ai.games.marvel import spec
from splendor_ai.service import convert

MAX_TURNS = 300


def new_position(players=2, seed=1) -> pb.Position:
    return convert.encode_position(load_game("marvel", players).new_initial_state(seed))


def test_catalog_serves_character_and_location_names(client):
    cat = client.catalog("marvel")
    assert cat.game == "marvel" and [c.id for c in cat.cards] == list(range(90))
    assert [x.id for x in cat.locations] == list(range(8)) and cat.nobles == []
    assert all(c.name for c in cat.cards) and cat.cards[0].name == spec.CARDS[0].name
    assert [x.name for x in cat.locations] == [loc.name for loc in spec.LOCATIONS]
    assert cat.locations[1].name == "Wakanda" and cat.locations[1].tile == 1 and cat.locations[1].side == "B"
    assert cat.locations[1].requires.red == 4 and cat.locations[1].requires.grey == 0
    assert {c.id for c in cat.cards if c.time_stone} == {c.id for c in spec.CARDS if c.time_stone}
    assert sum(c.avengers for c in cat.cards) == sum(c.avengers for c in spec.CARDS) > 0
    assert {c.color for c in cat.cards} == {"yellow", "red", "orange", "blue", "purple"}
    assert cat.cards[5].cost.green == 0 and cat.cards[5].cost == tuple(spec.CARDS[5].cost) + (0, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_and_get_move_for_every_player_count(client, players):
    game = client.new_game(players, seed=7, game="marvel")
    p = game.position.marvel
    assert game.game == "marvel" and p.players == players and len(p.seats) == players
    assert len(p.locations) == players and len(p.decks) == 3 and not p.HasField("observer")
    assert p.supply.green == spec.GREEN_COUNT[players] and p.supply.grey == 5
    assert convert.decode_position(game.position).to_position() == spec.initial_position(players, 7)
    turn = client.get_move(game.position, iterations=60, seed=1)
    assert turn.turn_complete and turn.moves[0].game == "marvel" and turn.status.to_move == 1
    assert turn.position.marvel.current == 1 and turn.searches[0].seat == 0


def test_full_two_player_game_to_the_end(client):
    position, seats_moved, kinds = play_to_the_end(
        client, client.new_game(2, seed=5, game="marvel").position, 40, 2, MAX_TURNS)
    assert seats_moved == {0, 1} and {"take", "buy"} <= kinds
    status = client.legal_actions(position).status
    assert status.game_over and status.to_move == -1
    assert position.marvel.phase == pb.MarvelPosition.PHASE_OVER
    winners = [i for i, r in enumerate(status.returns) if r > 0]
    assert all(position.marvel.seats[i].meets_gauntlet for i in winners)


def test_frontend_deals_three_players(client):
    """The frontend keeps the decks: views plus the card each draw reveals."""
    full = load_game("marvel", 3).new_initial_state(seed=4)
    draws = 0
    for _ in range(25):
        view = convert.encode_position(full.view(full.current_player()))
        assert view.marvel.observer == full.current_player() and not view.marvel.decks
        draws += frontend_turn(client, full, 30, 3)[1]
    assert draws >= 3


def test_analyze_streams_then_exactly_one_final(client):
    reports = list(client.analyze(new_position(3), time_ms=1000, report_every_ms=50, lines=2, seed=4,
                                  request_id="mv"))
    assert_analysis_stream(reports, "marvel", 2, 3)
    analysis = client.analyze(new_position(), iterations=500, seed=1, candidates=["take yro", "reserve deck3"])
    assert {ln.move.notation for ln in analysis.result().stats.lines} == {"take yro", "reserve deck3"}


def test_structured_moves_and_game_mismatch(client):
    p = new_position()
    take = pb.Move(marvel=pb.MarvelMove(kind=pb.MarvelMove.KIND_TAKE, tokens=pb.MarvelTokens(yellow=1, red=1, blue=1)))
    blind = pb.Move(marvel=pb.MarvelMove(kind=pb.MarvelMove.KIND_RESERVE_DECK, level=3))
    played = client.apply_actions(p, [take, blind])
    assert [m.notation for m in played.moves] == ["take yrb", "reserve deck3"]
    assert played.moves[0].tokens.blue == 1 and played.moves[1].level == 3
    base_move = pb.Move(base=pb.BaseMove(kind=pb.BaseMove.KIND_PASS))
    for moves, field in (([base_move], "moves[0].base"), (["take yg"], "moves[0].notation"),
                         ([pb.Move(marvel=pb.MarvelMove(kind=pb.MarvelMove.KIND_LOCATION))],
                          "moves[0].marvel.location"),
                         ([pb.Move(notation="take yrb", drawn_tokens="w")], "moves[0].drawn_tokens")):
        with pytest.raises(InvalidArgument) as err:
            client.apply_actions(p, moves)
        assert err.value.field == field, err.value.message
    with pytest.raises(IllegalMove) as err:
        client.apply_actions(p, ["take yrb", "take oo", "take yy"])  # 3 yellow left: no pair
    assert err.value.field == "moves[2]" and "yy" in err.value.message


# --------------------------------------------------------------------------- malformed positions
def _move_token(p, seat, kind, n=1):
    move_tokens(p.marvel, seat, kind, n)


def _deck_card(p, level, i=0):
    return deck_card(p.marvel, level, i)


def m_players(p): p.marvel.players = 5
def m_current(p): p.marvel.current = 2
def m_phase(p): p.marvel.phase = pb.MarvelPosition.PHASE_UNSPECIFIED
def m_no_supply(p): p.marvel.ClearField("supply")
def m_supply_range(p): p.marvel.supply.grey = 6
def m_tokens_conserved(p): p.marvel.seats[0].tokens.red = 1
def m_green_without_time_stone(p): _move_token(p, 0, "green")
def m_unknown_location(p): p.marvel.locations[0] = 9
def m_both_sides_of_a_tile(p): p.marvel.locations[1] = p.marvel.locations[0] ^ 1
def m_location_not_earned(p): p.marvel.seats[0].locations.append(p.marvel.locations.pop(0))
def m_avengers_without_icons(p): p.marvel.avengers = 0
def m_unknown_card(p): p.marvel.board[0].cards[0] = 90
def m_card_in_two_places(p): p.marvel.seats[1].cards.append(p.marvel.board[0].cards[2])
def m_location_phase(p): p.marvel.phase = pb.MarvelPosition.PHASE_LOCATION
def m_return_phase(p): p.marvel.phase = pb.MarvelPosition.PHASE_RETURN
def m_final_round(p): p.marvel.final_round = True
def m_deck_size(p): p.marvel.deck_sizes[0] = 10
def m_full_without_decks(p): del p.marvel.decks[:]
def m_observer_range(p): p.marvel.observer = 4
def m_seat_count(p): p.marvel.seats.add().tokens.SetInParent()
def m_seat_tokens_missing(p): p.marvel.seats[1].ClearField("tokens")


m_more_than_3_reserved, m_hidden_in_full_position = reserve_mutators("marvel", _deck_card, 2)


MALFORMED = [
    (m_players, "position.marvel.players"),
    (m_current, "position.marvel.current"),
    (m_phase, "position.marvel.phase"),
    (m_no_supply, "position.marvel.supply"),
    (m_supply_range, "position.marvel.supply.grey"),
    (m_tokens_conserved, "position.marvel.supply.red"),
    (m_green_without_time_stone, "position.marvel.seats[0].tokens.green"),
    (m_unknown_location, "position.marvel.locations[0]"),
    (m_both_sides_of_a_tile, "position.marvel.locations[1]"),
    (m_location_not_earned, "position.marvel.seats[0].locations[0]"),
    (m_avengers_without_icons, "position.marvel.avengers"),
    (m_unknown_card, "position.marvel.board[0].cards[0]"),
    (m_card_in_two_places, "position.marvel.seats[1].cards[0]"),
    (m_location_phase, "position.marvel.phase"),
    (m_return_phase, "position.marvel.phase"),
    (m_final_round, "position.marvel.final_round"),
    (m_deck_size, "position.marvel.deck_sizes[0]"),
    (m_full_without_decks, "position.marvel.decks"),
    (m_observer_range, "position.marvel.observer"),
    (m_seat_count, "position.marvel.seats"),
    (m_seat_tokens_missing, "position.marvel.seats[1].tokens"),
    (m_more_than_3_reserved, "position.marvel.seats[0].reserved"),
    (m_hidden_in_full_position, "position.marvel.seats[1].reserved[0].card"),
]


test_malformed_position_names_the_field, test_server_healthy_after_bad_positions = \
    malformed_position_tests(MALFORMED, new_position, "take yro")


