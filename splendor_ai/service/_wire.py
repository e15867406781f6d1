"""Small helpers the per-game converters share: token messages, enum checks, error paths.

Nothing here knows a game; each converter (convert_base, convert_duel, convert_marvel) passes
its own token field names and letters.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from .errors import FieldError

Message = TypeVar("Message")
Enum = TypeVar("Enum")

MAX_TOKENS_IN_MOVE = 10  # of one kind in a structured move (a take is 3 tokens, a payment at most 7 a kind)


def tokens(cls: type[Message], fields: tuple[str, ...], counts) -> Message:
    """A token message of class ``cls`` with one count per field, in order."""
    return cls(**{fields[k]: int(n) for k, n in enumerate(counts)})


class FixedMoves:
    """The Move message of each move that is the same in every position (a spec's FIXED_NOTATION:
    takes, returns, deck reserves, ...), made once by ``make(action)`` and copied out after, so a
    call encoding many such moves builds none of them."""

    def __init__(self, fixed_notation: dict[int, str], make: Callable[[int], Any]):
        self._fixed = fixed_notation
        self._make = make
        self._made: dict[int, Any] = {}

    def get(self, action: int):
        """A fresh copy of the move's message, or None for a move that depends on the position."""
        made = self._made.get(action)
        if made is None:
            if action not in self._fixed:
                return None
            made = self._made.setdefault(action, self._make(action))
        out = type(made)()
        out.CopyFrom(made)
        return out


def enum(cls: type[Enum], number: int) -> Enum:
    """The value numbered ``number`` of the wire enum ``cls``: what an enum field holds (the
    generated stubs type such a field as the enum or its name only)."""
    return cast(Enum, number)


def counts(msg, fields: tuple[str, ...]) -> list[int]:
    return [getattr(msg, name) for name in fields]


def letters(msg, fields: tuple[str, ...], alphabet: str, field: str) -> str:
    """The token letters a token message of a structured move stands for (count-checked)."""
    out = []
    for k, name in enumerate(fields):
        n = getattr(msg, name)
        if not 0 <= n <= MAX_TOKENS_IN_MOVE:
            raise FieldError(f"{field}.{name}", f"a token count is 0..{MAX_TOKENS_IN_MOVE}, got {n}")
        out.append(alphabet[k] * n)
    return "".join(out)


def one_letter(msg, fields: tuple[str, ...], alphabet: str, field: str, what: str) -> str:
    text = letters(msg, fields, alphabet, field)
    if len(text) != 1:
        raise FieldError(field, f"{what}: exactly one token, not {len(text)}")
    return text


def phase(value: int, names: dict, enum_names: str, field: str) -> str:
    """The position dictionary's phase for a Phase enum value (unset or unknown: FieldError)."""
    if value not in names:
        what = "unspecified" if value == 0 else f"unknown value {value}"
        raise FieldError(field, f"{what}: {enum_names}")
    return names[value]


def require(msg, name: str, field: str) -> None:
    if not msg.HasField(name):
        raise FieldError(f"{field}.{name}", "missing")


def reserved_in(entries) -> list[dict]:
    out = []
    for r in entries:
        entry = {"card": r.card if r.HasField("card") else None, "blind": r.blind}
        if r.level:
            entry["level"] = r.level
        out.append(entry)
    return out


def token_paths(text: str, keys: str, fields: tuple[str, ...]) -> str:
    """``supply[3]`` -> ``supply.red`` for the token-list keys ``keys`` (a regex alternation)."""
    return re.sub(rf"\b({keys})\[(\d)\]", lambda m: f"{m[1]}.{fields[int(m[2])]}", text)


def card_grid_paths(text: str, keys: str) -> str:
    """``board[2][1]`` -> ``board[2].cards[1]`` and ``board[2]`` -> ``board[2].cards`` for the
    lists of card rows ``keys`` (BoardRow and Deck messages)."""
    text = re.sub(rf"\b({keys})\[(\d+)\]\[(\d+)\]", r"\1[\2].cards[\3]", text)
    return re.sub(rf"\b({keys})\[(\d+)\](?![\[.])", r"\1[\2].cards", text)


def set_card(move, cards, cid: int) -> None:
    """A structured move's card and its level (a reserve or a buy)."""
    move.card, move.level = cid, cards[cid].level

