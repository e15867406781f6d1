"""Splendor Duel: validation of position dictionaries (``spec.validate_position``).

Every problem raises PositionError with the dotted path of the offending field. The game's
tables come from ``tables`` (which ``spec`` re-exports), never from ``spec``, which calls this.
"""
from __future__ import annotations

from ..cards.common import check_bool as _bool, check_int as _int, check_list as _list, check_reserved
from ..errors import PositionError
from . import tables as spec

_MID_TURN = ("joker", "token", "steal", "royal")
_GEM_LETTERS = spec.LETTERS[:5]  # w u g r k: the gems' letters of the notation (`joker u`)


def validate(position) -> dict:
    if not isinstance(position, dict):
        raise PositionError("position", f"expected a dictionary, got {type(position).__name__}")
    for key in ("current", "phase", "board", "privileges", "pyramid", "deck_sizes", "royals", "seats"):
        if key not in position:
            raise PositionError(key, "missing")
    if position.get("game", spec.GAME) != spec.GAME:
        raise PositionError("game", f"expected {spec.GAME!r}, got {position.get('game')!r}")
    if position.get("players", 2) != 2 or isinstance(position.get("players", 2), bool):
        raise PositionError("players", f"Splendor Duel is for 2 players, not {position.get('players')!r}")
    start = _int(position.get("start_seat", 0), "start_seat", 0, 1)
    current = _int(position["current"], "current", 0, 1)
    phase = position["phase"]
    if phase not in spec.PHASES:
        raise PositionError("phase", f"unknown phase {phase!r} (one of {', '.join(spec.PHASES)})")
    turn = _int(position.get("turn", 0), "turn", 0, 1 << 30)
    extra_turn = _bool(position.get("extra_turn", False), "extra_turn")
    observer = position.get("observer")
    if observer is not None:
        _int(observer, "observer", 0, 1)
    pending = position.get("pending_card")
    if pending is not None:
        _int(pending, "pending_card", 0, len(spec.CARDS) - 1)

    board = _board(position["board"])
    where: dict[int, str] = {}
    pyramid, hidden = _pyramid(position["pyramid"], where), [0] * spec.LEVELS
    seats = [_seat(s, i, where, hidden, observer) for i, s in enumerate(_list(position["seats"], "seats", 2))]
    decks, deck_sizes = _decks(position, where, hidden, observer)
    royals = _royals(position["royals"], seats)
    supply = _int(position["privileges"], "privileges", 0, spec.PRIVILEGES)
    if supply + sum(s["privileges"] for s in seats) != spec.PRIVILEGES:
        raise PositionError("privileges", f"supply {supply} + seats "
                            f"{[s['privileges'] for s in seats]} != {spec.PRIVILEGES} privileges in the game")
    out = {
        "game": spec.GAME, "players": 2, "start_seat": start, "current": current, "phase": phase,
        "turn": turn, "extra_turn": extra_turn, "pending_card": pending, "board": board,
        "bag": None, "bag_seed": None, "bag_contents": None, "privileges": supply,
        "pyramid": pyramid, "decks": decks, "deck_sizes": deck_sizes, "royals": royals,
        "seats": seats, "observer": observer,
    }
    _bag(position, out)
    _jokers(out)
    _phase(out)
    return out


def _board(value) -> list[list[int]]:
    rows = _list(value, "board", spec.SIZE)
    out = []
    for r in range(spec.SIZE):
        row = _list(rows[r], f"board[{r}]", spec.SIZE)
        out.append([_int(row[c], f"board[{r}][{c}]", -1, 6) for c in range(spec.SIZE)])
    return out


def _place(cid, field: str, where: dict, level: int | None = None) -> int:
    _int(cid, field, 0, len(spec.CARDS) - 1)
    if cid in where:
        raise PositionError(field, f"card {cid} is also at {where[cid]}")
    if level is not None and spec.CARDS[cid].level != level:
        raise PositionError(field, f"card {cid} is of level {spec.CARDS[cid].level}, not {level}")
    where[cid] = field
    return cid


def _pyramid(value, where: dict) -> list[list[int]]:
    rows = _list(value, "pyramid", spec.LEVELS)
    out = []
    for lv in range(spec.LEVELS):
        row = _list(rows[lv], f"pyramid[{lv}]", spec.SLOTS[lv])
        for s, cid in enumerate(row):
            f = f"pyramid[{lv}][{s}]"
            if _int(cid, f, -1, len(spec.CARDS) - 1) >= 0:
                _place(cid, f, where, lv + 1)
        out.append(list(row))
    return out


def _seat(s, i: int, where: dict, hidden: list[int], observer) -> dict:
    sf = f"seats[{i}]"
    if not isinstance(s, dict):
        raise PositionError(sf, "expected a dictionary")
    for key in ("tokens", "cards", "reserved", "privileges", "royals"):
        if key not in s:
            raise PositionError(f"{sf}.{key}", "missing")
    tokens = _list(s["tokens"], f"{sf}.tokens", 7)
    for k in range(7):
        _int(tokens[k], f"{sf}.tokens[{k}]", 0, spec.TOKEN_TOTALS[k])
    cards = [_place(cid, f"{sf}.cards[{j}]", where) for j, cid in enumerate(_list(s["cards"], f"{sf}.cards"))]
    reserved = check_reserved(s["reserved"], sf, i, observer, spec.CARDS, lambda cid, f: _place(cid, f, where), hidden)
    jokers: list[dict] = []
    for j, e in enumerate(_list(s.get("jokers", []), f"{sf}.jokers")):
        jf = f"{sf}.jokers[{j}]"
        if not isinstance(e, dict) or "card" not in e or "color" not in e:
            raise PositionError(jf, "expected {'card': id, 'color': 0..4 or a gem letter w u g r k}")
        cid = _int(e["card"], f"{jf}.card", 0, len(spec.CARDS) - 1)
        if cid not in cards or spec.CARDS[cid].color != spec.JOKER:
            raise PositionError(f"{jf}.card", f"card {cid} is not a joker this seat owns")
        if any(x["card"] == cid for x in jokers):
            raise PositionError(f"{jf}.card", f"joker {cid} is given a colour twice")
        jokers.append({"card": cid, "color": _joker_color(e["color"], f"{jf}.color")})
    royals = _list(s["royals"], f"{sf}.royals", max_len=len(spec.CROWN_THRESHOLDS))
    for j, rid in enumerate(royals):
        _int(rid, f"{sf}.royals[{j}]", 0, len(spec.ROYALS) - 1)
    return {
        "tokens": list(tokens), "cards": sorted(cards), "jokers": sorted(jokers, key=lambda e: e["card"]),
        "reserved": reserved, "privileges": _int(s["privileges"], f"{sf}.privileges", 0, spec.PRIVILEGES),
        "royals": sorted(royals),
    }


def _decks(position: dict, where: dict, hidden: list[int], observer):
    sizes = _list(position["deck_sizes"], "deck_sizes", spec.LEVELS)
    decks = position.get("decks")
    if decks is None and observer is None:
        raise PositionError("decks", "a full position (no observer) needs the decks")
    if decks is not None:
        decks = _list(decks, "decks", spec.LEVELS)
    out: list[list[int]] = []
    for lv in range(spec.LEVELS):
        size = _int(sizes[lv], f"deck_sizes[{lv}]", 0, len(spec.CARDS_BY_LEVEL[lv]))
        if decks is not None:
            deck = _list(decks[lv], f"decks[{lv}]")
            if len(deck) != size:
                raise PositionError(f"deck_sizes[{lv}]", f"{size}, but decks[{lv}] holds {len(deck)} cards")
            out.append([_place(cid, f"decks[{lv}][{j}]", where, lv + 1) for j, cid in enumerate(deck)])
        known = sum(1 for cid in where if spec.CARDS[cid].level == lv + 1) + (size if decks is None else 0)
        if known + hidden[lv] != len(spec.CARDS_BY_LEVEL[lv]):
            raise PositionError(f"deck_sizes[{lv}]", f"level {lv + 1}: {known + hidden[lv]} cards accounted "
                                f"for, the game has {len(spec.CARDS_BY_LEVEL[lv])}")
    return (None if decks is None else out), [int(x) for x in sizes]


def _royals(value, seats: list[dict]) -> list[int]:
    royals = _list(value, "royals", max_len=len(spec.ROYALS))
    seen: dict[int, str] = {}
    for j, rid in enumerate(royals):
        _int(rid, f"royals[{j}]", 0, len(spec.ROYALS) - 1)
        if rid in seen:
            raise PositionError(f"royals[{j}]", f"royal {rid} is also at {seen[rid]}")
        seen[rid] = f"royals[{j}]"
    for i, s in enumerate(seats):
        for j, rid in enumerate(s["royals"]):
            if rid in seen:
                raise PositionError(f"seats[{i}].royals[{j}]", f"royal {rid} is also at {seen[rid]}")
            seen[rid] = f"seats[{i}].royals[{j}]"
    if len(seen) != len(spec.ROYALS):
        raise PositionError("royals", f"{len(seen)} royal cards accounted for, the game has {len(spec.ROYALS)}")
    return sorted(royals)


def _bag(position: dict, out: dict) -> None:
    contents = spec.bag_contents(out)
    for k in range(7):
        if contents[k] < 0:
            raise PositionError("board", f"{spec.TOKEN_NAMES[k]}: more than {spec.TOKEN_TOTALS[k]} "
                                "tokens on the board and with the seats")
    given = position.get("bag_contents")
    if given is not None:
        given = _list(given, "bag_contents", 7)
        if list(given) != contents:
            raise PositionError("bag_contents", f"{list(given)}, but the tokens off the board and off "
                                f"the seats are {contents}")
    out["bag_contents"] = contents
    if out["observer"] is not None:
        return
    if position.get("bag") is None:
        raise PositionError("bag", "a full position (no observer) needs the bag's draw order")
    bag = _list(position["bag"], "bag", max_len=spec.N_TOKENS)
    for j, k in enumerate(bag):
        _int(k, f"bag[{j}]", 0, 6)
    if [bag.count(k) for k in range(7)] != contents:
        raise PositionError("bag", f"holds {[bag.count(k) for k in range(7)]} per kind, but the tokens off "
                            f"the board and off the seats are {contents}")
    seed = position.get("bag_seed", 0)
    out["bag"] = list(bag)
    out["bag_seed"] = _int(0 if seed is None else seed, "bag_seed", 0, (1 << 64) - 1)


def _joker_color(value, field: str) -> int:
    """A joker's colour: the gem's index 0..4 (the normalised form) or its letter, as the move
    `joker u` names it (either case)."""
    if isinstance(value, str):
        letter = value.strip().lower()
        if len(letter) == 1 and letter in _GEM_LETTERS:
            return _GEM_LETTERS.index(letter)
        raise PositionError(field, f"a gem: its index 0..4 or its letter ({' '.join(_GEM_LETTERS)}), got {value!r}")
    return _int(value, field, 0, 4)


def _jokers(out: dict) -> None:
    for i, s in enumerate(out["seats"]):
        coloured = {e["card"] for e in s["jokers"]}
        for cid in s["cards"]:
            if spec.CARDS[cid].color == spec.JOKER and cid not in coloured:
                if not (out["phase"] == "joker" and i == out["current"] and out["pending_card"] == cid):
                    raise PositionError(f"seats[{i}].jokers", f"joker {cid} has no colour")


def _phase(out: dict) -> None:
    phase, current = out["phase"], out["current"]
    me, other = out["seats"][current], out["seats"][1 - current]
    pending = out["pending_card"]
    if (pending is not None) != (phase in ("joker", "token")):
        raise PositionError("pending_card", "set exactly in the 'joker' and 'token' phases")
    if pending is not None and pending not in me["cards"]:
        raise PositionError("pending_card", f"card {pending} is not owned by the seat to act")
    for i, s in enumerate(out["seats"]):
        due = spec.royals_due(s)
        if due < 0:
            raise PositionError(f"seats[{i}].royals", "more royal cards than its crowns earned")
        if due > 0 and not (s is me and phase in _MID_TURN):
            raise PositionError(f"seats[{i}].royals", "crowns earned a royal card it has not chosen")
    if sum(other["tokens"]) > spec.TOKEN_LIMIT:
        raise PositionError(f"seats[{1 - current}].tokens", "more than 10 tokens at the end of its turn")
    if spec.has_won(other):
        raise PositionError(f"seats[{1 - current}]", "meets a victory condition but the game went on")
    if phase in ("main", "mandatory", "over") and out["extra_turn"]:
        raise PositionError("extra_turn", f"cannot be pending in phase {phase!r}")
    if phase in ("main", "mandatory") and spec.has_won(me):
        raise PositionError(f"seats[{current}]", "meets a victory condition but the game went on")
    if phase == "mandatory" and sum(out["bag_contents"]) > 0:
        raise PositionError("phase", "'mandatory' (after a replenish) but the bag is not empty")
    if phase == "reserve" and len(me["reserved"]) >= spec.MAX_RESERVED:
        raise PositionError("phase", "'reserve' but the seat to act already holds 3 reserved cards")
    if phase == "joker":
        c = spec.CARDS[pending]
        if c.color != spec.JOKER or sum(spec.bonuses(me)) == 0:
            raise PositionError("pending_card", "the 'joker' phase needs an uncoloured joker and a coloured card")
    if phase == "token":
        c = spec.CARDS[pending]
        if not c.abilities & spec.TAKE_TOKEN or not any(c.color in row for row in out["board"]):
            raise PositionError("pending_card",
                                "the 'token' phase needs a take_token card whose colour is on the board")
    if phase == "steal" and not any(other["tokens"][:6]):
        raise PositionError("phase", "'steal' but the opponent holds no gem or pearl")
    if phase == "royal" and (spec.royals_due(me) <= 0 or not out["royals"]):
        raise PositionError("phase", "'royal' but the seat to act has no royal card to choose")
    if phase == "discard" and sum(me["tokens"]) <= spec.TOKEN_LIMIT:
        raise PositionError("phase", "'discard' but the seat to act holds 10 tokens or fewer")
    if phase == "over":
        if not spec.has_won(me):
            raise PositionError("phase", "'over' but the seat to act (the winner) meets no victory condition")
        if sum(me["tokens"]) > spec.TOKEN_LIMIT:
            raise PositionError(f"seats[{current}].tokens", "more than 10 tokens at the end of its turn")
