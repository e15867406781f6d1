"""Splendor: Marvel: the readable reference implementation of the rules.

This is the executable specification. It favours clarity over speed: the state is kept as
plain lists and dictionaries that mirror the position dictionary (docs/marvel.md), and every
rulebook clause (``/work/shared/rules/marvel.md``, the differences from ``base.md``) is one
small method whose docstring quotes it: here Marvel's own (the score, the Time Stone, the
Avengers tile, the Infinity Gauntlet, the winners); the clauses it shares with the base game
(taking, reserving, recruiting and paying, returns, locations as nobles) are those of
``games/cards/reference.py``. The compiled core (``ext/marvel.pyx``) implements
the same rules fast; a parity test compares the two action by action.

Everything the two implementations share -- the catalogue, the action-id layout, the
payment variants, the notation and the position format -- comes from ``spec``.

A turn is a sequence of actions by one seat: the main action (take, reserve, recruit or
pass), then, if needed, returns (phase "return") and a location choice (phase "location").
The end of the turn is, in this order: token limit, Avengers Assemble, location, Infinity
Gauntlet trigger, then the end of the round or the next seat.

Points the rules leave open, settled here (and in the core) as follows (docs/marvel.md):
- ``passes`` counts consecutive *dead* turns: a pass after which neither a location nor the
  Avengers tile came to the seat. When every seat in a row had one, nothing can change any
  more and the game is over.
- The undone trigger: at the end of the last seat's turn in a final round, if nobody meets
  the Gauntlet condition any more, ``final_round`` is cleared and play goes on.
- A game that ends with nobody meeting the condition (only a dead position can) has no
  winner: every seat's return is 0.
- A seat's recruited cards and locations are sets: they are listed sorted.
"""
from __future__ import annotations

from ..cards.reference import CardGameReference
from . import spec


class ReferenceState(CardGameReference):
    """A Splendor: Marvel position and the rules that move it forward (the State protocol)."""

    game = spec.GAME
    spec = spec
    KEYS = ("avengers",)
    NOT_AFFORDABLE = "not affordable (green never pays)"

    @property
    def locations(self) -> list[int]:
        """The location sides in play, in the order they lie."""
        return self.pieces

    @property
    def avengers(self) -> int | None:
        """The seat holding the Avengers Assemble tile."""
        return self.extra["avengers"]

    @avengers.setter
    def avengers(self, seat: int | None) -> None:
        self.extra["avengers"] = seat

    def icons(self, seat: int) -> int:
        """'0-2 Avengers icons' per card: the seat's total."""
        return sum(spec.CARDS[cid].avengers for cid in self.seats[seat]["cards"])

    def points(self, seat: int) -> int:
        """Card points, 3 per location, 3 for the Avengers Assemble tile."""
        s = self.seats[seat]
        return (
            sum(spec.CARDS[c].points for c in s["cards"])
            + sum(spec.LOCATIONS[lid].points for lid in s["locations"])
            + (spec.AVENGERS_POINTS if self.avengers == seat else 0)
        )

    def _gained(self, card: int) -> None:
        """'Time Stone: when a player recruits their first card with the Time Stone icon (from
        the board or from their reserve), they take 1 green token. Never more than 1 green per
        player.' (From the supply, if one is left.)"""
        seat = self._seat()
        if not spec.CARDS[card].time_stone:
            return
        first = not any(spec.CARDS[c].time_stone for c in seat["cards"] if c != card)
        if first and seat["tokens"][spec.GREEN] == 0 and self.supply[spec.GREEN] > 0:
            self.supply[spec.GREEN] -= 1
            seat["tokens"][spec.GREEN] += 1

    def _before_pieces(self) -> bool:
        """'2. Avengers Assemble: the first player with 3 or more Avengers icons on their
        cards takes the tile (3 points). Later, a player with strictly more icons than the
        holder takes it from the holder; a tie leaves it where it is.' Returns whether the
        tile came to the seat."""
        mine = self.icons(self.current)
        if self.avengers == self.current:
            return False
        if self.avengers is None:
            takes = mine >= spec.AVENGERS_ICONS
        else:
            takes = mine > self.icons(self.avengers)
        if takes:
            self.avengers = self.current
        return takes

    def meets_gauntlet(self, seat: int) -> bool:
        """'at least 16 points, at least one bonus of each of the 5 colours, and a green token'."""
        return (
            self.points(seat) >= spec.GAUNTLET_POINTS
            and min(self.bonuses(seat)) >= 1
            and self.seats[seat]["tokens"][spec.GREEN] >= 1
        )

    def _end_trigger(self) -> None:
        """'4. End trigger (the Infinity Gauntlet): a player who [meets the condition]
        triggers the end. The round is finished so that every player has had the same number
        of turns.'"""
        if self.meets_gauntlet(self.current):
            self.final_round = True

    def _round_end(self) -> bool:
        """At the end of the last seat's turn in a final round: 'if the trigger comes on the
        last seat's turn, the game ends at once' -- the game ends if someone meets the
        condition. 'Special case: ... Then the game goes on (the trigger is undone) unless
        another player meets the condition in the same round': nobody meets it any more, so
        final_round is cleared and play continues. Returns whether the game is over."""
        if not (self.final_round and self.current == self._last_seat()):
            return False
        if any(self.meets_gauntlet(i) for i in range(self.players)):
            return True
        self.final_round = False
        return False

    def _winners(self) -> list[int]:
        """'Only players who meet the Gauntlet condition when the game ends can win. Among
        them: most points; then the holder of the Avengers Assemble tile; then fewest recruited
        cards; still tied: shared victory.' Nobody meeting it: nobody wins."""
        eligible = [i for i in range(self.players) if self.meets_gauntlet(i)]
        if not eligible:
            return []
        best = max(self.points(i) for i in eligible)
        tied = [i for i in eligible if self.points(i) == best]
        if self.avengers in tied:
            return [self.avengers]
        return self._fewest_cards(tied)
