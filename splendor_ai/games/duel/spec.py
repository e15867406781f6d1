"""Splendor Duel: what both implementations share.

The catalogue (67 jewel cards, 4 royals, the spiral of the 25 board cells), the layout of the
dense action ids, the payment-variant table, the canonical move notation and the position
dictionary (its validation, the initial deal, views and resampling) live here, once, so that
the readable reference (``reference.py``) and the Cython core (``ext/duel.pyx``) cannot
disagree about anything but the rules themselves, which the parity test compares.

See ``docs/duel.md`` for the notation, the board coordinates and the position format.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from ..cards import common
from ..cards.common import (  # noqa: F401  (check_knows_seat: for reference.py)
    action_name, buy_target, check_knows_seat, hide_cards, named_card, parse_card_id, read_csv, redraw_cards,
    words_of,
)
from ..cards.common import check_bool as _bool, check_int as _int, check_list as _list  # noqa: F401 (_validate.py)
from ..errors import NotationError, PositionError, UnavailableCardError

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
    int(r["row"]) * SIZE + int(r["col"]) for r in sorted(read_csv(__package__, "board.csv"), key=lambda r: int(r["order"]))
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


# ---------------------------------------------------------------------------- notation
def action_to_string(position: dict, action: int) -> str:
    """The canonical string of ``action`` in ``position`` (see docs/duel.md)."""
    kind = action_kind(action)
    if kind == "invalid":
        raise NotationError(f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}")
    if kind == "privilege":
        return f"privilege {cell_name(action - PRIVILEGE)}"
    if kind == "replenish":
        return "replenish"
    if kind == "take":
        return "take " + " ".join(cell_name(c) for c in LINES[action - TAKE])
    if kind == "gold":
        return f"gold {cell_name(action - TAKE_GOLD)}"
    if kind == "reserve":
        return f"reserve {named_card(target_card(position, action - RESERVE), action, 'reserves from an empty pyramid slot')}"
    if kind == "reserve_deck":
        return f"reserve deck{action - RESERVE_DECK + 1}"
    if kind == "token":
        return f"token {cell_name(action - TOKEN)}"
    if kind == "steal":
        return f"steal {LETTERS[action - STEAL]}"
    if kind == "joker":
        return f"joker {LETTERS[action - JOKER_COLOR]}"
    if kind == "royal":
        return f"royal {action - ROYAL}"
    if kind == "discard":
        return f"discard {LETTERS[action - DISCARD]}"
    if kind == "pass":
        return "pass"
    target, variant = split_buy(action)
    cid = named_card(target_card(position, target), action, "buys from an empty or unknown place")
    if variant == 0:
        return f"buy {cid}"
    seat = position["seats"][position["current"]]
    paid = payment(CARDS[cid].cost, bonuses(seat), seat["tokens"], variant)
    if paid is None:
        raise NotationError(f"action {action}: payment variant {variant} is impossible here")
    return f"buy {cid} pay " + "".join(LETTERS[k] * n for k, n in enumerate(paid))


def parse_cell(text: str) -> int:
    if len(text) != 2 or text[0] not in "abcde" or text[1] not in "12345":
        raise NotationError(f"{text!r} is not a board cell (a1..e5: column a-e, row 1-5 from the top)")
    return (int(text[1]) - 1) * SIZE + "abcde".index(text[0])


def _letter(text: str, verb: str, kinds: str) -> int:
    if len(text) != 1 or text not in kinds:
        raise NotationError(f"'{verb}' needs one token letter of {kinds!r}, got {text!r}")
    return LETTERS.index(text)


def _one_arg(verb: str, args: list[str], what: str) -> str:
    if len(args) != 1:
        raise NotationError(f"'{verb}' needs {what}")
    return args[0]


def _pyramid_slot(position: dict, cid: int) -> int | None:
    for lv in range(LEVELS):
        for s, c in enumerate(position["pyramid"][lv]):
            if c == cid:
                return SLOT_OFFSET[lv] + s
    return None


def string_to_action(position: dict, text: str) -> int:
    """Parse a move string in ``position``. Raises NotationError naming the problem.

    The result is an action id well formed for this position; whether it is legal is for
    ``legal_actions``/``apply_action`` to say.
    """
    verb, args = words_of(text)
    if verb in ("pass", "replenish"):
        if args:
            raise NotationError(f"'{verb}' takes no argument")
        return PASS if verb == "pass" else REPLENISH
    if verb in ("privilege", "gold", "token"):
        cell = parse_cell(_one_arg(verb, args, "one board cell, e.g. c3"))
        return {"privilege": PRIVILEGE, "gold": TAKE_GOLD, "token": TOKEN}[verb] + cell
    if verb == "take":
        if not 1 <= len(args) <= 3:
            raise NotationError("'take' needs 1 to 3 board cells in a line, e.g. 'take c3 c4 c5'")
        cells = tuple(sorted(parse_cell(a) for a in args))
        if cells not in LINE_INDEX:
            raise NotationError(f"take {' '.join(args)}: not consecutive cells of one row, column or diagonal")
        return TAKE + LINE_INDEX[cells]
    if verb in ("steal", "discard", "joker"):
        kinds = {"steal": LETTERS[:6], "discard": LETTERS, "joker": LETTERS[:5]}[verb]
        k = _letter(_one_arg(verb, args, "one token letter"), verb, kinds)
        return {"steal": STEAL, "discard": DISCARD, "joker": JOKER_COLOR}[verb] + k
    if verb == "royal":
        arg = _one_arg(verb, args, f"a royal id 0..{len(ROYALS) - 1}")
        if not arg.isdigit() or int(arg) >= len(ROYALS):
            raise NotationError(f"'royal' needs a royal id 0..{len(ROYALS) - 1}, got {arg!r}")
        return ROYAL + int(arg)
    if verb == "reserve":
        arg = _one_arg(verb, args, "a card id or deck1..deck3")
        if arg.startswith("deck"):
            if arg[4:] not in ("1", "2", "3"):
                raise NotationError(f"unknown deck {arg!r} (deck1, deck2 or deck3)")
            return RESERVE_DECK + int(arg[4:]) - 1
        cid = parse_card_id(arg, len(CARDS))
        slot = _pyramid_slot(position, cid)
        if slot is None:
            raise UnavailableCardError(f"card {cid} is not face up in the pyramid")
        return RESERVE + slot
    if verb == "buy":
        if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "pay"):
            raise NotationError("'buy' needs a card id, optionally 'pay <letters>'")
        cid = parse_card_id(args[0], len(CARDS))
        target = buy_target(position, cid, _pyramid_slot(position, cid), PYRAMID, "in the pyramid")
        seat = position["seats"][position["current"]]
        if len(args) == 1:
            return buy_action(target)
        paid = [0] * 7
        for ch in args[2]:
            paid[_letter(ch, "pay", LETTERS)] += 1
        variant = payment_variant(CARDS[cid].cost, bonuses(seat), seat["tokens"], paid)
        if variant is None:
            raise NotationError(f"'pay {args[2]}' is not a payment of card {cid} for this player")
        return buy_action(target, variant)
    raise NotationError(
        f"unknown move {verb!r} (privilege, replenish, take, gold, reserve, buy, joker, token, "
        "steal, royal, discard, pass)")


# ---------------------------------------------------------------------------- positions
def initial_position(players: int = 2, seed: int | None = None) -> dict:
    """A shuffled initial position (the deal), as a full position dictionary.

    Deterministic for a given seed; both implementations start from this same deal. Seat 0
    starts; seat 1, the second player, holds one privilege.
    """
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise PositionError("players", f"Splendor Duel is for 2 players, not {players!r}")
    rng = random.Random(seed)
    decks, pyramid = [], []
    for lv in range(LEVELS):
        deck = list(CARDS_BY_LEVEL[lv])
        rng.shuffle(deck)
        pyramid.append([deck.pop() for _ in range(SLOTS[lv])])
        decks.append(deck)
    tokens = [k for k in range(7) for _ in range(TOKEN_TOTALS[k])]
    rng.shuffle(tokens)
    board = [[-1] * SIZE for _ in range(SIZE)]
    for order, cell in enumerate(SPIRAL):
        board[cell // SIZE][cell % SIZE] = tokens[order]
    return {
        "game": GAME,
        "players": 2,
        "start_seat": 0,
        "current": 0,
        "phase": "main",
        "turn": 0,
        "extra_turn": False,
        "pending_card": None,
        "board": board,
        "bag": [],
        "bag_seed": rng.getrandbits(64),
        "bag_contents": [0] * 7,
        "privileges": PRIVILEGES - 1,
        "pyramid": pyramid,
        "decks": decks,
        "deck_sizes": [len(d) for d in decks],
        "royals": list(range(len(ROYALS))),
        "seats": [
            {"tokens": [0] * 7, "cards": [], "jokers": [], "reserved": [], "privileges": i, "royals": []}
            for i in range(2)
        ],
        "observer": None,
    }


def view_position(position: dict, seat: int) -> dict:
    """``position`` as ``seat`` sees it: no deck order, no bag order, no other seat's blind
    reserve. The bag's contents stay public."""
    out = hide_cards(position, seat)
    out["bag_contents"] = bag_contents(position)
    out["bag"] = None
    out["bag_seed"] = None
    return out


def unseen_cards(position: dict, seat: int) -> list[list[int]]:
    """Per level, the cards ``seat`` has not seen (sorted): the pool hidden cards come from."""
    return common.unseen_cards(position, seat, position["pyramid"], CARDS_BY_LEVEL)


def resample_position(position: dict, seat: int, rng: random.Random) -> dict:
    """A full position: everything ``seat`` cannot see redrawn -- the decks and the other
    seat's blind reserves from the cards it has not seen, and the bag's draw order (with a
    new seed for the tokens that will enter it)."""
    out = redraw_cards(position, seat, rng, position["pyramid"], CARDS_BY_LEVEL)
    contents = bag_contents(position)
    bag = [k for k in range(7) for _ in range(contents[k])]
    rng.shuffle(bag)
    out["bag"] = bag
    out["bag_seed"] = rng.getrandbits(64)
    out["bag_contents"] = contents
    return out


def validate_position(position) -> dict:
    """Check a position dictionary; return a normalised copy or raise PositionError(field, why).

    Checks types and ranges, conservation (25 tokens on the board, in the bag or with a seat;
    3 privileges; every card and royal in exactly one place), that hidden parts are hidden
    consistently, and that the phase is one the rules can reach. Derived figures (bonuses,
    points, crowns, the bag's contents) are never read from the input, only checked.
    """
    from ._validate import validate

    return validate(position)


def explain_illegal(position: dict, action) -> str:
    """Why ``action`` is not legal in ``position`` (for IllegalActionError messages)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return f"an action is an integer id, got {action!r}"
    kind = action_kind(action)
    name, reason = action_name(position, action, kind, NUM_ACTIONS, action_to_string)
    if reason is not None:
        return reason
    phase = position["phase"]
    seat = position["seats"][position["current"]]
    wanted = {
        "reserve": ("reserve", "reserve_deck"), "joker": ("joker",), "token": ("token",),
        "steal": ("steal",), "royal": ("royal",), "discard": ("discard",),
    }
    if phase in wanted and kind not in wanted[phase]:
        return f"{name}: seat {position['current']} must first resolve the '{phase}' step ({', '.join(wanted[phase])})"
    if kind == "pass":
        return "pass: only legal when no other action, not even a replenish, is possible"
    if kind == "privilege":
        if phase == "mandatory":
            return f"{name}: no privilege may be used after replenishing"
        if seat["privileges"] == 0:
            return f"{name}: seat {position['current']} holds no privilege"
        return f"{name}: a privilege takes a gem or pearl, and {cell_name(action - PRIVILEGE)} holds none"
    if kind == "replenish":
        if phase == "mandatory":
            return "replenish: the board was already replenished this turn"
        return "replenish: the bag is empty"
    if kind in ("take", "gold", "buy") and phase not in ("main", "mandatory"):
        return f"{name}: not the time for the mandatory action"
    if kind == "take":
        return f"{name}: every cell of the line must hold a gem or a pearl (gold and empty cells break it)"
    if kind == "gold":
        if board_kind(position, action - TAKE_GOLD) != GOLD:
            return f"{name}: no gold on that cell"
        if len(seat["reserved"]) >= MAX_RESERVED:
            return f"{name}: the seat already holds {MAX_RESERVED} reserved cards"
        return f"{name}: nothing left to reserve"
    if kind == "reserve_deck":
        return f"{name}: the level-{action - RESERVE_DECK + 1} deck is empty"
    if kind == "buy":
        cid = target_card(position, split_buy(action)[0])
        if CARDS[cid].color == JOKER and sum(bonuses(seat)) == 0:
            return f"{name}: a joker needs a card with a bonus colour"
        if payment(CARDS[cid].cost, bonuses(seat), seat["tokens"], 0) is None:
            return f"{name}: not affordable (bonuses, gems, pearls and gold fall short)"
        return f"{name}: that payment is not possible for this seat"
    if kind == "joker":
        return f"{name}: the seat owns no card of that colour"
    if kind == "token":
        return f"{name}: that cell holds no token of the card's colour"
    if kind == "steal":
        return f"{name}: the opponent holds no {TOKEN_NAMES[action - STEAL]}"
    if kind == "royal":
        return f"{name}: that royal card is taken"
    if kind == "discard":
        return f"{name}: the seat holds no {TOKEN_NAMES[action - DISCARD]}"
    return f"{name}: not legal here"


def render_position(position: dict) -> str:
    """A compact text drawing of a position."""
    def tokens(t):
        return " ".join(f"{LETTERS[k]}{n}" for k, n in enumerate(t) if n) or "-"

    def card(cid):
        if cid is None:
            return "[hidden]"
        if cid < 0:
            return "[empty]"
        c = CARDS[cid]
        cost = "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(c.cost) if n)
        extra = (f"c{c.crowns}" if c.crowns else "") + ("x2" if c.bonus == 2 else "")
        return f"[{cid} {'wugrk*-'[c.color]}{c.points}{extra} {cost}]"

    lines = [
        f"Splendor Duel  turn {position['turn']}  phase {position['phase']}  seat {position['current']}"
        + ("  (extra turn due)" if position["extra_turn"] else ""),
        "    a b c d e",
    ]
    for r, row in enumerate(position["board"]):
        lines.append(f"  {r + 1} " + " ".join("." if k < 0 else LETTERS[k] for k in row))
    lines.append(f"bag: {tokens(bag_contents(position))}  privileges in supply: {position['privileges']}"
                 f"  royals: {position['royals']}")
    for lv in range(LEVELS - 1, -1, -1):
        lines.append(f"L{lv + 1} ({position['deck_sizes'][lv]:2d}) " + " ".join(card(c) for c in position["pyramid"][lv]))
    for i, s in enumerate(position["seats"]):
        lines.append(
            f"seat {i}: {seat_points(s)} pts {seat_crowns(s)} crowns  tokens {tokens(s['tokens'])}"
            f"  bonus {tokens(bonuses(s))}  privileges {s['privileges']}"
            + (f"  royals {s['royals']}" if s["royals"] else "")
            + ("  reserved " + " ".join(card(r["card"]) for r in s["reserved"]) if s["reserved"] else ""))
    return "\n".join(lines)
