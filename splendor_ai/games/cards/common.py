"""What every game of the family shares: field checks, data files, card ids, and the hidden
information of decks and blind reserves (a seat's view, the unseen pool, resampling)."""
from __future__ import annotations

import copy
import csv
import random
from importlib import resources

from ..errors import HiddenInformationError, NotationError, PositionError


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


# ---------------------------------------------------------------------------- data and notation
def read_csv(package: str, name: str) -> list[dict[str, str]]:
    """The rows of ``data/<name>`` of a game's package."""
    with resources.files(package).joinpath("data", name).open(newline="") as f:
        return list(csv.DictReader(f))


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


def hide_cards(position: dict, seat: int) -> dict:
    """A copy of ``position`` without what ``seat`` cannot see of the cards: no deck order, no
    other seat's blind reserve (its level only); ``observer`` set to ``seat``."""
    check_knows_seat(position, seat)
    out = copy.deepcopy(position)
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
    seen = set()
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
