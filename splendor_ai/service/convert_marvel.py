"""Splendor: Marvel on the wire: MarvelPosition, MarvelMove and MarvelCatalog, both ways.

Validation is the game's own (``spec.validate_position``, docs/marvel.md); this module builds
the position dictionary, checks what the dictionary cannot express (a missing message, an
unset enum) and writes the dictionary's error paths as message paths.
"""
from __future__ import annotations

from splendor.v1 import splendor_pb2 as pb

from ..games.marvel import spec
from . import _wire
from .errors import FieldError

GAME = "marvel"
NAME = "Splendor: Marvel"
TOKEN_FIELDS = ("yellow", "red", "orange", "blue", "purple", "green", "grey")
P = pb.MarvelPosition
PHASES = {P.PHASE_MAIN: "main", P.PHASE_RETURN: "return", P.PHASE_LOCATION: "location", P.PHASE_OVER: "over"}
PHASE_OF = {v: k for k, v in PHASES.items()}
KINDS = {"take3": "KIND_TAKE", "take2diff": "KIND_TAKE", "take1": "KIND_TAKE", "take2same": "KIND_TAKE",
         "reserve_board": "KIND_RESERVE", "reserve_deck": "KIND_RESERVE_DECK", "buy": "KIND_BUY",
         "return": "KIND_RETURN", "location": "KIND_LOCATION", "pass": "KIND_PASS"}


def _tokens(counts) -> pb.MarvelTokens:
    return _wire.tokens(pb.MarvelTokens, TOKEN_FIELDS, counts)


def proto_path(text: str) -> str:
    return _wire.card_grid_paths(_wire.token_paths(text, "supply|tokens", TOKEN_FIELDS), "board|decks")


def catalog() -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(game=pb.GAME_MARVEL, marvel=pb.MarvelCatalog(
        cards=[pb.MarvelCard(id=c.id, name=c.name, level=c.level, color=c.color + 1, points=c.points,
                             avengers=c.avengers, time_stone=c.time_stone, cost=_tokens(c.cost))
               for c in spec.CARDS],
        locations=[pb.MarvelLocation(id=loc.id, name=loc.name, tile=loc.tile, side=loc.side, points=loc.points,
                                     requires=_tokens(loc.requires)) for loc in spec.LOCATIONS],
    ))


def decode(m: pb.MarvelPosition, prefix: str) -> dict:
    """The position dictionary of a MarvelPosition (not yet validated)."""
    phase = _wire.phase(m.phase, PHASES, "PHASE_MAIN, PHASE_RETURN, PHASE_LOCATION or PHASE_OVER",
                        f"{prefix}.phase")
    _wire.require(m, "supply", prefix)
    seats = []
    for i, s in enumerate(m.seats):
        _wire.require(s, "tokens", f"{prefix}.seats[{i}]")
        seats.append({"tokens": _wire.counts(s.tokens, TOKEN_FIELDS), "cards": list(s.cards),
                      "reserved": _wire.reserved_in(s.reserved), "locations": list(s.locations)})
    return {
        "game": GAME, "players": m.players, "start_seat": m.start_seat, "current": m.current, "phase": phase,
        "turn": m.turn, "final_round": m.final_round, "passes": m.passes,
        "supply": _wire.counts(m.supply, TOKEN_FIELDS), "board": [list(row.cards) for row in m.board],
        "decks": [list(d.cards) for d in m.decks] if len(m.decks) else None,
        "deck_sizes": list(m.deck_sizes), "locations": list(m.locations),
        "avengers": m.avengers if m.HasField("avengers") else None, "seats": seats,
        "observer": m.observer if m.HasField("observer") else None,
    }


def encode(p: dict) -> pb.Position:
    seats = [
        pb.MarvelSeat(
            tokens=_tokens(s["tokens"]), cards=s["cards"], locations=s["locations"],
            reserved=[pb.ReservedCard(card=r["card"], level=r["level"], blind=r["blind"]) for r in s["reserved"]],
            points=spec.seat_points(p, i), bonuses=_tokens(spec.bonuses(s["cards"]) + [0, 0]),
            avengers_icons=spec.icons(s["cards"]), meets_gauntlet=spec.meets_gauntlet(p, i),
        )
        for i, s in enumerate(p["seats"])
    ]
    return pb.Position(marvel=pb.MarvelPosition(
        players=p["players"], start_seat=p["start_seat"], current=p["current"], phase=PHASE_OF[p["phase"]],
        turn=p["turn"], final_round=p["final_round"], passes=p["passes"], supply=_tokens(p["supply"]),
        board=[pb.BoardRow(cards=row) for row in p["board"]],
        decks=[pb.Deck(cards=d) for d in p["decks"]] if p["decks"] is not None else [],
        deck_sizes=p["deck_sizes"], locations=p["locations"], avengers=p["avengers"], seats=seats,
        observer=p["observer"],
    ))


def encode_move(position: dict, action: int) -> pb.Move:
    """A move made in ``position`` (a position dictionary): notation and structured form."""
    kind = spec.action_kind(action)
    move = pb.MarvelMove(kind=KINDS[kind])
    counts = [0] * spec.KINDS
    if kind.startswith("take"):
        for c in spec.taken_tokens(action):
            counts[c] += 1
        move.tokens.CopyFrom(_tokens(counts))
    elif kind == "reserve_board":
        move.card = spec.buy_target_card(position, action - spec.RESERVE_BOARD)
        move.level = spec.CARDS[move.card].level
    elif kind == "reserve_deck":
        move.level = action - spec.RESERVE_DECK + 1
    elif kind == "return":
        counts[action - spec.RETURN] = 1
        move.tokens.CopyFrom(_tokens(counts))
    elif kind == "location":
        move.location = action - spec.LOCATION
    elif kind == "buy":
        target, variant = spec.split_buy(action)
        card = spec.CARDS[spec.buy_target_card(position, target)]
        seat = position["seats"][position["current"]]
        move.card, move.level = card.id, card.level
        move.tokens.CopyFrom(_tokens(spec.payment(card.cost, spec.bonuses(seat["cards"]), seat["tokens"], variant)))
    return pb.Move(notation=spec.action_to_string(position, action), action_id=action, marvel=move)


def structured_notation(m: pb.MarvelMove, field: str) -> str:
    """The notation string a structured Marvel move stands for."""
    K = pb.MarvelMove

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
        return "return " + _wire.one_letter(m.tokens, TOKEN_FIELDS, spec.LETTERS, f"{field}.tokens", "a return")
    if m.kind == K.KIND_LOCATION:
        if not m.HasField("location"):
            raise FieldError(f"{field}.location", "missing: the location id")
        return f"location {m.location}"
    if m.kind == K.KIND_PASS:
        return "pass"
    raise FieldError(f"{field}.kind", "unspecified: the kind of move")
