"""Splendor: Marvel: what both implementations share.

The catalogue (90 character cards, 8 location sides), the layout of the dense action ids,
the payment-variant table, the canonical move notation and the position dictionary (its
validation and the initial deal) live here, once, so that the readable reference
(``reference.py``) and the Cython core (``ext/marvel.pyx``) cannot disagree about anything
but the rules themselves, which the parity test compares.

The layout follows the base game's (``games/base/spec.py``) wherever the games agree.
See ``docs/marvel.md`` for the notation, the position format and the engine's decisions.
"""
from __future__ import annotations

import copy
import csv
import itertools
import random
from dataclasses import dataclass
from importlib import resources

from ..errors import HiddenInformationError, NotationError, PositionError, UnavailableCardError

GAME = "marvel"

# ---------------------------------------------------------------------------- components
# The five Infinity Stone colours, in the cost order of data/cards.csv.
COLORS = ("yellow", "red", "orange", "blue", "purple")
YELLOW, RED, ORANGE, BLUE, PURPLE = range(5)
GREEN = 5  # Time: never taken by an action, never a cost, never pays, never a bonus
GREY = 6  # S.H.I.E.L.D.: the wild token (the base game's gold)
KINDS = 7
TOKEN_NAMES = COLORS + ("green", "grey")
# One letter per token kind, in token order; `s` for S.H.I.E.L.D. (grey).
LETTERS = "yrobpgs"

LEVELS = 3
SLOTS = 4  # face-up cards per level
MAX_RESERVED = 3
TOKEN_LIMIT = 10
GAUNTLET_POINTS = 16
AVENGERS_ICONS = 3  # icons needed to take the Avengers Assemble tile first
AVENGERS_POINTS = 3
LOCATION_POINTS = 3
GREY_COUNT = 5
PLAYER_COUNTS = (2, 3, 4)
STONES_PER_COLOR = {2: 4, 3: 5, 4: 7}
GREEN_COUNT = {2: 2, 3: 3, 4: 4}
TILES = 4  # double-sided location tiles; side ids 2*tile + side (side 0 = A, 1 = B)


def locations_in_play(players: int) -> int:
    """'Location tiles: as many as players'."""
    return players


def token_totals(players: int) -> list[int]:
    """How many tokens of each kind the game has, in token order."""
    return [STONES_PER_COLOR[players]] * 5 + [GREEN_COUNT[players], GREY_COUNT]


@dataclass(frozen=True)
class Card:
    id: int
    level: int  # 1..3
    color: int  # 0..4
    points: int
    avengers: int  # Avengers icons, 0..2
    time_stone: bool
    cost: tuple[int, int, int, int, int]
    name: str


@dataclass(frozen=True)
class Location:
    id: int  # 2 * (tile - 1) + side
    tile: int  # 1..4
    side: str  # "A" or "B" (our own labels)
    points: int
    requires: tuple[int, int, int, int, int]
    name: str


def _read_csv(name: str) -> list[dict[str, str]]:
    with resources.files(__package__).joinpath("data", name).open(newline="") as f:
        return list(csv.DictReader(f))


def _with_names(rows: list[dict], named: list[dict], what: str) -> list[dict]:
    """The rows of the rules file with the names of the *_with_names file, which must hold
    the same rows in the same order."""
    if len(rows) != len(named):
        raise ImportError(f"marvel data: {what}_with_names.csv has {len(named)} rows, {what}.csv {len(rows)}")
    for i, (row, extra) in enumerate(zip(rows, named)):
        if any(extra[k] != v for k, v in row.items()):
            raise ImportError(f"marvel data: row {i} of {what}_with_names.csv differs from {what}.csv")
    return [{**row, "name": extra["name"]} for row, extra in zip(rows, named)]


def _load_cards() -> tuple[Card, ...]:
    rows = _with_names(_read_csv("cards.csv"), _read_csv("cards_with_names.csv"), "cards")
    return tuple(
        Card(
            id=i,
            level=int(row["level"]),
            color=COLORS.index(row["color"]),
            points=int(row["points"]),
            avengers=int(row["avengers"]),
            time_stone=row["time_stone"] == "1",
            cost=tuple(int(row[c]) for c in COLORS),
            name=row["name"],
        )
        for i, row in enumerate(rows)
    )


def _load_locations() -> tuple[Location, ...]:
    rows = _with_names(_read_csv("locations.csv"), _read_csv("locations_with_names.csv"), "locations")
    out = []
    for i, row in enumerate(rows):
        tile, side = int(row["tile"]), row["side"]
        if (tile - 1) * 2 + "AB".index(side) != i:
            raise ImportError(f"marvel data: locations.csv row {i} is tile {tile} side {side}, out of order")
        out.append(Location(id=i, tile=tile, side=side, points=int(row["points"]),
                            requires=tuple(int(row[c]) for c in COLORS), name=row["name"]))
    return tuple(out)


# Stable ids: a card's id is its row in data/cards.csv (0..89), a location side's its row in
# data/locations.csv (0..7; sides 2t and 2t+1 are the two faces of one tile).
CARDS: tuple[Card, ...] = _load_cards()
LOCATIONS: tuple[Location, ...] = _load_locations()
CARDS_BY_LEVEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3)
)
assert len(CARDS) == 90 and [len(x) for x in CARDS_BY_LEVEL] == [40, 30, 20]
assert len(LOCATIONS) == 2 * TILES


def tile_of(location: int) -> int:
    """The tile (0..3) a location side id belongs to."""
    return location // 2


# ---------------------------------------------------------------------------- action ids
TAKE3_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 3))
TAKE2_DIFF_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 2))

TAKE3 = 0  # 10 ids: three different colours, TAKE3_SETS order
TAKE2_DIFF = 10  # 10 ids: two different colours (only when fewer than 3 colours are left)
TAKE1 = 20  # 5 ids: one colour (only when fewer than 3 colours are left)
TAKE2_SAME = 25  # 5 ids: two of one colour (pile of 4 or more)
RESERVE_BOARD = 30  # 12 ids: (level-1)*4 + slot
RESERVE_DECK = 42  # 3 ids: blind, from the deck of level 1..3
RETURN = 45  # 7 ids: give back one token of that kind (green's id exists but is never legal)
LOCATION = 52  # 8 ids: take location side <id> (when several qualify)
PASS = 60  # nothing else is legal
BUY = 61  # 15 targets x PAY_VARIANTS: target 0..11 board (level-1)*4+slot, 12..14 reserve index
BUY_TARGETS = LEVELS * SLOTS + MAX_RESERVED

# A payment variant is how many grey tokens replace stones the player would otherwise pay,
# per colour. Variant 0 (no replacement) is the "grey only for the shortfall" payment that a
# move naming no payment means. All vectors with a sum of at most 5 (there are 5 grey),
# ordered by sum, then lexicographically: 252 of them (the base game's table).
PAY_VARIANTS: tuple[tuple[int, int, int, int, int], ...] = tuple(
    sorted(
        (v for v in itertools.product(range(GREY_COUNT + 1), repeat=5) if sum(v) <= GREY_COUNT),
        key=lambda v: (sum(v), v),
    )
)
PAY_VARIANT_INDEX = {v: i for i, v in enumerate(PAY_VARIANTS)}
N_PAY = len(PAY_VARIANTS)
assert N_PAY == 252 and PAY_VARIANTS[0] == (0, 0, 0, 0, 0)
NUM_ACTIONS = BUY + BUY_TARGETS * N_PAY

PHASES = ("main", "return", "location", "over")


def buy_action(target: int, variant: int = 0) -> int:
    return BUY + target * N_PAY + variant


def split_buy(action: int) -> tuple[int, int]:
    """(target, variant) of a buy action id."""
    return divmod(action - BUY, N_PAY)


def action_kind(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return "invalid"
    if action < TAKE2_DIFF:
        return "take3"
    if action < TAKE1:
        return "take2diff"
    if action < TAKE2_SAME:
        return "take1"
    if action < RESERVE_BOARD:
        return "take2same"
    if action < RESERVE_DECK:
        return "reserve_board"
    if action < RETURN:
        return "reserve_deck"
    if action < LOCATION:
        return "return"
    if action < PASS:
        return "location"
    if action == PASS:
        return "pass"
    return "buy"


def taken_tokens(action: int) -> tuple[int, ...]:
    """The colours a take action takes (one entry per token)."""
    kind = action_kind(action)
    if kind == "take3":
        return TAKE3_SETS[action - TAKE3]
    if kind == "take2diff":
        return TAKE2_DIFF_SETS[action - TAKE2_DIFF]
    if kind == "take1":
        return (action - TAKE1,)
    if kind == "take2same":
        c = action - TAKE2_SAME
        return (c, c)
    raise ValueError(f"action {action} is not a take action")


def payment(cost, bonus, tokens, variant: int = 0) -> tuple[int, ...] | None:
    """The seven token counts paid for a card, or None if that payment is impossible.

    ``cost``/``bonus`` per colour, ``tokens`` the seven the player holds. Variant 0 pays
    stones first and grey for the shortfall; variant v replaces PAY_VARIANTS[v][c] more
    stones of colour c by grey. Green never pays: its count is always 0.
    """
    extra = PAY_VARIANTS[variant]
    paid = [0] * KINDS
    grey = 0
    for c in range(5):
        need = max(0, cost[c] - bonus[c])
        stones = min(need, tokens[c])
        if extra[c] > stones:
            return None
        paid[c] = stones - extra[c]
        grey += need - stones + extra[c]
    if grey > tokens[GREY]:
        return None
    paid[GREY] = grey
    return tuple(paid)


def payment_variant(cost, bonus, tokens, paid) -> int | None:
    """The variant whose payment is exactly ``paid`` (seven counts), or None."""
    if paid[GREEN]:
        return None
    extra = []
    for c in range(5):
        need = max(0, cost[c] - bonus[c])
        stones = min(need, tokens[c])
        if paid[c] > stones or paid[c] < 0:
            return None
        extra.append(stones - paid[c])
    variant = PAY_VARIANT_INDEX.get(tuple(extra))
    if variant is None or payment(cost, bonus, tokens, variant) != tuple(paid):
        return None
    return variant


# ---------------------------------------------------------------------------- position helpers
def bonuses(cards) -> list[int]:
    b = [0] * 5
    for cid in cards:
        b[CARDS[cid].color] += 1
    return b


def icons(cards) -> int:
    """Avengers icons on these cards."""
    return sum(CARDS[cid].avengers for cid in cards)


def seat_points(position: dict, seat: int) -> int:
    """Card points + 3 per location + 3 for the Avengers Assemble tile."""
    s = position["seats"][seat]
    return (
        sum(CARDS[c].points for c in s["cards"])
        + LOCATION_POINTS * len(s["locations"])
        + (AVENGERS_POINTS if position["avengers"] == seat else 0)
    )


def meets_gauntlet(position: dict, seat: int) -> bool:
    """The Infinity Gauntlet condition: 16+ points, a bonus of each colour, a green token."""
    s = position["seats"][seat]
    return (
        seat_points(position, seat) >= GAUNTLET_POINTS
        and min(bonuses(s["cards"])) >= 1
        and s["tokens"][GREEN] >= 1
    )


def last_seat(position: dict) -> int:
    return (position["start_seat"] - 1) % position["players"]


def buy_target_card(position: dict, target: int) -> int | None:
    """The card id a buy/reserve target names in this position (None: empty or unknown)."""
    if target < LEVELS * SLOTS:
        cid = position["board"][target // SLOTS][target % SLOTS]
        return None if cid < 0 else cid
    reserved = position["seats"][position["current"]]["reserved"]
    i = target - LEVELS * SLOTS
    return reserved[i]["card"] if i < len(reserved) else None


# ---------------------------------------------------------------------------- notation
def action_to_string(position: dict, action: int) -> str:
    """The canonical string of ``action`` in ``position`` (see docs/marvel.md)."""
    kind = action_kind(action)
    if kind == "invalid":
        raise NotationError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    if kind.startswith("take"):
        return "take " + "".join(LETTERS[c] for c in taken_tokens(action))
    if kind == "reserve_board":
        cid = buy_target_card(position, action - RESERVE_BOARD)
        if cid is None:
            raise NotationError(f"action {action} reserves from an empty slot")
        return f"reserve {cid}"
    if kind == "reserve_deck":
        return f"reserve deck{action - RESERVE_DECK + 1}"
    if kind == "return":
        return f"return {LETTERS[action - RETURN]}"
    if kind == "location":
        return f"location {action - LOCATION}"
    if kind == "pass":
        return "pass"
    target, variant = split_buy(action)
    cid = buy_target_card(position, target)
    if cid is None:
        raise NotationError(f"action {action} buys from an empty or unknown place")
    if variant == 0:
        return f"buy {cid}"
    seat = position["seats"][position["current"]]
    paid = payment(CARDS[cid].cost, bonuses(seat["cards"]), seat["tokens"], variant)
    if paid is None:
        raise NotationError(f"action {action}: payment variant {variant} is impossible here")
    return f"buy {cid} pay " + "".join(LETTERS[k] * n for k, n in enumerate(paid))


def _letters(text: str, what: str, allowed: str) -> list[int]:
    out = []
    for ch in text:
        k = LETTERS.find(ch)
        if k < 0 or ch not in allowed:
            why = ""
            if ch == LETTERS[GREEN]:
                why = " (green, the Time Stone, is never taken and never pays)"
            elif ch == LETTERS[GREY]:
                why = " (grey is never taken: reserving gives one)"
            raise NotationError(f"{what}: token letter {ch!r} is not allowed here{why} (use one of {allowed!r})")
        out.append(k)
    return out


def _card_id(text: str) -> int:
    if not text.isdigit():
        raise NotationError(f"expected a card id (0..{len(CARDS) - 1}), got {text!r}")
    cid = int(text)
    if cid >= len(CARDS):
        raise NotationError(f"card id {cid} is not in the catalogue (0..{len(CARDS) - 1})")
    return cid


def _parse_take(args: list[str]) -> int:
    if len(args) != 1:
        raise NotationError("'take' needs the token letters, e.g. 'take yro' or 'take rr'")
    cols = _letters(args[0], "take", LETTERS[:5])
    if len(cols) == 2 and cols[0] == cols[1]:
        return TAKE2_SAME + cols[0]
    if len(set(cols)) != len(cols):
        raise NotationError(f"take {args[0]!r}: colours must differ (or be two of one colour)")
    key = tuple(sorted(cols))
    if len(key) == 3:
        return TAKE3 + TAKE3_SETS.index(key)
    if len(key) == 2:
        return TAKE2_DIFF + TAKE2_DIFF_SETS.index(key)
    if len(key) == 1:
        return TAKE1 + key[0]
    raise NotationError(f"take {args[0]!r}: take 1 to 3 tokens")


def _parse_buy(position: dict, args: list[str]) -> int:
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "pay"):
        raise NotationError("'buy' needs a card id, optionally 'pay <letters>'")
    cid = _card_id(args[0])
    target = None
    for lv in range(LEVELS):
        for s in range(SLOTS):
            if position["board"][lv][s] == cid:
                target = lv * SLOTS + s
    seat = position["seats"][position["current"]]
    for i, r in enumerate(seat["reserved"]):
        if r["card"] == cid:
            target = LEVELS * SLOTS + i
    if target is None:
        raise UnavailableCardError(f"card {cid} is neither face up nor reserved by the player to move")
    if len(args) == 1:
        return buy_action(target)
    paid = [0] * KINDS
    for k in _letters(args[2], "pay", LETTERS[:5] + LETTERS[GREY]):
        paid[k] += 1
    variant = payment_variant(CARDS[cid].cost, bonuses(seat["cards"]), seat["tokens"], paid)
    if variant is None:
        raise NotationError(f"'pay {args[2]}' is not a payment of card {cid} for this player")
    return buy_action(target, variant)


def string_to_action(position: dict, text: str) -> int:
    """Parse a move string in ``position``. Raises NotationError naming the problem.

    The result is an action id that is well formed for this position; whether it is legal is
    for ``legal_actions``/``apply_action`` to say.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move is a string, got {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty move")
    verb, args = words[0], words[1:]
    if verb == "pass":
        if args:
            raise NotationError("'pass' takes no argument")
        return PASS
    if verb == "take":
        return _parse_take(args)
    if verb == "return":
        if len(args) != 1 or len(args[0]) != 1:
            raise NotationError("'return' needs one token letter, e.g. 'return y'")
        return RETURN + _letters(args[0], "return", LETTERS)[0]
    if verb == "location":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= len(LOCATIONS):
            raise NotationError(f"'location' needs a location id 0..{len(LOCATIONS) - 1}")
        return LOCATION + int(args[0])
    if verb == "reserve":
        if len(args) != 1:
            raise NotationError("'reserve' needs a card id or deck1..deck3")
        if args[0].startswith("deck"):
            lv = args[0][4:]
            if lv not in ("1", "2", "3"):
                raise NotationError(f"unknown deck {args[0]!r} (deck1, deck2 or deck3)")
            return RESERVE_DECK + int(lv) - 1
        cid = _card_id(args[0])
        for lv in range(LEVELS):
            for s in range(SLOTS):
                if position["board"][lv][s] == cid:
                    return RESERVE_BOARD + lv * SLOTS + s
        raise UnavailableCardError(f"card {cid} is not face up on the board")
    if verb == "buy":
        return _parse_buy(position, args)
    raise NotationError(f"unknown move {verb!r} (take, reserve, buy, return, location, pass)")


# ---------------------------------------------------------------------------- positions
def initial_position(players: int, seed: int | None = None) -> dict:
    """A shuffled initial position (the deal), as a full position dictionary.

    Deterministic for a given seed; both implementations start from this same deal. The
    decks are shuffled as in the base game; then ``players`` of the 4 location tiles are
    drawn at random, each on a random side.
    """
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise PositionError("players", f"Splendor: Marvel is for 2, 3 or 4 players, not {players!r}")
    rng = random.Random(seed)
    decks = []
    board = []
    for lv in range(LEVELS):
        deck = list(CARDS_BY_LEVEL[lv])
        rng.shuffle(deck)
        board.append([deck.pop() for _ in range(SLOTS)])
        decks.append(deck)
    tiles = list(range(TILES))
    rng.shuffle(tiles)
    locations = [2 * t + rng.randrange(2) for t in tiles[: locations_in_play(players)]]
    return {
        "game": GAME,
        "players": players,
        "start_seat": 0,
        "current": 0,
        "phase": "main",
        "turn": 0,
        "final_round": False,
        "passes": 0,
        "supply": token_totals(players),
        "board": board,
        "decks": decks,
        "deck_sizes": [len(d) for d in decks],
        "locations": locations,
        "avengers": None,
        "seats": [
            {"tokens": [0] * KINDS, "cards": [], "reserved": [], "locations": []} for _ in range(players)
        ],
        "observer": None,
    }


def _check_knows_seat(position: dict, seat: int) -> None:
    """A view can stand for another seat only if it knows every card that seat sees."""
    if not 0 <= seat < position["players"]:
        raise PositionError("seat", f"seat {seat} is out of range 0..{position['players'] - 1}")
    observer = position.get("observer")
    if observer is not None and observer != seat:
        if any(r["card"] is None for r in position["seats"][seat]["reserved"]):
            raise HiddenInformationError(
                f"this is seat {observer}'s view: it does not know the cards seat {seat} sees")


def view_position(position: dict, seat: int) -> dict:
    """``position`` as ``seat`` sees it: no deck order, no other seat's blind reserve.
    The locations in play are public (their drawn side is face up)."""
    _check_knows_seat(position, seat)
    position = copy.deepcopy(position)
    out = {k: v for k, v in position.items()}
    out["decks"] = None
    out["seats"] = []
    for i, s in enumerate(position["seats"]):
        reserved = [
            dict(r) if (i == seat or not r["blind"]) else {"card": None, "level": r["level"], "blind": True}
            for r in s["reserved"]
        ]
        out["seats"].append({**s, "reserved": reserved})
    out["observer"] = seat
    return out


def unseen_cards(position: dict, seat: int) -> list[list[int]]:
    """Per level, the cards ``seat`` has not seen (sorted): the pool hidden cards come from."""
    seen = set()
    for row in position["board"]:
        seen.update(c for c in row if c >= 0)
    for i, s in enumerate(position["seats"]):
        seen.update(s["cards"])
        for r in s["reserved"]:
            if r["card"] is not None and (i == seat or not r["blind"]):
                seen.add(r["card"])
    return [[c for c in CARDS_BY_LEVEL[lv] if c not in seen] for lv in range(LEVELS)]


def resample_position(position: dict, seat: int, rng: random.Random) -> dict:
    """A full position: everything ``seat`` cannot see redrawn from what it has not seen.

    Other seats' blind reserves keep their level; each deck keeps its size.
    """
    _check_knows_seat(position, seat)
    position = copy.deepcopy(position)
    pools = unseen_cards(position, seat)
    for p in pools:
        rng.shuffle(p)
    out = {k: v for k, v in position.items()}
    out["seats"] = []
    for i, s in enumerate(position["seats"]):
        reserved = []
        for r in s["reserved"]:
            if i != seat and r["blind"]:
                pool = pools[r["level"] - 1]
                if not pool:
                    raise PositionError(f"seats[{i}].reserved", "more hidden cards than unseen cards")
                reserved.append({"card": pool.pop(), "level": r["level"], "blind": True})
            else:
                reserved.append(dict(r))
        out["seats"].append({**s, "reserved": reserved})
    decks = []
    for lv in range(LEVELS):
        if len(pools[lv]) != position["deck_sizes"][lv]:
            raise PositionError(
                f"deck_sizes[{lv}]",
                f"deck of level {lv + 1} holds {position['deck_sizes'][lv]} cards but "
                f"{len(pools[lv])} level-{lv + 1} cards are unaccounted for",
            )
        decks.append(pools[lv])
    out["decks"] = decks
    out["observer"] = None
    return out


def _int(value, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"expected an integer, got {value!r}")
    if not lo <= value <= hi:
        raise PositionError(field, f"{value} is out of range {lo}..{hi}")
    return value


def _list(value, field: str, length: int | None = None, max_len: int | None = None) -> list:
    if not isinstance(value, (list, tuple)):
        raise PositionError(field, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise PositionError(field, f"expected {length} entries, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise PositionError(field, f"at most {max_len} entries, got {len(value)}")
    return list(value)


class _Places:
    """Where each card and each location tile lies, so that none is in two places."""

    def __init__(self) -> None:
        self.cards: dict[int, str] = {}
        self.tiles: dict[int, str] = {}

    def card(self, cid, field: str) -> None:
        _int(cid, field, 0, len(CARDS) - 1)
        if cid in self.cards:
            raise PositionError(field, f"card {cid} is also at {self.cards[cid]}")
        self.cards[cid] = field

    def location(self, lid, field: str) -> None:
        _int(lid, field, 0, len(LOCATIONS) - 1)
        tile = tile_of(lid)
        if tile in self.tiles:
            raise PositionError(
                field, f"location {lid} is a side of tile {tile + 1}, which is also at {self.tiles[tile]}")
        self.tiles[tile] = field


def _validate_board(board, places: _Places) -> list[list[int]]:
    board = _list(board, "board", LEVELS)
    out = []
    for lv in range(LEVELS):
        row = _list(board[lv], f"board[{lv}]", SLOTS)
        for s in range(SLOTS):
            f = f"board[{lv}][{s}]"
            cid = _int(row[s], f, -1, len(CARDS) - 1)
            if cid >= 0:
                places.card(cid, f)
                if CARDS[cid].level != lv + 1:
                    raise PositionError(f, f"card {cid} is of level {CARDS[cid].level}, not {lv + 1}")
        out.append(row)
    return out


def _validate_reserved(reserved, sf: str, seat: int, observer, places: _Places, hidden: list[int]) -> list[dict]:
    out = []
    for j, r in enumerate(_list(reserved, f"{sf}.reserved", max_len=MAX_RESERVED)):
        rf = f"{sf}.reserved[{j}]"
        if not isinstance(r, dict) or "card" not in r:
            raise PositionError(rf, "expected {'card': id or null, 'level': 1..3, 'blind': bool}")
        blind = r.get("blind", False)
        if not isinstance(blind, bool):
            raise PositionError(f"{rf}.blind", f"expected true or false, got {blind!r}")
        cid = r["card"]
        if cid is None:
            if not blind:
                raise PositionError(f"{rf}.card", "only a blind reserve can be hidden")
            if observer is None or observer == seat:
                raise PositionError(f"{rf}.card", "hidden, but this position is not another seat's view")
            lv = _int(r.get("level"), f"{rf}.level", 1, LEVELS)
            hidden[lv - 1] += 1
        else:
            places.card(cid, f"{rf}.card")
            lv = CARDS[cid].level
            if "level" in r and r["level"] != lv:
                raise PositionError(f"{rf}.level", f"card {cid} is of level {lv}")
        out.append({"card": cid, "level": lv, "blind": blind})
    return out


def _validate_seat(s, i: int, totals: list[int], observer, places: _Places, hidden: list[int]) -> dict:
    sf = f"seats[{i}]"
    if not isinstance(s, dict):
        raise PositionError(sf, "expected a dictionary")
    for key in ("tokens", "cards", "reserved", "locations"):
        if key not in s:
            raise PositionError(f"{sf}.{key}", "missing")
    tokens = _list(s["tokens"], f"{sf}.tokens", KINDS)
    for k in range(KINDS):
        _int(tokens[k], f"{sf}.tokens[{k}]", 0, 1 if k == GREEN else totals[k])
    cards = _list(s["cards"], f"{sf}.cards")
    for j, cid in enumerate(cards):
        places.card(cid, f"{sf}.cards[{j}]")
    # 'the first card with the Time Stone icon ... gives 1 green': green is never spent nor
    # returned, and the supply holds one green per seat, so the two go together.
    has_stone = any(CARDS[c].time_stone for c in cards)
    if tokens[GREEN] and not has_stone:
        raise PositionError(f"{sf}.tokens[{GREEN}]", "a green token, but no card with the Time Stone icon")
    if has_stone and not tokens[GREEN]:
        raise PositionError(f"{sf}.tokens[{GREEN}]", "a card with the Time Stone icon, but no green token")
    reserved = _validate_reserved(s["reserved"], sf, i, observer, places, hidden)
    locations = _list(s["locations"], f"{sf}.locations")
    bonus = bonuses(cards)
    for j, lid in enumerate(locations):
        f = f"{sf}.locations[{j}]"
        places.location(lid, f)
        if any(b < r for b, r in zip(bonus, LOCATIONS[lid].requires)):
            raise PositionError(f, f"location {lid} needs bonuses this seat does not have")
    # Cards and locations a seat owns are sets: the canonical form lists them sorted.
    return {"tokens": tokens, "cards": sorted(cards), "reserved": reserved, "locations": sorted(locations)}


def _validate_decks(position, places: _Places, hidden: list[int], observer):
    deck_sizes = _list(position["deck_sizes"], "deck_sizes", LEVELS)
    decks = position.get("decks")
    if decks is None and observer is None:
        raise PositionError("decks", "a full position (no observer) needs the decks")
    if decks is not None:
        decks = _list(decks, "decks", LEVELS)
    out_decks = None if decks is None else []
    for lv in range(LEVELS):
        size = _int(deck_sizes[lv], f"deck_sizes[{lv}]", 0, len(CARDS_BY_LEVEL[lv]))
        if decks is not None:
            deck = _list(decks[lv], f"decks[{lv}]")
            if len(deck) != size:
                raise PositionError(f"deck_sizes[{lv}]", f"{size}, but decks[{lv}] holds {len(deck)} cards")
            for j, cid in enumerate(deck):
                f = f"decks[{lv}][{j}]"
                places.card(cid, f)
                if CARDS[cid].level != lv + 1:
                    raise PositionError(f, f"card {cid} is of level {CARDS[cid].level}, not {lv + 1}")
            out_decks.append(deck)
        known = sum(1 for cid in places.cards if CARDS[cid].level == lv + 1)
        if decks is None:
            known += size
        if known + hidden[lv] != len(CARDS_BY_LEVEL[lv]):
            raise PositionError(
                f"deck_sizes[{lv}]",
                f"level {lv + 1}: {known + hidden[lv]} cards accounted for, "
                f"the game has {len(CARDS_BY_LEVEL[lv])}",
            )
    return out_decks, [int(x) for x in deck_sizes]


def _check_avengers(avengers, seats: list[dict], phase: str, current: int) -> None:
    """The tile goes to the first seat with 3+ icons at the end of its turn, and moves only to
    a seat with strictly more: after every completed turn-end step 2, nobody has more icons
    than the holder (nobody has 3 with no holder). Only the seat to act, before that step (in
    its 'return' phase), may be ahead."""
    counts = [icons(s["cards"]) for s in seats]
    if avengers is not None and counts[avengers] < AVENGERS_ICONS:
        raise PositionError("avengers", f"seat {avengers} holds the tile with {counts[avengers]} Avengers icons (3 needed)")
    floor = AVENGERS_ICONS - 1 if avengers is None else counts[avengers]
    for i, n in enumerate(counts):
        if n > floor and not (phase == "return" and i == current):
            who = "nobody holds the tile" if avengers is None else f"the holder, seat {avengers}, has {floor}"
            raise PositionError("avengers", f"seat {i} has {n} Avengers icons but {who}")


def _could_have_triggered(position: dict, seat: int) -> bool:
    """A seat that met the Gauntlet condition and may since have lost the Avengers tile (its
    only points that can go): every colour, a green token, 16 points, or 13 without the tile."""
    s = position["seats"][seat]
    points = seat_points(position, seat)
    return (
        min(bonuses(s["cards"])) >= 1
        and s["tokens"][GREEN] >= 1
        and (points >= GAUNTLET_POINTS
             or (position["avengers"] != seat and points >= GAUNTLET_POINTS - AVENGERS_POINTS))
    )


def validate_position(position) -> dict:
    """Check a position dictionary; return a normalised copy or raise PositionError(field, why).

    Checks that every field has the right type and range, that tokens, cards and location
    tiles are conserved (each in exactly one place, every token in the supply or with a
    seat), that the phase, the Avengers tile, the green tokens and the final round are ones
    the rules can reach, and that hidden parts are hidden consistently. Derived figures
    (bonuses, icons, points) are never read from the input.
    """
    if not isinstance(position, dict):
        raise PositionError("position", f"expected a dictionary, got {type(position).__name__}")
    required = ("players", "current", "phase", "supply", "board", "locations", "seats", "deck_sizes")
    for key in required:
        if key not in position:
            raise PositionError(key, "missing")
    game = position.get("game", GAME)
    if game != GAME:
        raise PositionError("game", f"expected {GAME!r}, got {game!r}")
    n = position["players"]
    if n not in PLAYER_COUNTS or isinstance(n, bool):
        raise PositionError("players", f"Splendor: Marvel is for 2, 3 or 4 players, not {n!r}")
    start = _int(position.get("start_seat", 0), "start_seat", 0, n - 1)
    current = _int(position["current"], "current", 0, n - 1)
    phase = position["phase"]
    if phase not in PHASES:
        raise PositionError("phase", f"unknown phase {phase!r} (one of {', '.join(PHASES)})")
    turn = _int(position.get("turn", 0), "turn", 0, 1 << 30)
    final_round = position.get("final_round", False)
    if not isinstance(final_round, bool):
        raise PositionError("final_round", f"expected true or false, got {final_round!r}")
    passes = _int(position.get("passes", 0), "passes", 0, n)
    observer = position.get("observer")
    if observer is not None:
        _int(observer, "observer", 0, n - 1)
    avengers = position.get("avengers")
    if avengers is not None:
        _int(avengers, "avengers", 0, n - 1)

    totals = token_totals(n)
    supply = _list(position["supply"], "supply", KINDS)
    for k in range(KINDS):
        _int(supply[k], f"supply[{k}]", 0, totals[k])

    places = _Places()
    board = _validate_board(position["board"], places)
    locations = _list(position["locations"], "locations", max_len=locations_in_play(n))
    for i, lid in enumerate(locations):
        places.location(lid, f"locations[{i}]")

    seats = _list(position["seats"], "seats", n)
    hidden = [0] * LEVELS
    out_seats = [_validate_seat(s, i, totals, observer, places, hidden) for i, s in enumerate(seats)]
    for k in range(KINDS):
        held = sum(s["tokens"][k] for s in out_seats)
        if held + supply[k] != totals[k]:
            raise PositionError(
                f"supply[{k}]",
                f"{TOKEN_NAMES[k]}: supply {supply[k]} + seats {held} != {totals[k]} tokens in the game",
            )
    out_decks, deck_sizes = _validate_decks(position, places, hidden, observer)
    if len(places.tiles) > locations_in_play(n):
        raise PositionError("locations", f"more than {locations_in_play(n)} location tiles in play")

    # The phase, the tile and the final round must be ones the rules can reach.
    cur = out_seats[current]
    if phase == "return" and sum(cur["tokens"]) <= TOKEN_LIMIT:
        raise PositionError("phase", "'return' but the seat to act holds 10 tokens or fewer")
    for i, s in enumerate(out_seats):
        if sum(s["tokens"]) > TOKEN_LIMIT and not (phase == "return" and i == current):
            raise PositionError(f"seats[{i}].tokens", "more than 10 tokens outside that seat's 'return' phase")
    if phase == "location":
        b = bonuses(cur["cards"])
        qualifying = [lid for lid in locations if all(x >= r for x, r in zip(b, LOCATIONS[lid].requires))]
        if len(qualifying) < 2:
            raise PositionError("phase", "'location' but fewer than two locations qualify for the seat to act")
    _check_avengers(avengers, out_seats, phase, current)
    out = {
        "game": GAME,
        "players": n,
        "start_seat": start,
        "current": current,
        "phase": phase,
        "turn": turn,
        "final_round": final_round,
        "passes": passes,
        "supply": supply,
        "board": board,
        "decks": out_decks,
        "deck_sizes": deck_sizes,
        "locations": locations,
        "avengers": avengers,
        "seats": out_seats,
        "observer": observer,
    }
    if final_round and not any(_could_have_triggered(out, i) for i in range(n)):
        raise PositionError(
            "final_round", "set, but no seat has met the Infinity Gauntlet condition "
            "(16 points, every colour, a green token)")
    return out


def explain_illegal(position: dict, action: int) -> str:
    """Why ``action`` is not legal in ``position`` (for IllegalActionError messages)."""
    if isinstance(action, bool) or not isinstance(action, int):
        return f"an action is an integer id, got {action!r}"
    kind = action_kind(action)
    if kind == "invalid":
        return f"action id {action} is outside 0..{NUM_ACTIONS - 1}"
    phase = position["phase"]
    if phase == "over":
        return "the game is over"
    try:
        name = action_to_string(position, action)
    except NotationError as exc:
        return str(exc)
    seat = position["seats"][position["current"]]
    if phase == "return":
        if kind != "return":
            return f"{name}: seat {position['current']} must first return tokens down to 10"
        if action - RETURN == GREEN:
            return f"{name}: green (the Time Stone) can never be returned"
        return f"{name}: the seat holds no {TOKEN_NAMES[action - RETURN]} token"
    if phase == "location":
        if kind != "location":
            return f"{name}: seat {position['current']} must first choose a location"
        return f"{name}: that location is not in play or the seat's bonuses do not meet it"
    if kind in ("return", "location"):
        return f"{name}: only legal at the end of a turn ({kind} phase), not in the main action"
    supply = position["supply"]
    if kind.startswith("take"):
        cols = taken_tokens(action)
        for c in cols:
            if supply[c] == 0:
                return f"{name}: the {COLORS[c]} pile is empty"
        if kind == "take2same":
            return f"{name}: taking two {COLORS[cols[0]]} needs 4 in the pile, there are {supply[cols[0]]}"
        available = sum(1 for c in range(5) if supply[c] > 0)
        return f"{name}: {available} colours are available, so take 3 different colours"
    if kind in ("reserve_board", "reserve_deck"):
        if len(seat["reserved"]) >= MAX_RESERVED:
            return f"{name}: the seat already holds {MAX_RESERVED} reserved cards"
        if kind == "reserve_deck" and position["deck_sizes"][action - RESERVE_DECK] == 0:
            return f"{name}: the level-{action - RESERVE_DECK + 1} deck is empty"
        return f"{name}: not legal here"
    if kind == "buy":
        target, variant = split_buy(action)
        cid = buy_target_card(position, target)
        if payment(CARDS[cid].cost, bonuses(seat["cards"]), seat["tokens"], 0) is None:
            return f"{name}: not affordable (bonuses, stones and grey fall short; green never pays)"
        return f"{name}: that payment is not possible for this seat"
    if kind == "pass":
        return "pass: only legal when no other action is"
    return f"{name}: not legal here"


def render_position(position: dict) -> str:
    """A compact text drawing of a position (no colours; a terminal UI draws its own)."""
    def tokens(t):
        return " ".join(f"{LETTERS[k]}{n}" for k, n in enumerate(t) if n) or "-"

    def card(cid):
        if cid is None:
            return "[hidden]"
        if cid < 0:
            return "[ empty ]"
        c = CARDS[cid]
        cost = "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(c.cost) if n)
        marks = "A" * c.avengers + ("T" if c.time_stone else "")
        return f"[{cid:2d} {LETTERS[c.color]}{c.points}{marks} {cost}]"

    def location(lid):
        return f"<{lid} " + "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(LOCATIONS[lid].requires) if n) + ">"

    lines = [
        f"Splendor: Marvel {position['players']}p  turn {position['turn']}  phase {position['phase']}"
        f"  to act: seat {position['current']}" + ("  FINAL ROUND" if position["final_round"] else ""),
        "supply: " + tokens(position["supply"]),
        "locations: " + (" ".join(location(lid) for lid in position["locations"]) or "-"),
        "avengers tile: " + ("-" if position["avengers"] is None else f"seat {position['avengers']}"),
    ]
    for lv in range(LEVELS - 1, -1, -1):
        lines.append(f"L{lv + 1} ({position['deck_sizes'][lv]:2d}) " + " ".join(card(c) for c in position["board"][lv]))
    for i, s in enumerate(position["seats"]):
        b = bonuses(s["cards"])
        lines.append(
            f"seat {i}: {seat_points(position, i):2d} pts  tokens {tokens(s['tokens'])}  bonuses "
            + (" ".join(f"{LETTERS[k]}{n}" for k, n in enumerate(b) if n) or "-")
            + f"  icons {icons(s['cards'])}"
            + (f"  locations {s['locations']}" if s["locations"] else "")
            + ("  GAUNTLET" if meets_gauntlet(position, i) else "")
            + ("  reserved " + " ".join(card(r["card"]) for r in s["reserved"]) if s["reserved"] else "")
        )
    return "\n".join(lines)
