"""The searches behind GetMove, Analyze and AnalyzeGame, each stoppable from another thread.

A ``Stopper`` is handed to the gRPC call's termination callback (client cancel, deadline)
and to the server's shutdown: either stops the running search within one iteration.

Batch work (``plan.batch``, every AnalyzeGame) searches in threads of its own at a lower CPU
priority (nice ``BATCH_NICE``): an interactive search beside it keeps its core.
"""
from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from .. import analysis as game_analysis
from ..search import Limits, Search, SearchResult
from ..search.turns import Turn, TurnSearch
from .budget import GamePlan, SearchPlan
from .convert import stop_reason
from .errors import ClientGone, ShuttingDown
from .lateness import Lateness

T = TypeVar("T")

BATCH_NICE = 10  # the nice value of batch searches' threads (interactive ones keep the process's)


def lower_priority() -> None:
    """This thread, and the search threads it starts, at batch CPU priority (Linux keeps a nice
    value per thread; elsewhere nothing changes)."""
    try:
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) < BATCH_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, BATCH_NICE)
    except (AttributeError, OSError):
        pass


def run_batch(fn: Callable[[], T]) -> T:
    """``fn()`` in a thread of its own at batch CPU priority (a worker thread, once lowered,
    could not be raised again); returns its result or raises its exception."""
    out: dict = {}

    def work():
        lower_priority()
        try:
            out["value"] = fn()
        except BaseException as exc:  # re-raised in the caller's thread
            out["error"] = exc

    thread = threading.Thread(target=work, name="batch", daemon=True)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


class Stopper:
    """Stops the search (a Search or a TurnSearch) it holds, now or as soon as one is
    attached. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._search: Search | TurnSearch | None = None
        self.reason: str | None = None  # "client" or "shutdown" once stopped
        self.iterations = 0  # searched so far under this stopper (for the call's log and metrics)

    def attach(self, search: Search | TurnSearch) -> None:
        with self._lock:
            self._search = search
            if self.reason is not None:
                search.cancel()

    def detach(self) -> None:
        with self._lock:
            self._search = None

    def stop(self, reason: str) -> None:
        with self._lock:
            if self.reason is None:
                self.reason = reason
            if self._search is not None:
                self._search.cancel()

    def check_client(self) -> None:
        if self.reason == "client":
            raise ClientGone("cancelled by the client or past its deadline")


def play_turn(state, plan: SearchPlan, stopper: Stopper, searched_of, lateness: Lateness | None = None) -> Turn:
    """The seat to act's whole turn under the call's budget (``search.turns``): its decisions
    share the time from the turn's start (the call's, less what the turn's earlier calls took:
    ``plan.turn_used``) and end before ``plan.answer_by``; each is searched
    in ``searched_of(state)`` (the mover's view, or the full state). ``state`` is not changed.
    Each decision stopped by the clock tells ``lateness`` how late it ended."""
    turn_search = TurnSearch(state, plan.turn_limits(), plan.config(), plan.temperature, random.Random(plan.seed),
                             searched_of=searched_of, started=plan.turn_started, deadline=plan.answer_by)
    stopper.attach(turn_search)
    try:
        turn = run_batch(turn_search.run) if plan.batch else turn_search.run()
    finally:
        stopper.detach()
    if lateness is not None:
        for d in turn.decisions:
            # a cancel that came after the decision's time was up (the caller's deadline
            # passed during a pause) is lateness too
            if d.stop in ("time", "deadline") or (d.stop == "cancelled" and d.late > 0):
                lateness.record(d.late)
    stopper.iterations += sum(d.result.iterations for d in turn.decisions)
    stopper.check_client()
    return turn


def analyze(searched, plan: SearchPlan, stopper: Stopper, root_actions=None, lateness: Lateness | None = None):
    """Yields (result, stop_reason) every ``plan.report_every`` seconds while the search runs
    (stop_reason None), then exactly once with the final result and its stop reason. A search
    stopped by the clock tells ``lateness`` how late it ended."""
    limits = plan.limits()
    assert limits.seconds is not None  # plan.limits() always holds the call's time
    due = time.monotonic() + limits.seconds
    search = Search(searched, limits, plan.config(), root_actions=root_actions)
    outcome: dict = {}

    def run():
        if plan.batch:
            lower_priority()
        try:
            outcome["result"] = search.run()
        except BaseException as exc:  # re-raised in the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="analyze", daemon=True)
    stopper.attach(search)
    worker.start()
    try:
        while True:
            worker.join(plan.report_every)
            if not worker.is_alive():
                break
            stopper.check_client()
            snapshot = search.snapshot()
            stopper.iterations = snapshot.iterations
            yield snapshot, None
        if "error" in outcome:
            raise outcome["error"]
        result = outcome["result"]
        stopper.iterations = result.iterations
        if lateness is not None and (result.out_of_time or (result.cancelled and time.monotonic() > due)):
            lateness.record_end(due)
        stopper.check_client()
        yield result, stop_reason(result, plan)
    finally:
        search.cancel()
        worker.join()
        stopper.detach()


class CallOver(Exception):
    """The call's own time (``--max-call-seconds``) is spent: no further decision is judged."""


MIN_DECISION_SECONDS = 0.01  # a decision with less time than this left is not started


def analyze_game(plan: GamePlan, stopper: Stopper):
    """Yields the verdict (``analysis.judge``) on each move of ``plan`` in order. Every search
    is stoppable: a client gone raises ClientGone, a server shutdown ShuttingDown (a game's
    verdicts are not worth sending half-searched). Each search (a decision has one, or two when
    the played move needs more visits) runs under the server's caps: within ``plan.seconds``
    (one stopped by the clock is judged on what it found), ``plan.max_nodes``, with ``plan.net``
    when one was given. Once ``plan.call_end`` is reached no search starts and the generator
    ends early (the caller's summary covers the decisions judged)."""

    def run(judged: Search) -> SearchResult:
        left = min(plan.seconds, plan.call_end - time.monotonic())
        if left < MIN_DECISION_SECONDS:
            raise CallOver()
        # The search analysis.judge asked for, under the server's caps (time, nodes) and its net.
        config = judged.config if plan.net is None else replace(judged.config, net=plan.net)
        search = Search(judged.state, Limits(iterations=judged.limits.iterations, seconds=left,
                                             max_nodes=plan.max_nodes), config, root_actions=judged.root_actions)
        stopper.attach(search)
        try:
            result = run_batch(search.run)
        finally:
            stopper.detach()
        stopper.iterations += result.iterations
        stopper.check_client()
        if stopper.reason == "shutdown":
            raise ShuttingDown("the server is shutting down: the game analysis stopped")
        if result.iterations == 0:  # stopped before its first iteration: nothing to judge on
            raise CallOver()
        if result.evaluator is not None:
            plan.evaluator = result.evaluator  # what really evaluated (the config's, resolved)
        return result

    decisions = game_analysis.decisions(plan.states, plan.moves, plan.options, run)
    while True:
        try:
            verdict = next(decisions)
        except (StopIteration, CallOver):
            return
        yield verdict


def seat_summaries(plan: GamePlan, verdicts: list[dict]) -> list[dict]:
    """Each seat's figures over the decisions judged (``analysis.seat_summary``)."""
    last = plan.states[-1]
    return game_analysis.seat_summary(verdicts, len(last.returns()), plan.options, last.game)
