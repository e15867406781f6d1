"""LegalActions' ``threats`` (issue "coach"): for each seat but the one to act, the cards it could
buy on its next turn as things stand. Checked against the readable reference rules, move by move:
a card is marked exactly when, in a copy of the position with that seat to start its turn, its
buy is legal (Duel: after the privileges the seat may use first); the blind reserves are never
named; a view of the mover gets the same answer as the full position."""
import itertools
import random

import pytest
from splendor_ai_client import pb

from splendor_ai.games import PositionError, load_game
from splendor_ai.service import convert

# (game, players, seed): a few playouts each, stopped at random points
CASES = [("base", 2, 1), ("base", 3, 2), ("base", 4, 3), ("duel", 2, 4), ("marvel", 2, 5), ("marvel", 3, 6)]
POSITIONS = 12  # per case


def positions(game: str, players: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < POSITIONS:
        state = load_game(game, players).new_initial_state(rng.randrange(10**6))
        for _ in range(rng.randrange(4, 70)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.search_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def has_next_turn(pos: dict, seat: int) -> bool:
    """Base and Marvel's last round ends with the seat before the first player."""
    if not pos.get("final_round"):
        return True
    order = [(pos["current"] + i) % pos["players"] for i in range(1, pos["players"])]
    last = (pos["start_seat"] - 1) % pos["players"]
    return last != pos["current"] and seat in order[:order.index(last) + 1]


def seat_to_start(game: str, pos: dict, seat: int):
    """The position with ``seat`` to start its turn, in the reference rules (None: not a valid one)."""
    t = dict(pos, current=seat, phase="main", turn=pos["turn"] + 1)
    t.update({"extra_turn": False, "pending_card": None} if game == "duel" else {"passes": 0})
    try:
        return load_game(game, pos["players"], "reference").state_from_position(t)
    except PositionError:
        return None


def privilege_plans(state, seat: int):
    """Duel: every way to use 0 to all of ``seat``'s privileges, one per choice of token kinds
    (cells of one kind are alike for paying), as lists of cell names."""
    pos = state.to_position()
    cells = {}
    for r, row in enumerate(pos["board"]):
        for c, kind in enumerate(row):
            if 0 <= kind <= 5:  # gems and pearls: a privilege never takes gold
                cells.setdefault(kind, []).append(f"{'abcde'[c]}{r + 1}")
    kinds = [k for k, cs in cells.items() for _ in cs]
    for n in range(pos["seats"][seat]["privileges"] + 1):
        for combo in sorted(set(itertools.combinations(sorted(kinds), n))):
            yield [cells[k][i] for k in set(combo) for i in range(combo.count(k))]


def can_buy(game: str, state, seat: int, card: int) -> bool:
    plans = privilege_plans(state, seat) if game == "duel" else [[]]
    for plan in plans:
        s = state.clone()
        try:
            for cell in plan:
                s.apply_action(s.string_to_action(f"privilege {cell}"))
            s.apply_action(s.string_to_action(f"buy {card}"))
            return True
        except ValueError:  # IllegalActionError, NotationError
            continue
    return False


def public_cards(game: str, pos: dict, seat: int) -> list[int]:
    rows = pos["pyramid" if game == "duel" else "board"]
    return sorted({c for row in rows for c in row if c >= 0}
                  | {r["card"] for r in pos["seats"][seat]["reserved"] if r["card"] is not None and not r["blind"]})


def check(client, game: str, state) -> tuple[int, int, int]:
    """The threats LegalActions answers for ``state``, checked: (cards marked, visible cards not
    marked, seats without a next turn)."""
    pos = state.to_position()
    players = pos["players"]
    marked = unmarked = idle = 0
    got = client.legal_actions(convert.encode_position(state))
    assert [t.seat for t in got.raw.threats] == [s for s in range(players) if s != pos["current"]]
    for seat, cards in got.threats.items():
        idle += not has_next_turn(pos, seat)
        start = seat_to_start(game, pos, seat) if has_next_turn(pos, seat) else None
        expected = [] if start is None else [c for c in public_cards(game, pos, seat) if can_buy(game, start, seat, c)]
        assert cards == expected, (game, pos["turn"], seat, cards, expected)
        marked += len(cards)
        unmarked += len(public_cards(game, pos, seat)) - len(cards)
    # the mover's view: the same cards (only public ones are named)
    view = client.legal_actions(convert.encode_position(state.view(pos["current"])))
    assert view.threats == got.threats
    return marked, unmarked, idle


@pytest.mark.parametrize("game, players, seed", CASES, ids=[f"{g}-{n}p" for g, n, _ in CASES])
def test_threats_are_the_cards_each_seat_could_buy_next_turn(client, game, players, seed):
    marked = unmarked = 0
    for state in positions(game, players, seed):
        m, u, _ = check(client, game, state)
        marked, unmarked = marked + m, unmarked + u
    assert marked >= 5 and unmarked >= 20, (marked, unmarked)  # both kinds were checked


@pytest.mark.parametrize("game", ["base", "marvel"])
def test_in_the_last_round_a_seat_that_does_not_play_again_can_buy_nothing(client, game):
    rng = random.Random(9)
    idle = 0
    for _ in range(400):
        state = load_game(game, 4).new_initial_state(rng.randrange(10**6))
        while not state.is_terminal() and not state.to_position()["final_round"]:
            state.apply_action(rng.choice(state.search_actions()))
        if not state.is_terminal():
            idle += check(client, game, state)[2]
        if idle >= 3:
            return
    pytest.fail(f"only {idle} seats without a next turn in 400 games")


def test_no_threats_once_the_game_is_over_and_old_fields_unchanged(client):
    state = load_game("base", 2).new_initial_state(7)
    for move in ["take wug"] * 4 + ["take rk"] * 3:
        state.apply_action(state.string_to_action(move))
    got = client.legal_actions(convert.encode_position(state))
    assert got.threats == {0: [3, 9, 20]}  # docs/protocol.md's example (SeatBuys)
    assert got.status.to_move == 1 and got.notations  # the moves as before
    over = pb.LegalActionsResponse()
    assert not over.threats  # the default: none
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.search_actions()))
    end = client.legal_actions(convert.encode_position(state))
    assert end.moves == [] and end.threats == {}
