"""Splendor (base game): what both implementations share.

The catalogue, the layout of the dense action ids, the payment-variant table, the canonical
move notation, the position dictionary (its validation and the initial deal) all live here,
once, so that the readable reference (``reference.py``) and the Cython core
(``ext/base.pyx``) cannot disagree about anything but the rules themselves, which the
parity test compares.

See ``docs/notation.md`` for the notation and ``docs/positions.md`` for the position format.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import common
from ..cards import spec as _cards
from ..cards.common import check_int, check_list, read_csv
from ..cards.spec import (  # noqa: F401  (the shared layout, exported as this game's)
    BUY_TARGETS, LEVELS, MAX_RESERVED, PLAYER_COUNTS, RESERVE_BOARD, RESERVE_DECK, RETURN, SLOTS,
    TAKE1, TAKE2_DIFF, TAKE2_DIFF_SETS, TAKE2_SAME, TAKE3, TAKE3_SETS, TOKEN_LIMIT, buy_target_card,
    last_seat, taken_tokens,
)
from ..errors import PositionError

GAME = "base"

# ---------------------------------------------------------------------------- components
COLORS = ("white", "blue", "green", "red", "black")
GOLD = 5
TOKEN_NAMES = COLORS + ("gold",)
# One letter per token kind, in the game's colour order, gold last.
LETTERS = "wugrky"
WHITE, BLUE, GREEN, RED, BLACK = range(5)

WINNING_POINTS = 15
NOBLE_POINTS = 3
GOLD_COUNT = 5
GEMS_PER_COLOR = {2: 4, 3: 5, 4: 7}


def nobles_revealed(players: int) -> int:
    return players + 1


Card = common.Card  # colour 0..4, cost per colour


@dataclass(frozen=True)
class Noble:
    id: int
    points: int
    requires: tuple[int, ...]  # per colour


def _load_cards() -> tuple[Card, ...]:
    return tuple(Card(**common.card_fields(i, row, COLORS, COLORS))
                 for i, row in enumerate(read_csv(__package__, "cards.csv")))


def _load_nobles() -> tuple[Noble, ...]:
    return tuple(
        Noble(id=i, points=int(row["points"]), requires=tuple(int(row[c]) for c in COLORS))
        for i, row in enumerate(read_csv(__package__, "nobles.csv"))
    )


# Stable ids: a card's id is its row in data/cards.csv (0..89), a noble's its row in
# data/nobles.csv (0..9). Frontends map their own card objects to these once.
CARDS: tuple[Card, ...] = _load_cards()
NOBLES: tuple[Noble, ...] = _load_nobles()

# ---------------------------------------------------------------------------- action ids
# 0..44 take and reserve (cards/spec.py), then RETURN + kind (6 ids: 5 colours, gold):
NOBLE = 51  # 10 ids: take noble <id> (when several qualify)
PASS = 61  # nothing else is legal
BUY = 62  # 15 targets x PAY_VARIANTS: target 0..11 board (level-1)*4+slot, 12..14 reserve index

RULES = _cards.CardGameSpec(
    game=GAME, title="Splendor", colours=COLORS, token_names=TOKEN_NAMES, letters=LETTERS,
    wild=GOLD, pay_letters=LETTERS, cards=CARDS, pass_id=PASS, buy_id=BUY,
    own=_cards.Own("noble", NOBLE, tuple(n.requires for n in NOBLES),
                   choose="choose a visiting noble", unavailable="that noble is not available to this seat"),
    short_of="bonuses, gems and gold fall short",
    letter_notes={LETTERS[GOLD]: " (gold is never taken: reserving gives one)"},
)
# The shared rules' tables and functions, named here (explicitly, so that readers, linters and
# the type checker see them): CARDS_BY_LEVEL, PAY_VARIANTS (how many wild tokens replace the
# colours a player would otherwise pay, per colour; variant 0 the shortfall only),
# PAY_VARIANT_INDEX, N_PAY, NUM_ACTIONS, PHASES, and the functions below (docs/notation.md).
CARDS_BY_LEVEL = RULES.cards_by_level
PAY_VARIANTS = RULES.pay_variants
PAY_VARIANT_INDEX = RULES.pay_variant_index
N_PAY = RULES.n_pay
NUM_ACTIONS = RULES.num_actions
PHASES = RULES.phases
buy_action = RULES.buy_action
split_buy = RULES.split_buy
action_kind = RULES.action_kind
payment = RULES.payment
payment_variant = RULES.payment_variant
bonuses = RULES.bonuses
action_to_string = RULES.action_to_string
FIXED_NOTATION = RULES.fixed_notation  # the notation of each action whose text is the same in every position
string_to_action = RULES.string_to_action
view_position = RULES.view_position
unseen_cards = RULES.unseen_cards
resample_position = RULES.resample_position
explain_illegal = RULES.explain_illegal
assert len(CARDS) == 90 and [len(x) for x in CARDS_BY_LEVEL] == [40, 30, 20]
assert len(NOBLES) == 10
assert N_PAY == 252 and PAY_VARIANTS[0] == (0, 0, 0, 0, 0)


def seat_points(seat: dict) -> int:
    return sum(CARDS[c].points for c in seat["cards"]) + NOBLE_POINTS * len(seat["nobles"])


# ---------------------------------------------------------------------------- positions
def initial_position(players: int, seed: int | None = None) -> dict:
    """A shuffled initial position (the deal), as a full position dictionary.

    Deterministic for a given seed; both implementations start from this same deal.
    """
    rng, pos = RULES.deal(players, seed)
    noble_ids = list(range(len(NOBLES)))
    rng.shuffle(noble_ids)
    gems = GEMS_PER_COLOR[players]
    pos["supply"] = [gems] * 5 + [GOLD_COUNT]
    pos["nobles"] = noble_ids[: nobles_revealed(players)]
    pos["seats"] = [{"tokens": [0] * 6, "cards": [], "reserved": [], "nobles": []} for _ in range(players)]
    pos["observer"] = None
    return _ordered(pos)


def _ordered(pos: dict) -> dict:
    keys = ("game", "players", "start_seat", "current", "phase", "turn", "final_round", "passes",
            "supply", "board", "decks", "deck_sizes", "nobles", "seats", "observer")
    return {k: pos[k] for k in keys}


def validate_position(position) -> dict:
    """Check a position dictionary; return a normalised copy or raise PositionError(field, why).

    Checks that every field has the right type and range, that tokens and cards are
    conserved (every card in exactly one place, every token in the supply or with a seat),
    that the phase is consistent with the seat to act, and that hidden parts are hidden
    consistently. Derived figures (bonuses, points) are never read from the input.
    """
    return _ordered(RULES.validate(position, lambda n: [GEMS_PER_COLOR[n]] * 5 + [GOLD_COUNT], nobles_revealed,
                                   _place_noble, _seat_nobles, finish=_check_final_round))


def _seat_nobles(seat: dict, raw: dict, i: int, places: _cards.Places) -> dict:
    """A seat's nobles: each in one place, each met by the seat's bonuses; listed sorted."""
    snobles = check_list(raw["nobles"], f"seats[{i}].nobles")
    for j, nid in enumerate(snobles):
        f = f"seats[{i}].nobles[{j}]"
        _place_noble(places, nid, f)
        if any(b < r for b, r in zip(bonuses(seat["cards"]), NOBLES[nid].requires)):
            raise PositionError(f, f"noble {nid} needs bonuses this seat does not have")
    return {**seat, "nobles": sorted(snobles)}


def _check_final_round(out: dict) -> None:
    if out["final_round"] and not any(seat_points(s) >= WINNING_POINTS for s in out["seats"]):
        raise PositionError("final_round", "set, but no seat has 15 points")


def _place_noble(places: _cards.Places, nid, where: str) -> None:
    check_int(nid, where, 0, len(NOBLES) - 1)
    if nid in places.pieces:
        raise PositionError(where, f"noble {nid} is also at {places.pieces[nid]}")
    places.pieces[nid] = where


def render_position(position: dict) -> str:
    """A compact text drawing of a position (no colours; the terminal UI draws its own)."""
    nobles = " ".join(f"<{nid} {RULES.cost_text(NOBLES[nid].requires)}>" for nid in position["nobles"])
    return RULES.render(
        position, ["nobles: " + nobles], lambda card: "",
        lambda i, s: (seat_points(s), f"  nobles {s['nobles']}" if s["nobles"] else ""))
