"""Splendor: Marvel, for 2, 3 or 4 players."""
from __future__ import annotations

from ..errors import UnknownGameError
from . import spec

try:
    from ..._core import marvel as _core
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "splendor_ai: the compiled rules core splendor_ai._core.marvel is missing or broken "
        f"({exc}). The package must be installed with 'pip install .', which builds the "
        "Cython extensions in ext/; there is no pure-Python fallback."
    ) from exc


class MarvelGame:
    """Splendor: Marvel for a fixed number of players; makes states."""

    name = spec.GAME
    num_actions = spec.NUM_ACTIONS

    def __init__(self, players: int = 2, impl: str = "core"):
        if players not in spec.PLAYER_COUNTS or isinstance(players, bool):
            raise UnknownGameError(f"Splendor: Marvel is for 2, 3 or 4 players, not {players!r}")
        self.players = players
        self.impl = impl
        if impl == "core":
            self._state_class = _core.CoreState
        else:
            from .reference import ReferenceState

            self._state_class = ReferenceState

    def __repr__(self) -> str:
        return f"MarvelGame(players={self.players}, impl={self.impl!r})"

    def new_initial_state(self, seed: int | None = None):
        """A freshly dealt game; the same seed gives the same deal in both implementations."""
        return self._state_class.from_position(spec.initial_position(self.players, seed))

    def state_from_position(self, position: dict):
        """A state from a position dictionary (docs/marvel.md); PositionError names the field."""
        pos = spec.validate_position(position)
        if pos["players"] != self.players:
            raise spec.PositionError("players", f"this game is for {self.players} players, not {pos['players']}")
        return self._state_class.from_position(pos)

    def catalog(self) -> dict:
        """Character cards and location sides with their stable ids and names."""
        return {
            "cards": [
                {"id": c.id, "name": c.name, "level": c.level, "color": spec.COLORS[c.color],
                 "points": c.points, "avengers": c.avengers, "time_stone": c.time_stone,
                 "cost": dict(zip(spec.COLORS, c.cost))}
                for c in spec.CARDS
            ],
            "locations": [
                {"id": loc.id, "name": loc.name, "tile": loc.tile, "side": loc.side,
                 "points": loc.points, "requires": dict(zip(spec.COLORS, loc.requires))}
                for loc in spec.LOCATIONS
            ],
        }
