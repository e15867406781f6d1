"""Splendor Duel: the feature encoding of the learned evaluation (docs/learned.md, section 1).

This module is the readable definition; ``ext/duel_features.pxi`` computes the same numbers
in C and ``tests/test_features_duel.py`` checks that the two agree.

``encode(position)`` describes what the **seat to act** (``position["current"]``, the
*mover*) can see, relative to it: wherever there are two seats, the mover comes first, then
the opponent. It never reads the order of the decks or of the bag, nor the identity of the
opponent's blind reserve, even when the position is a full one: the encoding of a full
position equals that of the mover's view of it, and resampling does not change it.

Every number is scaled to about [0, 1] by a natural maximum: token counts per kind by the
number of tokens of that kind (4 per gem, 2 pearls, 3 gold), bonuses by 4, points by 20 (a
win), crowns by 10, a colour's points by 10, privileges by 3, and so on (see each block).

The layout, block by block, in order (``BLOCKS`` lists the names and sizes):

=================  ====  ===================================================================
block              size  content
=================  ====  ===================================================================
phase                 8  one-hot of the phase (main, mandatory, reserve, joker, token, steal,
                         royal, discard); ``over`` is never encoded
extra_turn            1  an extra turn is due at the end of this turn
turn                  1  turns completed, min(turn, 100) / 100
supply_privileges     1  privileges in the supply / 3
deck_sizes            3  cards left per level / 30, 24, 13
bag                   7  the bag's contents per token kind / that kind's total (public; the
                         draw order is not)
pending               6  the card whose ability is being resolved (joker, token phases): its
                         gem colour one-hot (5; zeros for a joker), its points / 6
board               175  per cell (row * 5 + col), a one-hot of the token kind on it (7
                         kinds: w u g r k, pearl, gold; an empty cell is all zeros)
line_max              6  per gem and pearl: the most tokens of that kind one take can get
                         (over the takeable lines of 1-3 cells, no gold or empty cell) / 3
seats            2 x 30  SEAT block of the mover, then of the opponent
pyramid         12 x 24  SLOT block per pyramid slot (level 1 slots 0-4, level 2 5-8,
                         level 3 9-11; the slot fixes the level)
reserves      2 x 3 x 24 RESERVE block per reserve place: the mover's three, then the
                         opponent's three, in the order reserved
=================  ====  ===================================================================

A SEAT block (30): tokens per kind (7) / kind's total; bonuses per colour (5) / 4; points
on the cards of each colour (5) / 10; points / 20; crowns / 10; the best colour's points
/ 10; privileges / 3; royals held / 2; cards owned / 20; reserved cards / 3; ``need`` (6).

``need`` (per gem and pearl): how many of the seat's *near* cards lack that kind, / 4. A
seat's candidates are the face-up pyramid cards and its own reserves whose identity the
mover sees (the opponent's blind reserves are never candidates); a candidate is near when
the seat may buy its kind (a joker needs a bonus colour) and, after bonuses, tokens and
every gold, it still lacks 1 to 3 tokens.

A CARD (19): colour one-hot (6: w u g r k, joker; a card of no colour has none set);
points / 6; crowns / 3; bonuses given / 2; abilities (4 bits: extra turn, take a token,
take a privilege, steal a token; a joker's wild bonus is its colour bit); cost per gem and
pearl (6) / kind's total.

LACK of a seat for a card: ``lack`` = sum over the gems and pearl of
max(0, max(0, cost - bonus) - tokens), what the seat still lacks after bonuses and tokens,
/ 10; ``affordable`` = 1 when the seat may buy the card's kind and its gold covers the lack.

A SLOT block (24): present (1), CARD (19), the mover's lack and affordable (2), the
opponent's lack and affordable (2). An empty slot is all zeros.

A RESERVE block (24): present (1), hidden (1), level / 3 (1), CARD (19), the owner's lack
and affordable (2). The opponent's blind reserve is hidden: only present, hidden and level
are set. The mover's own reserves, blind or not, are always shown (the mover knows them).
An empty place is all zeros.

Policy classes (``policy_index``): every action id below ``spec.BUY`` is its own class; the
84 payment variants of a buy share their target's class, ``BUY + target`` (274 classes).
"""
from __future__ import annotations

from ..errors import HiddenInformationError
from . import spec

FEATURE_VERSION = 1

SEAT = 30
CARD = 19
SLOT = 24
RESERVE = 24

BLOCKS: tuple[tuple[str, int], ...] = (
    ("phase", 8),
    ("extra_turn", 1),
    ("turn", 1),
    ("supply_privileges", 1),
    ("deck_sizes", 3),
    ("bag", 7),
    ("pending", 6),
    ("board", spec.CELLS * 7),
    ("line_max", 6),
    ("seats", 2 * SEAT),
    ("pyramid", spec.PYRAMID * SLOT),
    ("reserves", 2 * spec.MAX_RESERVED * RESERVE),
)
NUM_FEATURES = sum(size for _, size in BLOCKS)
assert NUM_FEATURES == 700

POLICY_SIZE = spec.BUY + spec.BUY_TARGETS
assert POLICY_SIZE == 274

# Scales (natural maxima).
KIND_TOTAL = spec.TOKEN_TOTALS  # tokens per kind: 4 per gem, 2 pearls, 3 gold
BONUS_SCALE = 4
COLOR_POINTS_SCALE = spec.WIN_COLOR_POINTS  # 10
POINTS_SCALE = spec.WIN_POINTS  # 20
CROWNS_SCALE = spec.WIN_CROWNS  # 10
ROYALS_SCALE = len(spec.CROWN_THRESHOLDS)  # 2 royals at most per seat
CARDS_SCALE = 20
NEED_SCALE = 4
NEAR = 3  # a near card lacks at most this many tokens after gold
TURN_CAP = 100
DECK_SCALE = tuple(len(c) for c in spec.CARDS_BY_LEVEL)  # 30, 24, 13
CARD_POINTS_SCALE = 6
CARD_CROWNS_SCALE = 3
CARD_BONUS_SCALE = 2
LACK_SCALE = 10
ABILITY_ORDER = (spec.EXTRA_TURN, spec.TAKE_TOKEN, spec.TAKE_PRIVILEGE, spec.STEAL_TOKEN)

OFFSETS: dict[str, int] = {}
_at = 0
for _name, _size in BLOCKS:
    OFFSETS[_name] = _at
    _at += _size
del _at, _name, _size


def policy_index(action: int) -> int:
    """The policy class of an action id: itself, except a buy, whose payment variants share
    the class ``BUY + target``."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < spec.NUM_ACTIONS:
        raise ValueError(f"action id {action!r} is outside 0..{spec.NUM_ACTIONS - 1}")
    if action < spec.BUY:
        return action
    return spec.BUY + (action - spec.BUY) // spec.N_PAY


def _lack(cid: int, bonus: list[int], tokens: list[int]) -> list[int]:
    """Per gem and pearl, what the seat still lacks of card cid after bonuses and tokens."""
    cost = spec.CARDS[cid].cost
    out = []
    for k in range(6):
        price = max(0, cost[k] - (bonus[k] if k < 5 else 0))
        out.append(max(0, price - tokens[k]))
    return out


def _may_buy_kind(cid: int, bonus: list[int]) -> bool:
    """A joker needs a card with a bonus colour."""
    return spec.CARDS[cid].color != spec.JOKER or sum(bonus) > 0


def _lack_pair(cid: int, bonus: list[int], tokens: list[int]) -> list[float]:
    """LACK: [lack / 10, affordable]."""
    lack = sum(_lack(cid, bonus, tokens))
    affordable = _may_buy_kind(cid, bonus) and lack <= tokens[spec.GOLD]
    return [lack / LACK_SCALE, 1.0 if affordable else 0.0]


def _card(cid: int) -> list[float]:
    """CARD: colour one-hot (6), points, crowns, bonuses, abilities (4), cost (6)."""
    c = spec.CARDS[cid]
    out = [0.0] * CARD
    if c.color <= spec.JOKER:
        out[c.color] = 1.0
    out[6] = c.points / CARD_POINTS_SCALE
    out[7] = c.crowns / CARD_CROWNS_SCALE
    out[8] = c.bonus / CARD_BONUS_SCALE
    for i, bit in enumerate(ABILITY_ORDER):
        out[9 + i] = 1.0 if c.abilities & bit else 0.0
    for k in range(6):
        out[13 + k] = c.cost[k] / KIND_TOTAL[k]
    return out


def _visible_reserves(position: dict, seat: int, mover: int) -> list[int | None]:
    """The seat's reserves as the mover sees them: a card id, or None for a hidden card."""
    out = []
    for r in position["seats"][seat]["reserved"]:
        if seat == mover:
            if r["card"] is None:
                raise HiddenInformationError(
                    f"seat {mover} is to act but this view does not know its reserved cards")
            out.append(r["card"])
        else:
            out.append(None if r["blind"] or r["card"] is None else r["card"])
    return out


def _pyramid_cards(position: dict) -> list[int]:
    """The 12 flat slots: card id or -1."""
    return [cid for row in position["pyramid"] for cid in row]


def _seat_block(position: dict, seat: int, mover: int) -> list[float]:
    s = position["seats"][seat]
    tokens = s["tokens"]
    bonus = spec.bonuses(s)
    cpoints = spec.color_points(s)
    out = [tokens[k] / KIND_TOTAL[k] for k in range(7)]
    out += [b / BONUS_SCALE for b in bonus]
    out += [p / COLOR_POINTS_SCALE for p in cpoints]
    out.append(spec.seat_points(s) / POINTS_SCALE)
    out.append(spec.seat_crowns(s) / CROWNS_SCALE)
    out.append(max(cpoints) / COLOR_POINTS_SCALE)
    out.append(s["privileges"] / spec.PRIVILEGES)
    out.append(len(s["royals"]) / ROYALS_SCALE)
    out.append(len(s["cards"]) / CARDS_SCALE)
    out.append(len(s["reserved"]) / spec.MAX_RESERVED)
    need = [0] * 6
    candidates = [c for c in _pyramid_cards(position) if c >= 0]
    candidates += [c for c in _visible_reserves(position, seat, mover) if c is not None]
    for cid in candidates:
        if not _may_buy_kind(cid, bonus):
            continue
        lack = _lack(cid, bonus, tokens)
        if 1 <= sum(lack) - tokens[spec.GOLD] <= NEAR:
            for k in range(6):
                if lack[k] > 0:
                    need[k] += 1
    out += [n / NEED_SCALE for n in need]
    assert len(out) == SEAT
    return out


def _line_max(board: list[int]) -> list[float]:
    best = [0] * 6
    for line in spec.LINES:
        kinds = [board[c] for c in line]
        if all(0 <= k <= spec.PEARL for k in kinds):
            for k in range(6):
                best[k] = max(best[k], kinds.count(k))
    return [b / 3 for b in best]


def encode(position: dict) -> list[float]:
    """The NUM_FEATURES numbers for the seat to act (see the module's documentation)."""
    if position["phase"] == "over":
        raise ValueError("the game is over: no seat is to act")
    mover = position["current"]
    seats = (mover, 1 - mover)
    out: list[float] = []

    phase = [0.0] * 8
    phase[spec.PHASES.index(position["phase"])] = 1.0
    out += phase
    out.append(1.0 if position["extra_turn"] else 0.0)
    out.append(min(position["turn"], TURN_CAP) / TURN_CAP)
    out.append(position["privileges"] / spec.PRIVILEGES)
    out += [position["deck_sizes"][lv] / DECK_SCALE[lv] for lv in range(spec.LEVELS)]
    bag = spec.bag_contents(position)
    out += [bag[k] / KIND_TOTAL[k] for k in range(7)]
    pending = [0.0] * 6
    if position["pending_card"] is not None:
        c = spec.CARDS[position["pending_card"]]
        if c.color < 5:
            pending[c.color] = 1.0
        pending[5] = c.points / CARD_POINTS_SCALE
    out += pending

    board = [k for row in position["board"] for k in row]
    cells = [0.0] * (spec.CELLS * 7)
    for cell, k in enumerate(board):
        if k >= 0:
            cells[cell * 7 + k] = 1.0
    out += cells
    out += _line_max(board)

    for seat in seats:
        out += _seat_block(position, seat, mover)

    bonus = {i: spec.bonuses(position["seats"][i]) for i in seats}
    tokens = {i: position["seats"][i]["tokens"] for i in seats}
    for cid in _pyramid_cards(position):
        if cid < 0:
            out += [0.0] * SLOT
            continue
        out.append(1.0)
        out += _card(cid)
        for i in seats:
            out += _lack_pair(cid, bonus[i], tokens[i])

    for seat in seats:
        reserved = position["seats"][seat]["reserved"]
        visible = _visible_reserves(position, seat, mover)
        for j in range(spec.MAX_RESERVED):
            if j >= len(reserved):
                out += [0.0] * RESERVE
                continue
            level = reserved[j]["level"]
            card = visible[j]
            if card is None:
                out += [1.0, 1.0, level / 3] + [0.0] * (RESERVE - 3)
            else:
                out += [1.0, 0.0, level / 3] + _card(card) + _lack_pair(card, bonus[seat], tokens[seat])

    assert len(out) == NUM_FEATURES
    return out
