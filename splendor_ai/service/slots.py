"""The limit on concurrent searches: a slot is taken at once or the call is refused.

No queue: beyond ``limit`` running searches a request gets RESOURCE_EXHAUSTED immediately,
so a burst cannot pile up work the server would finish long after the callers gave up.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

from .engine import Stopper
from .errors import Busy, ShuttingDown


class SearchSlots:
    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"the limit on concurrent searches must be at least 1, got {limit}")
        self.limit = limit
        self._lock = threading.Lock()
        self._active: set[Stopper] = set()
        self._closed = False

    @contextmanager
    def acquire(self, context):
        """A slot for one search, as a Stopper the call's end (cancel, deadline) triggers."""
        stopper = Stopper()
        with self._lock:
            if self._closed:
                raise ShuttingDown("the server is shutting down")
            if len(self._active) >= self.limit:
                raise Busy(f"the server is running its maximum of {self.limit} concurrent searches; retry later")
            self._active.add(stopper)

        def release():
            with self._lock:
                self._active.discard(stopper)

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
