"""One thread that runs callbacks at their due time: the per-call bounds of the gRPC port (a
request that never comes, a message that is never read) cost a heap entry each, not a thread.

``Alarms.arm(seconds, fn)`` returns an ``Alarm`` whose ``cancel()`` (from any thread, any
number of times) keeps ``fn`` from running. Callbacks run on the alarm thread and must be
short: they cancel a call, they never wait for one.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time

log = logging.getLogger("splendor_ai.service")


class Alarm:
    __slots__ = ("due", "fn", "cancelled")

    def __init__(self, due: float, fn):
        self.due, self.fn, self.cancelled = due, fn, False

    def cancel(self) -> None:
        self.cancelled = True
        self.fn = None  # what it would have touched is not kept alive by the heap


class Alarms:
    def __init__(self, name: str = "alarms"):
        self._heap: list[tuple[float, int, Alarm]] = []
        self._order = itertools.count()
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def arm(self, seconds: float, fn) -> Alarm:
        alarm = Alarm(time.monotonic() + seconds, fn)
        with self._cond:
            heapq.heappush(self._heap, (alarm.due, next(self._order), alarm))
            if self._heap[0][2] is alarm:
                self._cond.notify()
        return alarm

    def pending(self) -> int:
        """Alarms armed and not yet due or dropped (cancelled ones linger until their time)."""
        with self._cond:
            return sum(1 for _, _, a in self._heap if not a.cancelled)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed and (not self._heap or self._heap[0][0] > time.monotonic()):
                    if self._heap:
                        self._cond.wait(self._heap[0][0] - time.monotonic())
                    else:
                        self._cond.wait()
                if self._closed:
                    return
                _, _, alarm = heapq.heappop(self._heap)
                fn = alarm.fn
            if alarm.cancelled or fn is None:
                continue
            try:
                fn()
            except Exception:  # an alarm's failure must not stop the others
                log.exception("an alarm callback failed")
