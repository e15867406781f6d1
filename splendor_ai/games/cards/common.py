"""What every game of the family shares: field checks, data files, card ids and the notation's
words, the hidden information of decks and blind reserves (a seat's view, the unseen pool,
resampling), and the parts of a readable reference that do not depend on the rules
(``ReferenceBase``)."""
from __future__ import annotations

import copy
import csv
import io
import operator
import random
from dataclasses import dataclass
from importlib import resources
from types import ModuleType
from typing import TYPE_CHECKING, Self

from ..errors import HiddenInformationError, IllegalActionError, NotationError, PositionError, UnavailableCardError
from ..state import TERMINAL


@dataclass(frozen=True)
class Card:
    """A card of a catalogue: its stable id (its row in the game's data/cards.csv), level 1..3,
    colour index, points and cost per kind. Each game's Card adds its own fields."""

    id: int
    level: int
    color: int
    points: int
    cost: tuple[int, ...]


def card_fields(i: int, row: dict, colours, cost_kinds) -> dict:
    """The common Card fields of row ``i`` of a cards.csv (``colours``: the names of the
    ``color`` column's values, in order; ``cost_kinds``: the cost columns, in order)."""
    return {"id": i, "level": int(row["level"]), "color": colours.index(row["color"]),
            "points": int(row["points"]), "cost": tuple(int(row[k]) for k in cost_kinds)}


# ---------------------------------------------------------------------------- field checks
def check_int(value, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, f"expected an integer, got {value!r}")
    if not lo <= value <= hi:
        raise PositionError(field, f"{value} is out of range {lo}..{hi}")
    return value


def check_list(value, field: str, length: int | None = None, max_len: int | None = None) -> list:
    if not isinstance(value, (list, tuple)):
        raise PositionError(field, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise PositionError(field, f"expected {length} entries, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise PositionError(field, f"at most {max_len} entries, got {len(value)}")
    return list(value)


def check_bool(value, field: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(field, f"expected true or false, got {value!r}")
    return value


def check_reserved(reserved, sf: str, seat: int, observer, cards, place, hidden: list[int]) -> list[dict]:
    """A seat's reserved cards (``sf``: the seat's field), normalised: a hidden card only in
    another seat's view and only blind (counted per level in ``hidden``), a known one placed
    with ``place(cid, field)``, its level its card's."""
    out = []
    for j, r in enumerate(check_list(reserved, f"{sf}.reserved", max_len=3)):
        rf = f"{sf}.reserved[{j}]"
        if not isinstance(r, dict) or "card" not in r:
            raise PositionError(rf, "expected {'card': id or null, 'level': 1..3, 'blind': bool}")
        blind = check_bool(r.get("blind", False), f"{rf}.blind")
        cid = r["card"]
        if cid is None:
            if not blind:
                raise PositionError(f"{rf}.card", "only a blind reserve can be hidden")
            if observer is None or observer == seat:
                raise PositionError(f"{rf}.card", "hidden, but this position is not another seat's view")
            lv = check_int(r.get("level"), f"{rf}.level", 1, 3)
            hidden[lv - 1] += 1
        else:
            place(cid, f"{rf}.card")
            lv = cards[cid].level
            if "level" in r and r["level"] != lv:
                raise PositionError(f"{rf}.level", f"card {cid} is of level {lv}")
        out.append({"card": cid, "level": lv, "blind": blind})
    return out


# ---------------------------------------------------------------------------- data and notation
def read_csv(package: str, name: str) -> list[dict[str, str]]:
    """The rows of ``data/<name>`` of a game's package."""
    data = resources.files(package).joinpath("data", name).read_bytes().decode("utf-8")
    return list(csv.DictReader(io.StringIO(data, newline="")))  # newline="": as csv asks of a file


def parse_card_id(text: str, n_cards: int) -> int:
    """A card id of the notation (0..n_cards-1); NotationError otherwise."""
    if not text.isdigit():
        raise NotationError(f"expected a card id (0..{n_cards - 1}), got {text!r}")
    cid = int(text)
    if cid >= n_cards:
        raise NotationError(f"card id {cid} is not in the catalogue (0..{n_cards - 1})")
    return cid


# ---------------------------------------------------------------------------- hidden cards
def check_knows_seat(position: dict, seat) -> None:
    """A view can stand for another seat only if it knows every card that seat sees."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < position["players"]:
        raise PositionError("seat", f"seat {seat!r} is out of range 0..{position['players'] - 1}")
    observer = position.get("observer")
    if observer is not None and observer != seat:
        if any(r["card"] is None for r in position["seats"][seat]["reserved"]):
            raise HiddenInformationError(
                f"this is seat {observer}'s view: it does not know the cards seat {seat} sees")


def plain_copy(value):
    """A deep copy of a position's plain data (dicts, lists, tuples of numbers, strings, None):
    what ``copy.deepcopy`` gives, without its memo (a position shares no object twice), in
    about half its time (a mover's view is made once or twice a request)."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return value


def hide_cards(position: dict, seat: int) -> dict:
    """A copy of ``position`` without what ``seat`` cannot see of the cards: no deck order, no
    other seat's blind reserve (its level only); ``observer`` set to ``seat``."""
    check_knows_seat(position, seat)
    out = plain_copy({k: v for k, v in position.items() if k != "decks"})
    out["decks"] = None
    for i, s in enumerate(out["seats"]):
        s["reserved"] = [
            r if (i == seat or not r["blind"]) else {"card": None, "level": r["level"], "blind": True}
            for r in s["reserved"]
        ]
    out["observer"] = seat
    return out


def unseen_cards(position: dict, seat: int, face_up, cards_by_level) -> list[list[int]]:
    """Per level, the cards ``seat`` has not seen (sorted): the pool hidden cards come from.
    ``face_up``: the rows of face-up cards (-1 for an empty place)."""
    seen: set[int] = set()
    for row in face_up:
        seen.update(c for c in row if c >= 0)
    for i, s in enumerate(position["seats"]):
        seen.update(s["cards"])
        for r in s["reserved"]:
            if r["card"] is not None and (i == seat or not r["blind"]):
                seen.add(r["card"])
    return [[c for c in level if c not in seen] for level in cards_by_level]


def redraw_cards(position: dict, seat: int, rng: random.Random, face_up, cards_by_level) -> dict:
    """A copy of ``position`` with the cards ``seat`` cannot see redrawn from those it has not
    seen: other seats' blind reserves (keeping their level), then each deck (keeping its
    size); ``observer`` cleared."""
    check_knows_seat(position, seat)
    out = copy.deepcopy(position)
    pools = unseen_cards(position, seat, face_up, cards_by_level)
    for p in pools:
        rng.shuffle(p)
    for i, s in enumerate(out["seats"]):
        for r in s["reserved"]:
            if i != seat and r["blind"]:
                pool = pools[r["level"] - 1]
                if not pool:
                    raise PositionError(f"seats[{i}].reserved", "more hidden cards than unseen cards")
                r["card"] = pool.pop()
    for lv, pool in enumerate(pools):
        if len(pool) != position["deck_sizes"][lv]:
            raise PositionError(
                f"deck_sizes[{lv}]",
                f"deck of level {lv + 1} holds {position['deck_sizes'][lv]} cards but "
                f"{len(pool)} level-{lv + 1} cards are unaccounted for")
    out["decks"] = pools
    out["observer"] = None
    return out


# ---------------------------------------------------------------------------- notation
def named_card(cid: int | None, action: int, why: str) -> int:
    """The card an action names (for its notation), or NotationError: ``action`` ``why``."""
    if cid is None:
        raise NotationError(f"action {action} {why}")
    return cid


def words_of(text) -> tuple[str, list[str]]:
    """A move string's verb and its arguments (lower case); NotationError for no words."""
    if not isinstance(text, str):
        raise NotationError(f"a move is a string, got {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty move")
    return words[0], words[1:]


def buy_target(position: dict, cid: int, face_up: int | None, first_reserve: int, where: str) -> int:
    """The buy target of card ``cid``: its face-up target (``face_up``, or None when it is not
    face up), else ``first_reserve`` + its index in the mover's reserve; UnavailableCardError
    (a NotationError) naming ``where`` the face-up cards lie when it is in neither."""
    target = face_up
    for i, r in enumerate(position["seats"][position["current"]]["reserved"]):
        if r["card"] == cid:
            target = first_reserve + i
    if target is None:
        raise UnavailableCardError(f"card {cid} is neither {where} nor reserved by the player to move")
    return target


def action_name(position: dict, action: int, kind: str, num_actions: int, to_string) -> tuple[str, str | None]:
    """For explain_illegal: (the action's notation, None), or ("", the reason) when the id is
    out of range, the game is over or the action cannot be written in this position."""
    if kind == "invalid":
        return "", f"action id {action} is outside 0..{num_actions - 1}"
    if position["phase"] == "over":
        return "", "the game is over"
    try:
        return to_string(position, action), None
    except NotationError as exc:
        return "", str(exc)


# ---------------------------------------------------------------------------- the readable rules
def action_id(action) -> int:
    """``action`` as an action id, or IllegalActionError (a bool, a float, a string...)."""
    if isinstance(action, bool):
        raise IllegalActionError(f"action {action!r}: an action is an integer id")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(
            f"action {action!r}: an action is an integer id, not {type(action).__name__}") from None


class ReferenceBase:
    """What every game's readable reference (its ReferenceState) shares: the simple queries,
    views and resampling through the spec's positions, the notation, the drawing. A subclass
    sets ``spec`` (its game's spec module) and keeps ``_phase``, ``current``, ``turn``."""

    spec: ModuleType
    players: int
    if TYPE_CHECKING:  # what each game's ReferenceState defines
        @classmethod
        def from_position(cls, pos: dict) -> Self: ...
        def to_position(self) -> dict: ...
        def returns(self) -> list[float]: ...

    def _read_turn(self, pos: dict) -> None:
        """From a position: the start seat, the seat to act, the phase, the turn, the decks
        (None in a view) and their sizes, the observer."""
        self.start_seat, self.current, self._phase, self.turn = (
            pos["start_seat"], pos["current"], pos["phase"], pos["turn"])
        self.decks = None if pos["decks"] is None else [list(d) for d in pos["decks"]]
        self.deck_sizes = list(pos["deck_sizes"])
        self.observer = pos["observer"]

    def clone(self):
        return copy.deepcopy(self)

    def current_player(self) -> int:
        return TERMINAL if self._phase == "over" else self.current

    def phase(self) -> str:
        return self._phase

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def view(self, seat: int):
        """This position as ``seat`` sees it (the spec's view_position)."""
        position = self.to_position()
        check_knows_seat(position, seat)
        return type(self).from_position(self.spec.view_position(position, seat))

    def resample(self, seat: int, rng: random.Random):
        """A full state: everything ``seat`` cannot see redrawn (the spec's resample_position).
        A view cannot be resampled for a seat whose own blind reserve it does not know."""
        position = self.to_position()
        check_knows_seat(position, seat)
        return type(self).from_position(self.spec.resample_position(position, seat, rng))

    def action_to_string(self, action: int) -> str:
        return self.spec.action_to_string(self.to_position(), action)

    def string_to_action(self, text: str) -> int:
        return self.spec.string_to_action(self.to_position(), text)

    def __str__(self) -> str:
        text = self.spec.render_position(self.to_position())
        if self.is_terminal():
            text += "\nover, returns " + " ".join(f"{r:g}" for r in self.returns())
        return text

    def __repr__(self) -> str:
        return f"<ReferenceState {self.spec.GAME} {self.players}p turn {self.turn} {self._phase}>"
