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

GAUNTLET_POINTS = 16
AVENGERS_ICONS = 3  # icons needed to take the Avengers Assemble tile first
AVENGERS_POINTS = 3
LOCATION_POINTS = 3
GREY_COUNT = 5
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
class Card(common.Card):  # colour 0..4, cost per colour
    avengers: int  # Avengers icons, 0..2
    time_stone: bool
    name: str


@dataclass(frozen=True)
class Location:
    id: int  # 2 * (tile - 1) + side
    tile: int  # 1..4
    side: str  # "A" or "B" (our own labels)
    points: int
    requires: tuple[int, ...]  # per colour
    name: str


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
    rows = _with_names(read_csv(__package__, "cards.csv"), read_csv(__package__, "cards_with_names.csv"), "cards")
    return tuple(
        Card(**common.card_fields(i, row, COLORS, COLORS), avengers=int(row["avengers"]),
             time_stone=row["time_stone"] == "1", name=row["name"])
        for i, row in enumerate(rows)
    )


def _load_locations() -> tuple[Location, ...]:
    rows = _with_names(read_csv(__package__, "locations.csv"), read_csv(__package__, "locations_with_names.csv"),
                       "locations")
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
assert len(LOCATIONS) == 2 * TILES


def tile_of(location: int) -> int:
    """The tile (0..3) a location side id belongs to."""
    return location // 2


# ---------------------------------------------------------------------------- action ids
# 0..44 take and reserve (cards/spec.py), then RETURN + kind (7 ids: green's exists but is
# never legal):
LOCATION = 52  # 8 ids: take location side <id> (when several qualify)
PASS = 60  # nothing else is legal
BUY = 61  # 15 targets x PAY_VARIANTS: target 0..11 board (level-1)*4+slot, 12..14 reserve index

RULES = _cards.CardGameSpec(
    game=GAME, title="Splendor: Marvel", colours=COLORS, token_names=TOKEN_NAMES, letters=LETTERS,
    wild=GREY, pay_letters=LETTERS[:5] + LETTERS[GREY], cards=CARDS, pass_id=PASS, buy_id=BUY,
    own=_cards.Own("location", LOCATION, tuple(loc.requires for loc in LOCATIONS),
                   choose="choose a location",
                   unavailable="that location is not in play or the seat's bonuses do not meet it"),
    short_of="bonuses, stones and grey fall short; green never pays",
    letter_notes={LETTERS[GREEN]: " (green, the Time Stone, is never taken and never pays)",
                  LETTERS[GREY]: " (grey is never taken: reserving gives one)"},
    return_notes={GREEN: "green (the Time Stone) can never be returned"},
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
assert N_PAY == 252 and PAY_VARIANTS[0] == (0, 0, 0, 0, 0)


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


def initial_position(players: int, seed: int | None = None) -> dict:
    """A shuffled initial position (the deal), as a full position dictionary.

    Deterministic for a given seed; both implementations start from this same deal. The
    decks are shuffled as in the base game; then ``players`` of the 4 location tiles are
    drawn at random, each on a random side.
    """
    rng, pos = RULES.deal(players, seed)
    tiles = list(range(TILES))
    rng.shuffle(tiles)
    locations = [2 * t + rng.randrange(2) for t in tiles[: locations_in_play(players)]]
    pos.update(supply=token_totals(players), locations=locations, avengers=None, observer=None,
               seats=[{"tokens": [0] * KINDS, "cards": [], "reserved": [], "locations": []}
                      for _ in range(players)])
    return _ordered(pos)


def _ordered(pos: dict) -> dict:
    keys = ("game", "players", "start_seat", "current", "phase", "turn", "final_round", "passes",
            "supply", "board", "decks", "deck_sizes", "locations", "avengers", "seats", "observer")
    return {k: pos[k] for k in keys}




# ---------------------------------------------------------------------------- validation
def _place_location(places: _cards.Places, lid, where: str) -> None:
    """A location side in one place; the other side of its tile in none."""
    check_int(lid, where, 0, len(LOCATIONS) - 1)
    tile = tile_of(lid)
    if tile in places.pieces:
        raise PositionError(
            where, f"location {lid} is a side of tile {tile + 1}, which is also at {places.pieces[tile]}")
    places.pieces[tile] = where


def _seat_locations(seat: dict, raw: dict, i: int, places: _cards.Places) -> dict:
    """A seat's green token and locations: each location in one place, met by its bonuses."""
    sf = f"seats[{i}]"
    # 'the first card with the Time Stone icon ... gives 1 green': green is never spent nor
    # returned, and the supply holds one green per seat, so the two go together.
    has_stone = any(CARDS[c].time_stone for c in seat["cards"])
    if seat["tokens"][GREEN] and not has_stone:
        raise PositionError(f"{sf}.tokens[{GREEN}]", "a green token, but no card with the Time Stone icon")
    if has_stone and not seat["tokens"][GREEN]:
        raise PositionError(f"{sf}.tokens[{GREEN}]", "a card with the Time Stone icon, but no green token")
    locations = check_list(raw["locations"], f"{sf}.locations")
    bonus = bonuses(seat["cards"])
    for j, lid in enumerate(locations):
        f = f"{sf}.locations[{j}]"
        _place_location(places, lid, f)
        if any(b < r for b, r in zip(bonus, LOCATIONS[lid].requires)):
            raise PositionError(f, f"location {lid} needs bonuses this seat does not have")
    return {**seat, "locations": sorted(locations)}  # a set: listed sorted


def _check_avengers(avengers, seats: list[dict], phase: str, current: int) -> None:
    """The tile goes to the first seat with 3+ icons at the end of its turn, and moves only to
    a seat with strictly more: after every completed turn-end step 2, nobody has more icons
    than the holder (nobody has 3 with no holder). Only the seat to act, before that step (in
    its 'return' phase), may be ahead."""
    counts = [icons(s["cards"]) for s in seats]
    if avengers is not None and counts[avengers] < AVENGERS_ICONS:
        raise PositionError("avengers",
                            f"seat {avengers} holds the tile with {counts[avengers]} Avengers icons (3 needed)")
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
    return _ordered(RULES.validate(position, token_totals, locations_in_play, _place_location, _seat_locations,
                                   token_max=lambda totals: [1 if k == GREEN else totals[k] for k in range(KINDS)],
                                   own_fields=_avengers_field, finish=_check_tile_and_trigger))


def _avengers_field(out: dict, position: dict) -> None:
    out["avengers"] = position.get("avengers")
    if out["avengers"] is not None:
        check_int(out["avengers"], "avengers", 0, out["players"] - 1)


def _check_tile_and_trigger(out: dict) -> None:
    """The Avengers tile and the final round must be ones the rules can reach."""
    _check_avengers(out["avengers"], out["seats"], out["phase"], out["current"])
    if out["final_round"] and not any(_could_have_triggered(out, i) for i in range(out["players"])):
        raise PositionError(
            "final_round", "set, but no seat has met the Infinity Gauntlet condition "
            "(16 points, every colour, a green token)")


def render_position(position: dict) -> str:
    """A compact text drawing of a position (no colours; a terminal UI draws its own)."""
    def location(lid):
        return f"<{lid} {RULES.cost_text(LOCATIONS[lid].requires)}>"

    def seat_text(i, s):
        return seat_points(position, i), (
            f"  icons {icons(s['cards'])}"
            + (f"  locations {s['locations']}" if s["locations"] else "")
            + ("  GAUNTLET" if meets_gauntlet(position, i) else ""))

    header = [
        "locations: " + (" ".join(location(lid) for lid in position["locations"]) or "-"),
        "avengers tile: " + ("-" if position["avengers"] is None else f"seat {position['avengers']}"),
    ]
    return RULES.render(position, header, lambda c: "A" * c.avengers + ("T" if c.time_stone else ""), seat_text)
