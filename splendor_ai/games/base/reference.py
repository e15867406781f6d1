"""Splendor (base game): the readable reference implementation of the rules.

This is the executable specification. It favours clarity over speed: the state is kept as
plain lists and dictionaries that mirror the position dictionary (docs/positions.md), and
every rulebook clause (``/work/shared/rules/base.md``) is one small method whose docstring
quotes it. The compiled core (``ext/base.pyx``) implements the same rules fast; a parity
test compares the two action by action.

Everything the two implementations share -- the catalogue, the action-id layout, the
payment variants, the notation and the position format -- comes from ``spec``.

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

import bisect
import copy
import itertools
import operator
import random

from ..errors import HiddenInformationError, IllegalActionError, PositionError
from ..state import TERMINAL
from . import spec

_MAIN, _RETURN, _NOBLE, _OVER = "main", "return", "noble", "over"
_BOARD_TARGETS = spec.LEVELS * spec.SLOTS  # buy targets 0..11 are board slots, 12..14 reserves


class ReferenceState:
    """A Splendor position and the rules that move it forward (the State protocol)."""

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
        self.nobles: list[int] = []
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
        s.nobles = list(pos["nobles"])
        s.seats = [
            {
                "tokens": list(seat["tokens"]),
                "cards": list(seat["cards"]),
                "reserved": [
                    {"card": r["card"], "level": r["level"], "blind": r["blind"]}
                    for r in seat["reserved"]
                ],
                "nobles": list(seat["nobles"]),
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
            "nobles": list(self.nobles),
            "seats": [
                {
                    "tokens": list(seat["tokens"]),
                    "cards": list(seat["cards"]),
                    "reserved": [dict(r) for r in seat["reserved"]],
                    "nobles": list(seat["nobles"]),
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
        """'The card ... gives a permanent bonus of its colour': bonuses per colour."""
        b = [0] * 5
        for cid in self.seats[seat]["cards"]:
            b[spec.CARDS[cid].color] += 1
        return b

    def points(self, seat: int) -> int:
        """'Score = points of bought cards + 3 per noble.'"""
        s = self.seats[seat]
        return sum(spec.CARDS[c].points for c in s["cards"]) + sum(
            spec.NOBLES[n].points for n in s["nobles"]
        )

    def _seat(self) -> dict:
        return self.seats[self.current]

    def _last_seat(self) -> int:
        """'the player to the right of the start player -- the last seat -- plays the last turn'"""
        return (self.start_seat - 1) % self.players

    def _next_seat(self) -> int:
        """'play goes clockwise (seat 0, 1, 2, ...)'"""
        return (self.current + 1) % self.players

    # ------------------------------------------------------------------ action 1: take 3 / fewer
    def _available_colours(self) -> list[int]:
        """The colours (never gold) with at least one token left in the supply."""
        return [c for c in range(5) if self.supply[c] >= 1]

    def _can_take_three_different(self, colours) -> bool:
        """'Take 3 gems of 3 different colours (never gold).'"""
        return len(colours) == 3 and all(self.supply[c] >= 1 for c in colours)

    def _fewer_than_three_allowed(self) -> bool:
        """'If fewer than 3 colours have a token left in the supply, the player may take 2 of
        different colours, or 1. Taking fewer than 3 is allowed only in that case.'"""
        return len(self._available_colours()) < 3

    def _can_take_fewer_different(self, colours) -> bool:
        """'... the player may take 2 of different colours, or 1': two different colours or
        a single token, each available, only when fewer than 3 colours are left. Taken
        literally, one token is allowed even when two colours are left."""
        return (
            self._fewer_than_three_allowed()
            and all(self.supply[c] >= 1 for c in colours)
        )

    # ------------------------------------------------------------------ action 2: take 2 same
    def _take_two_same_allowed(self, colour: int) -> bool:
        """'Take 2 gems of one colour (never gold) -- only if that colour's pile holds at
        least 4 tokens before taking.'"""
        return self.supply[colour] >= 4

    def _take(self, colours) -> None:
        """The tokens go from the supply to the player."""
        seat = self._seat()
        for c in colours:
            self.supply[c] -= 1
            seat["tokens"][c] += 1

    # ------------------------------------------------------------------ action 3: reserve
    def _can_reserve(self) -> bool:
        """'A player may hold at most 3 reserved cards; with 3 this action is not available.'"""
        return len(self._seat()["reserved"]) < spec.MAX_RESERVED

    def _can_reserve_from_deck(self, level: int) -> bool:
        """'A blind reserve from an empty deck is impossible.'"""
        return self.deck_sizes[level - 1] > 0

    def _reserve(self, card: int, level: int, blind: bool) -> None:
        """'Reserve a card and take 1 gold ... The player takes 1 gold if any is left;
        reserving is still allowed when no gold is left.'"""
        seat = self._seat()
        seat["reserved"].append({"card": card, "level": level, "blind": blind})
        if self.supply[spec.GOLD] > 0:
            self.supply[spec.GOLD] -= 1
            seat["tokens"][spec.GOLD] += 1

    def _draw(self, level: int) -> int:
        """The top card of the deck of ``level`` leaves the deck (top = last element)."""
        if self.decks is None:
            raise HiddenInformationError(
                f"the top card of deck {level} is unknown in this view: call resample first"
            )
        self.deck_sizes[level - 1] -= 1
        return self.decks[level - 1].pop()

    def _replace_from_deck(self, level: int, slot: int) -> None:
        """'Whenever a face-up card is reserved or bought, it is replaced at once from the deck
        of its level. An empty deck leaves the slot empty for the rest of the game.'"""
        if self.deck_sizes[level - 1] > 0:
            self.board[level - 1][slot] = self._draw(level)
        else:
            self.board[level - 1][slot] = -1

    # ------------------------------------------------------------------ action 4: buy
    def _price(self, card: int, seat: int) -> list[int]:
        """'The price is the card's cost minus the player's bonuses of each colour (never
        below 0).'"""
        bonus = self.bonuses(seat)
        return [max(0, cost - b) for cost, b in zip(spec.CARDS[card].cost, bonus)]

    def _payment_variants(self, card: int, seat: int) -> list[int]:
        """'The rest is paid with tokens of that colour, and gold covers any shortfall ...
        Gold may also be paid for a gem the player holds: the split between gems and gold is
        the player's choice.' Every variant v for which spec.payment(...) is not None.

        Per colour the player pays min(price, held) gems and gold for the rest (the
        shortfall); variant v replaces PAY_VARIANTS[v][c] of those gems by gold, which is
        possible while the gold held covers the shortfall plus the replacements.
        """
        price = self._price(card, seat)
        tokens = self.seats[seat]["tokens"]
        gems = [min(price[c], tokens[c]) for c in range(5)]
        shortfall = sum(price[c] - gems[c] for c in range(5))
        spare_gold = tokens[spec.GOLD] - shortfall
        if spare_gold < 0:
            return []
        variants = [
            spec.PAY_VARIANT_INDEX[extra]
            for extra in itertools.product(*(range(g + 1) for g in gems))
            if sum(extra) <= spare_gold
        ]
        return sorted(variants)

    def _buy_target_card(self, target: int) -> int | None:
        """The card a buy target names: board slot (level-1)*4+slot, or own reserve 0..2."""
        if target < _BOARD_TARGETS:
            cid = self.board[target // spec.SLOTS][target % spec.SLOTS]
            return None if cid < 0 else cid
        reserved = self._seat()["reserved"]
        i = target - _BOARD_TARGETS
        return reserved[i]["card"] if i < len(reserved) else None

    def _pay(self, paid) -> None:
        """'Paid tokens, gold included, go back to the supply.'"""
        seat = self._seat()
        for k in range(6):
            seat["tokens"][k] -= paid[k]
            self.supply[k] += paid[k]

    def _buy(self, target: int, variant: int) -> None:
        """'Buy a card: a face-up card, or one of the player's own reserved cards ... The card
        goes to the player's tableau.'"""
        seat = self._seat()
        card = self._buy_target_card(target)
        paid = spec.payment(
            spec.CARDS[card].cost, self.bonuses(self.current), seat["tokens"], variant
        )
        self._pay(paid)
        bisect.insort(seat["cards"], card)  # a tableau is a set: kept sorted (canonical form)
        if target < _BOARD_TARGETS:
            self._replace_from_deck(target // spec.SLOTS + 1, target % spec.SLOTS)
        else:
            del seat["reserved"][target - _BOARD_TARGETS]

    # ------------------------------------------------------------------ end of the turn
    def _token_limit_exceeded(self) -> bool:
        """'Token limit. A player holding more than 10 tokens (gold counts) returns tokens of
        their choice ... until holding 10. This is the player's decision.'"""
        return sum(self._seat()["tokens"]) > spec.TOKEN_LIMIT

    def _qualifying_nobles(self) -> list[int]:
        """'If the player's bonuses (cards only, never tokens) meet the requirement of one or
        more revealed nobles ...' (in the order they lie)."""
        bonus = self.bonuses(self.current)
        return [
            nid
            for nid in self.nobles
            if all(b >= r for b, r in zip(bonus, spec.NOBLES[nid].requires))
        ]

    def _take_noble(self, nid: int) -> None:
        self.nobles.remove(nid)  # the others keep their order
        bisect.insort(self._seat()["nobles"], nid)  # a set: kept sorted (canonical form)

    def _noble_visit(self) -> int:
        """'Nobles ... the player takes one of them (their choice if several). Visits are
        compulsory, are not an action, and happen at most once per turn.'

        One qualifying noble visits at once; with several the seat chooses (phase "noble").
        Returns how many qualified.
        """
        qualifying = self._qualifying_nobles()
        if len(qualifying) == 1:
            self._take_noble(qualifying[0])
        return len(qualifying)

    def _end_trigger(self) -> None:
        """'End trigger. If the player now has 15 or more points, the game ends after the
        current round.'"""
        if self.points(self.current) >= spec.WINNING_POINTS:
            self.final_round = True

    def _game_over(self) -> bool:
        """'play continues until every player has had the same number of turns (... the last
        seat -- plays the last turn)'; and when every seat in a row had a dead turn (see
        _finish_turn) nothing can change any more: the game is over too."""
        if self.final_round and self.current == self._last_seat():
            return True
        return self.passes == self.players

    def _end_of_turn(self, passed: bool = False) -> None:
        """'End of the turn (in this order)': token limit, nobles, end trigger.

        ``passed``: the main action of this turn was a pass.
        """
        if self._token_limit_exceeded():
            self._phase = _RETURN
            return
        visiting = self._noble_visit()
        if visiting >= 2:
            self._phase = _NOBLE
            return
        self._finish_turn(dead_turn=passed and visiting == 0)

    def _finish_turn(self, dead_turn: bool) -> None:
        """End trigger, then the turn is over: count passes, next seat or game over.

        ``passes`` counts the consecutive dead turns: a pass in which no noble visited
        changed nothing. A pass with a noble visit (or a noble choice) counts as a real turn.
        """
        self._end_trigger()
        self.passes = self.passes + 1 if dead_turn else 0
        self.turn += 1
        if self._game_over():
            self._phase = _OVER
        else:
            self.current = self._next_seat()
            self._phase = _MAIN

    # ------------------------------------------------------------------ scoring
    def _winners(self) -> list[int]:
        """'Highest score wins. Tie: among the tied players, the one with the fewest bought
        development cards wins. Still tied: those players share the victory.'"""
        best = max(self.points(i) for i in range(self.players))
        tied = [i for i in range(self.players) if self.points(i) == best]
        fewest = min(len(self.seats[i]["cards"]) for i in tied)
        return [i for i in tied if len(self.seats[i]["cards"]) == fewest]

    def returns(self) -> list[float]:
        """1 for a win, 0 for a loss, a shared win split; all 0 until the game is over."""
        if self._phase != _OVER:
            return [0.0] * self.players
        winners = self._winners()
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self.players)]

    # ------------------------------------------------------------------ legal actions
    def _hidden_reserve_check(self) -> None:
        """Buying needs the identity of the player's reserved cards."""
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
        """'A turn: exactly one of four actions' -- and 'If a player can do none of the four
        actions ... the player passes', an explicit pass legal only in that case."""
        actions = self._take_actions() + self._reserve_actions() + self._buy_actions(all_payments)
        return sorted(actions) if actions else [spec.PASS]

    def legal_actions(self) -> list[int]:
        if self._phase == _MAIN:
            return self._main_actions()
        if self._phase == _RETURN:
            tokens = self._seat()["tokens"]
            return [spec.RETURN + k for k in range(6) if tokens[k] > 0]
        if self._phase == _NOBLE:
            return sorted(spec.NOBLE + nid for nid in self._qualifying_nobles())
        return []

    def search_actions(self) -> list[int]:
        """The legal actions with buys paid the default way only (gold for the shortfall)."""
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
            if self._seat()["tokens"][k] == 0:
                return f"seat {self.current} holds no {spec.TOKEN_NAMES[k]} token"
            return None
        if self._phase == _NOBLE:
            if kind != "noble":
                return f"seat {self.current} must first choose a visiting noble (the 'noble' phase)"
            nid = action - spec.NOBLE
            if nid not in self._qualifying_nobles():
                return f"noble {nid} is not revealed or the bonuses do not meet its requirement"
            return None
        # The 'main' phase.
        if kind == "return":
            return "not the 'return' phase"
        if kind == "noble":
            return "not the 'noble' phase (nobles visit at the end of the turn)"
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
            if kind in ("take2diff", "take1"):
                if not self._fewer_than_three_allowed():
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
            if variant not in self._payment_variants(card, self.current):
                if variant == 0 or not self._payment_variants(card, self.current):
                    return "not affordable"
                return f"payment variant {variant} ({spec.PAY_VARIANTS[variant]} gold for gems) is impossible"
            return None
        # kind == "pass"
        if self._main_actions() != [spec.PASS]:
            return "pass is legal only when no other action is"
        return None

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
        if self._phase == _NOBLE:
            self._take_noble(action - spec.NOBLE)
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
            self._buy(*spec.split_buy(action))
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

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: int) -> str:
        return spec.action_to_string(self.to_position(), action)

    def string_to_action(self, text: str) -> int:
        return spec.string_to_action(self.to_position(), text)

    # ------------------------------------------------------------------ display
    @staticmethod
    def _tokens_str(counts) -> str:
        return " ".join(f"{spec.LETTERS[k]}{n}" for k, n in enumerate(counts) if n) or "-"

    @staticmethod
    def _card_str(cid) -> str:
        if cid is None:
            return "??"
        if cid < 0:
            return "--"
        c = spec.CARDS[cid]
        cost = "".join(f"{spec.LETTERS[k]}{n}" for k, n in enumerate(c.cost) if n)
        pts = f"+{c.points}" if c.points else ""
        return f"{cid}:{spec.LETTERS[c.color]}{pts}({cost})"

    def __str__(self) -> str:
        status = (
            "over, returns " + " ".join(f"{r:g}" for r in self.returns())
            if self._phase == _OVER
            else f"seat {self.current} to act ({self._phase})"
        )
        lines = [
            f"Splendor base, {self.players} players, turn {self.turn}, {status}"
            + (", final round" if self.final_round else "")
            + (f", view of seat {self.observer}" if self.observer is not None else ""),
            f"supply  {self._tokens_str(self.supply)}",
            "nobles  "
            + (
                " ".join(
                    f"#{n}({self._tokens_str(spec.NOBLES[n].requires)})" for n in self.nobles
                )
                or "-"
            ),
        ]
        for lv in reversed(range(spec.LEVELS)):
            cards = " ".join(self._card_str(c) for c in self.board[lv])
            lines.append(f"L{lv + 1} [{self.deck_sizes[lv]:2}]  {cards}")
        for i, s in enumerate(self.seats):
            mark = "*" if i == self.current and self._phase != _OVER else " "
            reserved = " ".join(
                self._card_str(r["card"]) + ("b" if r["blind"] else "") for r in s["reserved"]
            )
            lines.append(
                f"{mark}seat {i}: {self.points(i)} pts, {len(s['cards'])} cards, "
                f"bonus {self._tokens_str(self.bonuses(i))}, tokens {self._tokens_str(s['tokens'])}"
                + (f", reserved {reserved}" if reserved else "")
                + (f", nobles {' '.join(map(str, s['nobles']))}" if s["nobles"] else "")
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ReferenceState base {self.players}p turn {self.turn} {self._phase}>"
