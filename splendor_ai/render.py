"""The board drawn for a terminal: each game's text drawing, with ANSI colours.

Every game's ``spec.render_position`` draws the position as text (cards with their costs and
points, nobles / royals / locations, the Duel board grid, every seat's tokens, bonuses and
points). This module colours the token letters of that drawing, marks the seat to act and
names the seats, and leaves colour out when it is not wanted (``use_color``).
"""
from __future__ import annotations

import os
import re
import sys

RESET = "\033[0m"
BOLD = "\033[1m"

# Token letter -> ANSI colour, per game (letters as in docs/notation.md).
_GEMS = {
    "w": "\033[97m",  # white
    "u": "\033[94m",  # blue (sapphire)
    "g": "\033[92m",  # green (emerald)
    "r": "\033[91m",  # red (ruby)
    "k": "\033[90m",  # black (onyx): dark grey, readable on a dark background
    "y": "\033[93m",  # gold
}
COLOURS = {
    "base": _GEMS,
    "duel": {**_GEMS, "p": "\033[95m"},  # pearl
    "marvel": {
        "y": "\033[93m",  # yellow (mind)
        "r": "\033[91m",  # red (reality)
        "o": "\033[38;5;208m",  # orange (soul)
        "b": "\033[94m",  # blue (space)
        "p": "\033[95m",  # purple (power)
        "g": "\033[92m",  # green (time)
        "s": "\033[37m",  # grey (S.H.I.E.L.D.)
    },
}

_ANSI = re.compile(r"\033\[[0-9;]*m")


def use_color(stream=None) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    stream = stream if stream is not None else sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def _colour_tokens(line: str, colours: dict[str, str]) -> str:
    # A token letter stands alone or next to a digit ("w4", "3u", a grid cell "k"), never inside a word.
    pattern = re.compile(r"(?<![A-Za-z])([" + "".join(colours) + r"])(?![A-Za-z])")
    return pattern.sub(lambda m: colours[m.group(1)] + BOLD + m.group(1) + RESET, line)


def render(state, names=None, color: bool = False) -> str:
    """The drawing of ``state`` (a full state or a view); ``names`` labels the seats."""
    import importlib

    position = state.to_position()
    game = position.get("game", "base")
    spec = importlib.import_module(f"splendor_ai.games.{game}.spec")
    lines = spec.render_position(position).split("\n")
    current = None if state.is_terminal() else state.current_player()
    out = [BOLD + lines[0] + RESET if color else lines[0]]
    for line in lines[1:]:
        m = re.match(r"seat (\d+):", line)
        if m:
            seat = int(m.group(1))
            label = f" ({names[seat]})" if names else ""
            arrow = "> " if seat == current else "  "
            line = f"{arrow}seat {seat}{label}:{line[m.end():]}"
            if color:
                line = _colour_tokens(line, COLOURS[game])
                if seat == current:
                    line = BOLD + line + RESET
        elif color:
            line = _colour_tokens(line, COLOURS[game])
        out.append(line)
    return "\n".join(out)
