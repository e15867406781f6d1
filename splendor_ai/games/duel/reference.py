"""Splendor Duel: the readable reference implementation of the rules.

This is the executable specification. It favours clarity over speed: the state mirrors the
position dictionary (docs/duel.md) and every rulebook clause (``/work/shared/rules/duel.md``)
is one small method whose docstring quotes it. The compiled core (``ext/duel.pyx``)
implements the same rules fast; a parity test compares the two action by action.

A turn is a sequence of decisions of one seat, each an action: privileges and a replenish
(phase "main"), the mandatory action (phase "main", or "mandatory" after a replenish), the
card to reserve after taking a gold ("reserve"), the choices abilities ask for ("joker",
"token", "steal"), a royal card ("royal"), the tokens returned above 10 ("discard"). Every
choice is a decision even when there is a single option, so a turn always has the same shape.

Points settled here (and in the core), see docs/duel.md:
- The bag holds its draw order (``bag[0]`` comes out first) and a seed; a token entering
  the bag lands at a seeded random place (``spec.bag_insert``), so a replenish draws a
  uniformly random order that both implementations compute alike. A view knows neither.
- ``turn`` counts completed turns; an extra turn is a turn of its own.
"""
from __future__ import annotations

import bisect
import itertools

from ..cards.common import ReferenceBase, action_id
from ..errors import HiddenInformationError, IllegalActionError
from . import spec

_MAIN, _MANDATORY, _RESERVE, _JOKER, _TOKEN, _STEAL, _ROYAL, _DISCARD, _OVER = spec.PHASES


def _copy_seat(seat: dict) -> dict:
    return {
        "tokens": list(seat["tokens"]), "cards": list(seat["cards"]),
        "jokers": [dict(e) for e in seat["jokers"]], "reserved": [dict(r) for r in seat["reserved"]],
        "privileges": seat["privileges"], "royals": list(seat["royals"]),
    }


class ReferenceState(ReferenceBase):
    """A Splendor Duel position and the rules that move it forward (the State protocol)."""

    game = spec.GAME
    spec = spec
    players = 2
    # The position's own fields (from_position sets them; ReferenceBase._read_turn the turn's).
    extra_turn: bool
    pending_card: int | None  # the card whose ability waits for a choice
    board: list[list[int]]
    bag: list[int]
    bag_seed: int | None  # None in a view
    privileges: int
    pyramid: list[list[int]]
    royals: list[int]
    seats: list[dict]
    _legal: list[int] | None  # the legal actions, once computed

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_position(cls, pos: dict) -> "ReferenceState":
        """A state from an already validated, normalised position (spec.validate_position)."""
        s = cls()
        s._legal = None  # the legal actions, once computed
        s._read_turn(pos)
        s.extra_turn = pos["extra_turn"]
        s.pending_card = pos["pending_card"]
        s.board = [list(row) for row in pos["board"]]
        if s.observer is None:
            s.bag, s.bag_seed = list(pos["bag"]), pos["bag_seed"]
        else:  # a view: the contents are known, not the order (kept sorted)
            contents = spec.bag_contents(pos)
            s.bag, s.bag_seed = [k for k in range(7) for _ in range(contents[k])], None
        s.privileges = pos["privileges"]
        s.pyramid = [list(row) for row in pos["pyramid"]]
        s.royals = list(pos["royals"])
        s.seats = [_copy_seat(seat) for seat in pos["seats"]]
        return s

    def to_position(self) -> dict:
        """The canonical position dictionary (fresh lists, nothing shared with the state)."""
        pos = {
            "game": spec.GAME, "players": 2, "start_seat": self.start_seat, "current": self.current,
            "phase": self._phase, "turn": self.turn, "extra_turn": self.extra_turn,
            "pending_card": self.pending_card, "board": [list(r) for r in self.board],
            "bag": None if self.observer is not None else list(self.bag),
            "bag_seed": self.bag_seed, "bag_contents": None, "privileges": self.privileges,
            "pyramid": [list(r) for r in self.pyramid],
            "decks": None if self.decks is None else [list(d) for d in self.decks],
            "deck_sizes": list(self.deck_sizes), "royals": list(self.royals),
            "seats": [_copy_seat(s) for s in self.seats], "observer": self.observer,
        }
        pos["bag_contents"] = spec.bag_contents(pos)
        return pos

    def _seat(self, seat: int | None = None) -> dict:
        return self.seats[self.current if seat is None else seat]

    def _opponent(self) -> int:
        return 1 - self.current

    def bonuses(self, seat: int) -> list[int]:
        """'a bonus colour ... a number of bonuses (1; 2 for five level-2 cards; 0 for none)';
        a joker counts in the colour it was given."""
        return spec.bonuses(self.seats[seat])

    def points(self, seat: int) -> int:
        """Prestige points of cards and royals."""
        return spec.seat_points(self.seats[seat])

    def crowns(self, seat: int) -> int:
        return spec.seat_crowns(self.seats[seat])

    def _cell(self, cell: int) -> int:
        return self.board[cell // spec.SIZE][cell % spec.SIZE]

    def _set_cell(self, cell: int, kind: int) -> None:
        self.board[cell // spec.SIZE][cell % spec.SIZE] = kind

    def _cells_holding(self, kinds) -> list[int]:
        return [cell for cell in range(spec.CELLS) if self._cell(cell) in kinds]

    # ------------------------------------------------------------------ tokens and the bag
    def _take_from_board(self, cell: int) -> None:
        self._seat()["tokens"][self._cell(cell)] += 1
        self._set_cell(cell, -1)

    def _into_bag(self, kind: int) -> None:
        """'Paid tokens go into the bag' (and returned ones): at a random place of its order.
        A view does not know the order: it keeps the contents sorted."""
        if self.observer is None:
            assert self.bag_seed is not None  # a full position has the bag's seed
            self.bag_seed = spec.bag_insert(self.bag, kind, self.bag_seed)
        else:
            bisect.insort(self.bag, kind)

    # ------------------------------------------------------------------ privileges
    def _gain_privilege(self, seat: int) -> None:
        """'Gaining a privilege: take one from the supply; if the supply is empty, take one
        from the opponent; if you already hold all 3, nothing happens.'"""
        if self.privileges > 0:
            self.privileges -= 1
            self.seats[seat]["privileges"] += 1
        elif self.seats[1 - seat]["privileges"] > 0:
            self.seats[1 - seat]["privileges"] -= 1
            self.seats[seat]["privileges"] += 1

    def _privilege_actions(self) -> list[int]:
        """'Use privileges: return any number of your privileges to the supply; for each, take
        1 gem or pearl (never gold) from any cell of the board.' Only before replenishing."""
        if self._phase != _MAIN or self._seat()["privileges"] == 0:
            return []
        return [spec.PRIVILEGE + cell for cell in self._cells_holding(range(6))]

    def _use_privilege(self, cell: int) -> None:
        self._seat()["privileges"] -= 1
        self.privileges += 1
        self._take_from_board(cell)

    # ------------------------------------------------------------------ replenish
    def _can_replenish(self) -> bool:
        """'Replenish the board (only if the bag is not empty)' -- once, before the mandatory action."""
        return self._phase == _MAIN and len(self.bag) > 0

    def _replenish(self) -> None:
        """'draw every bag token at random and place them on empty cells in spiral order. Then
        the opponent gains a privilege. No privilege may be used after replenishing.'"""
        empty = [cell for cell in spec.SPIRAL if self._cell(cell) < 0]
        for cell, kind in zip(empty, self.bag):
            self._set_cell(cell, kind)
        self.bag = []
        self._gain_privilege(self._opponent())
        self._phase = _MANDATORY

    # ------------------------------------------------------------------ mandatory: take tokens
    def _take_actions(self) -> list[int]:
        """'1, 2 or 3 tokens on consecutive cells of one row, column or diagonal (spec.LINES);
        every cell of the run holds a gem or pearl (a gold token or an empty cell breaks the
        line).'"""
        ok = [0 <= self._cell(c) <= spec.PEARL for c in range(spec.CELLS)]
        return [spec.TAKE + i for i, cells in enumerate(spec.LINES) if all(ok[c] for c in cells)]

    def _take_line(self, cells) -> None:
        """'If the taken tokens are 3 of one colour, or include both pearls, the opponent gains
        a privilege.'"""
        kinds = [self._cell(c) for c in cells]
        for c in cells:
            self._take_from_board(c)
        if (len(kinds) == 3 and len(set(kinds)) == 1) or kinds.count(spec.PEARL) == 2:
            self._gain_privilege(self._opponent())

    # ------------------------------------------------------------------ mandatory: gold + reserve
    def _reservable(self) -> list[int]:
        """'reserve a face-up pyramid card or the top card of a deck (blind)'; 'A blind
        reserve from an empty deck is impossible.'"""
        out = []
        for lv in range(spec.LEVELS):
            for s, cid in enumerate(self.pyramid[lv]):
                if cid >= 0:
                    out.append(spec.RESERVE + spec.SLOT_OFFSET[lv] + s)
        out += [spec.RESERVE_DECK + lv for lv in range(spec.LEVELS) if self.deck_sizes[lv] > 0]
        return out

    def _gold_actions(self) -> list[int]:
        """'Take 1 gold and reserve: needs a gold on the board and fewer than 3 reserved cards.'"""
        if len(self._seat()["reserved"]) >= spec.MAX_RESERVED or not self._reservable():
            return []
        return [spec.TAKE_GOLD + cell for cell in self._cells_holding((spec.GOLD,))]

    def _draw(self, level: int) -> int:
        """The top card of the deck of ``level`` leaves the deck (top = last element)."""
        if self.decks is None:
            raise HiddenInformationError(f"the top card of deck {level} is unknown in this view: call resample first")
        self.deck_sizes[level - 1] -= 1
        return self.decks[level - 1].pop()

    def _take_from_pyramid(self, slot: int) -> int:
        """'A card taken from the pyramid is replaced at once from its deck; an empty deck
        leaves the slot empty.'"""
        lv = spec.slot_level(slot)
        s = slot - spec.SLOT_OFFSET[lv - 1]
        cid = self.pyramid[lv - 1][s]
        self.pyramid[lv - 1][s] = self._draw(lv) if self.deck_sizes[lv - 1] > 0 else -1
        return cid

    def _reserve(self, action: int) -> None:
        if action >= spec.RESERVE_DECK:
            lv = action - spec.RESERVE_DECK + 1
            entry = {"card": self._draw(lv), "level": lv, "blind": True}
        else:
            cid = self._take_from_pyramid(action - spec.RESERVE)
            entry = {"card": cid, "level": spec.CARDS[cid].level, "blind": False}
        self._seat()["reserved"].append(entry)

    # ------------------------------------------------------------------ mandatory: buy
    def _can_buy_kind(self, cid: int) -> bool:
        """'A joker card can only be bought by a player who owns at least one card with a
        bonus colour.'"""
        return spec.CARDS[cid].color != spec.JOKER or sum(self.bonuses(self.current)) > 0

    def _payment_variants(self, cid: int) -> list[int]:
        """'per colour pay max(0, cost - your bonuses of that colour); pearls are paid with
        pearls; gold replaces any gem or pearl, and may be used even when the player holds the
        gem': every variant v for which spec.payment(...) is not None.

        Per kind the player pays min(price, held) tokens and gold for the rest (the
        shortfall); variant v replaces PAY_VARIANTS[v][k] of those tokens by gold, which is
        possible while the gold held covers the shortfall plus the replacements.
        """
        tokens = self._seat()["tokens"]
        bonus = self.bonuses(self.current) + [0]  # no card gives a pearl bonus
        price = [max(0, cost - b) for cost, b in zip(spec.CARDS[cid].cost, bonus)]
        held = [min(price[k], tokens[k]) for k in range(6)]
        spare_gold = tokens[spec.GOLD] - sum(price[k] - held[k] for k in range(6))
        if spare_gold < 0:
            return []
        return sorted(
            spec.PAY_VARIANT_INDEX[extra]
            for extra in itertools.product(*(range(min(h, spare_gold) + 1) for h in held))
            if sum(extra) <= spare_gold
        )

    def _buy_target_card(self, target: int) -> int | None:
        return spec.target_card({"pyramid": self.pyramid, "seats": self.seats, "current": self.current}, target)

    def _buy_actions(self, all_payments: bool) -> list[int]:
        self._hidden_reserve_check()
        out = []
        for target in range(spec.BUY_TARGETS):
            cid = self._buy_target_card(target)
            if cid is None or not self._can_buy_kind(cid):
                continue
            variants = self._payment_variants(cid)
            if not all_payments:
                variants = [v for v in variants if v == 0]
            out += [spec.buy_action(target, v) for v in variants]
        return out

    def _buy(self, target: int, variant: int) -> None:
        """'Paid tokens go into the bag.' The card is gained; its abilities resolve."""
        seat = self._seat()
        cid = self._buy_target_card(target)
        assert cid is not None  # a legal buy names a card
        paid = spec.payment(spec.CARDS[cid].cost, self.bonuses(self.current), seat["tokens"], variant)
        assert paid is not None  # and can pay it
        for k in range(7):
            for _ in range(paid[k]):
                seat["tokens"][k] -= 1
                self._into_bag(k)
        if target < spec.PYRAMID:
            self._take_from_pyramid(target)
        else:
            del seat["reserved"][target - spec.PYRAMID]
        bisect.insort(seat["cards"], cid)
        self._gain_card(cid)

    def _hidden_reserve_check(self) -> None:
        for i, r in enumerate(self._seat()["reserved"]):
            if r["card"] is None:
                raise HiddenInformationError(
                    f"seat {self.current} holds a hidden reserved card (reserve {i}) whose purchase "
                    "this view cannot judge: call resample first")

    def _mandatory_actions(self, all_payments: bool) -> list[int]:
        """'Mandatory, exactly one: take up to 3 tokens, take 1 gold and reserve, buy a card.'"""
        return self._take_actions() + self._gold_actions() + self._buy_actions(all_payments)

    # ------------------------------------------------------------------ abilities
    def _gain_card(self, cid: int) -> None:
        """'Card abilities resolve as soon as the card is gained', then the crowns."""
        card = spec.CARDS[cid]
        if card.abilities & spec.EXTRA_TURN:
            self.extra_turn = True
        if card.abilities & spec.TAKE_PRIVILEGE:
            self._gain_privilege(self.current)
        if card.abilities & spec.BONUS_WILD:
            self.pending_card, self._phase = cid, _JOKER
            return
        if card.abilities & spec.TAKE_TOKEN and self._cells_holding((card.color,)):
            self.pending_card, self._phase = cid, _TOKEN
            return
        if card.abilities & spec.STEAL_TOKEN and self._can_steal():
            self._phase = _STEAL
            return
        self._crowns()

    def _joker_actions(self) -> list[int]:
        """'bonus_wild (joker): choose one of the colours of the cards you own.'"""
        b = self.bonuses(self.current)
        return [spec.JOKER_COLOR + c for c in range(5) if b[c] > 0]

    def _color_joker(self, color: int) -> None:
        """'the joker becomes a card of that colour for good.'"""
        jokers = self._seat()["jokers"]
        jokers.append({"card": self.pending_card, "color": color})
        jokers.sort(key=lambda e: e["card"])
        self.pending_card = None
        self._crowns()

    def _token_actions(self) -> list[int]:
        """'take_token: take 1 token of the card's colour from any cell of the board --
        compulsory if one is there, ignored otherwise.'"""
        assert self.pending_card is not None  # the token phase follows the card that asks for it
        color = spec.CARDS[self.pending_card].color
        return [spec.TOKEN + cell for cell in self._cells_holding((color,))]

    def _can_steal(self) -> bool:
        """'steal_token: take 1 gem or pearl (never gold) from the opponent -- compulsory if
        they hold one.'"""
        return any(self._seat(self._opponent())["tokens"][:6])

    def _steal_actions(self) -> list[int]:
        tokens = self._seat(self._opponent())["tokens"]
        return [spec.STEAL + k for k in range(6) if tokens[k] > 0]

    def _steal(self, kind: int) -> None:
        self._seat(self._opponent())["tokens"][kind] -= 1
        self._seat()["tokens"][kind] += 1
        self._crowns()

    # ------------------------------------------------------------------ crowns and royals
    def _crowns(self) -> None:
        """'on reaching 3 crowns, and again on reaching 6, choose one of the remaining royal
        cards and resolve its ability (card ability first, then the royal).'"""
        if spec.royals_due(self._seat()) > 0 and self.royals:
            self._phase = _ROYAL
        else:
            self._end_of_turn()

    def _take_royal(self, rid: int) -> None:
        self.royals.remove(rid)
        bisect.insort(self._seat()["royals"], rid)
        royal = spec.ROYALS[rid]
        if royal.abilities & spec.EXTRA_TURN:
            self.extra_turn = True
        if royal.abilities & spec.TAKE_PRIVILEGE:
            self._gain_privilege(self.current)
        if royal.abilities & spec.STEAL_TOKEN and self._can_steal():
            self._phase = _STEAL
            return
        self._crowns()

    # ------------------------------------------------------------------ end of the turn
    def _end_of_turn(self) -> None:
        """'a player holding more than 10 tokens (gold and pearls count) returns tokens of
        their choice to the bag until holding 10. Then check victory for this player only.'
        'extra_turn: after this turn ends (and after the victory check), the same player
        takes a full new turn.'"""
        if sum(self._seat()["tokens"]) > spec.TOKEN_LIMIT:
            self._phase = _DISCARD
            return
        self.turn += 1
        if self._has_won(self.current):
            self._phase = _OVER
            self.extra_turn = False
            return
        if self.extra_turn:
            self.extra_turn = False
        else:
            self.current = self._opponent()
        self._phase = _MAIN

    def _has_won(self, seat: int) -> bool:
        """'20 or more prestige points (cards and royals), or 10 or more crowns, or 10 or more
        prestige points on the cards of one colour (jokers count in their colour).'"""
        return spec.has_won(self.seats[seat])

    def returns(self) -> list[float]:
        """'There are no ties': the seat whose turn ended the game wins."""
        if self._phase != _OVER:
            return [0.0, 0.0]
        return [1.0 if i == self.current else 0.0 for i in range(2)]

    # ------------------------------------------------------------------ legal actions
    def _actions(self, all_payments: bool) -> list[int]:
        phase = self._phase
        if phase in (_MAIN, _MANDATORY):
            acts = self._privilege_actions()
            if self._can_replenish():
                acts.append(spec.REPLENISH)
            acts += self._mandatory_actions(all_payments)
            # 'If none of the three is possible ... the player must replenish first. If even
            # that is impossible (the bag is empty), the player passes.' Privileges are never
            # possible then: any gem or pearl on the board is a line of one.
            return sorted(acts) if acts else [spec.PASS]
        if phase == _RESERVE:
            return self._reservable()
        if phase == _JOKER:
            return self._joker_actions()
        if phase == _TOKEN:
            return self._token_actions()
        if phase == _STEAL:
            return self._steal_actions()
        if phase == _ROYAL:
            return [spec.ROYAL + r for r in self.royals]
        if phase == _DISCARD:
            return [spec.DISCARD + k for k in range(7) if self._seat()["tokens"][k] > 0]
        return []

    def legal_actions(self) -> list[int]:
        # Computed once per position (apply_action clears the cache).
        if self._legal is None:
            self._legal = self._actions(all_payments=True)
        return list(self._legal)

    def search_actions(self) -> list[int]:
        """The legal actions with buys paid the default way only (gold for the shortfall)."""
        return [a for a in self.legal_actions() if a < spec.BUY or spec.split_buy(a)[1] == 0]

    # ------------------------------------------------------------------ applying an action
    def _needs_hidden(self, action: int) -> str | None:
        """Whether this (legal) action needs what a view does not know."""
        if self.observer is None:
            return None
        kind = spec.action_kind(action)
        if kind == "replenish":
            return "a replenish draws the bag's tokens in an order this view does not know"
        if kind == "reserve_deck":
            return f"a blind reserve draws the unknown top card of deck {action - spec.RESERVE_DECK + 1}"
        slot = None
        if kind == "reserve":
            slot = action - spec.RESERVE
        elif kind == "buy" and spec.split_buy(action)[0] < spec.PYRAMID:
            slot = spec.split_buy(action)[0]
        if slot is not None and self.deck_sizes[spec.slot_level(slot) - 1] > 0:
            return f"the slot is refilled with the unknown top card of deck {spec.slot_level(slot)}"
        return None

    def apply_action(self, action) -> None:
        """Play ``action``; IllegalActionError (state unchanged) if it is not legal."""
        action = action_id(action)
        if self._phase == _OVER:
            raise IllegalActionError("the game is over")
        if action not in self.legal_actions():
            raise IllegalActionError(spec.explain_illegal(self.to_position(), action))
        hidden = self._needs_hidden(action)
        if hidden is not None:
            raise HiddenInformationError(f"{self.action_to_string(action)}: {hidden}; call resample first")
        kind = spec.action_kind(action)
        self._legal = None
        if kind == "privilege":
            self._use_privilege(action - spec.PRIVILEGE)
        elif kind == "replenish":
            self._replenish()
        elif kind == "take":
            self._take_line(spec.LINES[action - spec.TAKE])
            self._end_of_turn()
        elif kind == "gold":
            self._take_from_board(action - spec.TAKE_GOLD)
            self._phase = _RESERVE
        elif kind in ("reserve", "reserve_deck"):
            self._reserve(action)
            self._end_of_turn()
        elif kind == "buy":
            self._buy(*spec.split_buy(action))
        elif kind == "joker":
            self._color_joker(action - spec.JOKER_COLOR)
        elif kind == "token":
            self._take_from_board(action - spec.TOKEN)
            self.pending_card = None
            self._crowns()
        elif kind == "steal":
            self._steal(action - spec.STEAL)
        elif kind == "royal":
            self._take_royal(action - spec.ROYAL)
        elif kind == "discard":
            self._seat()["tokens"][action - spec.DISCARD] -= 1
            self._into_bag(action - spec.DISCARD)
            self._end_of_turn()
        else:  # pass
            self._end_of_turn()
