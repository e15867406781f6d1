"""The limit on concurrent searches: a slot is taken at once or the call is refused.

No queue: beyond ``limit`` running searches a request gets RESOURCE_EXHAUSTED immediately,
so a burst cannot pile up work the server would finish long after the callers gave up.

Batch work (AnalyzeGame, a long Analyze: ``PRIORITY_BATCH``, budget.priority) may hold at most ``batch_limit``
of the slots; the others are kept for interactive calls (GetMove, a hint's Analyze), which may
take any free slot. A season of game analyses thus never makes a player's move wait or be
refused, and the batch searches' threads run at a lower CPU priority (engine.py) so that an
interactive search beside them keeps its speed.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

from .engine import Stopper
from .errors import Busy, ShuttingDown


class SearchSlots:
    def __init__(self, limit: int, batch_limit: int | None = None):
        if limit < 1:
            raise ValueError(f"the limit on concurrent searches must be at least 1, got {limit}")
        batch_limit = limit if batch_limit is None else batch_limit
        if not 1 <= batch_limit <= limit:
            raise ValueError(f"the slots for batch work must be from 1 to {limit}, got {batch_limit}")
        self.limit = limit
        self.batch_limit = batch_limit
        self._lock = threading.Lock()
        self._active: dict[Stopper, bool] = {}  # each running search: whether it is batch work
        self._batch = 0
        self._closed = False

    @contextmanager
    def acquire(self, context, batch: bool = False):
        """A slot for one search (of batch work when ``batch``), as a Stopper the call's end
        (cancel, deadline) triggers."""
        stopper = Stopper()
        with self._lock:
            if self._closed:
                raise ShuttingDown("the server is shutting down")
            if len(self._active) >= self.limit:
                raise Busy(f"the server is running its maximum of {self.limit} concurrent searches; retry later")
            if batch and self._batch >= self.batch_limit:
                raise Busy(f"the server is running its maximum of {self.batch_limit} batch searches (AnalyzeGame, "
                           "long Analyze); retry later", refusal="batch_slots")
            self._active[stopper] = batch
            self._batch += batch

        def release():
            with self._lock:
                if self._active.pop(stopper, False):
                    self._batch -= 1

        def call_ended():  # also after a normal end, when it changes nothing
            stopper.stop("client")
            release()

        if not context.add_callback(call_ended):  # the call is already over
            stopper.stop("client")
        try:
            yield stopper
        finally:
            release()

    def active(self) -> int:
        with self._lock:
            return len(self._active)

    def batch_active(self) -> int:
        with self._lock:
            return self._batch

    def close(self) -> None:
        """Refuse new searches from now on."""
        with self._lock:
            self._closed = True

    def stop_all(self) -> None:
        """Stop every running search (they answer with what they found)."""
        with self._lock:
            running = list(self._active)
        for stopper in running:
            stopper.stop("shutdown")
