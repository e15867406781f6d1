"""The base game and Marvel on the wire, written once: their positions, seats and moves have
the same shape (games/cards/), so one ``CardGameWire`` converts both ways for either, given
the game's spec, its messages and its own fields. ``convert_base`` and ``convert_marvel``
make one each and add their catalogue.

Validation is the game's own (``spec.validate_position``); this module only builds the
position dictionary, checks what the dictionary cannot express (a missing message, an unset
enum) and writes the dictionary's error paths as message paths.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from . import _wire
from .errors import FieldError

MOVE_KINDS = {"take3": "KIND_TAKE", "take2diff": "KIND_TAKE", "take1": "KIND_TAKE", "take2same": "KIND_TAKE",
              "reserve_board": "KIND_RESERVE", "reserve_deck": "KIND_RESERVE_DECK", "buy": "KIND_BUY",
              "return": "KIND_RETURN", "pass": "KIND_PASS"}


@dataclass(frozen=True, eq=False)
class CardGameWire:
    """One game's converter. ``oneof``: the game's field in Position and Move; ``position``,
    ``seat``, ``move``, ``tokens``: its message classes; ``extra``: its own position fields
    besides its pieces (``avengers``) with their own seat fields made by ``seat_extra(p, i)``."""

    spec: ModuleType
    name: str
    pb: ModuleType  # the generated module (splendor.v1.splendor_pb2)
    oneof: str
    token_fields: tuple[str, ...]
    # Generated message classes (protobuf ships no types: what they hold is unchecked).
    position: type[Any]
    seat: type[Any]
    move: type[Any]
    tokens: type[Any]
    extra: tuple[str, ...] = ()
    seat_extra: Callable[[dict, int], dict] = lambda position, seat: {}  # the seat message's own fields
    phases: dict = field(init=False)
    fixed_moves: _wire.FixedMoves = field(init=False, repr=False)  # a take, a return, a deck reserve, ...

    def __post_init__(self):
        phases = {getattr(self.position, f"PHASE_{p.upper()}"): p for p in self.spec.PHASES}
        object.__setattr__(self, "phases", phases)
        object.__setattr__(self, "fixed_moves", _wire.FixedMoves(self.spec.FIXED_NOTATION,
                                                                 lambda a: self._encode_move(None, a, None)))

    @property
    def piece(self) -> str:
        """The game's own piece: "noble" or "location" (also its phase and position key)."""
        return self.spec.RULES.own.name

    def wire_tokens(self, counts):
        return _wire.tokens(self.tokens, self.token_fields, counts)

    def proto_path(self, text: str) -> str:
        """A position-dictionary path (also inside a message) written as the message's path."""
        return _wire.card_grid_paths(_wire.token_paths(text, "supply|tokens", self.token_fields), "board|decks")

    def decode(self, m, prefix: str) -> dict:
        """The position dictionary of the game's position message (not yet validated)."""
        names = ", ".join(f"PHASE_{p.upper()}" for p in self.spec.PHASES)
        phase = _wire.phase(m.phase, self.phases, names.replace(", PHASE_OVER", " or PHASE_OVER"), f"{prefix}.phase")
        _wire.require(m, "supply", prefix)
        pieces = self.piece + "s"
        seats = []
        for i, s in enumerate(m.seats):
            _wire.require(s, "tokens", f"{prefix}.seats[{i}]")
            seats.append({"tokens": _wire.counts(s.tokens, self.token_fields), "cards": list(s.cards),
                          "reserved": _wire.reserved_in(s.reserved), pieces: list(getattr(s, pieces))})
        return {
            "game": self.spec.GAME, "players": m.players, "start_seat": m.start_seat, "current": m.current,
            "phase": phase, "turn": m.turn, "final_round": m.final_round, "passes": m.passes,
            "supply": _wire.counts(m.supply, self.token_fields), "board": [list(row.cards) for row in m.board],
            "decks": [list(d.cards) for d in m.decks] if len(m.decks) else None,
            "deck_sizes": list(m.deck_sizes), pieces: list(getattr(m, pieces)),
            **{k: getattr(m, k) if m.HasField(k) else None for k in self.extra},
            "seats": seats, "observer": m.observer if m.HasField("observer") else None,
        }

    def encode(self, p: dict):
        """The Position message of a position dictionary."""
        pb = self.pb
        pieces = self.piece + "s"
        wild = [0] * (self.spec.RULES.kinds - 5)
        seats = [
            self.seat(
                tokens=self.wire_tokens(s["tokens"]), cards=s["cards"], **{pieces: s[pieces]},
                reserved=[pb.ReservedCard(card=r["card"], level=r["level"], blind=r["blind"]) for r in s["reserved"]],
                bonuses=self.wire_tokens(self.spec.bonuses(s["cards"]) + wild), **self.seat_extra(p, i),
            )
            for i, s in enumerate(p["seats"])
        ]
        return pb.Position(**{self.oneof: self.position(
            players=p["players"], start_seat=p["start_seat"], current=p["current"],
            phase={v: k for k, v in self.phases.items()}[p["phase"]], turn=p["turn"], final_round=p["final_round"],
            passes=p["passes"], supply=self.wire_tokens(p["supply"]),
            board=[pb.BoardRow(cards=row) for row in p["board"]],
            decks=[pb.Deck(cards=d) for d in p["decks"]] if p["decks"] is not None else [],
            deck_sizes=p["deck_sizes"], **{pieces: p[pieces]}, **{k: p[k] for k in self.extra},
            seats=seats, observer=p["observer"],
        )})

    def encode_move(self, position: dict | None, action: int, notation: str | None = None):
        """A move made in ``position`` (a position dictionary; None will do for a move that is the
        same in every position, spec.FIXED_NOTATION): notation (``notation`` when the caller has
        it already) and structured form."""
        fixed = self.fixed_moves.get(action)
        return fixed if fixed is not None else self._encode_move(position, action, notation)

    def _encode_move(self, position: Any, action: int, notation: str | None):
        """``encode_move`` made from the position (None only for a move the same in every position)."""
        spec = self.spec
        kind = spec.action_kind(action)
        move = self.move(kind=MOVE_KINDS.get(kind, f"KIND_{kind.upper()}"))
        counts = [0] * spec.RULES.kinds
        if kind.startswith("take"):
            for c in spec.taken_tokens(action):
                counts[c] += 1
            move.tokens.CopyFrom(self.wire_tokens(counts))
        elif kind == "reserve_board":
            _wire.set_card(move, spec.CARDS, spec.buy_target_card(position, action - spec.RESERVE_BOARD))
        elif kind == "reserve_deck":
            move.level = action - spec.RESERVE_DECK + 1
        elif kind == "return":
            counts[action - spec.RETURN] = 1
            move.tokens.CopyFrom(self.wire_tokens(counts))
        elif kind == self.piece:
            setattr(move, self.piece, action - spec.RULES.own.first)
        elif kind == "buy":
            target, variant = spec.split_buy(action)
            card = spec.CARDS[spec.buy_target_card(position, target)]
            seat = position["seats"][position["current"]]
            _wire.set_card(move, spec.CARDS, card.id)
            move.tokens.CopyFrom(self.wire_tokens(spec.payment(card.cost, spec.bonuses(seat["cards"]), seat["tokens"],
                                                               variant)))
        text = notation if notation is not None else spec.action_to_string(position, action)
        return self.pb.Move(notation=text, action_id=action, **{self.oneof: move})

    def structured_notation(self, m, field: str) -> str:
        """The notation string a structured move of this game stands for."""
        K = self.move
        piece = self.piece

        def letters(f):
            return _wire.letters(m.tokens, self.token_fields, self.spec.LETTERS, f)

        if m.kind == K.KIND_TAKE:
            return "take " + letters(f"{field}.tokens")
        if m.kind in (K.KIND_RESERVE, K.KIND_BUY):
            if not m.HasField("card"):
                raise FieldError(f"{field}.card", "missing: the card id")
            if m.kind == K.KIND_RESERVE:
                return f"reserve {m.card}"
            paid = letters(f"{field}.tokens")
            return f"buy {m.card}" + (f" pay {paid}" if paid else "")
        if m.kind == K.KIND_RESERVE_DECK:
            if m.level not in (1, 2, 3):
                raise FieldError(f"{field}.level", f"the deck's level is 1, 2 or 3, not {m.level}")
            return f"reserve deck{m.level}"
        if m.kind == K.KIND_RETURN:
            return "return " + _wire.one_letter(m.tokens, self.token_fields, self.spec.LETTERS, f"{field}.tokens",
                                                "a return")
        if m.kind == getattr(K, f"KIND_{piece.upper()}"):
            if not m.HasField(piece):
                raise FieldError(f"{field}.{piece}", f"missing: the {piece} id")
            return f"{piece} {getattr(m, piece)}"
        if m.kind == K.KIND_PASS:
            return "pass"
        raise FieldError(f"{field}.kind", "unspecified: the kind of move")
