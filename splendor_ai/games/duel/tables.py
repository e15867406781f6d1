"""Splendor Duel: the game's tables and the helpers over a position that everything else reads.

The catalogue (67 jewel cards, 4 royals, the spiral of the 25 board cells), the layout of the
dense action ids, the payment-variant table, the bag's draw order and the per-seat figures of a
position (bonuses, points, crowns, royals due). ``spec.py`` re-exports all of it: callers use
``spec``; this module exists so that position validation (``_validate.py``) can read the tables
without importing ``spec``, which calls it (no import circle).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..cards import common
from ..cards.common import read_csv

GAME = "duel"
PLAYER_COUNTS = (2,)

# ---------------------------------------------------------------------------- components
COLORS = ("white", "blue", "green", "red", "black")
PEARL, GOLD = 5, 6
TOKEN_NAMES = COLORS + ("pearl", "gold")
LETTERS = "wugrkpy"  # one letter per token kind: the five gems, pearl, gold
TOKEN_TOTALS = (4, 4, 4, 4, 4, 2, 3)  # 25 tokens
N_TOKENS = sum(TOKEN_TOTALS)
JOKER, NO_COLOR = 5, 6  # card colours beyond the five gems
CARD_COLORS = COLORS + ("joker", "none")

SIZE = 5  # the board is SIZE x SIZE cells
CELLS = SIZE * SIZE
LEVELS = 3
SLOTS = (5, 4, 3)  # face-up pyramid cards per level
SLOT_OFFSET = (0, 5, 9)  # flat pyramid slot of each level's first card
PYRAMID = sum(SLOTS)  # 12 flat slots
MAX_RESERVED = 3
TOKEN_LIMIT = 10
PRIVILEGES = 3
WIN_POINTS = 20
WIN_CROWNS = 10
WIN_COLOR_POINTS = 10
CROWN_THRESHOLDS = (3, 6)

# Card and royal abilities, as bits.
EXTRA_TURN, BONUS_WILD, TAKE_TOKEN, TAKE_PRIVILEGE, STEAL_TOKEN = 1, 2, 4, 8, 16
ABILITY_BITS = {
    "none": 0,
    "extra_turn": EXTRA_TURN,
    "bonus_wild": BONUS_WILD,
    "take_token": TAKE_TOKEN,
    "take_privilege": TAKE_PRIVILEGE,
    "steal_token": STEAL_TOKEN,
}


@dataclass(frozen=True)
class Card(common.Card):  # colour: a gem colour 0..4, JOKER or NO_COLOR; cost: five gems, then pearls
    crowns: int
    abilities: int  # ABILITY_BITS or'ed
    bonus: int  # bonuses given (0, 1 or 2)


@dataclass(frozen=True)
class Royal:
    id: int
    points: int
    abilities: int


def _abilities(text: str) -> int:
    bits = 0
    for part in text.split("+"):
        bits |= ABILITY_BITS[part]
    return bits


# Stable ids: a card's id is its row in data/cards.csv (0..66), a royal's its row in
# data/royals.csv (0..3), 0-based, header not counted.
CARDS: tuple[Card, ...] = tuple(
    Card(**common.card_fields(i, r, CARD_COLORS, COLORS + ("pearl",)), crowns=int(r["crowns"]),
         abilities=_abilities(r["ability"]), bonus=int(r["bonus"]))
    for i, r in enumerate(read_csv(__package__, "cards.csv"))
)
ROYALS: tuple[Royal, ...] = tuple(
    Royal(id=i, points=int(r["points"]), abilities=_abilities(r["ability"]))
    for i, r in enumerate(read_csv(__package__, "royals.csv"))
)
CARDS_BY_LEVEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3)
)
assert [len(x) for x in CARDS_BY_LEVEL] == [30, 24, 13] and len(ROYALS) == 4

# ---------------------------------------------------------------------------- the board
# A cell is row * 5 + col, row 0 the top edge, col 0 the left edge. Its name is the column
# letter a..e (left to right) and the row number 1..5 (top to bottom): "c3" is the centre.
SPIRAL: tuple[int, ...] = tuple(
    int(r["row"]) * SIZE + int(r["col"])
    for r in sorted(read_csv(__package__, "board.csv"), key=lambda r: int(r["order"]))
)
assert sorted(SPIRAL) == list(range(CELLS)) and SPIRAL[0] == 12


def cell_name(cell: int) -> str:
    return "abcde"[cell % SIZE] + str(cell // SIZE + 1)


def _lines() -> tuple[tuple[int, ...], ...]:
    """Every run of 1, 2 or 3 consecutive cells along a row, column or diagonal."""
    runs = set()
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                for length in (1, 2, 3):
                    cells = [(r + i * dr, c + i * dc) for i in range(length)]
                    if all(0 <= y < SIZE and 0 <= x < SIZE for y, x in cells):
                        runs.add(tuple(sorted(y * SIZE + x for y, x in cells)))
    return tuple(sorted(runs, key=lambda t: (len(t), t)))


LINES = _lines()
LINE_INDEX = {cells: i for i, cells in enumerate(LINES)}
assert len(LINES) == 145

# ---------------------------------------------------------------------------- action ids
PRIVILEGE = 0  # 25 ids: use a privilege on cell <i>
REPLENISH = 25
TAKE = 26  # 145 ids: take the tokens of LINES[i]
TAKE_GOLD = TAKE + len(LINES)  # 171: 25 ids, the gold on cell <i> (then phase "reserve")
RESERVE = TAKE_GOLD + CELLS  # 196: 12 ids, flat pyramid slot
RESERVE_DECK = RESERVE + PYRAMID  # 208: 3 ids, blind from the deck of level 1..3
TOKEN = RESERVE_DECK + LEVELS  # 211: 25 ids, take_token ability on cell <i>
STEAL = TOKEN + CELLS  # 236: 6 ids, steal_token ability: a gem or pearl kind
JOKER_COLOR = STEAL + 6  # 242: 5 ids, the colour given to a joker
ROYAL = JOKER_COLOR + 5  # 247: 4 ids, royal card <id>
DISCARD = ROYAL + len(ROYALS)  # 251: 7 ids, return one token of that kind to the bag
PASS = DISCARD + 7  # 258
BUY = PASS + 1  # 259: 15 targets x N_PAY variants; target 0..11 pyramid, 12..14 reserve
BUY_TARGETS = PYRAMID + MAX_RESERVED

# A payment variant: how many gold tokens replace gems or pearls the player would otherwise
# pay, per kind (5 gems, pearl). Variant 0 is "gold only for the shortfall". There are 3
# gold: all vectors with a sum of at most 3, ordered by sum, then lexicographically.
PAY_VARIANTS: tuple[tuple[int, ...], ...] = tuple(
    sorted((v for v in itertools.product(range(4), repeat=6) if sum(v) <= 3), key=lambda v: (sum(v), v))
)
PAY_VARIANT_INDEX = {v: i for i, v in enumerate(PAY_VARIANTS)}
N_PAY = len(PAY_VARIANTS)
assert N_PAY == 84 and PAY_VARIANTS[0] == (0,) * 6
NUM_ACTIONS = BUY + BUY_TARGETS * N_PAY

PHASES = ("main", "mandatory", "reserve", "joker", "token", "steal", "royal", "discard", "over")
_KINDS = (
    (PRIVILEGE, "privilege"), (REPLENISH, "replenish"), (TAKE, "take"), (TAKE_GOLD, "gold"),
    (RESERVE, "reserve"), (RESERVE_DECK, "reserve_deck"), (TOKEN, "token"), (STEAL, "steal"),
    (JOKER_COLOR, "joker"), (ROYAL, "royal"), (DISCARD, "discard"), (PASS, "pass"), (BUY, "buy"),
)


def action_kind(action: int) -> str:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return "invalid"
    kind = "invalid"
    for start, name in _KINDS:
        if action >= start:
            kind = name
    return kind


def buy_action(target: int, variant: int = 0) -> int:
    return BUY + target * N_PAY + variant


def split_buy(action: int) -> tuple[int, int]:
    """(target, variant) of a buy action id."""
    return divmod(action - BUY, N_PAY)


def slot_level(slot: int) -> int:
    """The level (1..3) of a flat pyramid slot."""
    return 1 if slot < SLOT_OFFSET[1] else 2 if slot < SLOT_OFFSET[2] else 3


def payment(cost, bonus, tokens, variant: int = 0) -> tuple[int, ...] | None:
    """The seven token counts paid for a card, or None if that payment is impossible.

    Per gem colour the price is max(0, cost - bonus); pearls have no bonus. Variant 0 pays
    gems and pearls first and gold for the shortfall; variant v replaces PAY_VARIANTS[v][k]
    more tokens of kind k by gold.
    """
    extra = PAY_VARIANTS[variant]
    paid = [0] * 7
    gold = 0
    for k in range(6):
        need = max(0, cost[k] - (bonus[k] if k < 5 else 0))
        held = min(need, tokens[k])
        if extra[k] > held:
            return None
        paid[k] = held - extra[k]
        gold += need - held + extra[k]
    if gold > tokens[GOLD]:
        return None
    paid[GOLD] = gold
    return tuple(paid)


def payment_variant(cost, bonus, tokens, paid) -> int | None:
    """The variant whose payment is exactly ``paid`` (seven counts), or None."""
    extra = []
    for k in range(6):
        need = max(0, cost[k] - (bonus[k] if k < 5 else 0))
        held = min(need, tokens[k])
        if not 0 <= paid[k] <= held:
            return None
        extra.append(held - paid[k])
    variant = PAY_VARIANT_INDEX.get(tuple(extra))
    if variant is None or payment(cost, bonus, tokens, variant) != tuple(paid):
        return None
    return variant


# ---------------------------------------------------------------------------- the bag's order
_MASK = (1 << 64) - 1


def bag_insert(bag: list[int], kind: int, seed: int) -> int:
    """Put a token into the bag at a random place of its draw order; returns the new seed.

    The full state holds the bag as its draw order (bag[0] comes out first) and a 64-bit
    seed: each token that enters the bag lands at a uniform place (splitmix64 of the seed,
    then Lemire's multiply-shift, exactly as ext/rng.pxd), so the order is a uniformly random
    permutation that both implementations compute alike. A view knows neither.
    """
    seed = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    at = ((z >> 32) * (len(bag) + 1)) >> 32
    bag.insert(at, kind)
    return seed


# ---------------------------------------------------------------------------- position helpers
def joker_colors(seat: dict) -> dict[int, int]:
    return {j["card"]: j["color"] for j in seat["jokers"]}


def card_color(seat: dict, cid: int) -> int:
    """The colour a seat's card counts in: its own, a joker's chosen one, or NO_COLOR."""
    color = CARDS[cid].color
    if color == JOKER:
        return joker_colors(seat).get(cid, NO_COLOR)
    return color


def bonuses(seat: dict) -> list[int]:
    b = [0] * 5
    jokers = joker_colors(seat)
    for cid in seat["cards"]:
        c = CARDS[cid]
        color = jokers.get(cid, NO_COLOR) if c.color == JOKER else c.color
        if color < 5:
            b[color] += c.bonus
    return b


def seat_points(seat: dict) -> int:
    return sum(CARDS[c].points for c in seat["cards"]) + sum(ROYALS[r].points for r in seat["royals"])


def seat_crowns(seat: dict) -> int:
    return sum(CARDS[c].crowns for c in seat["cards"])


def color_points(seat: dict) -> list[int]:
    pts = [0] * 5
    for cid in seat["cards"]:
        color = card_color(seat, cid)
        if color < 5:
            pts[color] += CARDS[cid].points
    return pts


def has_won(seat: dict) -> bool:
    """The three victory conditions (20 points, 10 crowns, 10 points in one colour)."""
    return (seat_points(seat) >= WIN_POINTS or seat_crowns(seat) >= WIN_CROWNS
            or max(color_points(seat)) >= WIN_COLOR_POINTS)


def royals_due(seat: dict) -> int:
    """Royal cards the seat has earned by its crowns but not yet chosen."""
    crowns = seat_crowns(seat)
    return sum(1 for t in CROWN_THRESHOLDS if crowns >= t) - len(seat["royals"])


def bag_contents(position: dict) -> list[int]:
    """Per token kind, how many are in the bag: neither on the board nor with a seat."""
    out = list(TOKEN_TOTALS)
    for row in position["board"]:
        for k in row:
            if k >= 0:
                out[k] -= 1
    for s in position["seats"]:
        for k in range(7):
            out[k] -= s["tokens"][k]
    return out


def target_card(position: dict, target: int) -> int | None:
    """The card id a buy target names (pyramid slot 0..11, own reserve 12..14), or None."""
    if target < PYRAMID:
        lv = slot_level(target)
        cid = position["pyramid"][lv - 1][target - SLOT_OFFSET[lv - 1]]
        return None if cid < 0 else cid
    reserved = position["seats"][position["current"]]["reserved"]
    i = target - PYRAMID
    return reserved[i]["card"] if i < len(reserved) else None


def board_kind(position: dict, cell: int) -> int:
    return position["board"][cell // SIZE][cell % SIZE]
