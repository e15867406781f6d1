"""The shared vocabulary of reasons: the closed list of codes, the ``Reason`` value and the one
function that makes the English sentence of a reason (``sentence``), as the move notation is
made in one place.

A reason is a claim about a position and a move, made from what the mover can see. Its
``code`` is a name from ``CODES`` (the closed list, in order of importance: game-deciding
first; docs/reasons.md gives each code's exact meaning, subjects, sentence and an example);
its subjects say what the claim is about:

=========  ======================================================================
card       a card id of the game's catalogue (the notation's card ids)
piece      base: a noble id; Duel: a royal card id; Marvel: a location id
seat       a seat (an opponent, or the seat that held the Avengers tile)
colour     a token kind index in the game's token order (the five colours first)
points     prestige points (gained, held, or more than another card)
turns      the mover's turns until it can buy a card (0: this turn, 1: its next turn)
count      a number: tokens, crowns, privileges, cards, a win probability in percent
move       only in ``explain_mistake``: the move (notation) the reason is about
=========  ======================================================================

``Reason.to_dict`` / ``Reason.from_dict`` are the stable machine form (JSON): the code's name
and the subjects that are set.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from ..games.base import spec as _base
from ..games.duel import spec as _duel
from ..games.marvel import spec as _marvel

ALL = ("base", "duel", "marvel")
CARD_GAMES = ("base", "marvel")


@dataclass(frozen=True)
class Code:
    """One code of the closed list: its name, the games it applies to, whether it speaks for
    the move (``good``: something the move achieves for the mover) or against it (something
    it allows or gives up), and the subjects a reason of this code carries."""

    name: str
    games: tuple[str, ...]
    good: bool
    subjects: tuple[str, ...]


# The closed list, in order of importance (game-deciding first). The order is part of the
# contract: the wire's enum numbers the codes 1, 2, ... in this order (0: unspecified).
CODES: tuple[Code, ...] = (
    Code("WINS_GAME", ALL, True, ("points", "count", "colour")),
    Code("LOSES_GAME", CARD_GAMES, False, ()),
    Code("BLOCKS_OPPONENT_WIN", ALL, True, ("seat", "card")),
    Code("LETS_OPPONENT_WIN", ALL, False, ("seat", "card")),
    Code("TRIGGERS_END", CARD_GAMES, True, ("points",)),
    Code("COMPLETES_NOBLE", ("base",), True, ("piece", "points")),
    Code("COMPLETES_LOCATION", ("marvel",), True, ("piece", "points")),
    Code("TAKES_AVENGERS", ("marvel",), True, ("points", "seat")),
    Code("GAINS_ROYAL", ("duel",), True, ("count",)),
    Code("EXTRA_TURN", ("duel",), True, ()),
    Code("SCORES", ALL, True, ("points", "card", "piece", "count")),
    Code("COLOUR_POINTS", ("duel",), True, ("colour", "points")),
    Code("CROWNS", ("duel",), True, ("count",)),
    Code("GAINS_TIME_STONE", ("marvel",), True, ()),
    Code("COMPLETES_COLOURS", ("marvel",), True, ()),
    Code("DENIES_CARD", ALL, True, ("seat", "card")),
    Code("OPPONENT_CAN_BUY", ALL, False, ("seat", "card", "points")),
    Code("NEAR_NOBLE", ("base",), True, ("piece", "colour")),
    Code("NEAR_LOCATION", ("marvel",), True, ("piece", "colour")),
    Code("GIVES_PRIVILEGE", ("duel",), False, ("seat", "count")),
    Code("GAINS_PRIVILEGE", ("duel",), True, ("count",)),
    Code("NEEDED_BONUS", ALL, True, ("colour", "count")),
    Code("TOWARD_CARD", ALL, True, ("card", "turns")),
    Code("CLOSER_TO_CARD", ALL, True, ("card", "count")),
    Code("PLANS_BUY", ALL, True, ("card", "turns")),
    Code("PASSES_FREE_BUY", ALL, False, ("card",)),
    Code("BETTER_BUY_PASSED", ALL, False, ("card", "points")),
    Code("TAKES_LAST_TOKENS", CARD_GAMES, True, ("colour", "seat", "card")),
    Code("OVER_TOKEN_LIMIT", ALL, False, ("count",)),
    Code("RETURNS_LEAST_NEEDED", ALL, True, ("colour", "count")),
    Code("SEARCH_BEST", ALL, True, ("count",)),
)
BY_NAME: dict[str, Code] = {c.name: c for c in CODES}
RANK: dict[str, int] = {c.name: i for i, c in enumerate(CODES)}
SUBJECTS = ("card", "piece", "seat", "colour", "points", "turns", "count", "move")


class ReasonError(ValueError):
    """A reason that is not of the closed list, or a malformed machine form."""


@dataclass(frozen=True)
class Reason:
    """A claim about the move in its position: a code of the closed list and its subjects."""

    code: str
    card: int | None = None
    piece: int | None = None
    seat: int | None = None
    colour: int | None = None
    points: int | None = None
    turns: int | None = None
    count: int | None = None
    move: str | None = None

    def __post_init__(self):
        if self.code not in BY_NAME:
            raise ReasonError(f"unknown reason code {self.code!r}")
        for name in SUBJECTS[:-1]:
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ReasonError(f"{self.code}: {name} must be an integer or None, got {value!r}")
        if self.move is not None and not isinstance(self.move, str):
            raise ReasonError(f"{self.code}: move must be a string or None, got {self.move!r}")

    @property
    def good(self) -> bool:
        """Whether the reason speaks for the move (else it is something the move allows or gives up)."""
        return BY_NAME[self.code].good

    @property
    def rank(self) -> int:
        """The code's place in the closed list: its importance (0 first)."""
        return RANK[self.code]

    def subjects(self) -> dict:
        """The subjects that are set (the move excepted)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("code", "move") and getattr(self, f.name) is not None}

    def without_move(self) -> "Reason":
        return Reason(self.code, **self.subjects())

    def with_move(self, move: str | None) -> "Reason":
        return Reason(self.code, **self.subjects(), move=move)

    def to_dict(self) -> dict:
        """The machine form: ``{"code": name, subject: value, ...}``, only the subjects set."""
        out = {"code": self.code, **self.subjects()}
        if self.move is not None:
            out["move"] = self.move
        return out

    @classmethod
    def from_dict(cls, data) -> "Reason":
        if not isinstance(data, dict) or "code" not in data:
            raise ReasonError(f"a reason is a dict with a 'code', got {data!r}")
        unknown = set(data) - {"code", *SUBJECTS}
        if unknown:
            raise ReasonError(f"unknown reason fields {sorted(unknown)}")
        return cls(**data)

    def __str__(self) -> str:
        return self.code + "(" + ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if k != "code") + ")"


# ---------------------------------------------------------------------------- the English sentence
_SPECS = {"base": _base, "duel": _duel, "marvel": _marvel}
PIECE_WORDS = {"base": "noble", "duel": "royal card", "marvel": "location"}


# The subjects of a Reason are optional (one made by ``Reason.from_dict`` may lack one its code
# names): a missing one is written as it is, "card None", never a TypeError.
def _card(game: str, cid: int | None) -> str:
    if game == "marvel" and cid is not None and 0 <= cid < len(_marvel.CARDS):
        return f"card {cid} ({_marvel.CARDS[cid].name})"
    return f"card {cid}"


def _piece(game: str, pid: int | None) -> str:
    if game == "marvel" and pid is not None and 0 <= pid < len(_marvel.LOCATIONS):
        return f"location {pid} ({_marvel.LOCATIONS[pid].name})"
    return f"{PIECE_WORDS[game]} {pid}"


def _token(game: str, kind: int | None) -> str:
    names = _SPECS[game].TOKEN_NAMES
    return names[kind] if kind is not None and 0 <= kind < len(names) else f"token kind {kind}"


def _points(n: int | None) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _body(r: Reason, game: str) -> str:
    c, seat = r.code, f"seat {r.seat}"
    if c == "WINS_GAME":
        if r.colour is not None:
            return f"wins the game: {r.points} points in {_token(game, r.colour)} cards"
        if r.count is not None:
            return f"wins the game: {r.count} crowns"
        return f"wins the game with {_points(r.points)}" if r.points is not None else "wins the game"
    if c == "LOSES_GAME":
        return "ends the game without winning it"
    if c == "BLOCKS_OPPONENT_WIN":
        return f"takes {_card(game, r.card)}, with which {seat} could win next turn"
    if c == "LETS_OPPONENT_WIN":
        return f"lets {seat} buy {_card(game, r.card)} and win next turn"
    if c == "TRIGGERS_END":
        if game == "marvel":
            return (f"meets the Infinity Gauntlet condition ({_points(r.points)}, every colour, a Time Stone): "
                    "the final round begins")
        return f"reaches {_points(r.points)}: the final round begins"
    if c in ("COMPLETES_NOBLE", "COMPLETES_LOCATION"):
        return f"completes {_piece(game, r.piece)} (+{_points(r.points)})"
    if c == "TAKES_AVENGERS":
        return "takes the Avengers Assemble tile" + (f" from {seat}" if r.seat is not None else "") + \
            f" (+{_points(r.points)})"
    if c == "GAINS_ROYAL":
        return f"reaches {r.count} crowns: a royal card is due"
    if c == "EXTRA_TURN":
        return "earns an extra turn"
    if c == "SCORES":
        what = _card(game, r.card) if r.card is not None else _piece(game, r.piece)
        return f"scores {_points(r.points)} with {what} ({r.count} in all)"
    if c == "COLOUR_POINTS":
        return f"brings its {_token(game, r.colour)} cards to {_points(r.points)} (10 in one colour win)"
    if c == "CROWNS":
        return f"brings its crowns to {r.count} (10 win; a royal card at 3 and at 6)"
    if c == "GAINS_TIME_STONE":
        return "takes the green Time Stone token (the Infinity Gauntlet needs one)"
    if c == "COMPLETES_COLOURS":
        return "holds a bonus of every colour now (the Infinity Gauntlet needs them)"
    if c == "DENIES_CARD":
        return f"takes {_card(game, r.card)}, which {seat} could buy next turn"
    if c == "OPPONENT_CAN_BUY":
        return f"leaves {_card(game, r.card)} ({_points(r.points)}) for {seat} to buy next turn"
    if c in ("NEAR_NOBLE", "NEAR_LOCATION"):
        return f"comes within one card of {_piece(game, r.piece)} (one more {_token(game, r.colour)})"
    if c == "GIVES_PRIVILEGE":
        return f"gives {seat} a privilege ({r.count} held)"
    if c == "GAINS_PRIVILEGE":
        return f"gains a privilege ({r.count} held)"
    if c == "NEEDED_BONUS":
        colour = _token(game, r.colour)
        cards = f"{r.count} visible card costs" if r.count == 1 else f"{r.count} visible cards cost"
        return f"gains {'an' if colour[0] in 'aeiou' else 'a'} {colour} bonus: {cards} less"
    if c == "TOWARD_CARD":
        if r.turns == 0:
            return f"makes {_card(game, r.card)} affordable this turn"
        if r.turns == 1:
            return f"makes {_card(game, r.card)} affordable next turn"
        return f"brings {_card(game, r.card)} within {r.turns} turns (if the tokens stay)"
    if c == "CLOSER_TO_CARD":
        return f"works toward {_card(game, r.card)} ({r.count} token{'s' if r.count != 1 else ''} short)"
    if c == "PLANS_BUY":
        return f"the search's line buys {_card(game, r.card)} next turn"
    if c == "PASSES_FREE_BUY":
        return f"passes up {_card(game, r.card)}, free to buy"
    if c == "BETTER_BUY_PASSED":
        return f"passes up {_card(game, r.card)}: {_points(r.points).replace(' ', ' more ', 1)} for no more tokens"
    if c == "TAKES_LAST_TOKENS":
        return f"takes the last {_token(game, r.colour)} tokens, which {seat} needs for {_card(game, r.card)}"
    if c == "OVER_TOKEN_LIMIT":
        where = "to the bag" if game == "duel" else "back"
        return f"takes {r.count} token{'s' if r.count != 1 else ''} over the limit of 10: they go {where}"
    if c == "RETURNS_LEAST_NEEDED":
        return f"returns {_token(game, r.colour)}, the token the fewest visible cards need ({r.count})"
    if c == "SEARCH_BEST":
        return f"the search's choice (win {r.count} %)"
    raise ReasonError(f"no sentence for {c}")  # pragma: no cover - every code has one


def sentence(reason: Reason, game: str) -> str:
    """The canonical English sentence of ``reason`` in ``game`` ("base", "duel", "marvel"):
    cards and pieces as the notation names them (Marvel's with their names). A reason about a
    named move (``explain_mistake``) starts with that move: "buy 84 completes noble 3 (+3 points)"."""
    if game not in _SPECS:
        raise ReasonError(f"unknown game {game!r}")
    body = _body(reason, game)
    return f"{reason.move} {body}" if reason.move else body


def sentences(reasons, game: str, limit: int | None = None) -> str:
    """Several reasons (Reason or their dicts) as one line, "; " between them."""
    out = [sentence(r if isinstance(r, Reason) else Reason.from_dict(r), game) for r in reasons]
    return "; ".join(out[:limit] if limit else out)
