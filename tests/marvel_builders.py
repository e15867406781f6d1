"""Hand-built Splendor: Marvel positions for tests: start from a deal and move cards, tokens
and locations by hand, keeping every card in exactly one place and every token either in the
supply or with a seat. Cards are named by their character names (see the catalogue)."""
from __future__ import annotations

import random

from splendor_ai.games import load_game
from splendor_ai.games.marvel import spec

CARDS = spec.CARDS
Y, R, O, B, P, G, S = range(7)  # yellow red orange blue purple, green (Time), grey (S.H.I.E.L.D.)
_BY_NAME = {c.name: c.id for c in CARDS}
# Location sides: 0 Asgard y3 o3 p3, 1 Wakanda r4 b4, 2 Hell's Kitchen y4 o4, 3 Triskelion o4 p4,
# 4 Knowhere y3 r3 b3, 5 Atlantis r3 b3 p3, 6 Attilan r4 p4, 7 Avengers Tower y4 b4.
WAKANDA, KNOWHERE, TOWER, ASGARD = 1, 4, 7, 0
# One bonus of each colour, 1 point each, no icons: the cheapest way to all five colours.
ONE_OF_EACH = ("Vulture", "Sandman", "Yondu", "Taskmaster", "Scorpion")


def card(name: str) -> int:
    return _BY_NAME[name]


# ----------------------------------------------------------------------------- helpers
def fresh(players: int = 2, seed: int = 1, locations=()) -> dict:
    """A dealt position with the given locations in play (none by default, so that no test
    sees a location it did not ask for)."""
    pos = spec.initial_position(players, seed)
    pos["locations"] = list(locations)
    return pos


def load(impl: str, pos: dict):
    return load_game("marvel", players=pos["players"], impl=impl).state_from_position(pos)


def _sync_sizes(pos: dict) -> None:
    pos["deck_sizes"] = [len(d) for d in pos["decks"]]


def _remove_card(pos: dict, cid: int) -> None:
    """Take a card out of its deck, or off the board (the slot is refilled from the deck)."""
    lv = CARDS[cid].level - 1
    if cid in pos["decks"][lv]:
        pos["decks"][lv].remove(cid)
    else:
        row = pos["board"][lv]
        assert cid in row, f"card {cid} is neither in a deck nor on the board"
        row[row.index(cid)] = pos["decks"][lv].pop() if pos["decks"][lv] else -1
    _sync_sizes(pos)


def on_board(pos: dict, name, slot: int = 0) -> int:
    """Put a card face up in ``slot`` of its level (the card there goes under the deck).
    Returns its buy/reserve target index."""
    cid = card(name) if isinstance(name, str) else name
    _remove_card(pos, cid)
    lv = CARDS[cid].level - 1
    old = pos["board"][lv][slot]
    if old >= 0:
        pos["decks"][lv].insert(0, old)
    pos["board"][lv][slot] = cid
    _sync_sizes(pos)
    return lv * spec.SLOTS + slot


def give_cards(pos: dict, seat: int, *names) -> None:
    """Recruited cards; the seat's first Time Stone card brings its green token, as in play."""
    for name in names:
        cid = card(name) if isinstance(name, str) else name
        _remove_card(pos, cid)
        pos["seats"][seat]["cards"].append(cid)
        if CARDS[cid].time_stone and pos["seats"][seat]["tokens"][G] == 0:
            give_tokens(pos, seat, g=1)


def give_reserved(pos: dict, seat: int, *names, blind: bool = False) -> None:
    for name in names:
        cid = card(name) if isinstance(name, str) else name
        _remove_card(pos, cid)
        pos["seats"][seat]["reserved"].append({"card": cid, "level": CARDS[cid].level, "blind": blind})


def give_tokens(pos: dict, seat: int, y=0, r=0, o=0, b=0, p=0, g=0, s=0) -> None:
    """Move tokens from the supply to a seat."""
    for kind, n in enumerate((y, r, o, b, p, g, s)):
        pos["supply"][kind] -= n
        assert pos["supply"][kind] >= 0, f"not enough {spec.TOKEN_NAMES[kind]} in the supply"
        pos["seats"][seat]["tokens"][kind] += n


def give_price(pos: dict, seat: int, name) -> None:
    """Exactly the tokens the seat needs to recruit the card: stones while the supply has
    them, grey for the rest."""
    cid = card(name) if isinstance(name, str) else name
    bonus = spec.bonuses(pos["seats"][seat]["cards"])
    for c in range(5):
        price = max(0, CARDS[cid].cost[c] - bonus[c] - pos["seats"][seat]["tokens"][c])
        stones = min(price, pos["supply"][c])
        give_tokens(pos, seat, **{"yrobp"[c]: stones, "s": price - stones})


def of_kind(actions, *kinds) -> list[int]:
    return sorted(a for a in actions if spec.action_kind(a) in kinds)


def act(state, text: str) -> None:
    state.apply_action(state.string_to_action(text))


def points(state, seat: int) -> int:
    pos = state.to_position()
    return spec.seat_points(pos, seat)


def random_playout_states(impl, players: int, seed: int, buy_bias: float = 0.5):
    """Yield (state, action) along one random game (recruits favoured, so games end)."""
    rng = random.Random(seed)
    s = load_game("marvel", players=players, impl=impl).new_initial_state(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        buys = of_kind(legal, "buy")
        a = rng.choice(buys) if buys and rng.random() < buy_bias else rng.choice(legal)
        yield s, a
        s.apply_action(a)
    yield s, None
