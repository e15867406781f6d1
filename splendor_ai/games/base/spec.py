"""Splendor (base game): what both implementations share.

The catalogue, the layout of the dense action ids, the payment-variant table, the canonical
move notation, the position dictionary (its validation and the initial deal) all live here,
once, so that the readable reference (``reference.py``) and the Cython core
(``ext/base.pyx``) cannot disagree about anything but the rules themselves, which the
parity test compares.

See ``docs/notation.md`` for the notation and ``docs/positions.md`` for the position format.
"""
from __future__ import annotations

import copy
import csv
import itertools
import random
from dataclasses import dataclass
from importlib import resources

from ..errors import HiddenInformationError, NotationError, PositionError, UnavailableCardError

GAME = "base"

# ---------------------------------------------------------------------------- components
COLORS = ("white", "blue", "green", "red", "black")
GOLD = 5
TOKEN_NAMES = COLORS + ("gold",)
# One letter per token kind, in the game's colour order, gold last.
LETTERS = "wugrky"
WHITE, BLUE, GREEN, RED, BLACK = range(5)

LEVELS = 3
SLOTS = 4  # face-up cards per level
MAX_RESERVED = 3
TOKEN_LIMIT = 10
WINNING_POINTS = 15
NOBLE_POINTS = 3
GOLD_COUNT = 5
PLAYER_COUNTS = (2, 3, 4)
GEMS_PER_COLOR = {2: 4, 3: 5, 4: 7}


def nobles_revealed(players: int) -> int:
    return players + 1


@dataclass(frozen=True)
class Card:
    id: int
    level: int  # 1..3
    color: int  # 0..4
    points: int
    cost: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Noble:
    id: int
    points: int
    requires: tuple[int, int, int, int, int]


def _read_csv(name: str) -> list[dict[str, str]]:
    with resources.files(__package__).joinpath("data", name).open(newline="") as f:
        return list(csv.DictReader(f))


def _load_cards() -> tuple[Card, ...]:
    cards = []
    for i, row in enumerate(_read_csv("cards.csv")):
        cards.append(
            Card(
                id=i,
                level=int(row["level"]),
                color=COLORS.index(row["color"]),
                points=int(row["points"]),
                cost=tuple(int(row[c]) for c in COLORS),
            )
        )
    return tuple(cards)


def _load_nobles() -> tuple[Noble, ...]:
    return tuple(
        Noble(id=i, points=int(row["points"]), requires=tuple(int(row[c]) for c in COLORS))
        for i, row in enumerate(_read_csv("nobles.csv"))
    )


# Stable ids: a card's id is its row in data/cards.csv (0..89), a noble's its row in
# data/nobles.csv (0..9). Frontends map their own card objects to these once.
CARDS: tuple[Card, ...] = _load_cards()
NOBLES: tuple[Noble, ...] = _load_nobles()
CARDS_BY_LEVEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.id for c in CARDS if c.level == lv) for lv in (1, 2, 3)
)
assert len(CARDS) == 90 and [len(x) for x in CARDS_BY_LEVEL] == [40, 30, 20]
assert len(NOBLES) == 10

# ---------------------------------------------------------------------------- action ids
TAKE3_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 3))
TAKE2_DIFF_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 2))

TAKE3 = 0  # 10 ids: three different colours, TAKE3_SETS order
TAKE2_DIFF = 10  # 10 ids: two different colours (only when fewer than 3 colours are left)
TAKE1 = 20  # 5 ids: one colour (only when fewer than 3 colours are left)
TAKE2_SAME = 25  # 5 ids: two of one colour (pile of 4 or more)
RESERVE_BOARD = 30  # 12 ids: (level-1)*4 + slot
RESERVE_DECK = 42  # 3 ids: blind, from the deck of level 1..3
RETURN = 45  # 6 ids: give back one token of that kind (5 colours, gold)
NOBLE = 51  # 10 ids: take noble <id> (when several qualify)
PASS = 61  # nothing else is legal
BUY = 62  # 15 targets x PAY_VARIANTS: target 0..11 board (level-1)*4+slot, 12..14 reserve index
BUY_TARGETS = LEVELS * SLOTS + MAX_RESERVED

# A payment variant is how many gold tokens replace gems the player would otherwise pay, per
# colour. Variant 0 (no replacement) is the "gold only for the shortfall" payment that a move
# naming no payment means. All vectors with a sum of at most 5 (there are 5 gold), ordered by
# sum, then lexicographically: 252 of them.
PAY_VARIANTS: tuple[tuple[int, int, int, int, int], ...] = tuple(
    sorted(
        (v for v in itertools.product(range(GOLD_COUNT + 1), repeat=5) if sum(v) <= GOLD_COUNT),
        key=lambda v: (sum(v), v),
    )
)
PAY_VARIANT_INDEX = {v: i for i, v in enumerate(PAY_VARIANTS)}
N_PAY = len(PAY_VARIANTS)
assert N_PAY == 252 and PAY_VARIANTS[0] == (0, 0, 0, 0, 0)
NUM_ACTIONS = BUY + BUY_TARGETS * N_PAY

PHASES = ("main", "return", "noble", "over")


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
    if action < NOBLE:
        return "return"
    if action < PASS:
        return "noble"
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
    """The six token counts paid for a card, or None if that payment is impossible.

    ``cost``/``bonus`` per colour, ``tokens`` the six the player holds. Variant 0 pays gems
    first and gold for the shortfall; variant v replaces PAY_VARIANTS[v][c] more gems of
    colour c by gold.
    """
    extra = PAY_VARIANTS[variant]
    paid = [0] * 6
    gold = 0
    for c in range(5):
        need = max(0, cost[c] - bonus[c])
        gems = min(need, tokens[c])
        if extra[c] > gems:
            return None
        paid[c] = gems - extra[c]
        gold += need - gems + extra[c]
    if gold > tokens[GOLD]:
        return None
    paid[GOLD] = gold
    return tuple(paid)


def payment_variant(cost, bonus, tokens, paid) -> int | None:
    """The variant whose payment is exactly ``paid`` (six counts), or None."""
    extra = []
    for c in range(5):
        need = max(0, cost[c] - bonus[c])
        gems = min(need, tokens[c])
        if paid[c] > gems or paid[c] < 0:
            return None
        extra.append(gems - paid[c])
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


def seat_points(seat: dict) -> int:
    return sum(CARDS[c].points for c in seat["cards"]) + NOBLE_POINTS * len(seat["nobles"])


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
    """The canonical string of ``action`` in ``position`` (see docs/notation.md)."""
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
    if kind == "noble":
        return f"noble {action - NOBLE}"
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


def _letters(text: str, what: str, allow_gold: bool) -> list[int]:
    out = []
    for ch in text:
        k = LETTERS.find(ch)
        if k < 0 or (k == GOLD and not allow_gold):
            allowed = LETTERS if allow_gold else LETTERS[:5]
            raise NotationError(f"{what}: unknown token letter {ch!r} (use one of {allowed!r})")
        out.append(k)
    return out


def _card_id(text: str) -> int:
    if not text.isdigit():
        raise NotationError(f"expected a card id (0..{len(CARDS) - 1}), got {text!r}")
    cid = int(text)
    if cid >= len(CARDS):
        raise NotationError(f"card id {cid} is not in the catalogue (0..{len(CARDS) - 1})")
    return cid


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
        if len(args) != 1:
            raise NotationError("'take' needs the token letters, e.g. 'take wug' or 'take rr'")
        cols = _letters(args[0], "take", allow_gold=False)
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
    if verb == "return":
        if len(args) != 1 or len(args[0]) != 1:
            raise NotationError("'return' needs one token letter, e.g. 'return w'")
        return RETURN + _letters(args[0], "return", allow_gold=True)[0]
    if verb == "noble":
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= len(NOBLES):
            raise NotationError(f"'noble' needs a noble id 0..{len(NOBLES) - 1}")
        return NOBLE + int(args[0])
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
        paid = [0] * 6
        for k in _letters(args[2], "pay", allow_gold=True):
            paid[k] += 1
        variant = payment_variant(CARDS[cid].cost, bonuses(seat["cards"]), seat["tokens"], paid)
        if variant is None:
            raise NotationError(f"'pay {args[2]}' is not a payment of card {cid} for this player")
        return buy_action(target, variant)
    raise NotationError(f"unknown move {verb!r} (take, reserve, buy, return, noble, pass)")


# ---------------------------------------------------------------------------- positions
def initial_position(players: int, seed: int | None = None) -> dict:
    """A shuffled initial position (the deal), as a full position dictionary.

    Deterministic for a given seed; both implementations start from this same deal.
    """
    if players not in PLAYER_COUNTS:
        raise PositionError("players", f"Splendor is for 2, 3 or 4 players, not {players!r}")
    rng = random.Random(seed)
    decks = []
    board = []
    for lv in range(LEVELS):
        deck = list(CARDS_BY_LEVEL[lv])
        rng.shuffle(deck)
        board.append([deck.pop() for _ in range(SLOTS)])
        decks.append(deck)
    noble_ids = list(range(len(NOBLES)))
    rng.shuffle(noble_ids)
    gems = GEMS_PER_COLOR[players]
    return {
        "game": GAME,
        "players": players,
        "start_seat": 0,
        "current": 0,
        "phase": "main",
        "turn": 0,
        "final_round": False,
        "passes": 0,
        "supply": [gems] * 5 + [GOLD_COUNT],
        "board": board,
        "decks": decks,
        "deck_sizes": [len(d) for d in decks],
        "nobles": noble_ids[: nobles_revealed(players)],
        "seats": [
            {"tokens": [0] * 6, "cards": [], "reserved": [], "nobles": []} for _ in range(players)
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
    """``position`` as ``seat`` sees it: no deck order, no other seat's blind reserve."""
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


def validate_position(position) -> dict:
    """Check a position dictionary; return a normalised copy or raise PositionError(field, why).

    Checks that every field has the right type and range, that tokens and cards are
    conserved (every card in exactly one place, every token in the supply or with a seat),
    that the phase is consistent with the seat to act, and that hidden parts are hidden
    consistently. Derived figures (bonuses, points) are never read from the input.
    """
    if not isinstance(position, dict):
        raise PositionError("position", f"expected a dictionary, got {type(position).__name__}")
    required = ("players", "current", "phase", "supply", "board", "nobles", "seats", "deck_sizes")
    for key in required:
        if key not in position:
            raise PositionError(key, "missing")
    game = position.get("game", GAME)
    if game != GAME:
        raise PositionError("game", f"expected {GAME!r}, got {game!r}")
    players = position["players"]
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise PositionError("players", f"Splendor is for 2, 3 or 4 players, not {players!r}")
    n = players
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

    gems = GEMS_PER_COLOR[n]
    totals = [gems] * 5 + [GOLD_COUNT]
    supply = _list(position["supply"], "supply", 6)
    for k in range(6):
        _int(supply[k], f"supply[{k}]", 0, totals[k])

    where: dict[int, str] = {}

    def place(cid, field):
        _int(cid, field, 0, len(CARDS) - 1)
        if cid in where:
            raise PositionError(field, f"card {cid} is also at {where[cid]}")
        where[cid] = field

    board = _list(position["board"], "board", LEVELS)
    for lv in range(LEVELS):
        row = _list(board[lv], f"board[{lv}]", SLOTS)
        for s in range(SLOTS):
            f = f"board[{lv}][{s}]"
            cid = _int(row[s], f, -1, len(CARDS) - 1)
            if cid >= 0:
                place(cid, f)
                if CARDS[cid].level != lv + 1:
                    raise PositionError(f, f"card {cid} is of level {CARDS[cid].level}, not {lv + 1}")

    nobles = _list(position["nobles"], "nobles", max_len=nobles_revealed(n))
    noble_where: dict[int, str] = {}
    for i, nid in enumerate(nobles):
        f = f"nobles[{i}]"
        _int(nid, f, 0, len(NOBLES) - 1)
        if nid in noble_where:
            raise PositionError(f, f"noble {nid} is also at {noble_where[nid]}")
        noble_where[nid] = f

    seats = _list(position["seats"], "seats", n)
    held = [0] * 6
    hidden_per_level = [0] * LEVELS
    out_seats = []
    for i, s in enumerate(seats):
        sf = f"seats[{i}]"
        if not isinstance(s, dict):
            raise PositionError(sf, "expected a dictionary")
        for key in ("tokens", "cards", "reserved", "nobles"):
            if key not in s:
                raise PositionError(f"{sf}.{key}", "missing")
        tokens = _list(s["tokens"], f"{sf}.tokens", 6)
        for k in range(6):
            held[k] += _int(tokens[k], f"{sf}.tokens[{k}]", 0, totals[k])
        cards = _list(s["cards"], f"{sf}.cards")
        for j, cid in enumerate(cards):
            place(cid, f"{sf}.cards[{j}]")
        reserved = _list(s["reserved"], f"{sf}.reserved", max_len=MAX_RESERVED)
        out_res = []
        for j, r in enumerate(reserved):
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
                if observer is None or observer == i:
                    raise PositionError(f"{rf}.card", "hidden, but this position is not another seat's view")
                lv = _int(r.get("level"), f"{rf}.level", 1, LEVELS)
                hidden_per_level[lv - 1] += 1
            else:
                place(cid, f"{rf}.card")
                lv = CARDS[cid].level
                if "level" in r and r["level"] != lv:
                    raise PositionError(f"{rf}.level", f"card {cid} is of level {lv}")
            out_res.append({"card": cid, "level": lv, "blind": blind})
        snobles = _list(s["nobles"], f"{sf}.nobles")
        for j, nid in enumerate(snobles):
            f = f"{sf}.nobles[{j}]"
            _int(nid, f, 0, len(NOBLES) - 1)
            if nid in noble_where:
                raise PositionError(f, f"noble {nid} is also at {noble_where[nid]}")
            noble_where[nid] = f
            if any(b < r for b, r in zip(bonuses(cards), NOBLES[nid].requires)):
                raise PositionError(f, f"noble {nid} needs bonuses this seat does not have")
        # Cards and nobles a seat owns are sets: the canonical form lists them sorted.
        out_seats.append(
            {"tokens": tokens, "cards": sorted(cards), "reserved": out_res, "nobles": sorted(snobles)}
        )
    for k in range(6):
        if held[k] + supply[k] != totals[k]:
            raise PositionError(
                f"supply[{k}]",
                f"{TOKEN_NAMES[k]}: supply {supply[k]} + seats {held[k]} != {totals[k]} tokens in the game",
            )

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
                place(cid, f)
                if CARDS[cid].level != lv + 1:
                    raise PositionError(f, f"card {cid} is of level {CARDS[cid].level}, not {lv + 1}")
            out_decks.append(deck)
        known = sum(1 for cid in where if CARDS[cid].level == lv + 1)
        if decks is None:
            known += size
        if known + hidden_per_level[lv] != len(CARDS_BY_LEVEL[lv]):
            raise PositionError(
                f"deck_sizes[{lv}]",
                f"level {lv + 1}: {known + hidden_per_level[lv]} cards accounted for, "
                f"the game has {len(CARDS_BY_LEVEL[lv])}",
            )
    if len(nobles) + sum(len(s["nobles"]) for s in out_seats) > nobles_revealed(n):
        raise PositionError("nobles", f"more than {nobles_revealed(n)} nobles in play")

    # The phase must be one the rules can reach.
    cur = out_seats[current]
    if phase == "return" and sum(cur["tokens"]) <= TOKEN_LIMIT:
        raise PositionError("phase", "'return' but the seat to act holds 10 tokens or fewer")
    for i, s in enumerate(out_seats):
        if sum(s["tokens"]) > TOKEN_LIMIT and not (phase == "return" and i == current):
            raise PositionError(f"seats[{i}].tokens", "more than 10 tokens outside that seat's 'return' phase")
    if phase == "noble":
        b = bonuses(cur["cards"])
        qualifying = [nid for nid in nobles if all(x >= r for x, r in zip(b, NOBLES[nid].requires))]
        if len(qualifying) < 2:
            raise PositionError("phase", "'noble' but fewer than two nobles can visit the seat to act")
    if final_round and not any(seat_points(s) >= WINNING_POINTS for s in out_seats):
        raise PositionError("final_round", "set, but no seat has 15 points")

    return {
        "game": GAME,
        "players": n,
        "start_seat": start,
        "current": current,
        "phase": phase,
        "turn": turn,
        "final_round": final_round,
        "passes": passes,
        "supply": supply,
        "board": [list(r) for r in board],
        "decks": out_decks,
        "deck_sizes": [int(x) for x in deck_sizes],
        "nobles": nobles,
        "seats": out_seats,
        "observer": observer,
    }


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
        return f"{name}: the seat holds no {TOKEN_NAMES[action - RETURN]} token"
    if phase == "noble":
        if kind != "noble":
            return f"{name}: seat {position['current']} must first choose a visiting noble"
        return f"{name}: that noble is not available to this seat"
    if kind in ("return", "noble"):
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
            return f"{name}: not affordable (bonuses, gems and gold fall short)"
        return f"{name}: that payment is not possible for this seat"
    if kind == "pass":
        return "pass: only legal when no other action is"
    return f"{name}: not legal here"


def render_position(position: dict) -> str:
    """A compact text drawing of a position (no colours; the terminal UI draws its own)."""
    def tokens(t):
        return " ".join(f"{LETTERS[k]}{n}" for k, n in enumerate(t) if n) or "-"

    def card(cid):
        if cid is None:
            return "[hidden]"
        if cid < 0:
            return "[ empty ]"
        c = CARDS[cid]
        cost = "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(c.cost) if n)
        return f"[{cid:2d} {LETTERS[c.color]}{c.points} {cost}]"

    lines = [
        f"Splendor {position['players']}p  turn {position['turn']}  phase {position['phase']}"
        f"  to act: seat {position['current']}" + ("  FINAL ROUND" if position["final_round"] else ""),
        "supply: " + tokens(position["supply"]),
        "nobles: " + " ".join(
            f"<{nid} " + "".join(f"{n}{LETTERS[k]}" for k, n in enumerate(NOBLES[nid].requires) if n) + ">"
            for nid in position["nobles"]
        ),
    ]
    for lv in range(LEVELS - 1, -1, -1):
        lines.append(f"L{lv + 1} ({position['deck_sizes'][lv]:2d}) " + " ".join(card(c) for c in position["board"][lv]))
    for i, s in enumerate(position["seats"]):
        b = bonuses(s["cards"])
        lines.append(
            f"seat {i}: {seat_points(s):2d} pts  tokens {tokens(s['tokens'])}  bonuses "
            + (" ".join(f"{LETTERS[k]}{n}" for k, n in enumerate(b) if n) or "-")
            + (f"  nobles {s['nobles']}" if s["nobles"] else "")
            + ("  reserved " + " ".join(card(r["card"]) for r in s["reserved"]) if s["reserved"] else "")
        )
    return "\n".join(lines)
