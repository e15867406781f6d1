"""The base game on the wire: BasePosition, BaseMove and BaseCatalog, both ways.

Validation is the game's own (``spec.validate_position``); this module only builds the
position dictionary, checks what the dictionary cannot express (a missing message, an unset
enum) and writes the dictionary's error paths as message paths.
"""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from ..games.base import spec
from . import _wire
from .errors import FieldError

GAME = "base"
NAME = "Splendor"
TOKEN_FIELDS = ("white", "blue", "green", "red", "black", "gold")
PHASES = {pb.BasePosition.PHASE_MAIN: "main", pb.BasePosition.PHASE_RETURN: "return",
          pb.BasePosition.PHASE_NOBLE: "noble", pb.BasePosition.PHASE_OVER: "over"}
PHASE_OF = {v: k for k, v in PHASES.items()}
KINDS = {"take3": "KIND_TAKE", "take2diff": "KIND_TAKE", "take1": "KIND_TAKE", "take2same": "KIND_TAKE",
         "reserve_board": "KIND_RESERVE", "reserve_deck": "KIND_RESERVE_DECK", "buy": "KIND_BUY",
         "return": "KIND_RETURN", "noble": "KIND_NOBLE", "pass": "KIND_PASS"}


def _tokens(counts) -> pb.Tokens:
    return _wire.tokens(pb.Tokens, TOKEN_FIELDS, counts)


def proto_path(text: str) -> str:
    """A position-dictionary path (also inside a message) written as the message's path."""
    return _wire.card_grid_paths(_wire.token_paths(text, "supply|tokens", TOKEN_FIELDS), "board|decks")


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_BASE, base=pb.BaseCatalog(
        cards=[pb.Card(id=c.id, level=c.level, color=c.color + 1, points=c.points, cost=_tokens(c.cost))
               for c in spec.CARDS],
        nobles=[pb.Noble(id=n.id, points=n.points, requires=_tokens(n.requires)) for n in spec.NOBLES],
    ))


def decode(b: pb.BasePosition, prefix: str) -> dict:
    """The position dictionary of a BasePosition (not yet validated)."""
    phase = _wire.phase(b.phase, PHASES, "PHASE_MAIN, PHASE_RETURN, PHASE_NOBLE or PHASE_OVER", f"{prefix}.phase")
    _wire.require(b, "supply", prefix)
    seats = []
    for i, s in enumerate(b.seats):
        _wire.require(s, "tokens", f"{prefix}.seats[{i}]")
        seats.append({"tokens": _wire.counts(s.tokens, TOKEN_FIELDS), "cards": list(s.cards),
                      "reserved": _wire.reserved_in(s.reserved), "nobles": list(s.nobles)})
    return {
        "game": "base", "players": b.players, "start_seat": b.start_seat, "current": b.current,
        "phase": phase, "turn": b.turn, "final_round": b.final_round, "passes": b.passes,
        "supply": _wire.counts(b.supply, TOKEN_FIELDS), "board": [list(row.cards) for row in b.board],
        "decks": [list(d.cards) for d in b.decks] if len(b.decks) else None,
        "deck_sizes": list(b.deck_sizes), "nobles": list(b.nobles), "seats": seats,
        "observer": b.observer if b.HasField("observer") else None,
    }


def encode(p: dict) -> pb.Position:
    seats = [
        pb.BaseSeat(
            tokens=_tokens(s["tokens"]), cards=s["cards"], nobles=s["nobles"],
            reserved=[pb.ReservedCard(card=r["card"], level=r["level"], blind=r["blind"]) for r in s["reserved"]],
            points=spec.seat_points(s), bonuses=_tokens(spec.bonuses(s["cards"]) + [0]),
        )
        for s in p["seats"]
    ]
    return pb.Position(base=pb.BasePosition(
        players=p["players"], start_seat=p["start_seat"], current=p["current"], phase=PHASE_OF[p["phase"]],
        turn=p["turn"], final_round=p["final_round"], passes=p["passes"], supply=_tokens(p["supply"]),
        board=[pb.BoardRow(cards=row) for row in p["board"]],
        decks=[pb.Deck(cards=d) for d in p["decks"]] if p["decks"] is not None else [],
        deck_sizes=p["deck_sizes"], nobles=p["nobles"], seats=seats, observer=p["observer"],
    ))


def encode_move(position: dict, action: int) -> pb.Move:
    """A move made in ``position`` (a position dictionary): notation and structured form."""
    kind = spec.action_kind(action)
    move = pb.BaseMove(kind=KINDS[kind])
    if kind.startswith("take"):
        counts = [0] * 6
        for c in spec.taken_tokens(action):
            counts[c] += 1
        move.tokens.CopyFrom(_tokens(counts))
    elif kind == "reserve_board":
        move.card = spec.buy_target_card(position, action - spec.RESERVE_BOARD)
        move.level = spec.CARDS[move.card].level
    elif kind == "reserve_deck":
        move.level = action - spec.RESERVE_DECK + 1
    elif kind == "return":
        counts = [0] * 6
        counts[action - spec.RETURN] = 1
        move.tokens.CopyFrom(_tokens(counts))
    elif kind == "noble":
        move.noble = action - spec.NOBLE
    elif kind == "buy":
        target, variant = spec.split_buy(action)
        card = spec.CARDS[spec.buy_target_card(position, target)]
        seat = position["seats"][position["current"]]
        move.card, move.level = card.id, card.level
        move.tokens.CopyFrom(_tokens(spec.payment(card.cost, spec.bonuses(seat["cards"]), seat["tokens"], variant)))
    return pb.Move(notation=spec.action_to_string(position, action), action_id=action, base=move)


def structured_notation(m: pb.BaseMove, field: str) -> str:
    """The notation string a structured base move stands for."""
    K = pb.BaseMove

    def letters(f):
        return _wire.letters(m.tokens, TOKEN_FIELDS, spec.LETTERS, f)

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
        text = letters(f"{field}.tokens")
        if len(text) != 1:
            raise FieldError(f"{field}.tokens", f"a return gives back exactly one token, not {len(text)}")
        return f"return {text}"
    if m.kind == K.KIND_NOBLE:
        if not m.HasField("noble"):
            raise FieldError(f"{field}.noble", "missing: the noble id")
        return f"noble {m.noble}"
    if m.kind == K.KIND_PASS:
        return "pass"
    raise FieldError(f"{field}.kind", "unspecified: the kind of move")
