"""Every reason checked again, by brute force on the readable rules, without the fact-finding.

``verify(state, action, reason, result=None)`` says whether ``reason`` is true of ``action`` in
``state``; ``check`` raises ``VerifyError`` saying why it is not. The checks use only the games'
reference implementations (``impl="reference"``: apply a move to a clone, enumerate every choice
of a seat's turn, ...) and the rules' own tables and payment function (the game's ``spec``),
never ``splendor_ai.reasons``' fact-finding, so that they can catch its mistakes.

What the mover cannot see must not matter: every claim is checked from the mover's view, on
several independent redraws of what it hides (``redraws``; none is the fact-finding's), and a
claim must hold on each. Cards a claim names must be ones the mover saw before its move.
docs/reasons.md says what each code claims; each ``_code`` function below decides one.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..games import HiddenInformationError, load_game
from ..games.base import spec as base_spec
from ..games.duel import spec as duel_spec
from ..games.errors import PositionError
from ..games.marvel import spec as marvel_spec
from ..games.state import State
from .vocabulary import BY_NAME, CODES, Reason

if TYPE_CHECKING:
    from ..search.mcts import ActionStats, SearchResult

SPECS = {"base": base_spec, "duel": duel_spec, "marvel": marvel_spec}
REDRAW_SEEDS = (91_001, 91_002, 91_003, 91_004)
LIMIT = 10


class VerifyError(AssertionError):
    """A reason that is not true of its move (the message says why)."""


def verify(state: State, action: int | str, reason: Reason | dict, result: SearchResult | None = None,
           redraws: int = 2) -> bool:
    """Whether ``reason`` is true of ``action`` in ``state`` (see ``check``)."""
    try:
        check(state, action, reason, result, redraws)
    except VerifyError:
        return False
    return True


def check(state: State, action: int | str, reason: Reason | dict, result: SearchResult | None = None,
          redraws: int = 2) -> None:
    """Raise VerifyError unless ``reason`` is true of ``action`` (an id or notation) in
    ``state`` (a view of the mover or a full state), decided on the reference rules."""
    if isinstance(reason, dict):
        reason = Reason.from_dict(reason)
    case = Case(state, action, redraws)
    code = BY_NAME[reason.code]
    if case.game not in code.games:
        raise VerifyError(f"{reason.code} is not a code of {case.game}")
    CHECKERS[reason.code](case, reason.without_move(), result)


def _need(ok: bool, why: str) -> None:
    if not ok:
        raise VerifyError(why)


def _given(value: int | None, what: str) -> int:
    """A subject the claim needs: a claim without it is not true."""
    if value is None:
        raise VerifyError(f"the claim names no {what}")
    return value


class Case:
    """A move in its position, as the mover saw it: the reference view, redraws of it, the
    cards the mover saw."""

    def __init__(self, state: State, action: int | str, redraws: int):
        self.game = state.game
        self.spec = SPECS[self.game]
        self.mover = state.current_player()
        _need(self.mover >= 0, "the game is over")
        pos = state.to_position()
        if pos["observer"] is None:
            pos = self.spec.view_position(pos, self.mover)
        _need(pos["observer"] == self.mover, "a view of another seat than the mover's")
        self.players = pos["players"]
        self.rules = load_game(self.game, self.players, impl="reference")
        self.pos = pos
        self.view = self.rules.state_from_position(pos)
        self.action = self.view.string_to_action(action) if isinstance(action, str) else int(action)
        _need(self.action in self.view.legal_actions(), f"action {action} is not legal here")
        self.kind = self.spec.action_kind(self.action)
        self.turn = pos["turn"]
        self.next_seat = (self.mover + 1) % self.players
        self.full = [self.rules.state_from_position(self.spec.resample_position(pos, self.mover, random.Random(s)))
                     for s in REDRAW_SEEDS[:redraws]]
        self.seen = seen_cards(self.game, pos, self.mover)

    def afters(self):
        """Each redraw after the move."""
        for s in self.full:
            yield apply(s, self.action)

    def seat(self, pos: dict | None = None, seat: int | None = None) -> dict:
        return (pos or self.pos)["seats"][self.mover if seat is None else seat]


# ---------------------------------------------------------------------------- the rules, by brute force
def face_up(game: str, pos: dict) -> list[int]:
    rows = pos["pyramid"] if game == "duel" else pos["board"]
    return [c for row in rows for c in row if c >= 0]


def seen_cards(game: str, pos: dict, mover: int) -> set[int]:
    """What the mover sees: face-up cards, everyone's bought cards, its own reserve and the
    others' reserves taken face up."""
    out = set(face_up(game, pos))
    for i, s in enumerate(pos["seats"]):
        out.update(s["cards"])
        for r in s["reserved"]:
            if r["card"] is not None and (i == mover or not r["blind"]):
                out.add(r["card"])
    return out


def own_cards(game: str, pos: dict, seat: int) -> list[int]:
    """Face-up cards and ``seat``'s own reserve: what it could buy."""
    return face_up(game, pos) + [r["card"] for r in pos["seats"][seat]["reserved"] if r["card"] is not None]


def bonuses(game: str, seat: dict) -> list[int]:
    return duel_spec.bonuses(seat) if game == "duel" else SPECS[game].bonuses(seat["cards"])


def shortfall(game: str, cid: int, seat: dict) -> int:
    """Tokens ``seat`` misses for ``cid`` once its wild tokens are spent (0 or less: it can pay)."""
    spec, bonus, tokens = SPECS[game], bonuses(game, seat), seat["tokens"]
    cost = spec.CARDS[cid].cost
    if game == "duel":
        price = [max(0, cost[k] - (bonus[k] if k < 5 else 0)) for k in range(6)]
        wild = duel_spec.GOLD
    else:
        price = [max(0, cost[k] - bonus[k]) for k in range(5)]
        wild = spec.RULES.wild
    return sum(max(0, p - tokens[k]) for k, p in enumerate(price)) - tokens[wild]


def key_of(state) -> str:
    return repr(state.to_position())


def apply(state, action: int):
    """A copy of ``state`` (through its position: the same state, faster than a deep copy)
    after ``action``."""
    t = type(state).from_position(state.to_position())
    t.apply_action(action)
    return t


def turn_ends(state, seat: int, turn: int):
    """Every state at the end of ``seat``'s turn ``turn`` from ``state``: all its choices."""
    out, seen, stack = {}, set(), [state]
    while stack:
        s = stack.pop()
        k = key_of(s)
        if s.is_terminal() or s.current_player() != seat or s.turn != turn:
            out[k] = s
            continue
        if k in seen:
            continue
        seen.add(k)
        for a in s.legal_actions():
            stack.append(apply(s, a))
    return list(out.values())


def find_end(state, seat: int, turn: int, good, first=()):
    """A state at the end of ``seat``'s turn for which ``good(state)`` holds, or None; the kinds
    of action in ``first`` are tried first (the search looks at every choice either way)."""
    stack, seen = [state], set()
    spec = SPECS[state.game]
    while stack:
        s = stack.pop()
        if s.is_terminal() or s.current_player() != seat or s.turn != turn:
            if good(s):
                return s
            continue
        k = key_of(s)
        if k in seen:
            continue
        seen.add(k)
        acts = s.legal_actions()
        acts.sort(key=lambda a: spec.action_kind(a) in first)  # popped last = tried first
        for a in acts:
            stack.append(apply(s, a))
    return None


def sole_win(state, seat: int) -> bool:
    return state.is_terminal() and state.returns()[seat] == 1.0


def card_of(game: str, pos: dict, action: int) -> int | None:
    """The card a buy or a face-up reserve names in ``pos``."""
    spec = SPECS[game]
    kind = spec.action_kind(action)
    if kind == "buy":
        target = spec.split_buy(action)[0]
    elif kind in ("reserve_board", "reserve"):
        target = action - (base_spec.RESERVE_BOARD if game != "duel" else duel_spec.RESERVE)
    else:
        return None
    return duel_spec.target_card(pos, target) if game == "duel" else spec.buy_target_card(pos, target)


def buys(state, seat: int, cid: int, win: bool) -> bool:
    """Whether ``seat``, starting its turn in ``state`` (full), has a turn in which it buys
    ``cid`` (Duel: after using privileges, or a replenish, first) and, if ``win``, which ends
    the game with ``seat`` its only winner."""
    game, spec, turn = state.game, SPECS[state.game], state.turn
    if state.is_terminal() or state.current_player() != seat:
        return False
    cost = spec.CARDS[cid].cost
    stack, seen = [state], set()
    while stack:
        s = stack.pop()
        if s.is_terminal() or s.current_player() != seat or s.turn != turn or s.phase() not in ("main", "mandatory"):
            continue
        k = key_of(s)
        if k in seen:
            continue
        seen.add(k)
        pos = s.to_position()
        later = []
        for a in s.legal_actions():
            kind = spec.action_kind(a)
            if kind == "buy" and card_of(game, pos, a) == cid:
                t = apply(s, a)
                if not win or find_end(t, seat, turn, lambda e: sole_win(e, seat)) is not None:
                    return True
            elif kind in ("privilege", "replenish"):
                useful = kind == "privilege" and cost[duel_spec.board_kind(pos, a - duel_spec.PRIVILEGE)] > 0
                later.append((useful, a))
        for _, a in sorted(later):
            stack.append(apply(s, a))
    return False


def mover_ends(case: Case):
    """Per redraw, every end of the mover's turn after the move."""
    for t in case.afters():
        yield turn_ends(t, case.mover, case.turn)


# ---------------------------------------------------------------------------- the codes
def _wins_game(case: Case, r: Reason, result: SearchResult | None) -> None:
    m = case.mover

    def good(e):
        if not sole_win(e, m):
            return False
        seat = e.to_position()["seats"][m]
        if r.colour is not None:
            return (r.points is not None
                    and duel_spec.color_points(seat)[r.colour] == r.points >= duel_spec.WIN_COLOR_POINTS)
        if r.count is not None:
            return duel_spec.seat_crowns(seat) == r.count >= duel_spec.WIN_CROWNS
        return r.points is None or e.points(m) == r.points

    for t in case.afters():
        _need(find_end(t, m, case.turn, good, first=("buy", "privilege", "royal", "joker")) is not None,
              "no choice of the rest of the turn wins the game" + (" with those subjects" if r.points else ""))


def _loses_game(case: Case, r: Reason, result: SearchResult | None) -> None:
    for ends in mover_ends(case):
        _need(all(e.is_terminal() for e in ends), "the game can go on after the move")
        _need(not any(sole_win(e, case.mover) for e in ends), "a choice of the turn wins the game")


def _triggers_end(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(not case.pos["final_round"], "the final round had begun already")
    for ends in mover_ends(case):
        _need(any(not e.is_terminal() and e.final_round and e.points(case.mover) == r.points for e in ends),
              f"no end of the turn starts the final round with {r.points} points")


def _takes_face_up(case: Case, r: Reason) -> None:
    _need(case.kind in ("buy", "reserve_board", "reserve") and card_of(case.game, case.pos, case.action) == r.card
          and r.card in face_up(case.game, case.pos), f"the move does not take face-up card {r.card}")


def threat(case: Case):
    """The position as the mover found it, its turn passed: the next seat to start its turn
    (a reference state, redrawn), or a VerifyError."""
    pos = dict(case.pos, current=case.next_seat, phase="main", turn=case.turn + 1)
    if case.game == "duel":
        pos.update(extra_turn=False, pending_card=None)
    else:
        _need(not (pos["final_round"] and case.mover == (pos["start_seat"] - 1) % case.players),
              "the game ends with the mover's turn")
        pos["passes"] = 0
    try:
        case.rules.state_from_position(pos)
    except PositionError as exc:
        raise VerifyError(f"no valid position with the mover's turn passed: {exc}") from None
    return [case.rules.state_from_position(case.spec.resample_position(pos, case.mover, random.Random(s)))
            for s in REDRAW_SEEDS[:len(case.full)]]


def _blocks_opponent_win(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(r.seat == case.next_seat, "not the next seat")
    _takes_face_up(case, r)
    seat, card = _given(r.seat, "seat"), _given(r.card, "card")
    for s in threat(case):
        _need(buys(s, seat, card, win=True), f"seat {seat} could not have won with card {card}")


def _denies_card(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(r.seat == case.next_seat, "not the next seat")
    _takes_face_up(case, r)
    seat, card = _given(r.seat, "seat"), _given(r.card, "card")
    for s in threat(case):
        _need(buys(s, seat, card, win=False), f"seat {seat} could not have bought card {card}")


def _replies(case: Case, r: Reason, win: bool) -> None:
    _need(r.seat == case.next_seat and r.card in case.seen, "not the next seat, or a card the mover did not see")
    seat, card = _given(r.seat, "seat"), _given(r.card, "card")
    for ends in mover_ends(case):
        for e in ends:
            _need(not e.is_terminal() and e.current_player() == seat, f"seat {seat} does not play next")
            _need(buys(e, seat, card, win), f"an end of the turn leaves seat {seat} unable to buy card "
                                            f"{card}" + (" and win" if win else ""))


def _lets_opponent_win(case: Case, r: Reason, result: SearchResult | None) -> None:
    _replies(case, r, win=True)


def _opponent_can_buy(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(r.points == case.spec.CARDS[r.card].points, "wrong points")
    _replies(case, r, win=False)


def _bought(case: Case) -> int:
    _need(case.kind == "buy", "the move is not a buy")
    cid = card_of(case.game, case.pos, case.action)
    assert cid is not None, "a legal buy's card is one the mover sees"
    return cid


def _completes(case: Case, r: Reason, requires, piece_points) -> None:
    _bought(case)
    key = "nobles" if case.game == "base" else "locations"
    _need(r.piece in case.pos[key], f"{r.piece} is not in play")
    _need(r.points == piece_points, "wrong points")
    before = bonuses(case.game, case.seat())
    _need(any(b < q for b, q in zip(before, requires)), "its requirement was met before the move")
    for t in case.afters():
        _need(all(b >= q for b, q in zip(t.bonuses(case.mover), requires)), "its requirement is not met")


def _completes_noble(case: Case, r: Reason, result: SearchResult | None) -> None:
    noble = base_spec.NOBLES[_given(r.piece, "piece")]
    _completes(case, r, noble.requires, noble.points)


def _completes_location(case: Case, r: Reason, result: SearchResult | None) -> None:
    location = marvel_spec.LOCATIONS[_given(r.piece, "piece")]
    _completes(case, r, location.requires, location.points)


def _near(case: Case, r: Reason, requires) -> None:
    _bought(case)
    key = "nobles" if case.game == "base" else "locations"
    _need(r.piece in case.pos[key], f"{r.piece} is not in play")
    before = bonuses(case.game, case.seat())
    _need(sum(max(0, q - b) for q, b in zip(requires, before)) >= 2, "it was within one card already")
    colour = _given(r.colour, "colour")
    for t in case.afters():
        short = [max(0, q - b) for q, b in zip(requires, t.bonuses(case.mover))]
        _need(sum(short) == 1 and short[colour] == 1, "not exactly one bonus of that colour short")


def _near_noble(case: Case, r: Reason, result: SearchResult | None) -> None:
    _near(case, r, base_spec.NOBLES[_given(r.piece, "piece")].requires)


def _near_location(case: Case, r: Reason, result: SearchResult | None) -> None:
    _near(case, r, marvel_spec.LOCATIONS[_given(r.piece, "piece")].requires)


def _takes_avengers(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(case.pos["avengers"] != case.mover and case.pos["avengers"] == r.seat, "wrong holder before")
    _need(r.points == marvel_spec.AVENGERS_POINTS, "wrong points")
    for ends in mover_ends(case):
        _need(any(e.to_position()["avengers"] == case.mover for e in ends), "the tile does not come")


def _gains_royal(case: Case, r: Reason, result: SearchResult | None) -> None:
    _bought(case)
    for t in case.afters():
        _need(t.crowns(case.mover) == r.count, "wrong crowns")
        _need(_reaches_royal(t, case), "no royal card is due")


def _reaches_royal(state, case: Case) -> bool:
    stack = [state]
    while stack:
        s = stack.pop()
        if s.is_terminal() or s.current_player() != case.mover or s.turn != case.turn:
            continue
        if s.phase() == "royal":
            return True
        for a in s.legal_actions():
            stack.append(apply(s, a))
    return False


def _extra_turn(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(case.kind in ("buy", "royal"), "neither a buy nor a royal card")
    for ends in mover_ends(case):
        _need(any(not e.is_terminal() and e.current_player() == case.mover and e.turn == case.turn + 1
                  for e in ends), "the mover does not play the next turn")


def _scores(case: Case, r: Reason, result: SearchResult | None) -> None:
    spec = case.spec
    if r.card is not None:
        _need(_bought(case) == r.card and spec.CARDS[r.card].points == r.points, "not a buy of that card, or "
                                                                                  "wrong points")
    else:
        if case.game == "duel":
            _need(case.kind == "royal" and case.action - duel_spec.ROYAL == r.piece, "not that royal card")
            pts = duel_spec.ROYALS[_given(r.piece, "piece")].points
        else:
            _need(case.kind == spec.RULES.own.name and case.action - spec.RULES.own.first == r.piece, "not that piece")
            pieces = base_spec.NOBLES if case.game == "base" else marvel_spec.LOCATIONS
            pts = pieces[_given(r.piece, "piece")].points
        _need(pts == r.points, "wrong points")
    for t in case.afters():
        _need(t.points(case.mover) == r.count, f"the mover holds {t.points(case.mover)} points after, not {r.count}")


def _colour_points(case: Case, r: Reason, result: SearchResult | None) -> None:
    colour = _given(r.colour, "colour")
    before = duel_spec.color_points(case.seat())[colour]
    for t in case.afters():
        now = duel_spec.color_points(t.to_position()["seats"][case.mover])[colour]
        _need(r.points is not None and now == r.points > before, "the colour's points do not grow to that")


def _crowns(case: Case, r: Reason, result: SearchResult | None) -> None:
    before = duel_spec.seat_crowns(case.seat())
    for t in case.afters():
        _need(r.count is not None and t.crowns(case.mover) == r.count > before, "the crowns do not grow to that")


def _gains_time_stone(case: Case, r: Reason, result: SearchResult | None) -> None:
    _bought(case)
    _need(case.seat()["tokens"][marvel_spec.GREEN] == 0, "it held a green token already")
    for t in case.afters():
        _need(t.to_position()["seats"][case.mover]["tokens"][marvel_spec.GREEN] == 1, "no green token")


def _completes_colours(case: Case, r: Reason, result: SearchResult | None) -> None:
    _bought(case)
    _need(min(bonuses(case.game, case.seat())) == 0, "every colour was there before")
    for t in case.afters():
        _need(min(t.bonuses(case.mover)) >= 1, "a colour is still missing")


def _privileges(case: Case, seat: int, count: int | None) -> None:
    before = case.seat(seat=seat)["privileges"]
    for t in case.afters():
        _need(count is not None and t.to_position()["seats"][seat]["privileges"] == count > before,
              "the privileges do not grow to that")


def _gives_privilege(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(r.seat == 1 - case.mover, "not the opponent")
    _privileges(case, _given(r.seat, "seat"), r.count)


def _gains_privilege(case: Case, r: Reason, result: SearchResult | None) -> None:
    _privileges(case, case.mover, r.count)


def _needed_bonus(case: Case, r: Reason, result: SearchResult | None) -> None:
    before = bonuses(case.game, case.seat())
    bought = card_of(case.game, case.pos, case.action) if case.kind == "buy" else None
    cards = [x for x in own_cards(case.game, case.pos, case.mover) if x != bought]
    colour = _given(r.colour, "colour")
    n = sum(case.spec.CARDS[x].cost[colour] > before[colour] for x in cards)
    _need(n == r.count, f"{n} visible cards cost less, not {r.count}")
    for t in case.afters():
        _need(t.bonuses(case.mover)[colour] > before[colour], "no bonus of that colour gained")


def _toward_card(case: Case, r: Reason, result: SearchResult | None) -> None:
    game, m = case.game, case.mover
    _need(r.card in own_cards(game, case.pos, m), f"card {r.card} is neither face up nor reserved by the mover")
    x = _given(r.card, "card")
    reserves_it = case.kind in ("reserve_board", "reserve") and card_of(game, case.pos, case.action) == x
    before = shortfall(game, x, case.seat())
    for t in case.afters():
        tpos = t.to_position()
        _need(x in own_cards(game, tpos, m), f"card {x} is gone after the move")
        _need(reserves_it or before > shortfall(game, x, case.seat(tpos)) and before > 0,
              "the move brings the card no closer")
        if r.turns == 0:
            _need(game == "duel" and t.current_player() == m and any(
                card_of(game, tpos, a) == x for a in t.legal_actions() if case.spec.action_kind(a) == "buy"),
                "the card cannot be bought this turn")
            continue
        live = [e for e in turn_ends(t, m, case.turn) if not e.is_terminal() and not getattr(e, "final_round", False)]
        _need(reachable(case, live, x, _given(r.turns, "turns")), f"card {x} is not affordable within {r.turns} turns")


def _closer_to_card(case: Case, r: Reason, result: SearchResult | None) -> None:
    game, m = case.game, case.mover
    _need(r.card in own_cards(game, case.pos, m), f"card {r.card} is neither face up nor reserved by the mover")
    x = _given(r.card, "card")
    reserves_it = case.kind in ("reserve_board", "reserve") and card_of(game, case.pos, case.action) == x
    before = shortfall(game, x, case.seat())
    for t in case.afters():
        tpos = t.to_position()
        now = shortfall(game, x, case.seat(tpos))
        _need(x in own_cards(game, tpos, m), f"card {x} is gone after the move")
        _need(reserves_it or before > now and before > 0, "the move brings the card no closer")
        _need(r.count is not None and now == r.count >= 1, f"{now} tokens short after the move, not {r.count}")


def start_of_turn(case: Case, end):
    """``end`` with the mover to start a turn at once (the other seats passing by)."""
    pos = dict(end.to_position(), current=case.mover, phase="main")
    if case.game == "duel":
        pos.update(extra_turn=False, pending_card=None)
    return type(end).from_position(pos)


def reachable(case: Case, ends, x: int, turns: int) -> bool:
    """Whether the mover, its next turn starting after one of ``ends`` (the other seats
    passing by), can buy ``x`` with the tokens it holds within ``turns`` turns, taking tokens
    in the turns before (every take and every return looked at, the closest first)."""
    game, spec, m = case.game, case.spec, case.mover

    def short(state):
        return shortfall(game, x, state.to_position()["seats"][m])

    stack = sorted(((start_of_turn(case, e), turns) for e in ends), key=lambda n: -short(n[0]))
    seen = set()
    while stack:
        h, k = stack.pop()
        hpos = h.to_position()
        key = (repr(hpos["seats"][m]["tokens"]), repr(hpos.get("supply", hpos["board"])), k)
        if key in seen:
            continue
        seen.add(key)
        acts = h.legal_actions()
        if any(spec.action_kind(a) == "buy" and card_of(game, hpos, a) == x for a in acts):
            return True
        if k <= 1:
            continue
        children = []
        for a in acts:
            if spec.action_kind(a).startswith("take"):
                for e in turn_ends(apply(h, a), m, h.turn):
                    if not e.is_terminal():
                        children.append(start_of_turn(case, e))
        stack += [(c, k - 1) for c in sorted(children, key=lambda c: -short(c))]
    return False


def _plans_buy(case: Case, r: Reason, result: SearchResult | None) -> None:
    if result is None:
        raise VerifyError("a claim about a search needs its result")
    stats = _stats(case, result)
    _need(r.card in case.seen, "a card the mover did not see")
    s = case.view.clone()
    for i, move in enumerate(stats.pv):
        a = s.string_to_action(move)
        if i > 0 and s.current_player() == case.mover and s.turn != case.turn:
            kind = case.spec.action_kind(a)
            if kind == "buy":
                _need(card_of(case.game, s.to_position(), a) == r.card, "the line buys another card")
                return
            _need(kind in ("privilege", "replenish"), "the line's next turn does not start with a buy")
        try:
            s.apply_action(a)
        except HiddenInformationError:
            break
    raise VerifyError("the line does not buy the card on the mover's next turn")


def _stats(case: Case, result: SearchResult) -> ActionStats:
    candidate = case.action
    if case.kind == "buy":
        candidate = case.spec.buy_action(case.spec.split_buy(case.action)[0], 0)
    stats = next((a for a in result.actions if a.action == candidate), None)
    if stats is None:
        raise VerifyError("the search did not try the move")
    return stats


def _search_best(case: Case, r: Reason, result: SearchResult | None) -> None:
    if result is None:
        raise VerifyError("a claim about a search needs its result")
    stats = _stats(case, result)
    _need(result.action == stats.action, "not the search's choice")
    _need(round(100 * stats.value) == r.count, "wrong win probability")


def _main_non_buy(case: Case) -> bool:
    if case.game == "duel":
        return case.kind in ("take", "gold") and case.pos["phase"] in ("main", "mandatory")
    return case.pos["phase"] == "main" and case.kind != "buy"


def _spent(case: Case, action: int) -> list[int]:
    """Per redraw, the tokens the mover gives up by ``action`` (gains not counted)."""
    out = []
    for s in case.full:
        t = apply(s, action)
        after = t.to_position()["seats"][case.mover]["tokens"]
        out.append(sum(max(0, a - b) for a, b in zip(case.seat()["tokens"], after)))
    return out


def _buy_of(case: Case, cid: int) -> int | None:
    return next((a for a in case.view.legal_actions() if case.spec.action_kind(a) == "buy"
                 and card_of(case.game, case.pos, a) == cid), None)


def _passes_free_buy(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(_main_non_buy(case), "the move is a buy, or no main action")
    _need(r.card in own_cards(case.game, case.pos, case.mover), "not a card the mover could buy")
    card = _given(r.card, "card")
    buy = _buy_of(case, card)
    _need(buy is not None and not any(_spent(case, buy)), f"card {card} is not free to buy")


def _better_buy_passed(case: Case, r: Reason, result: SearchResult | None) -> None:
    y = _bought(case)
    cards = case.spec.CARDS
    x = _given(r.card, "card")
    _need(x != y and r.points is not None and cards[x].points - cards[y].points == r.points > 0, "not more points")
    buy = _buy_of(case, x)
    if buy is None:
        raise VerifyError(f"card {x} cannot be bought")
    _need(all(a <= b for a, b in zip(_spent(case, buy), _spent(case, case.action))), "it costs more tokens")


def _takes_last_tokens(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(case.kind.startswith("take") and r.colour in base_spec.taken_tokens(case.action), "no take of that colour")
    colour = _given(r.colour, "colour")
    _need(case.pos["supply"][colour] > 0 and r.seat != case.mover, "the supply was empty, or the mover's own seat")
    seat = case.seat(seat=r.seat)
    cards = face_up(case.game, case.pos) + [e["card"] for e in seat["reserved"] if e["card"] is not None]
    _need(r.card in cards, "not a card that seat sees and could buy")
    spec, bonus, cost = case.spec, bonuses(case.game, seat), case.spec.CARDS[r.card].cost
    _need(spec.payment(cost, bonus, seat["tokens"], 0) is None, f"seat {r.seat} can buy it already")
    more = list(seat["tokens"])
    more[colour] = max(more[colour], cost[colour] - bonus[colour])
    _need(spec.payment(cost, bonus, more, 0) is not None, "it lacks more than that colour")
    for t in case.afters():
        _need(t.to_position()["supply"][colour] == 0, "tokens of that colour are left")


def _over_token_limit(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(case.kind not in ("return", "discard"), "a return")
    for t in case.afters():
        _need(t.phase() in ("return", "discard"), "no tokens to give back")
        _need(sum(t.to_position()["seats"][case.mover]["tokens"]) - LIMIT == r.count, "a wrong count")


def _returns_least_needed(case: Case, r: Reason, result: SearchResult | None) -> None:
    _need(case.kind in ("return", "discard"), "not a return")
    first = base_spec.RETURN if case.game != "duel" else duel_spec.DISCARD
    _need(case.action - first == r.colour, "not that token")
    seat = case.seat()
    cards = own_cards(case.game, case.pos, case.mover)

    def hurt(kind):
        less = dict(seat, tokens=[n - (k == kind) for k, n in enumerate(seat["tokens"])])
        return sum(max(0, shortfall(case.game, x, less)) > max(0, shortfall(case.game, x, seat)) for x in cards)

    counts = {a - first: hurt(a - first) for a in case.view.legal_actions()}
    _need(counts[r.colour] == r.count == min(counts.values()), f"the counts are {counts}")


# One checker per code of the closed list, named after it (an import error if one is missing).
CHECKERS = {c.name: globals()["_" + c.name.lower()] for c in CODES}
