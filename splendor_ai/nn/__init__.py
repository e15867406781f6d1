"""The learned evaluation at serving time: loading a game's network for the search.

Nets ship as package data (`splendor_ai/nets/<game>.splnn`, and `<game>-<players>p.splnn` for a
player count with a net of its own; format in docs/learned.md) and
are evaluated in C by the search; nothing here imports numpy or torch.
"""
from __future__ import annotations

import functools

import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from .weights import NetFile, WeightsError, check_for_core, file_bytes, file_checksum, parse, read, save

if TYPE_CHECKING:
    from .._core.nn import NetCore

__all__ = ["Net", "NetFile", "WeightsError", "load", "loaded_shipped", "shipped_net", "read", "save", "parse"]


@dataclass(frozen=True)
class Net:
    """A checked network, ready for the search (``Config(net=...)``)."""

    game: str
    players: tuple[int, ...]
    generation: int
    source: str
    file: NetFile
    core: NetCore
    checksum: str = ""  # the first 16 hex digits of the SHA-256 of the net's file

    @functools.cached_property
    def name(self) -> str:
        """The net's file name without folders (``base.splnn``), or ``<base net>`` for one made in memory."""
        return Path(self.source).name if not self.source.startswith("<") else self.source

    def __repr__(self) -> str:  # short: the weights are megabytes (a Config holding a net shows this)
        return (f"Net({self.name}, game={self.game!r}, players={self.players}, generation={self.generation}, "
                f"checksum={self.checksum})")

    def capsule(self):
        return self.core.capsule()

    def covers(self, players: int) -> bool:
        return players in self.players

    def evaluate(self, features: bytes, n_seats: int, classes=()):
        """(win probabilities relative to the mover, logits of `classes`), evaluated in C."""
        from array import array

        return self.core.evaluate(array("f", features), n_seats, list(classes))


def load(source, game: str) -> Net:
    """A Net from a path or a NetFile, checked against `game`'s core."""
    from .._core import nn as _nn
    from ..games.registry import core_module

    if isinstance(source, NetFile):
        name = f"<{game} net>"
        data = file_bytes(source)
        netfile = parse(data, name)  # the checks a file gets, the header's included
    else:
        name = str(source)
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise WeightsError(f"{name}: cannot read ({exc.strerror})") from None
        netfile = parse(data, name)
    check_for_core(netfile, game, core_module(game), name)
    core = _nn.NetCore(netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size,
                       netfile.payload, netfile.header())
    return Net(game, tuple(netfile.players), netfile.generation, name, netfile, core, file_checksum(data))


_shipped: dict[Path, Net | None] = {}
_lock = threading.Lock()


def shipped_path(game: str, players: int | None = None, folder: Path | None = None) -> Path:
    """The shipped weights file for `game`: `nets/<game>-<players>p.splnn` where a net is shipped
    for that player count alone (one that plays it better than the game's net), else
    `nets/<game>.splnn` (in `folder` instead of the package's nets, where given)."""
    if folder is None:
        return _package_net_path(game, players)
    return _net_path(folder, game, players)


@functools.lru_cache(maxsize=None)
def _package_net_path(game: str, players: int | None) -> Path:
    """The package's files do not change while it runs: each search asks, so the answer is kept."""
    return _net_path(Path(str(resources.files("splendor_ai") / "nets")), game, players)


def _net_path(nets: Path, game: str, players: int | None) -> Path:
    if players is not None and (nets / f"{game}-{players}p.splnn").is_file():
        return nets / f"{game}-{players}p.splnn"
    return nets / f"{game}.splnn"


def shipped_net(game: str, players: int | None = None) -> Net | None:
    """The net shipped with the package for `game` (and covering `players`), or None."""
    path = shipped_path(game, players)
    with _lock:
        if path not in _shipped:
            _shipped[path] = load(path, game) if path.is_file() else None
        net = _shipped[path]
    if net is None or (players is not None and not net.covers(players)):
        return None
    return net


def loaded_shipped() -> list[Net]:
    """The shipped nets loaded so far (what `shipped_net` keeps)."""
    with _lock:
        return [n for n in _shipped.values() if n is not None]
