"""Splendor Duel on the wire: DuelPosition, DuelMove and DuelCatalog, both ways.

Validation is the game's own (``spec.validate_position``, docs/duel.md); this module builds
the position dictionary (the 5x5 board travels as 25 cells, index row * 5 + column), checks
what the dictionary cannot express (a missing message, an unset enum, hidden parts sent in a
view) and writes the dictionary's error paths as message paths.
"""
from __future__ import annotations

import re

from splendor.v1 import splendor_pb2 as pb

from ..games.duel import spec
from . import _wire
from .errors import FieldError

GAME = "duel"
NAME = "Splendor Duel"
TOKEN_FIELDS = ("white", "blue", "green", "red", "black", "pearl", "gold")
P = pb.DuelPosition
PHASES = {P.PHASE_MAIN: "main", P.PHASE_MANDATORY: "mandatory", P.PHASE_RESERVE: "reserve",
          P.PHASE_JOKER: "joker", P.PHASE_TOKEN: "token", P.PHASE_STEAL: "steal", P.PHASE_ROYAL: "royal",
          P.PHASE_DISCARD: "discard", P.PHASE_OVER: "over"}
PHASE_OF = {v: k for k, v in PHASES.items()}
_PHASE_NAMES = ", ".join(P.Phase.Name(v) for v in PHASES)
K = pb.DuelMove
KINDS = {"privilege": K.KIND_PRIVILEGE, "replenish": K.KIND_REPLENISH, "take": K.KIND_TAKE, "gold": K.KIND_GOLD,
         "reserve": K.KIND_RESERVE, "reserve_deck": K.KIND_RESERVE_DECK, "buy": K.KIND_BUY,
         "joker": K.KIND_JOKER, "token": K.KIND_TOKEN, "steal": K.KIND_STEAL, "royal": K.KIND_ROYAL,
         "discard": K.KIND_DISCARD, "pass": K.KIND_PASS}
# Kinds whose move names one cell, and the action id of cell 0.
_ONE_CELL = {"privilege": spec.PRIVILEGE, "gold": spec.TAKE_GOLD, "token": spec.TOKEN}
# Kinds whose move names one token kind, and the action id of kind 0.
_ONE_TOKEN = {"steal": spec.STEAL, "joker": spec.JOKER_COLOR, "discard": spec.DISCARD}
ABILITIES = {spec.EXTRA_TURN: pb.DUEL_ABILITY_EXTRA_TURN, spec.BONUS_WILD: pb.DUEL_ABILITY_BONUS_WILD,
             spec.TAKE_TOKEN: pb.DUEL_ABILITY_TAKE_TOKEN, spec.TAKE_PRIVILEGE: pb.DUEL_ABILITY_TAKE_PRIVILEGE,
             spec.STEAL_TOKEN: pb.DUEL_ABILITY_STEAL_TOKEN}


def _tokens(counts) -> pb.DuelTokens:
    return _wire.tokens(pb.DuelTokens, TOKEN_FIELDS, counts)


def proto_path(text: str) -> str:
    text = re.sub(r"\bboard\[\d\](?![\[.])", "board", text)  # a row: the message has no rows
    text = re.sub(r"\bboard\[(\d)\]\[(\d)\]", lambda m: f"board[{int(m[1]) * spec.SIZE + int(m[2])}]", text)
    text = _wire.token_paths(text, "tokens|bag_contents", TOKEN_FIELDS)
    return _wire.card_grid_paths(text, "pyramid|decks")


def _abilities(bits: int) -> list[pb.DuelAbility]:
    return [value for bit, value in ABILITIES.items() if bits & bit]


def _card_at(position: dict, target: int) -> int:
    """The card a legal reserve or buy names."""
    cid = spec.target_card(position, target)
    assert cid is not None  # only a legal move is encoded
    return cid


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_DUEL, duel=pb.DuelCatalog(
        cards=[pb.DuelCard(id=c.id, level=c.level, color=_wire.enum(pb.DuelColor, c.color + 1), points=c.points,
                           crowns=c.crowns,
                           bonus=c.bonus, abilities=_abilities(c.abilities), cost=_tokens(list(c.cost) + [0]))
               for c in spec.CARDS],
        royals=[pb.DuelRoyal(id=r.id, points=r.points, abilities=_abilities(r.abilities)) for r in spec.ROYALS],
        spiral=[spec.cell_name(c) for c in spec.SPIRAL],
    ))


def decode(m: pb.DuelPosition, prefix: str) -> dict:
    """The position dictionary of a DuelPosition (not yet validated)."""
    phase = _wire.phase(m.phase, PHASES, _PHASE_NAMES, f"{prefix}.phase")
    view = m.HasField("observer")
    if len(m.board) != spec.CELLS:
        raise FieldError(f"{prefix}.board", f"exactly {spec.CELLS} cells (index row * 5 + column), got {len(m.board)}")
    if view and len(m.bag):
        raise FieldError(f"{prefix}.bag", "a view (observer set) does not know the bag's draw order: leave it empty")
    if view and m.HasField("bag_seed"):
        raise FieldError(f"{prefix}.bag_seed", "a view (observer set) does not know the bag's seed: leave it unset")
    seats = []
    for i, s in enumerate(m.seats):
        _wire.require(s, "tokens", f"{prefix}.seats[{i}]")
        seats.append({"tokens": _wire.counts(s.tokens, TOKEN_FIELDS), "cards": list(s.cards),
                      "jokers": [{"card": j.card, "color": j.color} for j in s.jokers],
                      "reserved": _wire.reserved_in(s.reserved), "privileges": s.privileges,
                      "royals": list(s.royals)})
    cells = list(m.board)
    return {
        "game": GAME, "players": m.players or 2, "start_seat": m.start_seat, "current": m.current,
        "phase": phase, "turn": m.turn, "extra_turn": m.extra_turn,
        "pending_card": m.pending_card if m.HasField("pending_card") else None,
        "board": [cells[r * spec.SIZE:(r + 1) * spec.SIZE] for r in range(spec.SIZE)],
        "bag": None if view else list(m.bag),
        "bag_seed": m.bag_seed if m.HasField("bag_seed") else None,
        "bag_contents": _wire.counts(m.bag_contents, TOKEN_FIELDS) if m.HasField("bag_contents") else None,
        "privileges": m.privileges, "pyramid": [list(row.cards) for row in m.pyramid],
        "decks": [list(d.cards) for d in m.decks] if len(m.decks) else None,
        "deck_sizes": list(m.deck_sizes), "royals": list(m.royals), "seats": seats,
        "observer": m.observer if view else None,
    }


def encode(p: dict) -> pb.Position:
    seats = [
        pb.DuelSeat(
            tokens=_tokens(s["tokens"]), cards=s["cards"],
            jokers=[pb.DuelJoker(card=j["card"], color=j["color"]) for j in s["jokers"]],
            reserved=[pb.ReservedCard(card=r["card"], level=r["level"], blind=r["blind"]) for r in s["reserved"]],
            privileges=s["privileges"], royals=s["royals"], points=spec.seat_points(s),
            crowns=spec.seat_crowns(s), bonuses=_tokens(spec.bonuses(s) + [0, 0]),
        )
        for s in p["seats"]
    ]
    return pb.Position(duel=pb.DuelPosition(
        players=2, start_seat=p["start_seat"], current=p["current"], phase=PHASE_OF[p["phase"]], turn=p["turn"],
        extra_turn=p["extra_turn"], pending_card=p["pending_card"],
        board=[k for row in p["board"] for k in row], bag=p["bag"] or [], bag_seed=p["bag_seed"],
        bag_contents=_tokens(spec.bag_contents(p)), privileges=p["privileges"],
        pyramid=[pb.BoardRow(cards=row) for row in p["pyramid"]],
        decks=[pb.Deck(cards=d) for d in p["decks"]] if p["decks"] is not None else [],
        deck_sizes=p["deck_sizes"], royals=p["royals"], seats=seats, observer=p["observer"],
    ))


def encode_move(position: dict | None, action: int, notation: str | None = None) -> pb.Move:
    """A move made in ``position`` (a position dictionary; None will do for a move that is the
    same in every position, spec.FIXED_NOTATION): notation (``notation`` when the caller has it
    already) and structured form."""
    fixed = _FIXED_MOVES.get(action)
    return fixed if fixed is not None else _encode_move(position, action, notation)


def _encode_move(position, action: int, notation: str | None) -> pb.Move:
    kind = spec.action_kind(action)
    move = pb.DuelMove(kind=KINDS[kind])
    if kind in _ONE_CELL:
        move.cells.append(action - _ONE_CELL[kind])
    elif kind == "take":
        move.cells.extend(spec.LINES[action - spec.TAKE])
    elif kind in _ONE_TOKEN:
        counts = [0] * 7
        counts[action - _ONE_TOKEN[kind]] = 1
        move.tokens.CopyFrom(_tokens(counts))
    elif kind == "reserve":
        _wire.set_card(move, spec.CARDS, _card_at(position, action - spec.RESERVE))
    elif kind == "reserve_deck":
        move.level = action - spec.RESERVE_DECK + 1
    elif kind == "royal":
        move.royal = action - spec.ROYAL
    elif kind == "buy":
        target, variant = spec.split_buy(action)
        card = spec.CARDS[_card_at(position, target)]
        seat = position["seats"][position["current"]]
        _wire.set_card(move, spec.CARDS, card.id)
        move.tokens.CopyFrom(_tokens(spec.payment(card.cost, spec.bonuses(seat), seat["tokens"], variant)))
    text = notation if notation is not None else spec.action_to_string(position, action)
    return pb.Move(notation=text, action_id=action, duel=move)


_FIXED_MOVES = _wire.FixedMoves(spec.FIXED_NOTATION, lambda a: _encode_move(None, a, None))


def _cell(value: int, field: str) -> str:
    if not 0 <= value < spec.CELLS:
        raise FieldError(field, f"a cell is 0..{spec.CELLS - 1} (row * 5 + column), got {value}")
    return spec.cell_name(value)


def structured_notation(m: pb.DuelMove, field: str) -> str:
    """The notation string a structured Duel move stands for."""
    name = {v: k for k, v in KINDS.items()}.get(m.kind)
    if name is None:
        raise FieldError(f"{field}.kind", "unspecified: the kind of move" if m.kind == 0 else f"unknown value {m.kind}")
    if name in _ONE_CELL or name == "take":
        if name != "take" and len(m.cells) != 1:
            raise FieldError(f"{field}.cells", f"a {name} move names exactly one cell, got {len(m.cells)}")
        if name == "take" and not 1 <= len(m.cells) <= 3:
            raise FieldError(f"{field}.cells", f"a take names 1 to 3 cells, got {len(m.cells)}")
        return name + " " + " ".join(_cell(c, f"{field}.cells[{i}]") for i, c in enumerate(m.cells))
    if name in _ONE_TOKEN:
        return f"{name} " + _wire.one_letter(m.tokens, TOKEN_FIELDS, spec.LETTERS, f"{field}.tokens", f"a {name}")
    if name in ("reserve", "buy"):
        if not m.HasField("card"):
            raise FieldError(f"{field}.card", "missing: the card id")
        if name == "reserve":
            return f"reserve {m.card}"
        paid = _wire.letters(m.tokens, TOKEN_FIELDS, spec.LETTERS, f"{field}.tokens")
        return f"buy {m.card}" + (f" pay {paid}" if paid else "")
    if name == "reserve_deck":
        if m.level not in (1, 2, 3):
            raise FieldError(f"{field}.level", f"the deck's level is 1, 2 or 3, not {m.level}")
        return f"reserve deck{m.level}"
    if name == "royal":
        if not m.HasField("royal"):
            raise FieldError(f"{field}.royal", "missing: the royal id")
        return f"royal {m.royal}"
    return name  # replenish, pass


def drawn_tokens(text: str, field: str) -> list[int]:
    """The token kinds of a ``drawn_tokens`` string (letters ``wugrkpy``)."""
    kinds = []
    for ch in text.strip().lower():
        if ch not in spec.LETTERS:
            raise FieldError(field, f"{ch!r} is not a token letter ({spec.LETTERS})")
        kinds.append(spec.LETTERS.index(ch))
    return kinds
