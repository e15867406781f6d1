"""The base game's feature encoding for the learned evaluation: the readable definition.

``encode(position)`` turns what the **seat to act** can see into ``NUM_FEATURES`` floats,
relative to that seat; ``policy_index(action)`` names the policy-head class of an action.
The core computes the same numbers in C (``ext/base_features.pxi``, ``CoreState.features()``),
and ``tests/test_features_base.py`` checks that the two agree. This module is the
specification the C follows: change one, change the other, and bump ``FEATURE_VERSION``
(the weights file records it). See docs/learned.md for the contract.

Conventions
-----------
- **Seat blocks are mover-relative**: block 0 is the seat to act, block k the seat k places
  after it in turn order. Blocks of seats the game does not have (2 or 3 players) are zeros.
- **Nothing hidden is read**: never the decks (only their sizes), and never the identity of
  another seat's blind reserve (only its level), even when the position is a full one.
  The mover's own blind reserves are the mover's to see.
- **Scaled**: every count is divided by a natural maximum (``S_*`` below) so that values
  lie in about [0, 1]; categorical values are one-hot.
- The derived numbers a small net cannot easily compute are given directly: for every
  visible card, what each seat still **lacks** to buy it after its bonuses and tokens
  (and whether its gold covers that), and for every noble, what each seat still needs.

Layout (``BLOCKS``, in this order; ``NAMES`` names every single feature)
------
``seats`` 4 x 16, one block per seat (mover first):
    tokens w u g r k (/S_GEMS), gold (/S_GOLD), tokens held in all (/10, the limit),
    bonuses w u g r k (/S_BONUS), cards bought (/S_CARDS), points (/S_POINTS),
    reserved cards (/3), nobles (/S_NOBLES).
``board`` 12 x 26, one block per face-up slot, level 1 slots 0..3, then level 2, level 3
    (the slot's level is its place, so it is not repeated):
    card (12): present, colour one-hot (5), points (/5), cost w u g r k (/S_COST);
    the mover's lack (8): lack per colour after bonuses and tokens (/S_COST), lack in all
    (/S_LACK), affordable (the lack is covered by the mover's gold: buyable now),
    lack after bonuses only, in all (/S_LACK: the distance ignoring tokens held);
    each other seat (3 x 2): its lack in all (/S_LACK), affordable.
    An empty slot is all zeros.
``mover_reserves`` 3 x 24, the mover's reserved cards in the order reserved (buy targets
    12..14): card (12, as above), blind (reserved from a deck), level one-hot (3), the
    mover's lack (8, as above).
``other_reserves`` 3 seats x 3 x 18, the reserves of seats 1, 2, 3 after the mover:
    card (12), blind, level one-hot (3), the owner's lack in all (/S_LACK), the owner can
    afford it. A blind reserve shows only present, blind and its level.
``nobles`` 5 x 10, the revealed nobles in the order they lie: present, requirement
    w u g r k (/4), each seat's remaining need (mover first; sum over colours of the
    requirement less its bonuses, /9). A remaining need of 0 means the seat qualifies.
``supply`` 11: tokens in the supply w u g r k (/7, the largest pile), gold (/5), and per
    colour whether ``take 2`` of it is possible (4 or more in the pile).
``decks`` 3: cards left in the level 1, 2, 3 decks (/40, /30, /20).
``game`` 14: round (turns completed // players, /30), final round, the mover's place in
    the round one-hot (4; 0 = the start seat, players-1 = the last seat, whose turn ends
    the final round), phase one-hot (main, return, noble), player count one-hot (2, 3, 4),
    consecutive passes (/4), tokens still to return in the return phase (/3).
"""
from __future__ import annotations

from . import spec

FEATURE_VERSION = 1

MAX_PLAYERS = 4
SLOTS = spec.LEVELS * spec.SLOTS  # 12 face-up slots
MAX_NOBLES = 5

# Scales: the natural maximum each count is divided by.
S_GEMS = 4.0  # a colour's tokens held (the 2-player pile; 4 players may hold up to 7)
S_GOLD = 5.0
S_TOKENS = 10.0  # the token limit
S_BONUS = 7.0
S_CARDS = 20.0
S_POINTS = 15.0
S_RESERVED = 3.0
S_NOBLES = 3.0
S_CARD_POINTS = 5.0
S_COST = 7.0  # the largest cost of one colour
S_LACK = 10.0  # a lack in all (the largest card cost in all is 14)
S_REQ = 4.0  # the largest noble requirement of one colour
S_NEED = 9.0  # the largest noble requirement in all
S_SUPPLY = 7.0
S_DECK = (40.0, 30.0, 20.0)
S_ROUND = 30.0
S_PASSES = 4.0
S_EXCESS = 3.0

# Block sizes.
SEAT = 16
CARD = 12
LACK0 = 8  # the mover's lack of one card
LACK = 2  # another seat's lack of one card
BOARD_SLOT = CARD + LACK0 + (MAX_PLAYERS - 1) * LACK  # 26
RESERVE0 = CARD + 4 + LACK0  # 24
RESERVE = CARD + 4 + LACK  # 18
NOBLE = 1 + 5 + MAX_PLAYERS  # 10

BLOCKS: list[tuple[str, int]] = [
    ("seats", MAX_PLAYERS * SEAT),
    ("board", SLOTS * BOARD_SLOT),
    ("mover_reserves", spec.MAX_RESERVED * RESERVE0),
    ("other_reserves", (MAX_PLAYERS - 1) * spec.MAX_RESERVED * RESERVE),
    ("nobles", MAX_NOBLES * NOBLE),
    ("supply", 6 + 5),
    ("decks", spec.LEVELS),
    ("game", 1 + 1 + MAX_PLAYERS + 3 + 3 + 1 + 1),
]
OFFSETS: dict[str, int] = {}
_o = 0
for _name, _size in BLOCKS:
    OFFSETS[_name] = _o
    _o += _size
NUM_FEATURES = _o
assert NUM_FEATURES == 688

# ---------------------------------------------------------------------------- policy classes
# Every action id below BUY is its own class; a buy's payment variants share the class of
# its target (board slot 0..11, own reserve 12..14): 62 + 15 = 77 classes.
POLICY_SIZE = spec.BUY + spec.BUY_TARGETS


def policy_index(action: int) -> int:
    """The policy-head class of an action id."""
    if not 0 <= action < spec.NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside 0..{spec.NUM_ACTIONS - 1}")
    if action < spec.BUY:
        return action
    return spec.BUY + (action - spec.BUY) // spec.N_PAY


# ---------------------------------------------------------------------------- names
def _names() -> list[str]:
    cols = spec.LETTERS[:5]
    kinds = spec.LETTERS

    def card(p):
        return ([f"{p}.present"] + [f"{p}.colour_{c}" for c in cols] + [f"{p}.points"]
                + [f"{p}.cost_{c}" for c in cols])

    def lack0(p):
        return ([f"{p}.lack_{c}" for c in cols]
                + [f"{p}.lack", f"{p}.affordable", f"{p}.lack_after_bonuses"])

    names = []
    for k in range(MAX_PLAYERS):
        p = f"seat{k}"
        names += ([f"{p}.tokens_{c}" for c in kinds] + [f"{p}.tokens"]
                  + [f"{p}.bonus_{c}" for c in cols]
                  + [f"{p}.cards", f"{p}.points", f"{p}.reserved", f"{p}.nobles"])
    for t in range(SLOTS):
        p = f"board.L{t // spec.SLOTS + 1}s{t % spec.SLOTS}"
        names += card(p) + lack0(f"{p}.seat0")
        for k in range(1, MAX_PLAYERS):
            names += [f"{p}.seat{k}.lack", f"{p}.seat{k}.affordable"]
    for j in range(spec.MAX_RESERVED):
        p = f"seat0.res{j}"
        names += card(p) + [f"{p}.blind"] + [f"{p}.level{lv}" for lv in (1, 2, 3)] + lack0(p)
    for k in range(1, MAX_PLAYERS):
        for j in range(spec.MAX_RESERVED):
            p = f"seat{k}.res{j}"
            names += (card(p) + [f"{p}.blind"] + [f"{p}.level{lv}" for lv in (1, 2, 3)]
                      + [f"{p}.lack", f"{p}.affordable"])
    for j in range(MAX_NOBLES):
        p = f"noble{j}"
        names += ([f"{p}.present"] + [f"{p}.requires_{c}" for c in cols]
                  + [f"{p}.seat{k}.need" for k in range(MAX_PLAYERS)])
    names += [f"supply_{c}" for c in kinds] + [f"supply.take2_{c}" for c in cols]
    names += [f"deck{lv}" for lv in (1, 2, 3)]
    names += (["round", "final_round"] + [f"mover_place{i}" for i in range(MAX_PLAYERS)]
              + ["phase_main", "phase_return", "phase_noble"]
              + [f"players{n}" for n in (2, 3, 4)] + ["passes", "to_return"])
    return names


NAMES: list[str] = _names()
assert len(NAMES) == NUM_FEATURES == len(set(NAMES))


# ---------------------------------------------------------------------------- encode
def _write_card(out: list, o: int, cid: int | None) -> None:
    """The card block at out[o:o+CARD]: present, then (if the card is known) its face."""
    out[o] = 1.0
    if cid is None:
        return
    c = spec.CARDS[cid]
    out[o + 1 + c.color] = 1.0
    out[o + 6] = c.points / S_CARD_POINTS
    for k in range(5):
        out[o + 7 + k] = c.cost[k] / S_COST


def _lack(cid: int, bonus: list[int], tokens: list[int]) -> tuple[list[int], int, bool, int]:
    """What a seat still lacks to buy card cid: per colour (after bonuses and tokens), in
    all, whether its gold covers that, and the lack after bonuses only, in all."""
    cost = spec.CARDS[cid].cost
    per = [max(0, cost[c] - bonus[c] - tokens[c]) for c in range(5)]
    after_bonuses = sum(max(0, cost[c] - bonus[c]) for c in range(5))
    return per, sum(per), sum(per) <= tokens[spec.GOLD], after_bonuses


def _write_lack0(out: list, o: int, cid: int, bonus: list[int], tokens: list[int]) -> None:
    """The mover's lack block (LACK0) at out[o:o+8]."""
    per, total, affordable, after_bonuses = _lack(cid, bonus, tokens)
    for c in range(5):
        out[o + c] = per[c] / S_COST
    out[o + 5] = total / S_LACK
    out[o + 6] = float(affordable)
    out[o + 7] = after_bonuses / S_LACK


def _write_lack(out: list, o: int, cid: int, bonus: list[int], tokens: list[int]) -> None:
    """Another seat's lack block (LACK) at out[o:o+2]."""
    _, total, affordable, _ = _lack(cid, bonus, tokens)
    out[o] = total / S_LACK
    out[o + 1] = float(affordable)


def encode(position: dict) -> list[float]:
    """The features of ``position`` for the seat to act (``position["current"]``).

    ``position`` is a position dictionary (docs/positions.md), full or a view; raises
    ValueError once the game is over (nobody is to act).
    """
    if position["phase"] == "over":
        raise ValueError("the game is over: no seat is to act, so there is nothing to encode")
    n = position["players"]
    cur = position["current"]
    out = [0.0] * NUM_FEATURES
    # seats[k]: the seat k places after the mover; its bonuses and tokens.
    seats = [position["seats"][(cur + k) % n] for k in range(n)]
    bonus = [spec.bonuses(seat["cards"]) for seat in seats]
    tokens = [seat["tokens"] for seat in seats]

    o = OFFSETS["seats"]
    for k, seat in enumerate(seats):
        b = o + k * SEAT
        for c in range(5):
            out[b + c] = tokens[k][c] / S_GEMS
        out[b + 5] = tokens[k][spec.GOLD] / S_GOLD
        out[b + 6] = sum(tokens[k]) / S_TOKENS
        for c in range(5):
            out[b + 7 + c] = bonus[k][c] / S_BONUS
        out[b + 12] = len(seat["cards"]) / S_CARDS
        out[b + 13] = spec.seat_points(seat) / S_POINTS
        out[b + 14] = len(seat["reserved"]) / S_RESERVED
        out[b + 15] = len(seat["nobles"]) / S_NOBLES

    o = OFFSETS["board"]
    for t in range(SLOTS):
        cid = position["board"][t // spec.SLOTS][t % spec.SLOTS]
        if cid < 0:
            continue
        b = o + t * BOARD_SLOT
        _write_card(out, b, cid)
        _write_lack0(out, b + CARD, cid, bonus[0], tokens[0])
        for k in range(1, n):
            _write_lack(out, b + CARD + LACK0 + (k - 1) * LACK, cid, bonus[k], tokens[k])

    o = OFFSETS["mover_reserves"]
    for j, r in enumerate(seats[0]["reserved"]):
        b = o + j * RESERVE0
        # The mover sees its own blind reserves; the card is None only in another seat's view.
        _write_card(out, b, r["card"])
        out[b + CARD] = float(r["blind"])
        out[b + CARD + r["level"]] = 1.0
        if r["card"] is not None:
            _write_lack0(out, b + CARD + 4, r["card"], bonus[0], tokens[0])

    o = OFFSETS["other_reserves"]
    for k in range(1, n):
        for j, r in enumerate(seats[k]["reserved"]):
            b = o + ((k - 1) * spec.MAX_RESERVED + j) * RESERVE
            # Another seat's blind reserve is hidden information, even in a full position.
            cid = None if r["blind"] else r["card"]
            _write_card(out, b, cid)
            out[b + CARD] = float(r["blind"])
            out[b + CARD + r["level"]] = 1.0
            if cid is not None:
                _write_lack(out, b + CARD + 4, cid, bonus[k], tokens[k])

    o = OFFSETS["nobles"]
    for j, nid in enumerate(position["nobles"]):
        b = o + j * NOBLE
        req = spec.NOBLES[nid].requires
        out[b] = 1.0
        for c in range(5):
            out[b + 1 + c] = req[c] / S_REQ
        for k in range(n):
            out[b + 6 + k] = sum(max(0, req[c] - bonus[k][c]) for c in range(5)) / S_NEED

    o = OFFSETS["supply"]
    supply = position["supply"]
    for c in range(5):
        out[o + c] = supply[c] / S_SUPPLY
        out[o + 6 + c] = float(supply[c] >= 4)
    out[o + 5] = supply[spec.GOLD] / S_GOLD

    o = OFFSETS["decks"]
    for lv in range(spec.LEVELS):
        out[o + lv] = position["deck_sizes"][lv] / S_DECK[lv]

    o = OFFSETS["game"]
    out[o] = (position["turn"] // n) / S_ROUND
    out[o + 1] = float(position["final_round"])
    out[o + 2 + (cur - position["start_seat"]) % n] = 1.0
    out[o + 6 + spec.PHASES.index(position["phase"])] = 1.0
    out[o + 9 + n - 2] = 1.0
    out[o + 12] = position["passes"] / S_PASSES
    if position["phase"] == "return":
        out[o + 13] = (sum(tokens[0]) - spec.TOKEN_LIMIT) / S_EXCESS
    return out
