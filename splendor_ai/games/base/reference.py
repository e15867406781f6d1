"""Splendor (base game): the readable reference implementation of the rules.

This is the executable specification. It favours clarity over speed: the state is kept as
plain lists and dictionaries that mirror the position dictionary (docs/positions.md), and
every rulebook clause (``/work/shared/rules/base.md``) is one small method whose docstring
quotes it. The compiled core (``ext/base.pyx``) implements the same rules fast; a parity
test compares the two action by action.

Everything the two implementations share -- the catalogue, the action-id layout, the
payment variants, the notation and the position format -- comes from ``spec``; the clauses
the base game shares with Marvel (taking, reserving, buying, paying, returns, nobles' visits,
hidden cards) are those of ``games/cards/reference.py``. This module adds the base game's
own: the score, the end trigger and the winners.

A turn is a sequence of actions by one seat: the main action (take, reserve, buy or pass),
then, if needed, returns (phase "return") and a noble choice (phase "noble"). The end of
the turn is, in this order: token limit, noble visit, end trigger, next seat.

Two points the rulebook leaves open, settled here (and in the core) as follows:
- ``passes`` counts consecutive *dead* turns: a pass during which no noble visited. When
  every seat in a row had one, nothing can change any more and the game is over.
- A seat's bought cards and nobles are sets: they are listed sorted (the canonical form
  ``spec.validate_position`` produces), not in the order they were gained.
"""
from __future__ import annotations

from ..cards.reference import CardGameReference
from . import spec


class ReferenceState(CardGameReference):
    """A Splendor position and the rules that move it forward (the State protocol)."""

    game = spec.GAME
    spec = spec

    @property
    def nobles(self) -> list[int]:
        """The nobles still revealed, in the order they lie."""
        return self.pieces

    def points(self, seat: int) -> int:
        """'Score = points of bought cards + 3 per noble.'"""
        s = self.seats[seat]
        return sum(spec.CARDS[c].points for c in s["cards"]) + sum(
            spec.NOBLES[n].points for n in s["nobles"]
        )

    def _end_trigger(self) -> None:
        """'End trigger. If the player now has 15 or more points, the game ends after the
        current round.'"""
        if self.points(self.current) >= spec.WINNING_POINTS:
            self.final_round = True

    def _winners(self) -> list[int]:
        """'Highest score wins. Tie: among the tied players, the one with the fewest bought
        development cards wins. Still tied: those players share the victory.'"""
        best = max(self.points(i) for i in range(self.players))
        return self._fewest_cards([i for i in range(self.players) if self.points(i) == best])
