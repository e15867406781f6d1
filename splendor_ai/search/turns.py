"""Whole turns: every decision of one seat's turn, searched under one budget.

A turn is one or more decisions of the same seat (the main action, then returning tokens,
choosing a noble; in Duel privileges, a replenish, the mandatory action, ability targets, a
royal, discards). ``TurnSearch`` plays them all:

- **One budget for the turn.** ``Limits.seconds`` is the whole turn's time, counted from
  ``started`` (the call's start; default: when the TurnSearch is made; a call that finishes a
  turn passes ``started=turn.started`` of the call before, so the turn keeps one budget), and
  an optional ``deadline`` ends it sooner; the decisions share that time. ``Limits.iterations``
  caps each searched decision (the levels' budgets are per decision, as they were measured).
- **Time where the choice is hard.** A decision gets the time left times
  ``1 / (1 + FOLLOW_UP_WEIGHT * E)``, where ``E`` is how many more searched decisions its turn
  is expected to have (``EXPECTED_FOLLOW_UPS``, measured by ``splendor-ai bench turns``)
  and a follow-up decision counts half as much as the one being made. The main decision of a
  base or Marvel turn thus gets nearly all of the time, a Duel main decision about 84 % of it,
  and the last decision whatever is left. Time a turn does not need is not spent.
- **No decision is starved.** A decision that may have a follow-up leaves ``FLOOR_SHARE`` of
  the turn's time for it, and every searched decision gets at least that floor of what is
  left; ``Limits.iterations`` counts per decision, so a follow-up searches as much as the main
  decision when time allows. A search stopped before its first iteration plays the
  evaluator's own choice (the net's policy, else the one-ply evaluation), never merely the
  first legal action.
- **A decision with one legal action is not searched**: it is played at once
  (``Decision.forced``; its result has 0 iterations).
- **Subtree reuse.** Each search starts from the subtree the previous one grew below the
  chosen action (across a forced decision too).
- **Hidden information.** On a seat's view a move may reveal a card (a refill, a blind
  reserve) or Duel's bag order, which the view does not know; ``Turn.reveals`` then says so
  and ``Turn.state`` is the view before that move (apply it to the full game). The turn is
  still ``complete`` unless a decision of the same seat comes after it (judged on one redraw
  of the hidden cards): then ``complete`` is False and ``stopped`` says what to do.
- **Seeds.** With ``Config(seed=None)`` (the default) a turn draws a fresh seed (``Turn.seed``
  reports it); with a seed, the same position, options and ``threads=1`` give the same turn.
"""
from __future__ import annotations

import random
import re
import threading
import time
from dataclasses import dataclass, replace

from ..games import HiddenInformationError
from ..games.state import State
from . import cores
from .mcts import (ActionStats, Config, Evaluator, Limits, Search, SearchError, SearchResult, choose, evaluator_info,
                   fresh_seed)

FOLLOW_UP_WEIGHT = 0.5  # a decision still to come, relative to the one being made
FLOOR_SHARE = 0.1  # the least share of the turn's time a searched decision gets
MIN_SECONDS = 0.001  # the least time a searched decision gets, even past the turn's end
RESULT_SECONDS = 0.005  # kept back from each search (at most 5 % of the time left) to build its result

# Searched decisions still to come in the same turn after a searched decision in this phase,
# on average: `splendor-ai bench turns` (BENCHMARKS.md, "Decisions per turn").
# Unlisted phases expect none.
EXPECTED_FOLLOW_UPS = {
    "base": {"main": 0.03, "return": 0.30},
    "duel": {"main": 0.39, "mandatory": 0.12, "reserve": 0.04, "discard": 0.28, "joker": 0.27, "royal": 0.29},
    "marvel": {"main": 0.02, "return": 0.43},
}

STOPS = ("iterations", "time", "deadline", "cancelled", "forced")


def time_share(game: str, phase: str) -> float:
    """The fraction of the turn's time left that a searched decision in ``phase`` gets."""
    return 1.0 / (1.0 + FOLLOW_UP_WEIGHT * EXPECTED_FOLLOW_UPS.get(game, {}).get(phase, 0.0))


@dataclass
class Decision:
    action: int
    move: str
    result: SearchResult  # a forced decision's has 0 iterations
    searched: State  # the state the decision was made in (what the search saw)
    forced: bool  # the only legal action: played without a search
    seconds: float | None  # the time this decision was given (None: no time limit)
    stop: str  # why its search stopped: one of STOPS
    late: float = 0.0  # seconds its result came after its time was up (0: on time, or no time limit)


@dataclass
class Turn:
    """The decisions of one seat's turn. Iterating gives ``(action, result)`` pairs."""

    seat: int
    decisions: list[Decision]
    complete: bool  # False: a decision of the same seat is still to come, after a move the position cannot apply
    stopped: str | None  # why an incomplete turn stopped (the move, what it needs, what to do)
    state: State  # the position after the decisions (before the last one when ``reveals``)
    seed: int  # the search seed every decision used
    elapsed: float  # seconds from the turn's start to its end
    started: float = 0.0  # time.monotonic() of the turn's start: pass it on to the call that finishes the turn
    reveals: str | None = None  # the last move draws what the position does not know (state: before it)
    evaluator: Evaluator | None = None  # what evaluated (or would have evaluated) its searches

    @property
    def actions(self) -> list[int]:
        return [d.action for d in self.decisions]

    @property
    def moves(self) -> list[str]:
        return [d.move for d in self.decisions]

    def __iter__(self):
        return iter([(d.action, d.result) for d in self.decisions])

    def __len__(self) -> int:
        return len(self.decisions)

    def __getitem__(self, i):
        d = self.decisions[i]
        return d.action, d.result


def _forced_result(searched, seat: int, action: int, move: str, previous: SearchResult | None,
                   carried: Search | None, evaluator: Evaluator) -> SearchResult:
    """The result of a decision that was not searched. The win probabilities are the
    previous decision's (uniform when there is none); visits and value are what the reused
    subtree knows about the action (0 when nothing)."""
    visits, value, pv, proven = 0, 0.0, [move], None
    if carried is not None:
        for a, n, value_sum, _prior, _pv, exact in carried._tree.root_stats(proven=True):
            if a == action and n:
                visits, value, proven = n, value_sum / n, exact
    win = list(previous.win_probability) if previous else [1.0 / searched.players] * searched.players
    if not visits:
        value = win[seat]
    return SearchResult(seat=seat, action=action, move=move,
                        actions=[ActionStats(action, move, visits, value, 1.0, pv, proven,
                                             [(searched.to_position(), action)])],
                        win_probability=win, iterations=0, nodes=0, elapsed=0.0, iterations_per_second=0.0,
                        tree_bytes=0, node_limit_hit=False, cancelled=False, out_of_time=False,
                        evaluator=evaluator)


class TurnSearch:
    """The whole turn of the seat to act; ``run()`` blocks, ``cancel()`` may come from
    another thread (the decisions not yet searched are then played without a search).

    ``searched_of(state)``: what each decision is searched in (default: the state itself;
    the service passes the mover's view). ``rng`` draws the move when ``temperature`` > 0
    (default: seeded from the search seed). ``started``/``deadline``: ``time.monotonic()``
    values; the turn ends at ``started + limits.seconds`` or ``deadline``, whichever is first.
    """

    def __init__(self, state, limits: Limits, config: Config = Config(), temperature: float = 0.0,
                 rng: random.Random | None = None, *, searched_of=None, started: float | None = None,
                 deadline: float | None = None):
        limits.check()
        config.check()
        if state.is_terminal():
            raise SearchError("the game is over: nothing to search")
        self.state = state
        self.limits = limits
        self.seed = config.seed if config.seed is not None else fresh_seed()
        self.config = replace(config, seed=self.seed)
        self.temperature = temperature
        self.rng = rng if rng is not None else random.Random(self.seed)
        self.searched_of = searched_of or (lambda s: s)
        self.started = time.monotonic() if started is None else started
        ends = []
        if limits.seconds is not None:
            ends.append(self.started + limits.seconds)
        if deadline is not None:
            ends.append(deadline)
        self.end = min(ends) if ends else None
        # The turn's end is the deadline's, not the time limit's: a search out of time stopped for it.
        self.deadline_bound = deadline is not None and (limits.seconds is None
                                                        or deadline < self.started + limits.seconds)
        self._lock = threading.Lock()
        self._current: Search | None = None
        self._cancelled = False

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._current is not None:
                self._current.cancel()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def _seconds(self, searched) -> float | None:
        if self.end is None:
            return None
        left = self.end - time.monotonic()
        left -= min(RESULT_SECONDS, 0.05 * left)
        phase = searched.phase()
        seconds = left * time_share(searched.game, phase)
        if self.limits.seconds is not None:
            floor = FLOOR_SHARE * self.limits.seconds
            if EXPECTED_FOLLOW_UPS.get(searched.game, {}).get(phase, 0.0) > 0:
                seconds = min(seconds, left - floor)  # keep a decision that may follow its floor
            seconds = max(seconds, min(floor, left))
        return max(MIN_SECONDS, seconds)

    def _stop(self, result: SearchResult) -> str:
        if result.cancelled:
            return "cancelled"
        if result.out_of_time:
            return "deadline" if self.deadline_bound else "time"
        return "iterations"

    def run(self) -> Turn:
        s = cores.to_core(self.state).clone()
        seat = s.current_player()
        turn = s.to_position()["turn"]
        evaluator = evaluator_info(self.config, s.game, s.players)
        decisions: list[Decision] = []
        reuse = None  # (the last search, the action played from its root)
        previous = None
        stopped = reveals = None
        while not s.is_terminal() and s.current_player() == seat:
            if decisions and s.to_position()["turn"] != turn:
                break  # an extra turn (Duel) is a turn of its own
            searched = self.searched_of(s)
            legal = searched.search_actions()
            if len(legal) == 1:
                action = legal[0]
                move = searched.action_to_string(action)
                # Carry the reused subtree past this decision (the next search reuses it).
                carried: Search | None = (Search(searched, Limits(iterations=1), self.config, reuse=reuse)
                                          if reuse else None)
                result = _forced_result(searched, seat, action, move, previous, carried, evaluator)
                decisions.append(Decision(action, move, result, searched, True, 0.0, "forced"))
                reuse = (carried, action) if carried is not None else None
            else:
                seconds = self._seconds(searched)
                limits = Limits(iterations=self.limits.iterations, seconds=seconds, max_nodes=self.limits.max_nodes)
                due = time.monotonic() + seconds if seconds is not None else None
                search = Search(searched, limits, self.config, reuse=reuse)
                with self._lock:
                    self._current = search
                    if self._cancelled:
                        search.cancel()
                try:
                    result = search.run()
                finally:
                    with self._lock:
                        self._current = None
                action = choose(result, self.temperature, self.rng)  # never a proven loss over a win
                move = next((a.move for a in result.actions if a.action == action), None) \
                    or searched.action_to_string(action)
                late = time.monotonic() - due if due is not None and (result.out_of_time or result.cancelled) else 0.0
                decisions.append(Decision(action, move, result, searched, False, seconds, self._stop(result),
                                          max(0.0, late)))
                reuse = (search, action)
                previous = result
            try:
                s.apply_action(action)
            except HiddenInformationError as exc:
                # the core's own advice ("call resample first") is for a search, not for a caller
                text = re.sub(r"[;:]? *\(?(call )?resample first\)?", "", str(exc)).strip()
                reveals = text if text.startswith(move) else f"{move}: {text}"
                if self._continues(s, action, seat, turn):
                    stopped = (f"{reveals}. The turn goes on after this move: apply it to the full game "
                               "(or give what it draws) and ask again for the rest of the turn")
                break
        elapsed = time.monotonic() - self.started
        return Turn(seat, decisions, stopped is None, stopped, s, self.seed, elapsed, self.started,
                    reveals, evaluator)

    def _continues(self, view, action: int, seat: int, turn: int) -> bool:
        """Whether ``seat`` still has a decision in this turn after ``action``, which ``view``
        cannot apply (it draws what the view does not know): judged on one redraw of it."""
        full = view.resample(view.to_position()["observer"], random.Random(self.seed))
        full.apply_action(action)
        return (not full.is_terminal() and full.current_player() == seat
                and full.to_position()["turn"] == turn)


def play_turn(state, limits: Limits, config: Config = Config(), temperature: float = 0.0,
              rng: random.Random | None = None, **kw) -> Turn:
    """The seat to act's whole turn under one budget (see ``TurnSearch``); ``state`` is not changed."""
    return TurnSearch(state, limits, config, temperature, rng, **kw).run()
