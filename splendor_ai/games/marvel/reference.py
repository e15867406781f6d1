"""Splendor: Marvel: the readable reference implementation of the rules.

This is the executable specification. It favours clarity over speed: the state is kept as
plain lists and dictionaries that mirror the position dictionary (docs/marvel.md), and every
rulebook clause (``/work/shared/rules/marvel.md``, the differences from ``base.md``) is one
small method whose docstring quotes it. The compiled core (``ext/marvel.pyx``) implements
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

import bisect
import copy
import itertools
import operator
import random

from ..errors import HiddenInformationError, IllegalActionError, PositionError
from ..state import TERMINAL
from . import spec

_MAIN, _RETURN, _LOCATION, _OVER = "main", "return", "location", "over"
_BOARD_TARGETS = spec.LEVELS * spec.SLOTS  # buy targets 0..11 are board slots, 12..14 reserves


class ReferenceState:
    """A Splendor: Marvel position and the rules that move it forward (the State protocol)."""

    game = spec.GAME

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        # Use ReferenceState.from_position; the fields mirror the position dictionary.
        self.players = 0
        self.start_seat = 0
        self.current = 0
        self._phase = _MAIN
        self.turn = 0
        self.final_round = False
        self.passes = 0
        self.supply: list[int] = []
        self.board: list[list[int]] = []
        self.decks: list[list[int]] | None = None  # bottom..top, top = last; None in a view
        self.deck_sizes: list[int] = []
        self.locations: list[int] = []  # location sides in play, in the order they lie
        self.avengers: int | None = None  # the seat holding the Avengers Assemble tile
        self.seats: list[dict] = []
        self.observer: int | None = None

    @classmethod
    def from_position(cls, pos: dict) -> "ReferenceState":
        """A state from an already validated, normalised position (spec.validate_position)."""
        s = cls()
        s.players = pos["players"]
        s.start_seat = pos["start_seat"]
        s.current = pos["current"]
        s._phase = pos["phase"]
        s.turn = pos["turn"]
        s.final_round = pos["final_round"]
        s.passes = pos["passes"]
        s.supply = list(pos["supply"])
        s.board = [list(row) for row in pos["board"]]
        s.decks = None if pos["decks"] is None else [list(d) for d in pos["decks"]]
        s.deck_sizes = list(pos["deck_sizes"])
        s.locations = list(pos["locations"])
        s.avengers = pos["avengers"]
        s.seats = [
            {
                "tokens": list(seat["tokens"]),
                "cards": list(seat["cards"]),
                "reserved": [
                    {"card": r["card"], "level": r["level"], "blind": r["blind"]}
                    for r in seat["reserved"]
                ],
                "locations": list(seat["locations"]),
            }
            for seat in pos["seats"]
        ]
        s.observer = pos["observer"]
        return s

    def to_position(self) -> dict:
        """The canonical position dictionary (fresh lists, nothing shared with the state)."""
        return {
            "game": spec.GAME,
            "players": self.players,
            "start_seat": self.start_seat,
            "current": self.current,
            "phase": self._phase,
            "turn": self.turn,
            "final_round": self.final_round,
            "passes": self.passes,
            "supply": list(self.supply),
            "board": [list(row) for row in self.board],
            "decks": None if self.decks is None else [list(d) for d in self.decks],
            "deck_sizes": list(self.deck_sizes),
            "locations": list(self.locations),
            "avengers": self.avengers,
            "seats": [
                {
                    "tokens": list(seat["tokens"]),
                    "cards": list(seat["cards"]),
                    "reserved": [dict(r) for r in seat["reserved"]],
                    "locations": list(seat["locations"]),
                }
                for seat in self.seats
            ],
            "observer": self.observer,
        }

    def clone(self) -> "ReferenceState":
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ simple queries
    def current_player(self) -> int:
        return TERMINAL if self._phase == _OVER else self.current

    def phase(self) -> str:
        return self._phase

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def bonuses(self, seat: int) -> list[int]:
        """'each with a bonus colour (one of the 5)': bonuses per colour."""
        b = [0] * 5
        for cid in self.seats[seat]["cards"]:
            b[spec.CARDS[cid].color] += 1
        return b

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

    def _seat(self) -> dict:
        return self.seats[self.current]

    def _last_seat(self) -> int:
        """'every player has had the same number of turns': the seat before the start seat
        plays the last turn of a round."""
        return (self.start_seat - 1) % self.players

    def _next_seat(self) -> int:
        return (self.current + 1) % self.players

    # ------------------------------------------------------------------ action 1: take 3 / fewer
    def _available_colours(self) -> list[int]:
        """The colours (never grey or green) with at least one token left in the supply."""
        return [c for c in range(5) if self.supply[c] >= 1]

    def _can_take_three_different(self, colours) -> bool:
        """'Take 3 tokens of 3 different colours (never grey or green).'"""
        return len(colours) == 3 and all(self.supply[c] >= 1 for c in colours)

    def _fewer_than_three_allowed(self) -> bool:
        """'if fewer than 3 colours are available, 2 or 1 of different colours.'"""
        return len(self._available_colours()) < 3

    def _can_take_fewer_different(self, colours) -> bool:
        """Two different colours or a single token, each available, only when fewer than 3
        colours are left (as in the base game, one token is allowed with two colours left)."""
        return self._fewer_than_three_allowed() and all(self.supply[c] >= 1 for c in colours)

    # ------------------------------------------------------------------ action 2: take 2 same
    def _take_two_same_allowed(self, colour: int) -> bool:
        """'Take 2 tokens of one colour (never grey or green), only if its pile held at least 4.'"""
        return self.supply[colour] >= 4

    def _take(self, colours) -> None:
        """The tokens go from the supply to the player."""
        seat = self._seat()
        for c in colours:
            self.supply[c] -= 1
            seat["tokens"][c] += 1

    # ------------------------------------------------------------------ action 3: reserve
    def _can_reserve(self) -> bool:
        """'at most 3 reserved'."""
        return len(self._seat()["reserved"]) < spec.MAX_RESERVED

    def _can_reserve_from_deck(self, level: int) -> bool:
        """A blind reserve from an empty deck is impossible (base game)."""
        return self.deck_sizes[level - 1] > 0

    def _reserve(self, card: int, level: int, blind: bool) -> None:
        """'Reserve a card (face up or blind from a deck top ...) and take 1 grey token if any
        is left.' Reserving a Time Stone card gives no green."""
        seat = self._seat()
        seat["reserved"].append({"card": card, "level": level, "blind": blind})
        if self.supply[spec.GREY] > 0:
            self.supply[spec.GREY] -= 1
            seat["tokens"][spec.GREY] += 1

    def _draw(self, level: int) -> int:
        """The top card of the deck of ``level`` leaves the deck (top = last element)."""
        if self.decks is None:
            raise HiddenInformationError(
                f"the top card of deck {level} is unknown in this view: call resample first"
            )
        self.deck_sizes[level - 1] -= 1
        return self.decks[level - 1].pop()

    def _replace_from_deck(self, level: int, slot: int) -> None:
        """'Same replacement rule as the base game': a face-up card that leaves is replaced at
        once from the deck of its level; an empty deck leaves the slot empty."""
        if self.deck_sizes[level - 1] > 0:
            self.board[level - 1][slot] = self._draw(level)
        else:
            self.board[level - 1][slot] = -1

    # ------------------------------------------------------------------ action 4: recruit
    def _price(self, card: int, seat: int) -> list[int]:
        """'bonuses reduce the cost' (never below 0)."""
        bonus = self.bonuses(seat)
        return [max(0, cost - b) for cost, b in zip(spec.CARDS[card].cost, bonus)]

    def _payment_variants(self, card: int, seat: int) -> list[int]:
        """'grey covers any shortfall; green can never pay.' As gold in the base game, grey
        may also replace stones the player holds: every variant v for which
        spec.payment(...) is not None."""
        price = self._price(card, seat)
        tokens = self.seats[seat]["tokens"]
        stones = [min(price[c], tokens[c]) for c in range(5)]
        shortfall = sum(price[c] - stones[c] for c in range(5))
        spare_grey = tokens[spec.GREY] - shortfall
        if spare_grey < 0:
            return []
        return sorted(
            spec.PAY_VARIANT_INDEX[extra]
            for extra in itertools.product(*(range(g + 1) for g in stones))
            if sum(extra) <= spare_grey
        )

    def _buy_target_card(self, target: int) -> int | None:
        """The card a buy target names: board slot (level-1)*4+slot, or own reserve 0..2."""
        if target < _BOARD_TARGETS:
            cid = self.board[target // spec.SLOTS][target % spec.SLOTS]
            return None if cid < 0 else cid
        reserved = self._seat()["reserved"]
        i = target - _BOARD_TARGETS
        return reserved[i]["card"] if i < len(reserved) else None

    def _pay(self, paid) -> None:
        """Paid tokens, grey included, go back to the supply."""
        seat = self._seat()
        for k in range(spec.KINDS):
            seat["tokens"][k] -= paid[k]
            self.supply[k] += paid[k]

    def _time_stone(self, card: int) -> None:
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

    def _recruit(self, target: int, variant: int) -> None:
        """'Recruit (buy) a face-up card or an own reserved card.'"""
        seat = self._seat()
        card = self._buy_target_card(target)
        paid = spec.payment(spec.CARDS[card].cost, self.bonuses(self.current), seat["tokens"], variant)
        self._pay(paid)
        bisect.insort(seat["cards"], card)  # a tableau is a set: kept sorted (canonical form)
        self._time_stone(card)
        if target < _BOARD_TARGETS:
            self._replace_from_deck(target // spec.SLOTS + 1, target % spec.SLOTS)
        else:
            del seat["reserved"][target - _BOARD_TARGETS]

    # ------------------------------------------------------------------ end of the turn
    def _token_limit_exceeded(self) -> bool:
        """'1. Token limit: more than 10 tokens (grey and green count) -> return tokens of the
        player's choice until 10.'"""
        return sum(self._seat()["tokens"]) > spec.TOKEN_LIMIT

    def _returnable(self) -> list[int]:
        """'Green can never be returned: the excess comes from the others.'"""
        tokens = self._seat()["tokens"]
        return [k for k in range(spec.KINDS) if k != spec.GREEN and tokens[k] > 0]

    def _avengers_assemble(self) -> bool:
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

    def _qualifying_locations(self) -> list[int]:
        """'3. Locations: if the player's bonuses meet one or more locations still in play'
        (in the order they lie)."""
        bonus = self.bonuses(self.current)
        return [
            lid for lid in self.locations
            if all(b >= r for b, r in zip(bonus, spec.LOCATIONS[lid].requires))
        ]

    def _take_location(self, lid: int) -> None:
        self.locations.remove(lid)  # the others keep their order
        bisect.insort(self._seat()["locations"], lid)  # a set: kept sorted (canonical form)

    def _location_visit(self) -> int:
        """'the player must take one (their choice among several), 3 points. At most one per
        turn. Not an action.' One qualifying location is taken at once; with several the seat
        chooses (phase "location"). Returns how many qualified."""
        qualifying = self._qualifying_locations()
        if len(qualifying) == 1:
            self._take_location(qualifying[0])
        return len(qualifying)

    def meets_gauntlet(self, seat: int) -> bool:
        """'at least 16 points, at least one bonus of each of the 5 colours, and a green token'."""
        return (
            self.points(seat) >= spec.GAUNTLET_POINTS
            and min(self.bonuses(seat)) >= 1
            and self.seats[seat]["tokens"][spec.GREEN] >= 1
        )

    def _gauntlet_trigger(self) -> None:
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

    def _end_of_turn(self, passed: bool = False) -> None:
        """'End of the turn (in this order)': token limit, Avengers Assemble, locations, end
        trigger. ``passed``: the main action of this turn was a pass."""
        if self._token_limit_exceeded():
            self._phase = _RETURN
            return
        tile = self._avengers_assemble()
        visiting = self._location_visit()
        if visiting >= 2:
            self._phase = _LOCATION
            return
        self._finish_turn(dead_turn=passed and not tile and visiting == 0)

    def _finish_turn(self, dead_turn: bool) -> None:
        """End trigger, then the turn is over: count passes, next seat or game over.

        ``passes`` counts the consecutive dead turns; when every seat in a row had one,
        nothing can change any more and the game is over, as in the base game.
        """
        self._gauntlet_trigger()
        self.passes = self.passes + 1 if dead_turn else 0
        self.turn += 1
        over = self._round_end()
        if over or self.passes == self.players:
            self._phase = _OVER
        else:
            self.current = self._next_seat()
            self._phase = _MAIN

    # ------------------------------------------------------------------ scoring
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
        fewest = min(len(self.seats[i]["cards"]) for i in tied)
        return [i for i in tied if len(self.seats[i]["cards"]) == fewest]

    def returns(self) -> list[float]:
        """1 for a win, 0 for a loss, a shared win split; all 0 until the game is over (and
        at an end where nobody meets the Gauntlet condition)."""
        if self._phase != _OVER:
            return [0.0] * self.players
        winners = self._winners()
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self.players)]

    # ------------------------------------------------------------------ legal actions
    def _hidden_reserve_check(self) -> None:
        """Recruiting needs the identity of the player's reserved cards."""
        for i, r in enumerate(self._seat()["reserved"]):
            if r["card"] is None:
                raise HiddenInformationError(
                    f"seat {self.current} holds a hidden reserved card (reserve {i}, level "
                    f"{r['level']}) whose purchase this view cannot judge: call resample first"
                )

    def _take_actions(self) -> list[int]:
        out = []
        for i, colours in enumerate(spec.TAKE3_SETS):
            if self._can_take_three_different(colours):
                out.append(spec.TAKE3 + i)
        if self._fewer_than_three_allowed():
            available = self._available_colours()
            for i, colours in enumerate(spec.TAKE2_DIFF_SETS):
                if len(available) == 2 and self._can_take_fewer_different(colours):
                    out.append(spec.TAKE2_DIFF + i)
            for c in available:
                out.append(spec.TAKE1 + c)
        for c in range(5):
            if self._take_two_same_allowed(c):
                out.append(spec.TAKE2_SAME + c)
        return out

    def _reserve_actions(self) -> list[int]:
        out = []
        if not self._can_reserve():
            return out
        for lv in range(spec.LEVELS):
            for slot in range(spec.SLOTS):
                if self.board[lv][slot] >= 0:
                    out.append(spec.RESERVE_BOARD + lv * spec.SLOTS + slot)
        for lv in range(spec.LEVELS):
            if self._can_reserve_from_deck(lv + 1):
                out.append(spec.RESERVE_DECK + lv)
        return out

    def _buy_actions(self, all_payments: bool) -> list[int]:
        self._hidden_reserve_check()
        out = []
        for target in range(spec.BUY_TARGETS):
            card = self._buy_target_card(target)
            if card is None:
                continue
            variants = self._payment_variants(card, self.current)
            if not all_payments:
                variants = [v for v in variants if v == 0]
            out.extend(spec.buy_action(target, v) for v in variants)
        return out

    def _main_actions(self, all_payments: bool = True) -> list[int]:
        """'Actions (one per turn)' -- and 'A player who can do nothing passes (explicit
        pass, as in the base game)', legal only in that case."""
        actions = self._take_actions() + self._reserve_actions() + self._buy_actions(all_payments)
        return sorted(actions) if actions else [spec.PASS]

    def legal_actions(self) -> list[int]:
        if self._phase == _MAIN:
            return self._main_actions()
        if self._phase == _RETURN:
            return [spec.RETURN + k for k in self._returnable()]
        if self._phase == _LOCATION:
            return sorted(spec.LOCATION + lid for lid in self._qualifying_locations())
        return []

    def search_actions(self) -> list[int]:
        """The legal actions with recruits paid the default way only (grey for the shortfall)."""
        if self._phase == _MAIN:
            return self._main_actions(all_payments=False)
        return self.legal_actions()

    # ------------------------------------------------------------------ applying an action
    def _describe(self, action) -> str:
        try:
            return self.action_to_string(action)
        except Exception:
            pass
        kind = spec.action_kind(action) if isinstance(action, int) else "invalid"
        if kind == "buy":
            target, variant = spec.split_buy(action)
            where = (
                f"board slot {target}" if target < _BOARD_TARGETS
                else f"reserve {target - _BOARD_TARGETS}"
            )
            card = None
            try:
                card = self._buy_target_card(target)
            except Exception:
                pass
            what = f"buy {card}" if card is not None else f"buy from {where}"
            return what + (f" (payment variant {variant})" if variant else "")
        if kind == "reserve_board":
            t = action - spec.RESERVE_BOARD
            return f"reserve board level {t // spec.SLOTS + 1} slot {t % spec.SLOTS}"
        return f"action {action!r}"

    def _why_illegal_main(self, action: int, kind: str) -> str | None:
        if kind == "return":
            return "not the 'return' phase"
        if kind == "location":
            return "not the 'location' phase (locations are taken at the end of the turn)"
        if kind.startswith("take"):
            colours = spec.taken_tokens(action)
            for c in set(colours):
                if self.supply[c] == 0:
                    return f"{spec.COLORS[c]} is empty"
            if kind == "take2same":
                c = colours[0]
                if not self._take_two_same_allowed(c):
                    return f"the {spec.COLORS[c]} pile holds {self.supply[c]}, taking 2 needs 4"
                return None
            if kind in ("take2diff", "take1") and not self._fewer_than_three_allowed():
                return "fewer than 3 tokens only when fewer than 3 colours are left"
            return None
        if kind in ("reserve_board", "reserve_deck"):
            if not self._can_reserve():
                return f"already {spec.MAX_RESERVED} reserved"
            if kind == "reserve_board":
                t = action - spec.RESERVE_BOARD
                if self.board[t // spec.SLOTS][t % spec.SLOTS] < 0:
                    return "that board slot is empty"
            elif not self._can_reserve_from_deck(action - spec.RESERVE_DECK + 1):
                return f"deck {action - spec.RESERVE_DECK + 1} is empty"
            return None
        if kind == "buy":
            target, variant = spec.split_buy(action)
            if target < _BOARD_TARGETS:
                if self._buy_target_card(target) is None:
                    return "that board slot is empty"
            else:
                i = target - _BOARD_TARGETS
                reserved = self._seat()["reserved"]
                if i >= len(reserved):
                    return f"seat {self.current} has no reserved card {i}"
                if reserved[i]["card"] is None:
                    self._hidden_reserve_check()
            card = self._buy_target_card(target)
            variants = self._payment_variants(card, self.current)
            if variant not in variants:
                if variant == 0 or not variants:
                    return "not affordable (green never pays)"
                return f"payment variant {variant} ({spec.PAY_VARIANTS[variant]} grey for stones) is impossible"
            return None
        # kind == "pass"
        if self._main_actions() != [spec.PASS]:
            return "pass is legal only when no other action is"
        return None

    def _why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not legal here, or None if it is. May raise
        HiddenInformationError when legality depends on a card this state does not know."""
        kind = spec.action_kind(action)
        if kind == "invalid":
            return f"not an action id (0..{spec.NUM_ACTIONS - 1})"
        if self._phase == _OVER:
            return "the game is over"
        if self._phase == _RETURN:
            if kind != "return":
                return f"seat {self.current} must first return tokens down to 10 (the 'return' phase)"
            k = action - spec.RETURN
            if k == spec.GREEN:
                return "green (the Time Stone) can never be returned"
            if self._seat()["tokens"][k] == 0:
                return f"seat {self.current} holds no {spec.TOKEN_NAMES[k]} token"
            return None
        if self._phase == _LOCATION:
            if kind != "location":
                return f"seat {self.current} must first choose a location (the 'location' phase)"
            lid = action - spec.LOCATION
            if lid not in self._qualifying_locations():
                return f"location {lid} is not in play or the bonuses do not meet its requirement"
            return None
        return self._why_illegal_main(action, kind)

    def _needs_hidden_card(self, action: int) -> str | None:
        """Whether applying this (legal) action draws a card this view does not know."""
        if self.decks is not None:
            return None
        kind = spec.action_kind(action)
        if kind == "reserve_deck":
            return f"a blind reserve draws the unknown top card of deck {action - spec.RESERVE_DECK + 1}"
        target = None
        if kind == "reserve_board":
            target = action - spec.RESERVE_BOARD
        elif kind == "buy":
            target = spec.split_buy(action)[0]
        if target is not None and target < _BOARD_TARGETS:
            level = target // spec.SLOTS + 1
            if self.deck_sizes[level - 1] > 0:
                return f"the slot is refilled with the unknown top card of deck {level}"
        return None

    def apply_action(self, action) -> None:
        """Play ``action``; IllegalActionError (state unchanged) if it is not legal."""
        if isinstance(action, bool):
            raise IllegalActionError(f"action {action!r}: an action is an integer id")
        try:
            action = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action {action!r}: an action is an integer id, not {type(action).__name__}"
            ) from None
        why = self._why_illegal(action)
        if why is not None:
            raise IllegalActionError(f"{self._describe(action)}: {why}")
        hidden = self._needs_hidden_card(action)
        if hidden is not None:
            raise HiddenInformationError(
                f"{self._describe(action)}: {hidden} in this view; call resample first"
            )
        kind = spec.action_kind(action)
        if self._phase == _RETURN:
            k = action - spec.RETURN
            self._seat()["tokens"][k] -= 1
            self.supply[k] += 1
            self._end_of_turn()
            return
        if self._phase == _LOCATION:
            self._take_location(action - spec.LOCATION)
            self._finish_turn(dead_turn=False)
            return
        # The main action.
        if kind.startswith("take"):
            self._take(spec.taken_tokens(action))
        elif kind == "reserve_board":
            t = action - spec.RESERVE_BOARD
            level, slot = t // spec.SLOTS + 1, t % spec.SLOTS
            card = self.board[level - 1][slot]
            self._replace_from_deck(level, slot)
            self._reserve(card, level, blind=False)
        elif kind == "reserve_deck":
            level = action - spec.RESERVE_DECK + 1
            self._reserve(self._draw(level), level, blind=True)
        elif kind == "buy":
            self._recruit(*spec.split_buy(action))
        self._end_of_turn(passed=kind == "pass")

    # ------------------------------------------------------------------ hidden information
    def view(self, seat: int) -> "ReferenceState":
        """This position as ``seat`` sees it: no deck order, no other seat's blind reserve."""
        self._check_seat(seat)
        return ReferenceState.from_position(spec.view_position(self.to_position(), seat))

    def resample(self, seat: int, rng: random.Random) -> "ReferenceState":
        """A full state: everything ``seat`` cannot see redrawn from the cards it has not seen.

        A view cannot be resampled for a seat whose own blind reserve it does not know."""
        self._check_seat(seat)
        return ReferenceState.from_position(spec.resample_position(self.to_position(), seat, rng))

    def _check_seat(self, seat) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise PositionError("seat", f"seat {seat!r} is out of range 0..{self.players - 1}")
        for i, r in enumerate(self.seats[seat]["reserved"]):
            if r["card"] is None:
                raise HiddenInformationError(
                    f"this is seat {self.observer}'s view: it does not know seat {seat}'s "
                    f"blind reserve {i}"
                )

    # ------------------------------------------------------------------ notation, display
    def action_to_string(self, action: int) -> str:
        return spec.action_to_string(self.to_position(), action)

    def string_to_action(self, text: str) -> int:
        return spec.string_to_action(self.to_position(), text)

    def __str__(self) -> str:
        text = spec.render_position(self.to_position())
        if self._phase == _OVER:
            text += "\nover, returns " + " ".join(f"{r:g}" for r in self.returns())
        return text

    def __repr__(self) -> str:
        return f"<ReferenceState marvel {self.players}p turn {self.turn} {self._phase}>"
