"""How late this server's searches end past their time, so that answers due before a deadline
leave room for it.

A search stops on the clock, but on a shared virtual machine the host can pause the process
for a few tenths of a second at any moment: a search due to stop at ``t`` then stops at
``t`` plus the pause, and the answer due 50 ms before the caller's deadline misses it (the
caller gets DEADLINE_EXCEEDED and no move at all). A missed deadline costs the caller the
whole answer, a shorter search only a little strength, so the server keeps, besides
``budget.deadline_margin``, the largest lateness it saw over its last ``WINDOW`` timed
searches. On a quiet machine that is a few milliseconds; on one that pauses, the pause.
"""
from __future__ import annotations

import threading
import time
from collections import deque

WINDOW = 32  # the timed searches remembered (a pause seen leaves after this many more searches)
CAP = 1.0  # seconds: one lateness counts at most this much


class Lateness:
    """Thread-safe: ``record`` from the searches' threads, ``allowance`` when a call starts."""

    def __init__(self, window: int = WINDOW):
        self._lock = threading.Lock()
        self._recent: deque[float] = deque(maxlen=window)

    def record(self, seconds_late: float) -> None:
        """One search that was due to stop at some time stopped ``seconds_late`` after it
        (negative: early, counted as 0)."""
        with self._lock:
            self._recent.append(min(max(0.0, seconds_late), CAP))

    def record_end(self, due: float | None) -> None:
        """A search due to stop at ``due`` (``time.monotonic()``) has just stopped on the clock."""
        if due is not None:
            self.record(time.monotonic() - due)

    def allowance(self) -> float:
        """Seconds to keep before a deadline beyond the usual margin: the largest recent lateness."""
        with self._lock:
            return max(self._recent, default=0.0)
