"""The readable rules the base game and Marvel share: taking, reserving, buying and paying,
token returns, the end of a turn and hidden information.

``CardGameReference`` is the executable specification of those clauses (each a small method
whose docstring quotes the base game's rulebook, ``/work/shared/rules/base.md``; Marvel's,
``marvel.md``, keeps them and names what differs). The state is plain lists and
dictionaries that mirror the position dictionary. A game's ``reference.py`` subclasses it
with its own clauses (its pieces, the end trigger, the winners); the compiled cores
implement the same rules fast (``ext/cards.pxd``), and a parity test compares the two.

A turn is a sequence of actions by one seat: the main action (take, reserve, buy or pass),
then, if needed, returns (phase "return") and a choice among the game's own pieces that
qualify (phase "noble" / "location"). Points the rulebooks leave open, settled here and in
the cores:
- ``passes`` counts consecutive *dead* turns: a pass after which nothing came to the seat.
  When every seat in a row had one, nothing can change any more and the game is over.
- A seat's cards and pieces are sets: they are listed sorted (the canonical form
  ``validate_position`` produces), not in the order they were gained.
"""
from __future__ import annotations

import bisect
import copy
import itertools

from ..errors import HiddenInformationError, IllegalActionError
from .common import ReferenceBase, action_id
from .spec import BOARD_TARGETS, LEVELS, MAX_RESERVED, RESERVE_BOARD, RESERVE_DECK, RETURN, SLOTS, TOKEN_LIMIT
from .spec import BUY_TARGETS, TAKE1, TAKE2_DIFF, TAKE2_DIFF_SETS, TAKE2_SAME, TAKE3, TAKE3_SETS, taken_tokens
from .spec import CardGameSpec

_MAIN, _RETURN, _OVER = "main", "return", "over"


class CardGameReference(ReferenceBase):
    """A position and the rules that move it forward (the State protocol), for a game of the
    base game's shape. A subclass sets ``spec`` (its game's spec module, whose ``RULES`` is
    a CardGameSpec) and ``KEYS`` (its own position keys besides its pieces), and writes its
    own clauses: ``points``, ``_before_pieces``, ``_end_trigger``, ``_round_end``,
    ``_winners``."""

    KEYS: tuple[str, ...] = ()  # the game's own position keys, after its pieces
    NOT_AFFORDABLE = "not affordable"

    @property
    def rules(self) -> CardGameSpec:
        """The game's CardGameSpec."""
        return self.spec.RULES

    @property
    def own(self) -> str:
        """The game's own piece: "noble", "location" (also the name of its phase)."""
        return self.spec.RULES.own.name

    @property
    def pieces_key(self) -> str:
        return self.spec.RULES.own.name + "s"

    # ------------------------------------------------------------------ construction
    def __init__(self) -> None:
        # Use from_position; the fields mirror the position dictionary.
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
        self.pieces: list[int] = []  # the game's own pieces in play, in the order they lie
        self.extra: dict = {}  # the game's own position keys (KEYS)
        self.seats: list[dict] = []
        self.observer: int | None = None

    @classmethod
    def from_position(cls, pos: dict):
        """A state from an already validated, normalised position (spec.validate_position)."""
        s = cls()
        s._read_turn(pos)
        s.players, s.final_round, s.passes = pos["players"], pos["final_round"], pos["passes"]
        s.supply = list(pos["supply"])
        s.board = [list(row) for row in pos["board"]]
        s.pieces = list(pos[s.pieces_key])
        s.extra = {k: copy.deepcopy(pos[k]) for k in cls.KEYS}
        s.seats = [s._copy_seat(seat) for seat in pos["seats"]]
        return s

    def _copy_seat(self, seat: dict) -> dict:
        return {
            "tokens": list(seat["tokens"]),
            "cards": list(seat["cards"]),
            "reserved": [dict(r) for r in seat["reserved"]],
            self.pieces_key: list(seat[self.pieces_key]),
        }

    def to_position(self) -> dict:
        """The canonical position dictionary (fresh lists, nothing shared with the state)."""
        return {
            "game": self.rules.game,
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
            self.pieces_key: list(self.pieces),
            **copy.deepcopy(self.extra),
            "seats": [self._copy_seat(seat) for seat in self.seats],
            "observer": self.observer,
        }

    def bonuses(self, seat: int) -> list[int]:
        """'The card ... gives a permanent bonus of its colour': bonuses per colour."""
        return self.rules.bonuses(self.seats[seat]["cards"])

    def points(self, seat: int) -> int:
        """The seat's score (the game's own clause)."""
        raise NotImplementedError  # pragma: no cover - every game defines it

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
        """The colours (never the wild kind) with at least one token left in the supply."""
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
        return self._fewer_than_three_allowed() and all(self.supply[c] >= 1 for c in colours)

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
        return len(self._seat()["reserved"]) < MAX_RESERVED

    def _can_reserve_from_deck(self, level: int) -> bool:
        """'A blind reserve from an empty deck is impossible.'"""
        return self.deck_sizes[level - 1] > 0

    def _reserve(self, card: int, level: int, blind: bool) -> None:
        """'Reserve a card and take 1 gold ... The player takes 1 gold if any is left;
        reserving is still allowed when no gold is left.' (Marvel: 1 grey; reserving a Time
        Stone card gives no green.)"""
        seat = self._seat()
        seat["reserved"].append({"card": card, "level": level, "blind": blind})
        wild = self.rules.wild
        if self.supply[wild] > 0:
            self.supply[wild] -= 1
            seat["tokens"][wild] += 1

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
        return [max(0, cost - b) for cost, b in zip(self.rules.cards[card].cost, bonus)]

    def _payment_variants(self, card: int, seat: int) -> list[int]:
        """'The rest is paid with tokens of that colour, and gold covers any shortfall ...
        Gold may also be paid for a gem the player holds: the split between gems and gold is
        the player's choice.' (Marvel: grey, and green can never pay.) Every variant v for
        which spec.payment(...) is not None.

        Per colour the player pays min(price, held) tokens of the colour and wild ones for
        the rest (the shortfall); variant v replaces PAY_VARIANTS[v][c] of those by wild
        ones, which is possible while the wild tokens held cover the shortfall plus the
        replacements.
        """
        price = self._price(card, seat)
        tokens = self.seats[seat]["tokens"]
        own = [min(price[c], tokens[c]) for c in range(5)]
        shortfall = sum(price[c] - own[c] for c in range(5))
        spare = tokens[self.rules.wild] - shortfall
        if spare < 0:
            return []
        return sorted(
            self.rules.pay_variant_index[extra]
            for extra in itertools.product(*(range(g + 1) for g in own))
            if sum(extra) <= spare
        )

    def _buy_target_card(self, target: int) -> int | None:
        """The card a buy target names: board slot (level-1)*4+slot, or own reserve 0..2."""
        if target < BOARD_TARGETS:
            cid = self.board[target // SLOTS][target % SLOTS]
            return None if cid < 0 else cid
        reserved = self._seat()["reserved"]
        i = target - BOARD_TARGETS
        return reserved[i]["card"] if i < len(reserved) else None

    def _pay(self, paid) -> None:
        """'Paid tokens, gold included, go back to the supply.'"""
        seat = self._seat()
        for k in range(self.rules.kinds):
            seat["tokens"][k] -= paid[k]
            self.supply[k] += paid[k]

    def _gained(self, card: int) -> None:
        """What else a bought card brings at once (the game's own clause; none in the base game)."""

    def _buy(self, target: int, variant: int) -> None:
        """'Buy a card: a face-up card, or one of the player's own reserved cards ... The card
        goes to the player's tableau.'"""
        seat = self._seat()
        card = self._buy_target_card(target)
        assert card is not None  # a legal buy names a card
        self._pay(self.rules.payment(self.rules.cards[card].cost, self.bonuses(self.current), seat["tokens"], variant))
        bisect.insort(seat["cards"], card)  # a tableau is a set: kept sorted (canonical form)
        self._gained(card)
        if target < BOARD_TARGETS:
            self._replace_from_deck(target // SLOTS + 1, target % SLOTS)
        else:
            del seat["reserved"][target - BOARD_TARGETS]

    # ------------------------------------------------------------------ end of the turn
    def _token_limit_exceeded(self) -> bool:
        """'Token limit. A player holding more than 10 tokens (gold counts) returns tokens of
        their choice ... until holding 10. This is the player's decision.'"""
        return sum(self._seat()["tokens"]) > TOKEN_LIMIT

    def _returnable(self) -> list[int]:
        """The token kinds the seat may return: any it holds (the game may forbid some)."""
        tokens = self._seat()["tokens"]
        return [k for k in range(self.rules.kinds) if tokens[k] > 0 and k not in self.rules.return_notes]

    def _qualifying(self) -> list[int]:
        """'If the player's bonuses (cards only, never tokens) meet the requirement of one or
        more revealed nobles ...' (Marvel: locations still in play), in the order they lie."""
        bonus = self.bonuses(self.current)
        requires = self.rules.own.requires
        return [i for i in self.pieces if all(b >= r for b, r in zip(bonus, requires[i]))]

    def _take_piece(self, piece: int) -> None:
        self.pieces.remove(piece)  # the others keep their order
        bisect.insort(self._seat()[self.pieces_key], piece)  # a set: kept sorted (canonical form)

    def _visit(self) -> int:
        """'Nobles ... the player takes one of them (their choice if several). Visits are
        compulsory, are not an action, and happen at most once per turn.' (Marvel's
        locations alike.) One qualifying piece comes at once; with several the seat chooses
        (the game's own phase). Returns how many qualified."""
        qualifying = self._qualifying()
        if len(qualifying) == 1:
            self._take_piece(qualifying[0])
        return len(qualifying)

    def _before_pieces(self) -> bool:
        """The game's own end-of-turn step before its pieces come; returns whether it changed
        anything for the seat (none in the base game)."""
        return False

    def _end_trigger(self) -> None:
        """The game's own end trigger: sets ``final_round``."""
        raise NotImplementedError  # pragma: no cover - every game defines it

    def _round_end(self) -> bool:
        """At the end of a turn: whether the game ends, the final round being over: 'play
        continues until every player has had the same number of turns (... the last seat --
        plays the last turn)'."""
        return self.final_round and self.current == self._last_seat()

    def _end_of_turn(self, passed: bool = False) -> None:
        """'End of the turn (in this order)': token limit, (the game's own step,) its
        pieces, end trigger. ``passed``: the main action of this turn was a pass."""
        if self._token_limit_exceeded():
            self._phase = _RETURN
            return
        changed = self._before_pieces()
        visiting = self._visit()
        if visiting >= 2:
            self._phase = self.own
            return
        self._finish_turn(dead_turn=passed and not changed and visiting == 0)

    def _finish_turn(self, dead_turn: bool) -> None:
        """End trigger, then the turn is over: count passes, next seat or game over.

        ``passes`` counts the consecutive dead turns: a pass in which nothing came to the
        seat changed nothing; when every seat in a row had one, the game is over too.
        """
        self._end_trigger()
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
        raise NotImplementedError  # pragma: no cover - every game defines it

    def _fewest_cards(self, tied: list[int]) -> list[int]:
        """'Tie: among the tied players, the one with the fewest bought development cards
        wins. Still tied: those players share the victory.'"""
        fewest = min(len(self.seats[i]["cards"]) for i in tied)
        return [i for i in tied if len(self.seats[i]["cards"]) == fewest]

    def returns(self) -> list[float]:
        """1 for a win, 0 for a loss, a shared win split; all 0 until the game is over (and
        at an end without a winner)."""
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
        for i, colours in enumerate(TAKE3_SETS):
            if self._can_take_three_different(colours):
                out.append(TAKE3 + i)
        if self._fewer_than_three_allowed():
            available = self._available_colours()
            for i, colours in enumerate(TAKE2_DIFF_SETS):
                if len(available) == 2 and self._can_take_fewer_different(colours):
                    out.append(TAKE2_DIFF + i)
            for c in available:
                out.append(TAKE1 + c)
        for c in range(5):
            if self._take_two_same_allowed(c):
                out.append(TAKE2_SAME + c)
        return out

    def _reserve_actions(self) -> list[int]:
        out: list[int] = []
        if not self._can_reserve():
            return out
        for lv in range(LEVELS):
            for slot in range(SLOTS):
                if self.board[lv][slot] >= 0:
                    out.append(RESERVE_BOARD + lv * SLOTS + slot)
        for lv in range(LEVELS):
            if self._can_reserve_from_deck(lv + 1):
                out.append(RESERVE_DECK + lv)
        return out

    def _buy_actions(self, all_payments: bool) -> list[int]:
        self._hidden_reserve_check()
        out: list[int] = []
        for target in range(BUY_TARGETS):
            card = self._buy_target_card(target)
            if card is None:
                continue
            variants = self._payment_variants(card, self.current)
            if not all_payments:
                variants = [v for v in variants if v == 0]
            out.extend(self.rules.buy_action(target, v) for v in variants)
        return out

    def _main_actions(self, all_payments: bool = True) -> list[int]:
        """'A turn: exactly one of four actions' -- and 'If a player can do none of the four
        actions ... the player passes', an explicit pass legal only in that case."""
        actions = self._take_actions() + self._reserve_actions() + self._buy_actions(all_payments)
        return sorted(actions) if actions else [self.rules.pass_id]

    def legal_actions(self) -> list[int]:
        if self._phase == _MAIN:
            return self._main_actions()
        if self._phase == _RETURN:
            return [RETURN + k for k in self._returnable()]
        if self._phase == self.own:
            return sorted(self.rules.own.first + i for i in self._qualifying())
        return []

    def search_actions(self) -> list[int]:
        """The legal actions with buys paid the default way only (wild tokens for the
        shortfall)."""
        if self._phase == _MAIN:
            return self._main_actions(all_payments=False)
        return self.legal_actions()

    # ------------------------------------------------------------------ applying an action
    def _describe(self, action) -> str:
        try:
            return self.action_to_string(action)
        except Exception:
            pass
        kind = self.rules.action_kind(action) if isinstance(action, int) else "invalid"
        if kind == "buy":
            target, variant = self.rules.split_buy(action)
            where = f"board slot {target}" if target < BOARD_TARGETS else f"reserve {target - BOARD_TARGETS}"
            card = None
            try:
                card = self._buy_target_card(target)
            except Exception:
                pass
            what = f"buy {card}" if card is not None else f"buy from {where}"
            return what + (f" (payment variant {variant})" if variant else "")
        if kind == "reserve_board":
            t = action - RESERVE_BOARD
            return f"reserve board level {t // SLOTS + 1} slot {t % SLOTS}"
        return f"action {action!r}"

    def _why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not legal here, or None if it is. May raise
        HiddenInformationError when legality depends on a card this state does not know."""
        kind = self.rules.action_kind(action)
        own = self.own
        if kind == "invalid":
            return f"not an action id (0..{self.rules.num_actions - 1})"
        if self._phase == _OVER:
            return "the game is over"
        if self._phase == _RETURN:
            if kind != "return":
                return f"seat {self.current} must first return tokens down to 10 (the 'return' phase)"
            k = action - RETURN
            if k in self.rules.return_notes:
                return self.rules.return_notes[k]
            if self._seat()["tokens"][k] == 0:
                return f"seat {self.current} holds no {self.rules.token_names[k]} token"
            return None
        if self._phase == own:
            if kind != own:
                return f"seat {self.current} must first {self.rules.own.choose} (the '{own}' phase)"
            i = action - self.rules.own.first
            if i not in self._qualifying():
                return f"{own} {i} is not in play or the bonuses do not meet its requirement"
            return None
        # The 'main' phase.
        if kind == "return":
            return "not the 'return' phase"
        if kind == own:
            return f"not the '{own}' phase ({own}s come at the end of the turn)"
        if kind.startswith("take"):
            return self._why_not_take(kind, action)
        if kind in ("reserve_board", "reserve_deck"):
            return self._why_not_reserve(kind, action)
        if kind == "buy":
            return self._why_not_buy(action)
        # kind == "pass"
        if self._main_actions() != [self.rules.pass_id]:
            return "pass is legal only when no other action is"
        return None

    def _why_not_take(self, kind: str, action: int) -> str | None:
        colours = taken_tokens(action)
        names = self.rules.colours
        for c in set(colours):
            if self.supply[c] == 0:
                return f"{names[c]} is empty"
        if kind == "take2same":
            c = colours[0]
            if not self._take_two_same_allowed(c):
                return f"the {names[c]} pile holds {self.supply[c]}, taking 2 needs 4"
            return None
        if kind in ("take2diff", "take1") and not self._fewer_than_three_allowed():
            return "fewer than 3 tokens only when fewer than 3 colours are left"
        return None

    def _why_not_reserve(self, kind: str, action: int) -> str | None:
        if not self._can_reserve():
            return f"already {MAX_RESERVED} reserved"
        if kind == "reserve_board":
            t = action - RESERVE_BOARD
            if self.board[t // SLOTS][t % SLOTS] < 0:
                return "that board slot is empty"
        elif not self._can_reserve_from_deck(action - RESERVE_DECK + 1):
            return f"deck {action - RESERVE_DECK + 1} is empty"
        return None

    def _why_not_buy(self, action: int) -> str | None:
        target, variant = self.rules.split_buy(action)
        if target < BOARD_TARGETS:
            if self._buy_target_card(target) is None:
                return "that board slot is empty"
        else:
            i = target - BOARD_TARGETS
            reserved = self._seat()["reserved"]
            if i >= len(reserved):
                return f"seat {self.current} has no reserved card {i}"
            if reserved[i]["card"] is None:
                self._hidden_reserve_check()
        card = self._buy_target_card(target)
        assert card is not None  # an empty slot or a missing reserve was answered above, a hidden one raised
        variants = self._payment_variants(card, self.current)
        if variant not in variants:
            if variant == 0 or not variants:
                return self.NOT_AFFORDABLE
            wild = self.rules.token_names[self.rules.wild]
            return f"payment variant {variant} ({self.rules.pay_variants[variant]} {wild} for tokens) is impossible"
        return None

    def _needs_hidden_card(self, action: int) -> str | None:
        """Whether applying this (legal) action draws a card this view does not know."""
        if self.decks is not None:
            return None
        kind = self.rules.action_kind(action)
        if kind == "reserve_deck":
            return f"a blind reserve draws the unknown top card of deck {action - RESERVE_DECK + 1}"
        target = None
        if kind == "reserve_board":
            target = action - RESERVE_BOARD
        elif kind == "buy":
            target = self.rules.split_buy(action)[0]
        if target is not None and target < BOARD_TARGETS:
            level = target // SLOTS + 1
            if self.deck_sizes[level - 1] > 0:
                return f"the slot is refilled with the unknown top card of deck {level}"
        return None

    def apply_action(self, action) -> None:
        """Play ``action``; IllegalActionError (state unchanged) if it is not legal."""
        action = action_id(action)
        why = self._why_illegal(action)
        if why is not None:
            raise IllegalActionError(f"{self._describe(action)}: {why}")
        hidden = self._needs_hidden_card(action)
        if hidden is not None:
            raise HiddenInformationError(f"{self._describe(action)}: {hidden} in this view; call resample first")
        kind = self.rules.action_kind(action)
        if self._phase == _RETURN:
            k = action - RETURN
            self._seat()["tokens"][k] -= 1
            self.supply[k] += 1
            self._end_of_turn()
            return
        if self._phase == self.own:
            self._take_piece(action - self.rules.own.first)
            self._finish_turn(dead_turn=False)
            return
        # The main action.
        if kind.startswith("take"):
            self._take(taken_tokens(action))
        elif kind == "reserve_board":
            t = action - RESERVE_BOARD
            level, slot = t // SLOTS + 1, t % SLOTS
            card = self.board[level - 1][slot]
            self._replace_from_deck(level, slot)
            self._reserve(card, level, blind=False)
        elif kind == "reserve_deck":
            level = action - RESERVE_DECK + 1
            self._reserve(self._draw(level), level, blind=True)
        elif kind == "buy":
            self._buy(*self.rules.split_buy(action))
        self._end_of_turn(passed=kind == "pass")
