"""The progress bars of the long commands (selfplay, train, analyze): one library, tqdm, one rule.

The rule: a bar is drawn only when its stream is a terminal. Redirected to a file or a pipe
(a log, CI, a test), there is no bar at all: no ``\\r``, no escape codes, nothing to strip.
"""
from __future__ import annotations

import sys

from tqdm import tqdm


def on_terminal(stream) -> bool:
    """Whether ``stream`` is an interactive terminal (a closed or odd stream is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def bar(total: int, desc: str, unit: str, *, stream=None, enabled: bool = True, initial: int = 0) -> tqdm:
    """A bar of ``total`` ``unit``s on ``stream`` (default stderr), silent (disabled: updates
    cost nothing and print nothing) unless ``enabled`` and the stream is a terminal.

    ``initial``: units already done before this run (a resumed match), counted in the bar but
    not in its rate."""
    stream = stream if stream is not None else sys.stderr
    return tqdm(total=total, desc=desc, unit=unit, file=stream, initial=initial,
                disable=not (enabled and on_terminal(stream)), dynamic_ncols=True, mininterval=0.2,
                smoothing=0.1)
