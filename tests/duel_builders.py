"""Hand-built Splendor Duel positions for tests: start from a deal and move cards, tokens,
privileges and royals by hand, keeping every card in exactly one place and every token on
the board, in the bag or with a seat."""
from __future__ import annotations

from card_builders import remove_card
from splendor_ai.games import load_game
from splendor_ai.games.duel import spec

CARDS = spec.CARDS


def counts(letters: str) -> list[int]:
    """'wwup' -> [2, 1, 0, 0, 0, 1, 0] (token letters w u g r k p y)."""
    out = [0] * 7
    for ch in letters:
        out[spec.LETTERS.index(ch)] += 1
    return out


def _remove_card(pos: dict, cid: int) -> None:
    remove_card(pos, cid, CARDS, "pyramid")


def duel_position(seed: int = 1, *, board=None, tokens=None, cards=None, jokers=None, reserved=None,
                  pyramid=None, deck_tops=None, privileges=None, royals=None, current: int = 0,
                  phase: str = "main", bag=None, **extra) -> dict:
    """A validated Duel position.

    board: 5 strings of token letters, '.' for an empty cell (None: the dealt board, minus
    the seats' tokens); tokens: {seat: letters}; cards: {seat: [ids]}; jokers: {seat: {card:
    colour}}; reserved: {seat: [(id, blind)]}; pyramid: {flat slot: id}; deck_tops: ids put on
    top of their deck; privileges: (supply, seat 0, seat 1); royals: {seat: [ids]}; bag: the
    draw order (None: what is left over, by kind). Other keyword arguments go into the
    position as they are (extra_turn, pending_card, ...).
    """
    pos = spec.initial_position(2, seed)
    for seat, ids in (cards or {}).items():
        for cid in ids:
            _remove_card(pos, cid)
            pos["seats"][seat]["cards"].append(cid)
    for seat, items in (reserved or {}).items():
        for cid, blind in items:
            _remove_card(pos, cid)
            pos["seats"][seat]["reserved"].append({"card": cid, "level": CARDS[cid].level, "blind": blind})
    for slot, cid in (pyramid or {}).items():
        lv = spec.slot_level(slot) - 1
        _remove_card(pos, cid)
        old = pos["pyramid"][lv][slot - spec.SLOT_OFFSET[lv]]
        if old >= 0:
            pos["decks"][lv].insert(0, old)
        pos["pyramid"][lv][slot - spec.SLOT_OFFSET[lv]] = cid
        pos["deck_sizes"] = [len(d) for d in pos["decks"]]
    for cid in deck_tops or ():
        _remove_card(pos, cid)
        pos["decks"][CARDS[cid].level - 1].append(cid)
        pos["deck_sizes"] = [len(d) for d in pos["decks"]]
    for seat, colours in (jokers or {}).items():
        pos["seats"][seat]["jokers"] = [{"card": c, "color": k} for c, k in sorted(colours.items())]
    for seat, rids in (royals or {}).items():
        for rid in rids:
            pos["royals"].remove(rid)
        pos["seats"][seat]["royals"] = list(rids)
    if privileges is not None:
        pos["privileges"] = privileges[0]
        for i in range(2):
            pos["seats"][i]["privileges"] = privileges[i + 1]
    for seat, letters in (tokens or {}).items():
        pos["seats"][seat]["tokens"] = counts(letters)
    if board is None:
        for seat in range(2):
            for k, n in enumerate(pos["seats"][seat]["tokens"]):
                for _ in range(n):
                    cell = next(c for c in range(spec.CELLS) if spec.board_kind(pos, c) == k)
                    pos["board"][cell // 5][cell % 5] = -1
    else:
        pos["board"] = [[-1 if ch == "." else spec.LETTERS.index(ch) for ch in row] for row in board]
    left = spec.bag_contents(pos)
    assert min(left) >= 0, f"more tokens than the game has: {left}"
    pos["bag"] = ([k for k in range(7) for _ in range(left[k])] if bag is None
                  else [spec.LETTERS.index(ch) for ch in bag])
    pos["bag_contents"] = None
    pos["current"] = current
    pos["phase"] = phase
    pos.update(extra)
    return spec.validate_position(pos)


def load(impl: str, pos: dict):
    return load_game("duel", 2, impl=impl).state_from_position(pos)


def act(state, *moves: str) -> None:
    for text in moves:
        state.apply_action(state.string_to_action(text))


def moves(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
