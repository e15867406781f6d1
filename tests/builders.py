"""Hand-built positions for tests: start from a deal and move cards and tokens by hand,
keeping every card in exactly one place and every token either in the supply or with a seat."""
from __future__ import annotations

import copy

from splendor_ai.games.base import spec


def _take_card(pos: dict, cid: int) -> None:
    """Remove card cid from wherever it is (deck or board; a board slot is left empty)."""
    for lv, deck in enumerate(pos["decks"]):
        if cid in deck:
            deck.remove(cid)
            pos["deck_sizes"][lv] = len(deck)
            return
    for row in pos["board"]:
        if cid in row:
            row[row.index(cid)] = -1
            return
    raise AssertionError(f"card {cid} is not in a deck or on the board")


def base_position(players=2, seed=0, *, current=0, board=None, cards=None, reserved=None,
                  tokens=None, nobles=None, final_round=False, start_seat=0) -> dict:
    """A base-game position.

    board: {(level, slot): card id} to place face up; cards: {seat: [ids]} bought cards;
    reserved: {seat: [(id, blind)]}; tokens: {seat: [6 counts]} taken from the supply;
    nobles: the revealed noble ids (replaces the dealt ones).
    """
    pos = spec.initial_position(players, seed)
    pos = copy.deepcopy(pos)
    for (lv, slot), cid in (board or {}).items():
        old = pos["board"][lv][slot]
        if old == cid:
            continue
        _take_card(pos, cid)
        if old >= 0:
            pos["decks"][lv].insert(0, old)
            pos["deck_sizes"][lv] = len(pos["decks"][lv])
        pos["board"][lv][slot] = cid
    for seat, ids in (cards or {}).items():
        for cid in ids:
            _take_card(pos, cid)
        pos["seats"][seat]["cards"] = sorted(ids)
    for seat, items in (reserved or {}).items():
        for cid, blind in items:
            _take_card(pos, cid)
            pos["seats"][seat]["reserved"].append({"card": cid, "level": spec.CARDS[cid].level, "blind": blind})
    # Refill any board slot emptied above from the bottom of its deck, as play would have.
    for lv in range(3):
        for slot in range(4):
            if pos["board"][lv][slot] < 0 and pos["decks"][lv]:
                pos["board"][lv][slot] = pos["decks"][lv].pop()
                pos["deck_sizes"][lv] = len(pos["decks"][lv])
    for seat, t in (tokens or {}).items():
        for k in range(6):
            pos["supply"][k] -= t[k]
            assert pos["supply"][k] >= 0, "not enough tokens in the supply"
        pos["seats"][seat]["tokens"] = list(t)
    if nobles is not None:
        pos["nobles"] = list(nobles)
    pos["current"] = current
    pos["start_seat"] = start_seat
    pos["final_round"] = final_round
    return spec.validate_position(pos)


def cards_worth(points: int, level: int | None = None, exclude=()) -> list[int]:
    """Some card ids whose points add up to exactly `points` (greedy, from the catalogue)."""
    out, left = [], points
    for c in sorted(spec.CARDS, key=lambda c: -c.points):
        if c.id in exclude or (level and c.level != level):
            continue
        if 0 < c.points <= left:
            out.append(c.id)
            left -= c.points
        if left == 0:
            return out
    raise AssertionError("cannot make that many points")


def dead_position(seat0_cards=(), seat1_reserved: int = 3) -> dict:
    """2 players; all gems are held (seat 0: w4 u4 g2, seat 1: r4 k4 g2); every card face up or
    reserved costs both a white/blue gem and a red/black gem, so neither seat can buy; seat 0
    holds 3 reserved cards. Seat 0 can do nothing: it must pass."""
    from card_builders import CardPositions

    b = CardPositions("base")
    W, U, R, K = 0, 1, 3, 4
    cards = spec.CARDS
    pos = b.fresh(2, seed=5)
    b.give_cards(pos, 0, *seat0_cards)
    b.give_tokens(pos, 0, w=4, u=4, g=2)
    b.give_tokens(pos, 1, r=4, k=4, g=2)
    stuck = [
        c.id for c in cards
        if c.cost[W] + c.cost[U] > 0 and c.cost[R] + c.cost[K] > 0 and c.id not in seat0_cards
    ]
    by_level = [[c for c in stuck if cards[c].level == lv] for lv in (1, 2, 3)]
    for lv in range(3):
        for slot in range(4):
            b.on_board(pos, by_level[lv].pop(), slot)
    b.give_reserved(pos, 0, *[by_level[0].pop() for _ in range(3)])
    b.give_reserved(pos, 1, *[by_level[0].pop() for _ in range(seat1_reserved)])
    return pos


def afford(card_id, bonus_cards):
    """Tokens (6 counts) that let a seat owning bonus_cards buy card_id."""
    bonus = spec.bonuses(bonus_cards)
    missing = [max(0, spec.CARDS[card_id].cost[c] - bonus[c]) for c in range(5)]
    gold = min(5, sum(missing))
    gems, left = [], gold
    for m in missing:  # gold covers the first gems missing, tokens the rest
        use = min(m, left)
        left -= use
        gems.append(m - use)
    assert sum(gems) + gold <= 10 and max(gems) <= 4
    return gems + [gold]


def ending_position(my_points, their_points, target_points, final_round):
    """Seat 1 (the last seat) to move; one affordable card worth target_points on the board."""
    target = next(c.id for c in spec.CARDS if c.level == 3 and c.points == target_points)
    theirs = cards_worth(their_points, exclude={target})
    mine = cards_worth(my_points, exclude={target, *theirs})
    return base_position(
        2, seed=3, current=1, board={(2, 0): target}, cards={0: theirs, 1: mine},
        tokens={1: afford(target, mine)}, nobles=[], final_round=final_round,
    ), target
