"""Splendor, the base game, for 2, 3 or 4 players."""
from __future__ import annotations

from ..errors import UnknownGameError
from . import spec

try:
    from ..._core import base as _core
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "splendor_ai: the compiled rules core splendor_ai._core.base is missing or broken "
        f"({exc}). The package must be installed with 'pip install .', which builds the "
        "Cython extensions in ext/; there is no pure-Python fallback."
    ) from exc


class BaseGame:
    """The base game for a fixed number of players; makes states."""

    name = spec.GAME
    num_actions = spec.NUM_ACTIONS

    def __init__(self, players: int = 2, impl: str = "core"):
        if players not in spec.PLAYER_COUNTS or isinstance(players, bool):
            raise UnknownGameError(f"Splendor is for 2, 3 or 4 players, not {players!r}")
        self.players = players
        self.impl = impl
        if impl == "core":
            self._state_class = _core.CoreState
        else:
            from .reference import ReferenceState

            self._state_class = ReferenceState

    def __repr__(self) -> str:
        return f"BaseGame(players={self.players}, impl={self.impl!r})"

    def new_initial_state(self, seed: int | None = None):
        """A freshly dealt game; the same seed gives the same deal in both implementations."""
        return self._state_class.from_position(spec.initial_position(self.players, seed))

    def state_from_position(self, position: dict):
        """A state from a position dictionary (docs/positions.md); PositionError names the field."""
        pos = spec.validate_position(position)
        if pos["players"] != self.players:
            raise spec.PositionError("players", f"this game is for {self.players} players, not {pos['players']}")
        return self._state_class.from_position(pos)

    def catalog(self) -> dict:
        """Cards and nobles with their stable ids."""
        return {
            "cards": [
                {"id": c.id, "level": c.level, "color": spec.COLORS[c.color], "points": c.points,
                 "cost": dict(zip(spec.COLORS, c.cost))}
                for c in spec.CARDS
            ],
            "nobles": [
                {"id": n.id, "points": n.points, "requires": dict(zip(spec.COLORS, n.requires))}
                for n in spec.NOBLES
            ],
        }
