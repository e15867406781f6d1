"""The spec of a game of the base game's shape (the base game and Marvel), written once.

Both games have five colours and a wild token kind (gold; grey), three levels of 4 face-up
cards over a deck each, at most 3 reserved cards, 10 tokens at most, the same take /
reserve / buy actions with the same payment variants, and one kind of their own of cards
that come to a seat at the end of a turn (nobles; locations). ``CardGameSpec`` holds what
follows from that: the action-id layout, payments, the notation, the position dictionary
(its validation, the deal, a seat's view and resampling) and the text drawing. A game's
``spec.py`` makes one, with hooks for its own parts, and exports its functions.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from ..errors import NotationError, PositionError, UnavailableCardError
from .common import (action_name, buy_target, check_int, check_reserved, named_card, check_list, hide_cards,
                     parse_card_id, redraw_cards, unseen_cards, words_of)

LEVELS = 3
SLOTS = 4  # face-up cards per level
MAX_RESERVED = 3
TOKEN_LIMIT = 10
PLAYER_COUNTS = (2, 3, 4)
EMPTY_SLOT = "reserves from an empty slot"
BOARD_TARGETS = LEVELS * SLOTS  # buy targets 0..11: board (level-1)*4+slot; 12..14: own reserve
BUY_TARGETS = BOARD_TARGETS + MAX_RESERVED

# ---------------------------------------------------------------------------- action ids
TAKE3_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 3))
TAKE2_DIFF_SETS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(5), 2))

TAKE3 = 0  # 10 ids: three different colours, TAKE3_SETS order
TAKE2_DIFF = 10  # 10 ids: two different colours (only when fewer than 3 colours are left)
TAKE1 = 20  # 5 ids: one colour (only when fewer than 3 colours are left)
TAKE2_SAME = 25  # 5 ids: two of one colour (pile of 4 or more)
RESERVE_BOARD = 30  # 12 ids: (level-1)*4 + slot
RESERVE_DECK = 42  # 3 ids: blind, from the deck of level 1..3
RETURN = 45  # one id per token kind: give back one token of that kind


def pay_variants(wild_count: int) -> tuple[tuple[int, ...], ...]:
    """A payment variant is how many wild tokens replace tokens of a colour the player would
    otherwise pay. Variant 0 (no replacement) is the "wild only for the shortfall" payment
    that a move naming no payment means. All vectors with a sum of at most ``wild_count``,
    ordered by sum, then lexicographically."""
    return tuple(sorted(
        (v for v in itertools.product(range(wild_count + 1), repeat=5) if sum(v) <= wild_count),
        key=lambda v: (sum(v), v),
    ))


def taken_tokens(action: int) -> tuple[int, ...]:
    """The colours a take action takes (one entry per token)."""
    if TAKE3 <= action < TAKE2_DIFF:
        return TAKE3_SETS[action - TAKE3]
    if TAKE2_DIFF <= action < TAKE1:
        return TAKE2_DIFF_SETS[action - TAKE2_DIFF]
    if TAKE1 <= action < TAKE2_SAME:
        return (action - TAKE1,)
    if TAKE2_SAME <= action < RESERVE_BOARD:
        c = action - TAKE2_SAME
        return (c, c)
    raise ValueError(f"action {action} is not a take action")


def board_target(position: dict, cid: int) -> int | None:
    """The board target (level-1)*4+slot where card ``cid`` lies face up, or None."""
    for lv in range(LEVELS):
        for s in range(SLOTS):
            if position["board"][lv][s] == cid:
                return lv * SLOTS + s
    return None


def buy_target_card(position: dict, target: int) -> int | None:
    """The card id a buy/reserve target names in this position (None: empty or unknown)."""
    if target < BOARD_TARGETS:
        cid = position["board"][target // SLOTS][target % SLOTS]
        return None if cid < 0 else cid
    reserved = position["seats"][position["current"]]["reserved"]
    i = target - BOARD_TARGETS
    return reserved[i]["card"] if i < len(reserved) else None


def last_seat(position: dict) -> int:
    return (position["start_seat"] - 1) % position["players"]


@dataclass
class Places:
    """Where each card and each of the game's own pieces lies, so that none is in two places."""

    n_cards: int
    cards: dict = field(default_factory=dict)
    pieces: dict = field(default_factory=dict)

    def card(self, cid, where: str) -> None:
        check_int(cid, where, 0, self.n_cards - 1)
        if cid in self.cards:
            raise PositionError(where, f"card {cid} is also at {self.cards[cid]}")
        self.cards[cid] = where


@dataclass(frozen=True)
class Own:
    """The game's own kind of piece that comes to a seat at the end of a turn (a noble; a
    location): its name, its action ids (``first`` + id), how many there are, how many lie
    in play, their requirements, and the sentences of the messages about them."""

    name: str  # "noble", "location": the verb of the notation, the phase, the position key
    first: int  # action id of piece 0
    requires: tuple  # per piece id, the bonuses it needs
    choose: str  # "choose a visiting noble"
    unavailable: str  # why a piece cannot be taken


@dataclass(frozen=True, eq=False)
class CardGameSpec:
    """The parts of one game of this shape that differ: its names, its tokens, its cards."""

    game: str
    title: str  # "Splendor", "Splendor: Marvel"
    colours: tuple[str, ...]
    token_names: tuple[str, ...]
    letters: str  # one per token kind, in token order
    wild: int  # the token kind that replaces any colour in a payment
    pay_letters: str  # the letters a payment may name
    cards: tuple  # the catalogue: .id .level .color .points .cost
    own: Own
    pass_id: int
    buy_id: int
    short_of: str  # why a card is not affordable: "bonuses, gems and gold fall short"
    letter_notes: dict = field(default_factory=dict)  # letter -> why the notation refuses it
    return_notes: dict = field(default_factory=dict)  # token kind -> why it is never returned
    # What follows from the fields above, set by __post_init__ (not arguments; not compared).
    cards_by_level: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    pay_variants: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    pay_variant_index: dict[tuple[int, ...], int] = field(init=False, repr=False, compare=False)
    n_pay: int = field(init=False, repr=False, compare=False)
    num_actions: int = field(init=False, repr=False, compare=False)
    kinds: int = field(init=False, repr=False, compare=False)
    phases: tuple[str, ...] = field(init=False, repr=False, compare=False)
    # per action id, its kind; and the notation of every action whose text does not depend on the
    # position (takes, deck reserves, returns, the own pieces, pass): looked up, not built, for
    # each move a call encodes
    kind_table: tuple[str, ...] = field(init=False, repr=False, compare=False)
    fixed_notation: dict[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        by_level = tuple(tuple(c.id for c in self.cards if c.level == lv) for lv in (1, 2, 3))
        object.__setattr__(self, "cards_by_level", by_level)
        variants = pay_variants(5)
        object.__setattr__(self, "pay_variants", variants)
        object.__setattr__(self, "pay_variant_index", {v: i for i, v in enumerate(variants)})
        object.__setattr__(self, "n_pay", len(variants))
        object.__setattr__(self, "num_actions", self.buy_id + BUY_TARGETS * len(variants))
        object.__setattr__(self, "kinds", len(self.token_names))
        object.__setattr__(self, "phases", ("main", "return", self.own.name, "over"))
        object.__setattr__(self, "kind_table", tuple(self._kind_of(a) for a in range(self.num_actions)))
        object.__setattr__(self, "fixed_notation", {a: self._notation(None, a) for a in range(self.buy_id)
                                                     if self.kind_table[a] != "reserve_board"})

    # The names a game's spec module takes from here (``export``): tables and functions.
    # ------------------------------------------------------------------ action ids
    def buy_action(self, target: int, variant: int = 0) -> int:
        return self.buy_id + target * self.n_pay + variant

    def split_buy(self, action: int) -> tuple[int, int]:
        """(target, variant) of a buy action id."""
        return divmod(action - self.buy_id, self.n_pay)

    def action_kind(self, action: int) -> str:
        return self.kind_table[action] if 0 <= action < self.num_actions else "invalid"

    def _kind_of(self, action: int) -> str:
        for bound, kind in ((TAKE2_DIFF, "take3"), (TAKE1, "take2diff"), (TAKE2_SAME, "take1"),
                            (RESERVE_BOARD, "take2same"), (RESERVE_DECK, "reserve_board"),
                            (RETURN, "reserve_deck"), (self.own.first, "return"),
                            (self.pass_id, self.own.name)):
            if action < bound:
                return kind
        return "pass" if action == self.pass_id else "buy"

    # ------------------------------------------------------------------ payments
    def payment(self, cost, bonus, tokens, variant: int = 0) -> tuple[int, ...] | None:
        """The token counts (one per kind) paid for a card, or None if that payment is
        impossible. ``cost``/``bonus`` per colour, ``tokens`` those the player holds. Variant 0
        pays the colours first and the wild kind for the shortfall; variant v replaces
        pay_variants[v][c] more tokens of colour c by wild ones. No other kind ever pays."""
        extra = self.pay_variants[variant]
        paid = [0] * self.kinds
        wild = 0
        for c in range(5):
            need = max(0, cost[c] - bonus[c])
            own = min(need, tokens[c])
            if extra[c] > own:
                return None
            paid[c] = own - extra[c]
            wild += need - own + extra[c]
        if wild > tokens[self.wild]:
            return None
        paid[self.wild] = wild
        return tuple(paid)

    def payment_variant(self, cost, bonus, tokens, paid) -> int | None:
        """The variant whose payment is exactly ``paid`` (one count per kind), or None."""
        extra = []
        for c in range(5):
            need = max(0, cost[c] - bonus[c])
            own = min(need, tokens[c])
            if paid[c] > own or paid[c] < 0:
                return None
            extra.append(own - paid[c])
        variant = self.pay_variant_index.get(tuple(extra))
        if variant is None or self.payment(cost, bonus, tokens, variant) != tuple(paid):
            return None
        return variant

    def bonuses(self, cards) -> list[int]:
        b = [0] * 5
        for cid in cards:
            b[self.cards[cid].color] += 1
        return b

    def qualifying(self, position: dict, seat: dict) -> list[int]:
        """The game's own pieces in play whose requirement the seat's bonuses meet."""
        b = self.bonuses(seat["cards"])
        return [i for i in position[self.own.name + "s"]
                if all(x >= r for x, r in zip(b, self.own.requires[i]))]

    # ------------------------------------------------------------------ notation
    def action_to_string(self, position: dict, action: int) -> str:
        """The canonical string of ``action`` in ``position``."""
        text = self.fixed_notation.get(action)
        return text if text is not None else self._notation(position, action)

    def _notation(self, position, action: int) -> str:
        kind = self.action_kind(action)
        if kind == "invalid":
            raise NotationError(f"action id {action} is outside 0..{self.num_actions - 1}")
        if kind.startswith("take"):
            return "take " + "".join(self.letters[c] for c in taken_tokens(action))
        if kind == "reserve_board":
            return f"reserve {named_card(buy_target_card(position, action - RESERVE_BOARD), action, EMPTY_SLOT)}"
        if kind == "reserve_deck":
            return f"reserve deck{action - RESERVE_DECK + 1}"
        if kind == "return":
            return f"return {self.letters[action - RETURN]}"
        if kind == self.own.name:
            return f"{kind} {action - self.own.first}"
        if kind == "pass":
            return "pass"
        target, variant = self.split_buy(action)
        cid = named_card(buy_target_card(position, target), action, "buys from an empty or unknown place")
        if variant == 0:
            return f"buy {cid}"
        seat = position["seats"][position["current"]]
        paid = self.payment(self.cards[cid].cost, self.bonuses(seat["cards"]), seat["tokens"], variant)
        if paid is None:
            raise NotationError(f"action {action}: payment variant {variant} is impossible here")
        return f"buy {cid} pay " + "".join(self.letters[k] * n for k, n in enumerate(paid))

    def _letters(self, text: str, what: str, allowed: str) -> list[int]:
        out = []
        for ch in text:
            k = self.letters.find(ch)
            if k < 0:
                raise NotationError(f"{what}: unknown token letter {ch!r} (use one of {allowed!r})")
            if ch not in allowed:
                why = self.letter_notes.get(ch, "")
                raise NotationError(f"{what}: token letter {ch!r} is not allowed here{why} (use one of {allowed!r})")
            out.append(k)
        return out

    def _parse_take(self, args: list[str]) -> int:
        example = self.letters[:3]
        if len(args) != 1:
            raise NotationError(f"'take' needs the token letters, e.g. 'take {example}' or 'take rr'")
        cols = self._letters(args[0], "take", self.letters[:5])
        if len(cols) == 2 and cols[0] == cols[1]:
            return TAKE2_SAME + cols[0]
        if len(set(cols)) != len(cols):
            raise NotationError(f"take {args[0]!r}: colours must differ (or be two of one colour)")
        key = tuple(sorted(cols))
        if len(key) == 3:
            return TAKE3 + TAKE3_SETS.index(key)
        if len(key) == 2:
            return TAKE2_DIFF + TAKE2_DIFF_SETS.index(key)
        if len(key) == 1:
            return TAKE1 + key[0]
        raise NotationError(f"take {args[0]!r}: take 1 to 3 tokens")

    def _parse_reserve(self, position: dict, args: list[str]) -> int:
        if len(args) != 1:
            raise NotationError("'reserve' needs a card id or deck1..deck3")
        if args[0].startswith("deck"):
            lv = args[0][4:]
            if lv not in ("1", "2", "3"):
                raise NotationError(f"unknown deck {args[0]!r} (deck1, deck2 or deck3)")
            return RESERVE_DECK + int(lv) - 1
        cid = parse_card_id(args[0], len(self.cards))
        target = board_target(position, cid)
        if target is None:
            raise UnavailableCardError(f"card {cid} is not face up on the board")
        return RESERVE_BOARD + target

    def _parse_buy(self, position: dict, args: list[str]) -> int:
        if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "pay"):
            raise NotationError("'buy' needs a card id, optionally 'pay <letters>'")
        cid = parse_card_id(args[0], len(self.cards))
        target = buy_target(position, cid, board_target(position, cid), BOARD_TARGETS, "face up")
        seat = position["seats"][position["current"]]
        if len(args) == 1:
            return self.buy_action(target)
        paid = [0] * self.kinds
        for k in self._letters(args[2], "pay", self.pay_letters):
            paid[k] += 1
        variant = self.payment_variant(self.cards[cid].cost, self.bonuses(seat["cards"]), seat["tokens"], paid)
        if variant is None:
            raise NotationError(f"'pay {args[2]}' is not a payment of card {cid} for this player")
        return self.buy_action(target, variant)

    def string_to_action(self, position: dict, text: str) -> int:
        """Parse a move string in ``position``. Raises NotationError naming the problem.

        The result is an action id that is well formed for this position; whether it is legal
        is for ``legal_actions``/``apply_action`` to say.
        """
        verb, args = words_of(text)
        own = self.own.name
        if verb == "pass":
            if args:
                raise NotationError("'pass' takes no argument")
            return self.pass_id
        if verb == "take":
            return self._parse_take(args)
        if verb == "return":
            if len(args) != 1 or len(args[0]) != 1:
                raise NotationError(f"'return' needs one token letter, e.g. 'return {self.letters[0]}'")
            return RETURN + self._letters(args[0], "return", self.letters)[0]
        if verb == own:
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) >= len(self.own.requires):
                raise NotationError(f"'{own}' needs a {own} id 0..{len(self.own.requires) - 1}")
            return self.own.first + int(args[0])
        if verb == "reserve":
            return self._parse_reserve(position, args)
        if verb == "buy":
            return self._parse_buy(position, args)
        raise NotationError(f"unknown move {verb!r} (take, reserve, buy, return, {own}, pass)")

    # ------------------------------------------------------------------ positions
    def deal(self, players: int, seed: int | None) -> tuple[random.Random, dict]:
        """The shuffled decks and board of a new game, and the generator that shuffled them
        (the game deals its own pieces with it next): the parts of the initial position all
        games of this shape share."""
        if players not in PLAYER_COUNTS or isinstance(players, bool):
            raise PositionError("players", f"{self.title} is for 2, 3 or 4 players, not {players!r}")
        rng = random.Random(seed)
        decks = []
        board = []
        for lv in range(LEVELS):
            deck = list(self.cards_by_level[lv])
            rng.shuffle(deck)
            board.append([deck.pop() for _ in range(SLOTS)])
            decks.append(deck)
        return rng, {
            "game": self.game, "players": players, "start_seat": 0, "current": 0,
            "phase": "main", "turn": 0, "final_round": False, "passes": 0,
            "board": board, "decks": decks, "deck_sizes": [len(d) for d in decks],
        }

    def view_position(self, position: dict, seat: int) -> dict:
        """``position`` as ``seat`` sees it: no deck order, no other seat's blind reserve."""
        return hide_cards(position, seat)

    def unseen_cards(self, position: dict, seat: int) -> list[list[int]]:
        """Per level, the cards ``seat`` has not seen (sorted): the pool hidden cards come from."""
        return unseen_cards(position, seat, position["board"], self.cards_by_level)

    def resample_position(self, position: dict, seat: int, rng: random.Random) -> dict:
        """A full position: everything ``seat`` cannot see redrawn from what it has not seen.

        Other seats' blind reserves keep their level; each deck keeps its size.
        """
        return redraw_cards(position, seat, rng, position["board"], self.cards_by_level)

    # ------------------------------------------------------------------ validation
    def validate_header(self, position, keys: tuple[str, ...]) -> dict:
        """The scalar fields of a position, checked: what every game of this shape has."""
        if not isinstance(position, dict):
            raise PositionError("position", f"expected a dictionary, got {type(position).__name__}")
        for key in ("players", "current", "phase", "supply", "board", *keys, "seats", "deck_sizes"):
            if key not in position:
                raise PositionError(key, "missing")
        game = position.get("game", self.game)
        if game != self.game:
            raise PositionError("game", f"expected {self.game!r}, got {game!r}")
        n = position["players"]
        if n not in PLAYER_COUNTS or isinstance(n, bool):
            raise PositionError("players", f"{self.title} is for 2, 3 or 4 players, not {n!r}")
        out = {"game": self.game, "players": n,
               "start_seat": check_int(position.get("start_seat", 0), "start_seat", 0, n - 1),
               "current": check_int(position["current"], "current", 0, n - 1),
               "phase": position["phase"]}
        if out["phase"] not in self.phases:
            raise PositionError("phase", f"unknown phase {out['phase']!r} (one of {', '.join(self.phases)})")
        out["turn"] = check_int(position.get("turn", 0), "turn", 0, 1 << 30)
        out["final_round"] = position.get("final_round", False)
        if not isinstance(out["final_round"], bool):
            raise PositionError("final_round", f"expected true or false, got {out['final_round']!r}")
        out["passes"] = check_int(position.get("passes", 0), "passes", 0, n)
        out["observer"] = position.get("observer")
        if out["observer"] is not None:
            check_int(out["observer"], "observer", 0, n - 1)
        return out

    def validate_board(self, board, places: Places) -> list[list[int]]:
        board = check_list(board, "board", LEVELS)
        out = []
        for lv in range(LEVELS):
            row = check_list(board[lv], f"board[{lv}]", SLOTS)
            for s in range(SLOTS):
                f = f"board[{lv}][{s}]"
                cid = check_int(row[s], f, -1, len(self.cards) - 1)
                if cid >= 0:
                    places.card(cid, f)
                    self._check_level(cid, lv, f)
            out.append(row)
        return out

    def _check_level(self, cid: int, lv: int, where: str) -> None:
        if self.cards[cid].level != lv + 1:
            raise PositionError(where, f"card {cid} is of level {self.cards[cid].level}, not {lv + 1}")

    def validate_seat(self, s, i: int, token_max: list[int], observer, places: Places,
                      hidden: list[int]) -> dict:
        """A seat's tokens, cards and reserve, checked; its own pieces are the game's to check."""
        sf = f"seats[{i}]"
        if not isinstance(s, dict):
            raise PositionError(sf, "expected a dictionary")
        for key in ("tokens", "cards", "reserved", self.own.name + "s"):
            if key not in s:
                raise PositionError(f"{sf}.{key}", "missing")
        tokens = check_list(s["tokens"], f"{sf}.tokens", self.kinds)
        for k in range(self.kinds):
            check_int(tokens[k], f"{sf}.tokens[{k}]", 0, token_max[k])
        cards = check_list(s["cards"], f"{sf}.cards")
        for j, cid in enumerate(cards):
            places.card(cid, f"{sf}.cards[{j}]")
        reserved = check_reserved(s["reserved"], sf, i, observer, self.cards, places.card, hidden)
        # Cards a seat owns are a set: the canonical form lists them sorted.
        return {"tokens": tokens, "cards": sorted(cards), "reserved": reserved}

    def validate_supply(self, supply, totals: list[int]) -> list[int]:
        supply = check_list(supply, "supply", self.kinds)
        for k in range(self.kinds):
            check_int(supply[k], f"supply[{k}]", 0, totals[k])
        return supply

    def check_conservation(self, supply: list[int], seats: list[dict], totals: list[int]) -> None:
        """Every token is in the supply or with a seat."""
        for k in range(self.kinds):
            held = sum(s["tokens"][k] for s in seats)
            if held + supply[k] != totals[k]:
                raise PositionError(
                    f"supply[{k}]",
                    f"{self.token_names[k]}: supply {supply[k]} + seats {held} != {totals[k]} tokens in the game",
                )

    def validate_decks(self, position, places: Places, hidden: list[int], observer):
        """The decks (a view has none) and their sizes: every card of a level accounted for."""
        deck_sizes = check_list(position["deck_sizes"], "deck_sizes", LEVELS)
        decks = position.get("decks")
        if decks is None and observer is None:
            raise PositionError("decks", "a full position (no observer) needs the decks")
        if decks is not None:
            decks = check_list(decks, "decks", LEVELS)
        out_decks: list[list[int]] = []
        for lv in range(LEVELS):
            size = check_int(deck_sizes[lv], f"deck_sizes[{lv}]", 0, len(self.cards_by_level[lv]))
            if decks is not None:
                deck = check_list(decks[lv], f"decks[{lv}]")
                if len(deck) != size:
                    raise PositionError(f"deck_sizes[{lv}]", f"{size}, but decks[{lv}] holds {len(deck)} cards")
                for j, cid in enumerate(deck):
                    places.card(cid, f"decks[{lv}][{j}]")
                    self._check_level(cid, lv, f"decks[{lv}][{j}]")
                out_decks.append(deck)
            known = sum(1 for cid in places.cards if self.cards[cid].level == lv + 1)
            if decks is None:
                known += size
            if known + hidden[lv] != len(self.cards_by_level[lv]):
                raise PositionError(
                    f"deck_sizes[{lv}]",
                    f"level {lv + 1}: {known + hidden[lv]} cards accounted for, "
                    f"the game has {len(self.cards_by_level[lv])}",
                )
        return (None if decks is None else out_decks), [int(x) for x in deck_sizes]

    def validate(self, position, totals_for, in_play_for, place_piece, seat_own, token_max=None, own_fields=None,
                 finish=None) -> dict:
        """Checks a position dictionary; a normalised copy, or PositionError(field, why).

        The game gives, for a number of players: ``totals_for`` (tokens of each kind in the
        game) and ``in_play_for`` (how many of its pieces may be in play); and
        ``place_piece(places, piece, field)`` (one place per piece),
        ``seat_own(seat, raw, i, places)`` (its own checks and fields of a seat, after the
        tokens, cards and reserve), ``token_max(totals)`` (a seat's most of each kind; default
        the totals), ``own_fields(out, position)`` (its own scalar fields) and ``finish(out)``
        (its own checks of the whole: the trigger, its tiles)."""
        pieces = self.own.name + "s"
        out = self.validate_header(position, (pieces,))
        n, observer = out["players"], out["observer"]
        totals, in_play = totals_for(n), in_play_for(n)
        if own_fields:
            own_fields(out, position)
        out["supply"] = self.validate_supply(position["supply"], totals)
        places = Places(len(self.cards))
        out["board"] = self.validate_board(position["board"], places)
        out[pieces] = check_list(position[pieces], pieces, max_len=in_play)
        for i, piece in enumerate(out[pieces]):
            place_piece(places, piece, f"{pieces}[{i}]")
        hidden = [0] * LEVELS
        out["seats"] = [
            seat_own(self.validate_seat(s, i, token_max(totals) if token_max else totals, observer, places, hidden),
                     s, i, places)
            for i, s in enumerate(check_list(position["seats"], "seats", n))
        ]
        self.check_conservation(out["supply"], out["seats"], totals)
        out["decks"], out["deck_sizes"] = self.validate_decks(position, places, hidden, observer)
        if len(places.pieces) > in_play:
            raise PositionError(pieces, f"more than {in_play} {pieces} in play")
        self.check_phase(out)
        if finish:
            finish(out)
        return out

    def check_phase(self, out: dict) -> None:
        """The phase must be one the rules can reach: 'return' only above the token limit,
        the game's own phase only when two or more of its pieces qualify."""
        phase, current, seats = out["phase"], out["current"], out["seats"]
        if phase == "return" and sum(seats[current]["tokens"]) <= TOKEN_LIMIT:
            raise PositionError("phase", "'return' but the seat to act holds 10 tokens or fewer")
        for i, s in enumerate(seats):
            if sum(s["tokens"]) > TOKEN_LIMIT and not (phase == "return" and i == current):
                raise PositionError(f"seats[{i}].tokens", "more than 10 tokens outside that seat's 'return' phase")
        if phase == self.own.name and len(self.qualifying(out, seats[current])) < 2:
            raise PositionError("phase", f"'{phase}' but fewer than two {phase}s can come to the seat to act")

    # ------------------------------------------------------------------ messages and drawing
    def explain_illegal(self, position: dict, action: int) -> str:
        """Why ``action`` is not legal in ``position`` (for IllegalActionError messages)."""
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is an integer id, got {action!r}"
        kind = self.action_kind(action)
        name, reason = action_name(position, action, kind, self.num_actions, self.action_to_string)
        if reason is not None:
            return reason
        phase = position["phase"]
        seat = position["seats"][position["current"]]
        if phase == "return":
            if kind != "return":
                return f"{name}: seat {position['current']} must first return tokens down to 10"
            why = self.return_notes.get(action - RETURN)
            return f"{name}: " + (why or f"the seat holds no {self.token_names[action - RETURN]} token")
        if phase == self.own.name:
            if kind != self.own.name:
                return f"{name}: seat {position['current']} must first {self.own.choose}"
            return f"{name}: {self.own.unavailable}"
        if kind in ("return", self.own.name):
            return f"{name}: only legal at the end of a turn ({kind} phase), not in the main action"
        if kind.startswith("take"):
            return self._explain_take(position["supply"], kind, action, name)
        if kind in ("reserve_board", "reserve_deck"):
            if len(seat["reserved"]) >= MAX_RESERVED:
                return f"{name}: the seat already holds {MAX_RESERVED} reserved cards"
            if kind == "reserve_deck" and position["deck_sizes"][action - RESERVE_DECK] == 0:
                return f"{name}: the level-{action - RESERVE_DECK + 1} deck is empty"
            return f"{name}: not legal here"
        if kind == "buy":
            cid = buy_target_card(position, self.split_buy(action)[0])
            assert cid is not None  # action_name gave the reason for an empty target
            if self.payment(self.cards[cid].cost, self.bonuses(seat["cards"]), seat["tokens"], 0) is None:
                return f"{name}: not affordable ({self.short_of})"
            return f"{name}: that payment is not possible for this seat"
        return "pass: only legal when no other action is"

    def _explain_take(self, supply, kind: str, action: int, name: str) -> str:
        cols = taken_tokens(action)
        for c in cols:
            if supply[c] == 0:
                return f"{name}: the {self.colours[c]} pile is empty"
        if kind == "take2same":
            return f"{name}: taking two {self.colours[cols[0]]} needs 4 in the pile, there are {supply[cols[0]]}"
        available = sum(1 for c in range(5) if supply[c] > 0)
        return f"{name}: {available} colours are available, so take 3 different colours"

    def tokens_text(self, counts) -> str:
        return " ".join(f"{self.letters[k]}{n}" for k, n in enumerate(counts) if n) or "-"

    def cost_text(self, cost) -> str:
        return "".join(f"{n}{self.letters[k]}" for k, n in enumerate(cost) if n)

    def render(self, position: dict, header: list[str], card_marks, seat_text) -> str:
        """A compact text drawing of a position (no colours; a terminal UI draws its own).
        ``header``: the game's lines after the supply; ``card_marks(card)``: marks after a
        card's points; ``seat_text(i, seat)``: a seat's points and its own parts."""
        def card(cid):
            if cid is None:
                return "[hidden]"
            if cid < 0:
                return "[ empty ]"
            c = self.cards[cid]
            return f"[{cid:2d} {self.letters[c.color]}{c.points}{card_marks(c)} {self.cost_text(c.cost)}]"

        lines = [
            f"{self.title} {position['players']}p  turn {position['turn']}  phase {position['phase']}"
            f"  to act: seat {position['current']}" + ("  FINAL ROUND" if position["final_round"] else ""),
            "supply: " + self.tokens_text(position["supply"]),
            *header,
        ]
        for lv in range(LEVELS - 1, -1, -1):
            lines.append(f"L{lv + 1} ({position['deck_sizes'][lv]:2d}) "
                         + " ".join(card(c) for c in position["board"][lv]))
        for i, s in enumerate(position["seats"]):
            points, own = seat_text(i, s)
            lines.append(
                f"seat {i}: {points:2d} pts  tokens {self.tokens_text(s['tokens'])}  bonuses "
                + self.tokens_text(self.bonuses(s["cards"])) + own
                + ("  reserved " + " ".join(card(r["card"]) for r in s["reserved"]) if s["reserved"] else "")
            )
        return "\n".join(lines)
