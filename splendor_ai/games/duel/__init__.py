"""Splendor Duel, for 2 players."""
from __future__ import annotations

from ..errors import UnknownGameError
from . import spec

try:
    from ..._core import duel as _core
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "splendor_ai: the compiled rules core splendor_ai._core.duel is missing or broken "
        f"({exc}). The package must be installed with 'pip install .', which builds the "
        "Cython extensions in ext/; there is no pure-Python fallback."
    ) from exc


class DuelGame:
    """Splendor Duel (2 players only); makes states."""

    name = spec.GAME
    num_actions = spec.NUM_ACTIONS

    def __init__(self, players: int = 2, impl: str = "core"):
        if players not in spec.PLAYER_COUNTS or isinstance(players, bool):
            raise UnknownGameError(f"Splendor Duel is for 2 players, not {players!r}")
        self.players = players
        self.impl = impl
        if impl == "core":
            self._state_class = _core.CoreState
        else:
            from .reference import ReferenceState

            self._state_class = ReferenceState

    def __repr__(self) -> str:
        return f"DuelGame(players=2, impl={self.impl!r})"

    def new_initial_state(self, seed: int | None = None):
        """A freshly dealt game; the same seed gives the same deal in both implementations."""
        return self._state_class.from_position(spec.initial_position(2, seed))

    def state_from_position(self, position: dict):
        """A state from a position dictionary (docs/duel.md); PositionError names the field."""
        return self._state_class.from_position(spec.validate_position(position))

    def catalog(self) -> dict:
        """Jewel cards, royal cards and the board's spiral, with their stable ids."""
        def abilities(bits):
            return [name for name, bit in spec.ABILITY_BITS.items() if bit and bits & bit]

        return {
            "cards": [
                {"id": c.id, "level": c.level, "color": spec.CARD_COLORS[c.color], "points": c.points,
                 "crowns": c.crowns, "bonus": c.bonus, "abilities": abilities(c.abilities),
                 "cost": dict(zip(spec.COLORS + ("pearl",), c.cost))}
                for c in spec.CARDS
            ],
            "royals": [{"id": r.id, "points": r.points, "abilities": abilities(r.abilities)} for r in spec.ROYALS],
            "spiral": [spec.cell_name(c) for c in spec.SPIRAL],
        }
