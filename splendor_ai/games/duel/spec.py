"""Splendor Duel: what both implementations share.

The catalogue (67 jewel cards, 4 royals, the spiral of the 25 board cells), the layout of the
dense action ids, the payment-variant table (all in ``tables.py``, re-exported here), the
canonical move notation and the position dictionary (its validation in ``_validate.py``, the
initial deal, views and resampling) live here, once, so that the readable reference
(``reference.py``) and the Cython core (``ext/duel.pyx``) cannot disagree about anything but
the rules themselves, which the parity test compares.

See ``docs/duel.md`` for the notation, the board coordinates and the position format.
"""
from __future__ import annotations

import random

from ..cards import common
from ..cards.common import (  # noqa: F401  (check_knows_seat: for reference.py)
    action_name, buy_target, check_knows_seat, hide_cards, named_card, parse_card_id, redraw_cards, words_of,
)
from ..errors import NotationError, PositionError, UnavailableCardError
from . import _validate
from .tables import *  # noqa: F401,F403  (the catalogue, action ids and position helpers are spec's)


# ---------------------------------------------------------------------------- notation
def action_to_string(position: dict, action: int) -> str:
    """The canonical string of ``action`` in ``position`` (see docs/duel.md)."""
    text = FIXED_NOTATION.get(action)
    return text if text is not None else _notation(position, action)


def _notation(position, action: int) -> str:
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
        card = named_card(target_card(position, action - RESERVE), action, 'reserves from an empty pyramid slot')
        return f"reserve {card}"
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


# The notation of every action whose text does not depend on the position (all but the reserves
# and buys of a card), looked up for each move a call encodes.
FIXED_NOTATION: dict[int, str] = {a: _notation(None, a) for a in range(NUM_ACTIONS)
                                  if action_kind(a) not in ("reserve", "buy")}


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
    return _validate.validate(position)


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
        assert cid is not None  # action_name gave the reason for an empty target
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
        lines.append(f"L{lv + 1} ({position['deck_sizes'][lv]:2d}) "
                     + " ".join(card(c) for c in position["pyramid"][lv]))
    for i, s in enumerate(position["seats"]):
        lines.append(
            f"seat {i}: {seat_points(s)} pts {seat_crowns(s)} crowns  tokens {tokens(s['tokens'])}"
            f"  bonus {tokens(bonuses(s))}  privileges {s['privileges']}"
            + (f"  royals {s['royals']}" if s["royals"] else "")
            + ("  reserved " + " ".join(card(r["card"]) for r in s["reserved"]) if s["reserved"] else ""))
    return "\n".join(lines)
