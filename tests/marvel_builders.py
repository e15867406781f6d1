"""Hand-built Splendor: Marvel positions for tests: start from a deal and move cards, tokens
and locations by hand, keeping every card in exactly one place and every token either in the
supply or with a seat. Cards are named by their character names (see the catalogue)."""
from __future__ import annotations

from card_builders import CardPositions
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
class MarvelPositions(CardPositions):
    """The card-game helpers (card_builders.py), with cards also named by their character
    names, no location in play unless asked for, and the Time Stone's green token."""

    def card_id(self, name) -> int:
        return card(name) if isinstance(name, str) else name

    def fresh(self, players: int = 2, seed: int = 1, locations=()) -> dict:
        """A dealt position with the given locations in play (none by default, so that no
        test sees a location it did not ask for)."""
        pos = spec.initial_position(players, seed)
        pos["locations"] = list(locations)
        return pos

    def give_cards(self, pos: dict, seat: int, *names) -> None:
        """Recruited cards; the seat's first Time Stone card brings its green token, as in play."""
        for name in names:
            super().give_cards(pos, seat, name)
            if CARDS[self.card_id(name)].time_stone and pos["seats"][seat]["tokens"][G] == 0:
                self.give_tokens(pos, seat, g=1)


POSITIONS = MarvelPositions("marvel")
fresh, load, on_board, give_cards, give_reserved, give_tokens, of_kind, act, random_playout_states = (
    POSITIONS.fresh, POSITIONS.load, POSITIONS.on_board, POSITIONS.give_cards, POSITIONS.give_reserved,
    POSITIONS.give_tokens, POSITIONS.of_kind, POSITIONS.act, POSITIONS.random_playout_states)


def give_price(pos: dict, seat: int, name) -> None:
    """Exactly the tokens the seat needs to recruit the card: stones while the supply has
    them, grey for the rest."""
    cid = card(name) if isinstance(name, str) else name
    bonus = spec.bonuses(pos["seats"][seat]["cards"])
    for c in range(5):
        price = max(0, CARDS[cid].cost[c] - bonus[c] - pos["seats"][seat]["tokens"][c])
        stones = min(price, pos["supply"][c])
        give_tokens(pos, seat, **{"yrobp"[c]: stones, "s": price - stones})


def points(state, seat: int) -> int:
    pos = state.to_position()
    return spec.seat_points(pos, seat)


def dead_position() -> dict:
    """2 players; all stones are held (seat 0: y4 r4 o2, seat 1: b4 p4 o2); every card face up
    or reserved costs both a yellow/red and a blue/purple stone, so neither seat can recruit;
    both seats hold 3 reserved cards. Nobody can do anything: both must pass."""
    pos = fresh(2, seed=5)
    give_tokens(pos, 0, y=4, r=4, o=2)
    give_tokens(pos, 1, b=4, p=4, o=2)
    stuck = [c.id for c in CARDS if c.cost[Y] + c.cost[R] > 0 and c.cost[B] + c.cost[P] > 0]
    by_level = [[c for c in stuck if CARDS[c].level == lv] for lv in (1, 2, 3)]
    for lv in range(3):
        for slot in range(4):
            on_board(pos, by_level[lv].pop(), slot)
    give_reserved(pos, 0, *[by_level[0].pop() for _ in range(3)])
    give_reserved(pos, 1, *[by_level[0].pop() for _ in range(3)])
    return pos
