"""The one game interface every game implements, fully (see docs/architecture.md).

``State`` is a ``typing.Protocol``: the reference implementations (pure Python) and the
Cython cores are separate classes that both satisfy it; nothing inherits a method that
raises "not implemented".
"""
from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

TERMINAL = -1  # current_player() once the game is over


@runtime_checkable
class State(Protocol):
    game: str  # "base", "duel" or "marvel"

    @property
    def players(self) -> int: ...

    def current_player(self) -> int:
        """The seat to act (a seat acts in several phases of one turn); TERMINAL at the end."""

    def phase(self) -> str:
        """The phase of the turn: "main", then the game's own follow-up phases, or "over"."""

    def legal_actions(self) -> list[int]:
        """Every legal action id, sorted; PASS only when nothing else is legal."""

    def search_actions(self) -> list[int]:
        """The legal actions the search considers: all of them but equivalent payment variants
        (gold is spent only for the shortfall). Never empty before the end."""

    def apply_action(self, action: int) -> None:
        """Play ``action``. Raises IllegalActionError (a ValueError) with the reason and leaves
        the state unchanged; HiddenInformationError when the outcome depends on a card this
        state does not know (call ``resample`` first)."""

    def clone(self) -> "State": ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """Per seat: 1 for a win, 0 for a loss, a shared win split; all 0 until terminal."""

    def view(self, seat: int) -> "State":
        """This position as ``seat`` sees it: hidden cards unknown."""

    def resample(self, seat: int, rng: random.Random) -> "State":
        """A full state: everything ``seat`` cannot see redrawn from the cards it has not seen."""

    def action_to_string(self, action: int) -> str: ...

    def string_to_action(self, text: str) -> int: ...

    def to_position(self) -> dict:
        """The canonical position dictionary (docs/positions.md); ``Game.state_from_position``
        reads it back."""
