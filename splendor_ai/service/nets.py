"""The nets a server searches with: checked before its ports open, and a fault found later made loud.

At start (``Nets.check``) every shipped net (``splendor_ai/nets/*.splnn``) and every net given
with ``--net GAME=FILE`` is read, its checksum verified and fitted to its game's core; a net
missing for a game that ships one, or any fault, stops the server with one line naming the
file and the fault. The checked nets are the ones every search uses (they are kept in
memory, so a file changed on disk later changes nothing).

A net fault seen while serving (``NetFault``, or a ``WeightsError`` from the search) is the
server's fault, not the caller's: it is logged as an error with its detail, counted
(``splendor_net_faults_total``), turns the health status NOT_SERVING (an orchestrator takes
the replica out), and the caller gets UNAVAILABLE with a message that holds no server path.
"""
from __future__ import annotations

import logging
import re
from pathlib import Path

from .. import nn
from ..games import GAMES
from ..games.base import spec as base_spec
from ..games.duel import spec as duel_spec
from ..games.marvel import spec as marvel_spec
from ..search.mcts import SearchError
from .settings import parse_net_setting

log = logging.getLogger("splendor_ai.service")

PLAYER_COUNTS = {"base": base_spec.PLAYER_COUNTS, "duel": duel_spec.PLAYER_COUNTS,
                 "marvel": marvel_spec.PLAYER_COUNTS}
SHIPPED_NAME = re.compile(r"^(?P<game>[a-z]+)(?:-(?P<players>\d)p)?\.splnn$")


class NetFault(Exception):
    """A net the server cannot search with. ``detail`` (for the log) may hold paths; the
    message a caller sees never does."""

    def __init__(self, game: str, detail: str):
        super().__init__(f"the server's net for {game} is not usable (a server fault, logged; try another server)")
        self.game = game
        self.detail = detail


def shipped_dir() -> Path:
    return nn.shipped_path("base").parent


class Nets:
    """The checked nets: the shipped ones and the ``--net`` overrides, by game."""

    def __init__(self, overrides: dict[str, nn.Net] | None = None, shipped: list[Path] | None = None):
        self.overrides = dict(overrides or {})
        self.shipped = list(shipped or [])

    @classmethod
    def check(cls, setting: str = "", folder: Path | None = None) -> "Nets":
        """Loads and verifies every net; ValueError with one line (the file and its fault) on the first bad one."""
        folder = shipped_dir() if folder is None else folder
        shipped, loaded = [], {}
        files = sorted(folder.glob("*.splnn")) if folder.is_dir() else []
        for path in files:
            m = SHIPPED_NAME.match(path.name)
            if m is None or m["game"] not in GAMES:
                raise ValueError(f"net check: {path}: not named GAME.splnn or GAME-Np.splnn")
            loaded[path.name] = _load(path, m["game"])
            shipped.append(path)
        for game in GAMES:  # every player count of every game has its net, as nn.shipped_path finds it
            for players in PLAYER_COUNTS[game]:
                name = nn.shipped_path(game, players, folder).name
                if name not in loaded:
                    raise ValueError(f"net check: {folder / name}: missing (every game ships a net; "
                                     f"{game} at {players} players has none)")
                if not loaded[name].covers(players):
                    raise ValueError(f"net check: {folder / name}: covers {list(loaded[name].players)} players, "
                                     f"not {players} (and no {game}-{players}p.splnn is shipped)")
        overrides = {}
        for game, net_path in parse_net_setting(setting).items():
            overrides[game] = _load(Path(net_path), game)
        if folder == shipped_dir():
            for game in GAMES:  # loads (and keeps) what every search will use
                for players in PLAYER_COUNTS[game]:
                    nn.shipped_net(game, players)
        return cls(overrides, shipped)

    def net_for(self, game: str, players: int):
        """The ``--net`` override for ``game`` when it covers ``players``, else None (the shipped net)."""
        net = self.overrides.get(game)
        return net if net is not None and net.covers(players) else None

    def describe(self) -> str:
        """The nets, then how the C evaluation runs them: its kernel and each precision in use."""
        from .._core import nn as core_nn

        names = [p.name for p in self.shipped] + [f"{g}={n.name} ({n.checksum})" for g, n in self.overrides.items()]
        nets = nn.loaded_shipped() + list(self.overrides.values())
        precisions = sorted({n.core.precision for n in nets}) or ["float32"]
        return (f"{', '.join(names) or 'none'} (kernel {core_nn.default_kernel()}, "
                f"precision {'/'.join(precisions)})")


def _load(path: Path, game: str) -> nn.Net:
    if not path.is_file():
        raise ValueError(f"net check: {path}: missing")
    try:
        return nn.load(path, game)
    except nn.WeightsError as exc:  # its message starts with the path
        raise ValueError(f"net check: {exc}") from None


def as_net_fault(exc: BaseException, game: str) -> NetFault | None:
    """The NetFault ``exc`` stands for, or None when it is no net fault."""
    if isinstance(exc, NetFault):
        return exc
    if isinstance(exc, nn.WeightsError):
        return NetFault(game, str(exc))
    if isinstance(exc, SearchError) and str(exc).startswith(("config.net", "no net is shipped")):
        return NetFault(game, str(exc))
    return None
