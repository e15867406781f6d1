"""Splendor: Marvel: the feature encoding of the learned evaluation (docs/learned.md, section 1).

This is the readable definition; ``ext/marvel_features.pxi`` computes the same numbers in C
(``m_features``) and ``tests/test_features_marvel.py`` compares the two.

The encoding describes what the **seat to act** (the mover, ``position["current"]``) can
see, relative to it: seat block 0 is the mover, block 1 the next seat in turn order, and so
on; blocks of seats the game does not have (2 or 3 players) are zeros. It never reads deck
order nor another seat's blind reserve (only that reserve's level), so a full position and
the mover's view of it encode alike.

Every number is scaled to about [0, 1] by a natural maximum (``/7`` for stones of one colour
or one cost, ``/16`` for points, the Gauntlet's threshold, ...). Besides the raw counts it
holds the derived numbers a small network cannot easily compute itself: for every visible
card what each seat still lacks to recruit it (after bonuses and stones) and whether its
grey covers that, for every location each seat's remaining need, how far each seat is from
the Avengers Assemble tile, and whether it meets the Infinity Gauntlet condition.

Blocks, in order (``BLOCKS``; each field list below names one feature per entry):

========================  ==========================  =====================================
block                     size                        what
========================  ==========================  =====================================
``global``                26                          player count, phase, final round,
                                                      round, passes, supply, decks, the
                                                      return phase's excess, Avengers tile
``seats``                 4 x 26                      per seat: tokens, bonuses, points,
                                                      the Gauntlet, cards, icons, ...
``locations``             4 x 14                      per location in play: requirement,
                                                      each seat's remaining need
``board``                 12 x 27                     per face-up slot (level 1..3, slot
                                                      0..3): the card, what the mover lacks
                                                      per colour, what the others lack
``own_reserves``          3 x 26                      the mover's reserves: the card and
                                                      what the mover lacks
``other_reserves``        3 seats x 3 x 12            the other seats' reserves: the card
                                                      if reserved face up, else its level
========================  ==========================  =====================================

Policy classes (``policy_index``): every action id below ``BUY`` is its own class; all the
payment variants of one buy target share the class ``BUY + target`` (76 classes).
"""
from __future__ import annotations

from .spec import (
    AVENGERS_ICONS,
    BUY,
    BUY_TARGETS,
    CARDS,
    GAUNTLET_POINTS,
    GREY,
    KINDS,
    LETTERS,
    LEVELS,
    LOCATIONS,
    MAX_RESERVED,
    N_PAY,
    NUM_ACTIONS,
    PHASES,
    PLAYER_COUNTS,
    SLOTS,
    TOKEN_LIMIT,
    bonuses,
    icons,
    meets_gauntlet,
    seat_points,
)

FEATURE_VERSION = 1
MAX_PLAYERS = 4
MAX_LOCATIONS = 4  # in play: as many as players
POLICY_SIZE = BUY + BUY_TARGETS  # 61 + 15 = 76

# ---------------------------------------------------------------------------- scales
TOKEN_SCALE = (7, 7, 7, 7, 7, 1, 5)  # per kind: 7 stones of a colour (4 players), 1 green, 5 grey
SUPPLY_SCALE = (7, 7, 7, 7, 7, 4, 5)  # the supply: up to 4 green (4 players)
DECK_SCALE = (40, 30, 20)  # cards per level
BONUS_SCALE = 7
COST_SCALE = 7  # the dearest colour of a cost; also what is lacking of one colour
TOTAL_SCALE = 10  # what is lacking in all (a level-3 card costs up to 14)
POINTS_SCALE = GAUNTLET_POINTS  # 1.0 = the Gauntlet's 16 points
CARD_POINTS_SCALE = 5
CARD_ICONS_SCALE = 2
CARDS_SCALE = 20
ICONS_SCALE = 6
ROUND_SCALE = 40  # a game lasts about 30 rounds
LOCATION_REQ_SCALE = 4  # a location needs 3 or 4 bonuses of two or three colours
LOCATION_NEED_SCALE = 9  # ... 9 at most in all
EXCESS_SCALE = 3  # tokens above the limit of 10 (return phase)

# ---------------------------------------------------------------------------- layout
_C = LETTERS[:5]  # y r o b p
GLOBAL_FIELDS = (
    ["players_2", "players_3", "players_4"]
    + ["phase_main", "phase_return", "phase_location"]
    + ["final_round", "round", "passes"]
    + [f"supply_{k}" for k in LETTERS]  # y r o b p g s
    + [f"take2_{c}" for c in _C]  # pile of 4 or more: taking two is legal
    + ["deck_1", "deck_2", "deck_3"]
    + ["excess_tokens", "avengers_free"]
)
SEAT_FIELDS = (
    [f"tokens_{k}" for k in LETTERS]
    + [f"bonus_{c}" for c in _C]
    + [f"has_{c}" for c in _C]  # at least one bonus of the colour (the Gauntlet needs all five)
    + ["points", "gauntlet", "cards", "reserved", "icons", "avengers", "icons_to_tile",
       "locations", "acts_this_round"]
)
LOCATION_FIELDS = (
    ["present"]
    + [f"req_{c}" for c in _C]
    + [f"need_s{i}" for i in range(MAX_PLAYERS)]  # bonuses still missing, seat block i
    + [f"qualifies_s{i}" for i in range(MAX_PLAYERS)]
)
_CARD_FIELDS = ["present"] + [f"color_{c}" for c in _C] + ["points"] + [f"cost_{c}" for c in _C] + ["icons"]
_MOVER_FIELDS = [f"lack_{c}" for c in _C] + ["shortfall", "affordable", "new_color"]
BOARD_FIELDS = (
    _CARD_FIELDS
    + _MOVER_FIELDS
    + [f"{x}_s{i}" for i in range(1, MAX_PLAYERS) for x in ("lack", "shortfall")]
)
OWN_RESERVE_FIELDS = (
    ["present", "blind", "level_1", "level_2", "level_3"]
    + [f"color_{c}" for c in _C] + ["points"] + [f"cost_{c}" for c in _C] + ["icons", "time_stone"]
    + _MOVER_FIELDS
)
OTHER_RESERVE_FIELDS = (
    ["present", "blind", "level_1", "level_2", "level_3"]
    + [f"color_{c}" for c in _C] + ["points", "shortfall"]
)

BLOCKS: tuple[tuple[str, int], ...] = (
    ("global", len(GLOBAL_FIELDS)),
    ("seats", MAX_PLAYERS * len(SEAT_FIELDS)),
    ("locations", MAX_LOCATIONS * len(LOCATION_FIELDS)),
    ("board", LEVELS * SLOTS * len(BOARD_FIELDS)),
    ("own_reserves", MAX_RESERVED * len(OWN_RESERVE_FIELDS)),
    ("other_reserves", (MAX_PLAYERS - 1) * MAX_RESERVED * len(OTHER_RESERVE_FIELDS)),
)
NUM_FEATURES = sum(size for _, size in BLOCKS)
assert [len(f) for f in (GLOBAL_FIELDS, SEAT_FIELDS, LOCATION_FIELDS, BOARD_FIELDS,
                         OWN_RESERVE_FIELDS, OTHER_RESERVE_FIELDS)] == [26, 26, 14, 27, 26, 12]
assert NUM_FEATURES == 696


def feature_names() -> list[str]:
    """One name per feature, in order (e.g. ``seats.s0.tokens_s``, ``board.l3_0.lack_y``)."""
    names = [f"global.{f}" for f in GLOBAL_FIELDS]
    names += [f"seats.s{i}.{f}" for i in range(MAX_PLAYERS) for f in SEAT_FIELDS]
    names += [f"locations.{j}.{f}" for j in range(MAX_LOCATIONS) for f in LOCATION_FIELDS]
    names += [f"board.l{lv + 1}_{s}.{f}" for lv in range(LEVELS) for s in range(SLOTS) for f in BOARD_FIELDS]
    names += [f"own_reserves.{j}.{f}" for j in range(MAX_RESERVED) for f in OWN_RESERVE_FIELDS]
    names += [f"other_reserves.s{i}_{j}.{f}" for i in range(1, MAX_PLAYERS) for j in range(MAX_RESERVED)
              for f in OTHER_RESERVE_FIELDS]
    assert len(names) == NUM_FEATURES
    return names


def block_offsets() -> dict[str, int]:
    """Where each block starts."""
    out, at = {}, 0
    for name, size in BLOCKS:
        out[name] = at
        at += size
    return out


# ---------------------------------------------------------------------------- policy classes
def policy_index(action: int) -> int:
    """The policy class of an action id: the id itself below BUY, else BUY + buy target."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}")
    if action < BUY:
        return action
    return BUY + (action - BUY) // N_PAY


# ---------------------------------------------------------------------------- encode
class _Seat:
    """What the encoding needs of one seat, computed once from the position."""

    def __init__(self, position: dict, seat: int):
        s = position["seats"][seat]
        self.index = seat
        self.tokens = list(s["tokens"])
        self.bonus = bonuses(s["cards"])
        self.points = seat_points(position, seat)
        self.icons = icons(s["cards"])
        self.cards = len(s["cards"])
        self.reserved = s["reserved"]
        self.locations = len(s["locations"])
        self.gauntlet = meets_gauntlet(position, seat)

    def lack(self, cid: int) -> list[int]:
        """Stones still missing per colour to recruit card ``cid`` (after bonuses and stones)."""
        cost = CARDS[cid].cost
        return [max(0, cost[c] - self.bonus[c] - self.tokens[c]) for c in range(5)]

    def shortfall(self, cid: int) -> int:
        """What its grey tokens do not cover of the lacking stones (0: it can recruit it)."""
        return max(0, sum(self.lack(cid)) - self.tokens[GREY])


def _card(cid: int) -> list[float]:
    """present, colour one-hot, points, cost per colour, icons."""
    c = CARDS[cid]
    return ([1.0] + [float(c.color == k) for k in range(5)] + [c.points / CARD_POINTS_SCALE]
            + [x / COST_SCALE for x in c.cost] + [c.avengers / CARD_ICONS_SCALE])


def _mover_card(mover: _Seat, cid: int) -> list[float]:
    """What the mover lacks per colour, its shortfall after grey, whether it can recruit the
    card now, whether the card brings it a new colour."""
    lack = mover.lack(cid)
    short = max(0, sum(lack) - mover.tokens[GREY])
    return ([x / COST_SCALE for x in lack]
            + [short / TOTAL_SCALE, float(short == 0), float(mover.bonus[CARDS[cid].color] == 0)])


def _global(position: dict, mover: _Seat) -> list[float]:
    n = position["players"]
    supply = position["supply"]
    phase = position["phase"]
    return (
        [float(n == k) for k in PLAYER_COUNTS]
        + [float(phase == ph) for ph in PHASES[:3]]
        + [float(position["final_round"]), position["turn"] / n / ROUND_SCALE, position["passes"] / n]
        + [supply[k] / SUPPLY_SCALE[k] for k in range(KINDS)]
        + [float(supply[c] >= 4) for c in range(5)]
        + [position["deck_sizes"][lv] / DECK_SCALE[lv] for lv in range(LEVELS)]
        + [max(0, sum(mover.tokens) - TOKEN_LIMIT) / EXCESS_SCALE, float(position["avengers"] is None)]
    )


def _seat(position: dict, seats: list[_Seat], i: int) -> list[float]:
    """Seat block i: the seat i places after the mover in turn order."""
    n = position["players"]
    cur = position["current"]
    seat = seats[(cur + i) % n]
    holder = position["avengers"]
    if holder == seat.index:
        to_tile = 0
    elif holder is None:
        to_tile = max(0, AVENGERS_ICONS - seat.icons)
    else:  # strictly more icons than the holder take the tile
        to_tile = max(0, seats[holder].icons + 1 - seat.icons)
    last = (position["start_seat"] - 1) % n  # the round ends after the last seat's turn
    return (
        [seat.tokens[k] / TOKEN_SCALE[k] for k in range(KINDS)]
        + [b / BONUS_SCALE for b in seat.bonus]
        + [float(b > 0) for b in seat.bonus]
        + [
            seat.points / POINTS_SCALE,
            float(seat.gauntlet),
            seat.cards / CARDS_SCALE,
            len(seat.reserved) / MAX_RESERVED,
            seat.icons / ICONS_SCALE,
            float(holder == seat.index),
            min(to_tile, AVENGERS_ICONS) / AVENGERS_ICONS,  # capped at 3: beyond, out of reach anyway
            seat.locations / MAX_LOCATIONS,
            float(i <= (last - cur) % n),  # it still has a turn in this round (the mover: this one)
        ]
    )


def _location(ordered: list[_Seat], lid: int) -> list[float]:
    req = LOCATIONS[lid].requires
    need = [sum(max(0, req[c] - s.bonus[c]) for c in range(5)) for s in ordered]
    pad = [0.0] * (MAX_PLAYERS - len(ordered))
    return ([1.0] + [r / LOCATION_REQ_SCALE for r in req]
            + [x / LOCATION_NEED_SCALE for x in need] + pad
            + [float(x == 0) for x in need] + pad)


def _board_slot(ordered: list[_Seat], cid: int) -> list[float]:
    if cid < 0:
        return [0.0] * len(BOARD_FIELDS)
    out = _card(cid) + _mover_card(ordered[0], cid)
    for i in range(1, MAX_PLAYERS):
        if i < len(ordered):
            out += [sum(ordered[i].lack(cid)) / TOTAL_SCALE, ordered[i].shortfall(cid) / TOTAL_SCALE]
        else:
            out += [0.0, 0.0]
    return out


def _level(lv: int) -> list[float]:
    return [float(lv == k) for k in (1, 2, 3)]


def _own_reserve(mover: _Seat, j: int) -> list[float]:
    if j >= len(mover.reserved):
        return [0.0] * len(OWN_RESERVE_FIELDS)
    r = mover.reserved[j]
    head = [1.0, float(r["blind"])] + _level(r["level"])
    if r["card"] is None:  # only in a view that is not the mover's (never from the search's states)
        return head + [0.0] * (len(OWN_RESERVE_FIELDS) - len(head))
    c = CARDS[r["card"]]
    return (head + [float(c.color == k) for k in range(5)] + [c.points / CARD_POINTS_SCALE]
            + [x / COST_SCALE for x in c.cost] + [c.avengers / CARD_ICONS_SCALE, float(c.time_stone)]
            + _mover_card(mover, r["card"]))


def _other_reserve(seat: _Seat | None, j: int) -> list[float]:
    if seat is None or j >= len(seat.reserved):
        return [0.0] * len(OTHER_RESERVE_FIELDS)
    r = seat.reserved[j]
    head = [1.0, float(r["blind"])] + _level(r["level"])
    if r["blind"] or r["card"] is None:  # a blind reserve: only its owner knows the card
        return head + [0.0] * 7
    c = CARDS[r["card"]]
    return (head + [float(c.color == k) for k in range(5)]
            + [c.points / CARD_POINTS_SCALE, seat.shortfall(r["card"]) / TOTAL_SCALE])


def encode(position: dict) -> list[float]:
    """The encoding of ``position`` for the seat to act (a full position or a view).

    Raises ValueError once the game is over (nobody is to act).
    """
    if position["phase"] == "over":
        raise ValueError("the game is over: no seat is to act")
    n = position["players"]
    cur = position["current"]
    seats = [_Seat(position, i) for i in range(n)]
    ordered = [seats[(cur + i) % n] for i in range(n)]  # mover first, then in turn order
    mover = ordered[0]

    blocks = {"global": _global(position, mover)}
    blocks["seats"] = [x for i in range(MAX_PLAYERS)
                       for x in (_seat(position, seats, i) if i < n else [0.0] * len(SEAT_FIELDS))]
    locations = position["locations"]
    blocks["locations"] = [x for j in range(MAX_LOCATIONS)
                           for x in (_location(ordered, locations[j]) if j < len(locations)
                                     else [0.0] * len(LOCATION_FIELDS))]
    blocks["board"] = [x for lv in range(LEVELS) for s in range(SLOTS)
                       for x in _board_slot(ordered, position["board"][lv][s])]
    blocks["own_reserves"] = [x for j in range(MAX_RESERVED) for x in _own_reserve(mover, j)]
    blocks["other_reserves"] = [x for i in range(1, MAX_PLAYERS) for j in range(MAX_RESERVED)
                                for x in _other_reserve(ordered[i] if i < n else None, j)]
    out: list[float] = []
    for name, size in BLOCKS:
        assert len(blocks[name]) == size, (name, len(blocks[name]), size)
        out += blocks[name]
    return out


__all__ = [
    "BLOCKS",
    "FEATURE_VERSION",
    "NUM_FEATURES",
    "POLICY_SIZE",
    "block_offsets",
    "encode",
    "feature_names",
    "policy_index",
]
