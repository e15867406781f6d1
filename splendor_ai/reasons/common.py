"""What the fact-finding of every game shares: the mover's view and one redraw of what it
cannot see, the end of a turn, the opponent's next turn, the choice and order of the reasons,
and the comparison of two moves for a mistake.

Every fact is found on the mover's **view** (``Context``): a full state is reduced to it first.
Where a move needs a card the view does not know (a refill after a buy, a blind reserve, Duel's
bag order), the facts are found on one fixed redraw of the hidden cards (``Context.det``, the
same on every call), and only about cards the mover saw before the move (``Context.visible``):
a claim never names a hidden card, and none depends on one (``verify`` checks each claim on
other redraws).

The fact-finding is meant to be cheap (a hint calls it): it simulates on the compiled cores
(a clone and an action cost well under a microsecond) and counts tokens by arithmetic.
``verify.py`` decides each claim again by brute force on the readable rules, without this code.
"""
from __future__ import annotations

import random
from types import ModuleType
from typing import Protocol

from ..games.state import State
from ..search import cores
from .vocabulary import RANK, Reason, ReasonError

SEED = 0x5EA5_0115  # the redraw of the hidden cards the facts are found on (fixed: same facts every call)
MAX_ENDS = 128  # ends of a turn enumerated at most; beyond, the claims that need them all are not made
MAX_NODES = 4000  # positions a search of one seat's turn looks at, at most


def turn_of(state) -> int:
    return state.to_position()["turn"]


class Context:
    """The position a move is explained in, as the mover sees it.

    ``view``: the mover's view as a core state; ``pos``: its position dict; ``det``: one fixed
    redraw of what the view hides (a full core state); ``visible``: the card ids the mover sees
    (face up, bought by anyone, its own reserve, the others' face-up reserves); ``next_seat``:
    the seat that moves after the mover's turn."""

    visible: set[int]  # set by the fact-finding before a move's facts are found

    def __init__(self, state: State):
        if state.is_terminal():
            raise ReasonError("the game is over: there is no move to explain")
        self.game = state.game
        self.mover = state.current_player()
        observer = state.to_position()["observer"]
        if observer is None:
            state = state.view(self.mover)
        elif observer != self.mover:
            raise ReasonError(f"this is seat {observer}'s view; the seat to move is {self.mover}")
        self.view = cores.to_core(state)
        self.pos = self.view.to_position()
        self.players = self.pos["players"]
        self.turn = self.pos["turn"]
        self.next_seat = (self.mover + 1) % self.players
        self.det = self.view.resample(self.mover, random.Random(SEED))
        self._after: dict[int, object] = {}
        self._ends: dict[int, list | None] = {}

    def action(self, move: int | str) -> int:
        """A move as an action id (notation is parsed in the view)."""
        return self.view.string_to_action(move) if isinstance(move, str) else int(move)

    def after(self, action: int):
        """The redraw after ``action`` (a core state; cached: do not change it)."""
        if action not in self._after:
            s = self.det.clone()
            s.apply_action(action)
            self._after[action] = s
        return self._after[action]

    def ends(self, action: int, open_ended=False):
        """Every distinct state at the end of the mover's turn after ``action``, its own
        remaining decisions taken every way (on the redraw), or None when there are too many or
        ``open_ended`` (a move after which the rest of the turn is not enumerated)."""
        if action not in self._ends:
            self._ends[action] = None if open_ended else turn_ends(self.after(action), self.mover, self.turn)
        return self._ends[action]


def turn_ends(state, seat: int, turn: int, cap: int = MAX_ENDS) -> list | None:
    """The distinct states where ``seat``'s turn ``turn`` is over (another seat to act, a new
    turn, or the game over), reached from ``state`` by every choice of ``seat``; None past
    ``cap`` of them."""
    out: dict[bytes, object] = {}
    seen: set[bytes] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        key = s._state_bytes()
        if s.is_terminal() or s.current_player() != seat or turn_of(s) != turn:
            out[key] = s
            if len(out) > cap:
                return None
            continue
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > MAX_NODES:
            return None
        for a in s.search_actions():
            t = s.clone()
            t.apply_action(a)
            stack.append(t)
    return list(out.values())


def sole_win(state, seat: int) -> bool:
    return state.is_terminal() and state.returns()[seat] >= 1.0


def wins_in_turn(state, seat: int, turn: int) -> bool:
    """Whether ``seat`` can end the game in its turn ``turn`` as its only winner by its own
    remaining choices from ``state`` (every one of them looked at; an extra turn is another
    turn)."""
    if state.is_terminal():
        return sole_win(state, seat)
    ends = turn_ends(state, seat, turn)
    return ends is not None and any(sole_win(e, seat) for e in ends)


class GameFacts(Protocol):
    """A game's fact-finding (``base.FACTS``, ``duel.FACTS``, ``marvel.FACTS``)."""

    @property
    def spec(self) -> ModuleType:
        """The game's spec module (its rules' tables)."""

    def visible(self, pos: dict, mover: int) -> set[int]:
        """The card ids the mover sees in ``pos`` (see ``Context.visible``)."""

    def facts(self, ctx: Context, action: int) -> list[Reason]:
        """Every true fact of ``action`` in ``ctx`` (``ctx.visible`` set)."""


# ---------------------------------------------------------------------------- choice and order
# How many reasons of a code a hint shows at most (every one of the full facts is true).
PER_CODE = {"TOWARD_CARD": 2, "NEAR_NOBLE": 2, "NEAR_LOCATION": 2}
MAX_REASONS = 6
QUIET_CODES = {"SEARCH_BEST"}  # kept only when nothing else is said


def _weight(r: Reason):
    """Within a code, the more telling first: more points, fewer turns, more cards (for a card
    worked toward: fewer tokens short)."""
    count = (r.count or 0) if r.code == "CLOSER_TO_CARD" else -(r.count or 0)
    return (-(r.points or 0), r.turns if r.turns is not None else 9, count, r.card or 0, r.piece or 0,
            r.colour or 0)


def order(reasons: list[Reason]) -> list[Reason]:
    """By importance: the code's place in the closed list, then the weight within the code."""
    return sorted(reasons, key=lambda r: (RANK[r.code], _weight(r)))


def select(facts: list[Reason], limit: int = MAX_REASONS) -> list[Reason]:
    """The reasons a hint shows, of the full facts: the most important first, a few per code,
    the thresholds that make a fact worth saying (an opponent's buy of 3 points or more, a bonus
    that at least two visible cards need), the weaker form of a claim dropped where its
    stronger form is given (a card denied that wins, a card left that wins)."""
    winners = {(r.seat, r.card) for r in facts if r.code in ("LETS_OPPONENT_WIN", "BLOCKS_OPPONENT_WIN")}
    toward = any(r.code == "TOWARD_CARD" for r in facts)
    out: list[Reason] = []
    per: dict[str, int] = {}  # reasons kept per code
    for r in order(facts):
        if r.code == "CLOSER_TO_CARD" and toward:  # the weaker form, said only when no card is in reach
            continue
        if r.code == "OPPONENT_CAN_BUY" and ((r.points or 0) < 3 or (r.seat, r.card) in winners):
            continue
        if r.code == "DENIES_CARD" and (r.seat, r.card) in winners:
            continue
        if r.code == "NEEDED_BONUS" and (r.count or 0) < 2:
            continue
        if r.code in QUIET_CODES and out:
            continue
        n = per.get(r.code, 0)
        if n >= PER_CODE.get(r.code, 1):
            continue
        per[r.code] = n + 1
        out.append(r)
    if "WINS_GAME" in per:  # nothing else matters beside a win
        out = [r for r in out if r.code in ("WINS_GAME", "SCORES")]
    return out[:limit]


# ---------------------------------------------------------------------------- mistakes
# A reason of the better move is also "achieved" by the played move when the played move has a
# reason of the same code and subjects, or (for these codes) one as strong: the same key
# subjects and at least the measure (a higher measure is better; turns: fewer is better).
_MEASURE = {
    "SCORES": ((), "points"), "COLOUR_POINTS": (("colour",), "points"), "CROWNS": ((), "count"),
    "GAINS_PRIVILEGE": ((), "count"), "NEEDED_BONUS": ((), "count"), "TOWARD_CARD": (("card",), "-turns"),
    "CLOSER_TO_CARD": (("card",), "-count"),
    "TRIGGERS_END": ((), ""), "WINS_GAME": ((), ""), "TAKES_AVENGERS": ((), ""), "GAINS_ROYAL": ((), ""),
    "OVER_TOKEN_LIMIT": ((), "-count"), "GIVES_PRIVILEGE": (("seat",), "-count"),
}


def _covered(r: Reason, others: list[Reason]) -> bool:
    if r.code not in _MEASURE:
        return any(o == r for o in others)
    keys, measure = _MEASURE[r.code]
    for o in others:
        if o.code != r.code or any(getattr(o, k) != getattr(r, k) for k in keys):
            continue
        if not measure:
            return True
        sign = -1 if measure.startswith("-") else 1
        name = measure.lstrip("-")
        if sign * (getattr(o, name) or 0) >= sign * (getattr(r, name) or 0):
            return True
    return False


def differences(best_facts: list[Reason], played_facts: list[Reason], best_move: str, played_move: str,
                limit: int = 4) -> list[Reason]:
    """A mistake's reasons: what the better move achieves that the played one does not (its
    good reasons the played move does not match), and what the played move allows or gives up
    that the better one does not (its bad reasons the better move does not share), each naming
    its move, in order of importance."""
    gains = [r for r in best_facts if r.good and r.code not in QUIET_CODES and not _covered(r, played_facts)]
    # the played move's bad reasons: matched by the better move's only if it is as bad or worse
    harms = [r for r in played_facts if not r.good and not _covered_bad(r, best_facts)]
    tagged = [r.with_move(best_move) for r in select(gains, limit)] + \
             [r.with_move(played_move) for r in select(harms, limit)]
    return order(tagged)[:limit]


def _covered_bad(r: Reason, others: list[Reason]) -> bool:
    """Whether the better move shares the played move's bad reason ``r`` (as bad or worse)."""
    if r.code in ("OVER_TOKEN_LIMIT", "GIVES_PRIVILEGE"):
        keys = ("seat",) if r.code == "GIVES_PRIVILEGE" else ()
        return any(o.code == r.code and all(getattr(o, k) == getattr(r, k) for k in keys)
                   and (o.count or 0) >= (r.count or 0) for o in others)
    return any(o == r for o in others)
