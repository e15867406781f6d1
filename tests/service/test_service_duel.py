"""Splendor Duel through the real server: catalogue, whole games, the bag, bad positions."""
import random

import pytest
from splendor_ai_client import DuelTokens, InvalidArgument, pb, with_drawn_card, with_drawn_tokens

from game_checks import assert_analysis_stream, deck_card, frontend_turn, malformed_position_tests, play_to_the_end
from splendor_ai.games import load_game
from splendor_ai.games.duel import spec
from splendor_ai.service import convert

MAX_TURNS = 250  # a Duel game between weak searches takes about 40-80 turns
MAX_SECONDS = 25


def new_position(seed=1) -> pb.Position:
    return convert.encode_position(load_game("duel").new_initial_state(seed))


def test_catalog_jewel_cards_royals_and_spiral(client):
    cat = client.catalog("duel")
    assert cat.game == "duel" and [c.id for c in cat.cards] == list(range(67))
    assert [r.id for r in cat.royals] == [0, 1, 2, 3] and cat.nobles == [] and cat.locations == []
    assert cat.spiral[0] == "c3" and cat.spiral[-1] == "e5" and sorted(cat.spiral) == sorted(
        spec.cell_name(c) for c in range(25))
    for c, s in zip(cat.cards, spec.CARDS):
        assert (c.level, c.points, c.crowns, c.bonus) == (s.level, s.points, s.crowns, s.bonus)
        assert c.color == spec.CARD_COLORS[s.color] and c.cost == tuple(s.cost) + (0,)
        assert c.abilities == [a for a, bit in spec.ABILITY_BITS.items() if bit and s.abilities & bit]
    assert {a for c in cat.cards for a in c.abilities} == {"extra_turn", "bonus_wild", "take_token",
                                                            "take_privilege", "steal_token"}
    assert cat.royals[1].abilities == ["extra_turn"] and cat.royals[0].points == 3


def test_new_game_is_the_deal(client):
    game = client.new_game(seed=9, game="duel")
    d = game.position.duel
    assert game.game == "duel" and d.players == 2 and len(d.board) == 25 and list(d.bag) == []
    assert d.HasField("bag_seed") and len(d.decks) == 3 and [len(r.cards) for r in d.pyramid] == [5, 4, 3]
    assert d.privileges == 2 and d.seats[1].privileges == 1 and sum(d.board) == sum(
        k for k in range(7) for _ in range(spec.TOKEN_TOTALS[k]))
    assert convert.decode_position(game.position).to_position() == spec.initial_position(2, 9)
    with pytest.raises(InvalidArgument) as err:
        client.new_game(3, game="duel")
    assert err.value.field == "players"


def test_full_game_to_the_end_get_move_for_both_seats(client):
    position, seats_moved, kinds = play_to_the_end(
        client, client.new_game(seed=2, game="duel").position, 25, 3, MAX_TURNS, MAX_SECONDS)
    assert seats_moved == {0, 1} and {"take", "buy"} <= kinds
    status = client.legal_actions(position).status
    d = position.duel
    assert status.game_over and d.phase == pb.DuelPosition.PHASE_OVER
    assert status.returns[d.current] == 1.0, "the seat that ended the game won"
    winner = d.seats[d.current]
    assert winner.points >= 20 or winner.crowns >= 10 or max(
        spec.color_points(convert.decode_position(position).to_position()["seats"][d.current])) >= 10


def _replenish_position(seed):
    """A full state, seat to act in 'main', where a replenish places 2 or more tokens."""
    rng = random.Random(seed)
    state = load_game("duel").new_initial_state(seed)
    while not state.is_terminal():
        if spec.REPLENISH in state.legal_actions() and len(state.to_position()["bag"]) >= 2:
            return state
        state.apply_action(rng.choice(state.search_actions()))
    raise AssertionError("no replenish with 2+ tokens in this game")


def test_frontend_deals_a_replenish_with_drawn_tokens(client):
    full = _replenish_position(4)
    seat = full.current_player()
    before = full.to_position()
    view = convert.encode_position(full.view(seat))
    assert list(view.duel.bag) == [] and not view.duel.HasField("bag_seed")
    assert sum(DuelTokens.from_pb(view.duel.bag_contents)) == len(before["bag"]) >= 2
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(view, ["replenish"])
    assert err.value.field == "moves[0].drawn_tokens" and "full position" in err.value.message
    placed = "".join(spec.LETTERS[k] for k in before["bag"])  # the draw order fills the spiral's empty cells
    for bad in (placed[1:], placed + "w", "x" * len(placed)):
        with pytest.raises(InvalidArgument) as err:
            client.apply_actions(view, [with_drawn_tokens("replenish", bad)])
        assert err.value.field == "moves[0].drawn_tokens", err.value.message
    with pytest.raises(InvalidArgument) as err:
        client.apply_actions(view, [with_drawn_card("replenish", 3)])
    assert err.value.field == "moves[0].drawn_card"
    played = client.apply_actions(view, [with_drawn_tokens("replenish", placed)])
    full.apply_action(spec.REPLENISH)
    assert convert.decode_position(played.position).to_position() == full.view(seat).to_position()
    assert played.position.duel.phase == pb.DuelPosition.PHASE_MANDATORY
    with pytest.raises(InvalidArgument) as err:  # a full position decides the draw itself
        legal = full.action_to_string(full.search_actions()[0])
        client.apply_actions(convert.encode_position(full), [with_drawn_tokens(legal, "w")])
    assert err.value.field == "moves[0].drawn_tokens"


def test_frontend_deals_cards_and_bag_draws(client):
    """The frontend keeps the decks and the bag: views, plus the card each deck draw reveals
    and the tokens each replenish places; the server's views match the frontend's game."""
    full = load_game("duel").new_initial_state(seed=6)
    draws = 0

    def bag_order(move, action):  # a replenish: the tokens it places, in the bag's order
        if action == spec.REPLENISH:
            return with_drawn_tokens(move, "".join(spec.LETTERS[k] for k in full.to_position()["bag"]))
        return None

    for _ in range(30):
        turn, drawn = frontend_turn(client, full, 20, 5, bag_order)
        assert turn.turn_complete or turn.moves[-1].kind in ("replenish", "reserve", "reserve_deck", "buy")
        draws += drawn
    assert draws >= 2


def test_analyze_streams_then_exactly_one_final(client):
    reports = list(client.analyze(new_position(3), time_ms=1000, report_every_ms=50, lines=3, seed=2,
                                  request_id="du"))
    assert_analysis_stream(reports, "duel", 3, 2)
    take = next(m for m in client.legal_actions(new_position(3)).moves if m.kind == "take" and len(m.cells) == 3)
    only = client.analyze(new_position(3), iterations=300, seed=1, candidates=[take]).result()
    assert [ln.move.notation for ln in only.stats.lines] == [take.notation]
    assert only.stats.lines[0].move.cells == take.cells


def test_structured_moves(client):
    p = new_position(3)
    legal = client.legal_actions(p).moves
    take = next(m for m in legal if m.kind == "take" and len(m.cells) == 3)
    by_structure = pb.Move(duel=pb.DuelMove(kind=pb.DuelMove.KIND_TAKE, cells=list(reversed(take.cells))))
    played = client.apply_actions(p, [by_structure])
    assert [m.notation for m in played.moves] == [take.notation] and played.moves[0].cells == take.cells
    for move, field in (
        (pb.Move(duel=pb.DuelMove(kind=pb.DuelMove.KIND_TAKE, cells=[0, 1, 2, 3])), "moves[0].duel.cells"),
        (pb.Move(duel=pb.DuelMove(kind=pb.DuelMove.KIND_PRIVILEGE, cells=[25])), "moves[0].duel.cells[0]"),
        (pb.Move(duel=pb.DuelMove(kind=pb.DuelMove.KIND_STEAL, tokens=pb.DuelTokens(red=1, blue=1))),
         "moves[0].duel.tokens"),
        (pb.Move(duel=pb.DuelMove(kind=pb.DuelMove.KIND_ROYAL)), "moves[0].duel.royal"),
        (pb.Move(duel=pb.DuelMove()), "moves[0].duel.kind"),
        (pb.Move(marvel=pb.MarvelMove(kind=pb.MarvelMove.KIND_PASS)), "moves[0].marvel"),
        (pb.Move(notation="take z9"), "moves[0].notation"),
    ):
        with pytest.raises(InvalidArgument) as err:
            client.apply_actions(p, [move])
        assert err.value.field == field, err.value.message


# --------------------------------------------------------------------------- malformed positions
def _deck_card(p, level, i=0):
    return deck_card(p.duel, level, i)


def _as_view(p, seat=0):
    p.duel.observer = seat
    del p.duel.decks[:]
    del p.duel.bag[:]
    p.duel.ClearField("bag_seed")


def m_players(p): p.duel.players = 3
def m_current(p): p.duel.current = 2
def m_phase(p): p.duel.phase = pb.DuelPosition.PHASE_UNSPECIFIED
def m_board_cells(p): del p.duel.board[24]
def m_board_kind(p): p.duel.board[3] = 9
def m_too_many_tokens(p): p.duel.seats[0].tokens.pearl = 1  # both pearls are on the board
def m_seat_token_range(p): p.duel.seats[1].tokens.gold = 4
def m_bag_order(p): p.duel.bag.append(2)
def m_bag_contents(p): p.duel.bag_contents.white = 1
def m_privileges(p): p.duel.privileges = 3
def m_unknown_card(p): p.duel.pyramid[0].cards[0] = 99
def m_wrong_level(p): p.duel.pyramid[2].cards[1] = p.duel.decks[0].cards[0]
def m_duplicate_royal(p): p.duel.royals[1] = p.duel.royals[0]
def m_royal_not_earned(p): p.duel.seats[0].royals.append(p.duel.royals.pop())
def m_joker_not_owned(p): p.duel.seats[0].jokers.add(card=0, color=1)
def m_pending_card(p): p.duel.pending_card = 5
def m_deck_size(p): p.duel.deck_sizes[1] = 3
def m_full_without_decks(p): del p.duel.decks[:]
def m_seat_count(p): p.duel.seats.add().tokens.SetInParent()
def m_seat_tokens_missing(p): p.duel.seats[1].ClearField("tokens")
def m_discard_phase(p): p.duel.phase = pb.DuelPosition.PHASE_DISCARD
def m_extra_turn_in_main(p): p.duel.extra_turn = True


def m_more_than_3_reserved(p):
    for _ in range(4):
        p.duel.seats[0].reserved.add(card=_deck_card(p, 1))


def m_observer_range(p):
    _as_view(p)
    p.duel.observer = 2


def m_view_with_bag_order(p):
    _as_view(p)
    p.duel.bag.append(0)


def m_view_with_bag_seed(p):
    _as_view(p)
    p.duel.bag_seed = 5


MALFORMED = [
    (m_players, "position.duel.players"),
    (m_current, "position.duel.current"),
    (m_phase, "position.duel.phase"),
    (m_board_cells, "position.duel.board"),
    (m_board_kind, "position.duel.board[3]"),
    (m_too_many_tokens, "position.duel.board"),
    (m_seat_token_range, "position.duel.seats[1].tokens.gold"),
    (m_bag_order, "position.duel.bag"),
    (m_bag_contents, "position.duel.bag_contents"),
    (m_privileges, "position.duel.privileges"),
    (m_unknown_card, "position.duel.pyramid[0].cards[0]"),
    (m_wrong_level, "position.duel.pyramid[2].cards[1]"),
    (m_duplicate_royal, "position.duel.royals[1]"),
    (m_royal_not_earned, "position.duel.seats[0].royals"),
    (m_joker_not_owned, "position.duel.seats[0].jokers[0].card"),
    (m_pending_card, "position.duel.pending_card"),
    (m_deck_size, "position.duel.deck_sizes[1]"),
    (m_full_without_decks, "position.duel.decks"),
    (m_observer_range, "position.duel.observer"),
    (m_seat_count, "position.duel.seats"),
    (m_seat_tokens_missing, "position.duel.seats[1].tokens"),
    (m_discard_phase, "position.duel.phase"),
    (m_extra_turn_in_main, "position.duel.extra_turn"),
    (m_more_than_3_reserved, "position.duel.seats[0].reserved"),
    (m_view_with_bag_order, "position.duel.bag"),
    (m_view_with_bag_seed, "position.duel.bag_seed"),
]


test_malformed_position_names_the_field, test_server_healthy_after_bad_positions = \
    malformed_position_tests(MALFORMED, new_position, "replenish")


