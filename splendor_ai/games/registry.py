"""The one registry of games, which every layer asks: a game's name is checked, and its spec,
its compiled core and its ``Game`` class found, here and nowhere else.

A game registers as a ``Game`` subclass in its package (``splendor_ai.games.<name>``,
``GAME_CLASS``), named in ``GAMES``, that says which spec, core and reference it uses and what
its catalogue holds. ``load_game`` finds it by name."""
from __future__ import annotations

import importlib
from types import ModuleType

from .errors import PositionError, UnknownGameError

# The registered games: each names a package splendor_ai.games.<name> whose GAME_CLASS is a Game.
GAMES = ("base", "marvel", "duel")


def check(name: str) -> str:
    """``name`` if it is a registered game, else UnknownGameError naming the games."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (one of {', '.join(GAMES)})")
    return name


_SPECS: dict[str, ModuleType] = {}
_CORES: dict[str, ModuleType] = {}


def spec(name: str):
    """The spec module of game ``name`` (its rules' tables, notation, validation)."""
    if name in _SPECS:  # asked for every move a call encodes: a lookup, not an import
        return _SPECS[name]
    return _SPECS.setdefault(name, importlib.import_module(f"splendor_ai.games.{check(name)}.spec"))


def core_module(name: str):
    """The compiled core of game ``name`` (splendor_ai._core.<name>), or a clear ImportError."""
    if name in _CORES:
        return _CORES[name]
    check(name)
    try:
        return _CORES.setdefault(name, importlib.import_module(f"splendor_ai._core.{name}"))
    except ImportError as exc:  # pragma: no cover - exercised only on a broken install
        raise ImportError(
            f"splendor_ai: the compiled rules core splendor_ai._core.{name} is missing or broken "
            f"({exc}). The package must be installed with 'pip install .', which builds the "
            "Cython extensions in ext/; there is no pure-Python fallback."
        ) from exc


class Game:
    """A game for a fixed number of players; makes states (both implementations).

    A game's package subclasses it, setting ``spec`` (its spec module: GAME,
    PLAYER_COUNTS, NUM_ACTIONS, initial_position, validate_position), ``title`` and
    ``position_doc``, and writing ``catalog``."""

    spec: ModuleType
    title = ""
    position_doc = "docs/positions.md"

    def __init__(self, players: int = 2, impl: str = "core"):
        counts = self.spec.PLAYER_COUNTS
        if players not in counts or isinstance(players, bool):
            allowed = " or ".join(", ".join(map(str, counts)).rsplit(", ", 1))
            raise UnknownGameError(f"{self.title} is for {allowed} players, not {players!r}")
        self.players = players
        self.impl = impl
        if impl == "core":
            self._state_class = core_module(self.spec.GAME).CoreState
        else:
            self._state_class = importlib.import_module(f"{self.spec.__package__}.reference").ReferenceState

    @property
    def name(self) -> str:
        return self.spec.GAME

    @property
    def num_actions(self) -> int:
        return self.spec.NUM_ACTIONS

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, impl={self.impl!r})"

    def new_initial_state(self, seed: int | None = None):
        """A freshly dealt game; the same seed gives the same deal in both implementations."""
        return self._state_class.from_position(self.spec.initial_position(self.players, seed))

    def state_from_position(self, position: dict):
        """A state from a position dictionary (see ``position_doc``); PositionError names the field."""
        pos = self.spec.validate_position(position)
        if pos["players"] != self.players:
            raise PositionError("players", f"this game is for {self.players} players, not {pos['players']}")
        return self._state_class.from_position(pos)

    def catalog(self) -> dict:
        """The game's pieces with their stable ids (the game's own)."""
        raise NotImplementedError  # pragma: no cover - every game defines it

    @staticmethod
    def card_entry(card, colours, cost_kinds=None, **extra) -> dict:
        """A card of the catalogue: its id, level, colour name, points and cost per kind."""
        return {"id": card.id, "level": card.level, "color": colours[card.color], "points": card.points,
                **extra, "cost": dict(zip(cost_kinds or colours, card.cost))}


def load(name: str, players: int, impl: str) -> Game:
    """The registered game ``name`` (its package's ``GAME_CLASS``)."""
    return importlib.import_module(f"splendor_ai.games.{check(name)}").GAME_CLASS(players, impl)
