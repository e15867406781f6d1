"""The `.splnn` weights file (format 1, docs/learned.md): write, read and check.

Reading checks, in order, and refuses with a WeightsError naming what is wrong: the magic,
the header (JSON, every field and its type), the game, the feature version and sizes against
the game's core, the payload's length, its checksum. Pure Python (json, struct, hashlib,
array): the server reads nets without numpy or torch.
"""
from __future__ import annotations

import hashlib
import json
import struct
import sys
from array import array
from dataclasses import dataclass, field
from pathlib import Path

from ..games.errors import SplendorError

MAGIC = b"SPLNN\x00\x00\x01"
FORMAT = 1
MAX_HEADER = 1 << 20
# How the C evaluation holds the hidden layers' weights (header.info.precision, optional:
# float32 when absent). bfloat16 halves their bytes, int8 quarters them (each rounded at load to
# one of its output's 255 levels); the payload stays float32 either way.
PRECISIONS = ("float32", "bfloat16", "int8")
# The PUCT settings a net may recommend to the search that uses it (header.info.search, and
# header.info.search_by_players["N"] for N seats alone), with the search's defaults where neither does.
# Each value's type is the setting's (net_rollout_depth an int, the others floats).
SEARCH_DEFAULTS: dict[str, int | float] = {"c_puct": 1.5, "fpu_reduction": 0.1, "net_rollout_depth": 0,
                                           "net_rollout_weight": 0.0}

_FIELDS = {
    "format": int,
    "game": str,
    "players": list,
    "feature_version": int,
    "num_features": int,
    "policy_size": int,
    "max_players": int,
    "hidden": list,
    "payload_floats": int,
    "sha256": str,
    "generation": int,
    "info": dict,
}


class WeightsError(SplendorError):
    """A weights file that cannot be used: the message names what is wrong and where."""


@dataclass
class NetFile:
    """The contents of a weights file: its header fields and the float32 payload."""

    game: str
    players: list[int]
    feature_version: int
    num_features: int
    policy_size: int
    max_players: int
    hidden: list[int]
    payload: array  # float32, PyTorch layout (docs/learned.md)
    generation: int = 0
    info: dict = field(default_factory=dict)

    def expected_floats(self) -> int:
        n, prev = 0, self.num_features
        for h in self.hidden:
            n += prev * h + h
            prev = h
        return n + prev * self.max_players + self.max_players + prev * self.policy_size + self.policy_size

    def search_settings(self, players: int | None = None) -> dict:
        """The search settings this net recommends (header.info.search), with those recommended
        for `players` seats alone (header.info.search_by_players) in their place where it gives any."""
        out = dict(self.info.get("search") or {})
        if players is not None:
            out.update((self.info.get("search_by_players") or {}).get(str(players)) or {})
        return out

    def header(self) -> dict:
        data = self.payload_bytes()
        return {
            "format": FORMAT,
            "game": self.game,
            "players": list(self.players),
            "feature_version": self.feature_version,
            "num_features": self.num_features,
            "policy_size": self.policy_size,
            "max_players": self.max_players,
            "hidden": list(self.hidden),
            "payload_floats": len(self.payload),
            "sha256": hashlib.sha256(data).hexdigest(),
            "generation": self.generation,
            "info": self.info,
        }

    def payload_bytes(self) -> bytes:
        a = array("f", self.payload)
        if sys.byteorder != "little":
            a.byteswap()
        return a.tobytes()

    def __repr__(self) -> str:  # the payload is megabytes: never in logs or tracebacks
        return (f"NetFile(game={self.game!r}, players={self.players}, hidden={self.hidden}, "
                f"generation={self.generation}, payload=<{len(self.payload)} floats>)")


def file_bytes(net: NetFile) -> bytes:
    """The bytes of `net`'s weights file, as `save` writes them (the header's checksum computed here)."""
    if len(net.payload) != net.expected_floats():
        raise WeightsError(f"payload has {len(net.payload)} floats, the shape needs {net.expected_floats()}")
    header = json.dumps(net.header(), sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + net.payload_bytes()


def file_checksum(data: bytes) -> str:
    """How a net is named in results and records: the first 16 hex digits of the SHA-256 of its file."""
    return hashlib.sha256(data).hexdigest()[:16]


def save(path, net: NetFile) -> None:
    """Writes `net` to `path` (the header's checksum is computed here)."""
    data = file_bytes(net)
    tmp = Path(str(path) + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
    tmp.replace(path)


def parse(data: bytes, source: str = "weights") -> NetFile:
    """Reads a weights file's bytes; `source` names it in errors. Checks the file alone (see
    check_for_core for the fit to a game's core)."""
    if len(data) < 12 or data[:5] != MAGIC[:5]:
        raise WeightsError(f"{source}: not a splendor-ai weights file (bad magic)")
    if data[:8] != MAGIC:
        raise WeightsError(f"{source}: weights format {data[7]} is not supported (this version reads {FORMAT})")
    (hlen,) = struct.unpack("<I", data[8:12])
    if hlen > MAX_HEADER or 12 + hlen > len(data):
        raise WeightsError(f"{source}: header length {hlen} runs past the end of the file")
    try:
        header = json.loads(data[12:12 + hlen].decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{source}: header is not JSON ({exc})") from None
    if not isinstance(header, dict):
        raise WeightsError(f"{source}: header is not a JSON object")
    for name, kind in _FIELDS.items():
        if name not in header:
            raise WeightsError(f"{source}: header.{name} is missing")
        value = header[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise WeightsError(f"{source}: header.{name} must be {kind.__name__}, got {value!r}")
    if header["format"] != FORMAT:
        raise WeightsError(f"{source}: header.format {header['format']} is not {FORMAT}")
    for name in ("players", "hidden"):
        if not header[name] or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0
                                       for x in header[name]):
            raise WeightsError(f"{source}: header.{name} must be a non-empty list of positive integers")
    if len(header["hidden"]) > 4:
        raise WeightsError(f"{source}: header.hidden has {len(header['hidden'])} layers, at most 4 are supported")
    for name in ("num_features", "policy_size", "max_players"):
        if header[name] < 1:
            raise WeightsError(f"{source}: header.{name} must be positive")
    if not 2 <= header["max_players"] <= 8:
        raise WeightsError(f"{source}: header.max_players must be 2..8")
    if header["info"].get("precision", "float32") not in PRECISIONS:
        raise WeightsError(f"{source}: header.info.precision must be one of {', '.join(PRECISIONS)}, "
                           f"got {header['info']['precision']!r}")
    _check_search(header["info"], header["players"], source)
    body = data[12 + hlen:]
    net = NetFile(
        game=header["game"], players=header["players"], feature_version=header["feature_version"],
        num_features=header["num_features"], policy_size=header["policy_size"],
        max_players=header["max_players"], hidden=header["hidden"], payload=array("f"),
        generation=header["generation"], info=header["info"],
    )
    need = net.expected_floats()
    if header["payload_floats"] != need:
        raise WeightsError(f"{source}: header.payload_floats is {header['payload_floats']}, the shape needs {need}")
    if len(body) != 4 * need:
        raise WeightsError(f"{source}: payload is {len(body)} bytes, the header promises {4 * need} "
                           "(truncated or padded file)")
    if hashlib.sha256(body).hexdigest() != header["sha256"]:
        raise WeightsError(f"{source}: payload checksum does not match header.sha256 (corrupt file)")
    payload = array("f")
    payload.frombytes(body)
    if sys.byteorder != "little":
        payload.byteswap()
    net.payload = payload
    return net


def with_precision(net: NetFile, precision: str) -> NetFile:
    """A copy of `net` whose header asks the C evaluation for `precision` (PRECISIONS) in its
    hidden layers; the payload is unchanged (bfloat16 rounds it when the net is loaded)."""
    if precision not in PRECISIONS:
        raise WeightsError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    info = {k: v for k, v in net.info.items() if k != "precision"}
    if precision != "float32":
        info["precision"] = precision
    return NetFile(net.game, list(net.players), net.feature_version, net.num_features, net.policy_size,
                   net.max_players, list(net.hidden), net.payload, net.generation, info)


def _check_settings(settings, where: str) -> None:
    if not isinstance(settings, dict):
        raise WeightsError(f"{where} must be an object of search settings, got {settings!r}")
    for name, value in settings.items():
        if name not in SEARCH_DEFAULTS:
            raise WeightsError(f"{where}.{name}: not a search setting (one of {', '.join(SEARCH_DEFAULTS)})")
        kind = type(SEARCH_DEFAULTS[name])
        ok = ((isinstance(value, int) if kind is int else isinstance(value, (int, float)))
              and not isinstance(value, bool))
        if not ok or value < 0 or value != value:
            raise WeightsError(f"{where}.{name} must be a non-negative {'integer' if kind is int else 'number'}, "
                               f"got {value!r}")


def parse_settings(text: str, where: str) -> dict:
    """Search settings from their command-line form, `k=v,...` (e.g. `c_puct=0.7,fpu_reduction=0.2`), checked
    as a net header's are; a bad name or value raises WeightsError naming `where` and the setting."""
    out = {}
    for part in filter(None, (text or "").split(",")):
        name, _, value = part.partition("=")
        if name not in SEARCH_DEFAULTS:
            raise WeightsError(f"{where}: unknown setting {name!r} (one of {', '.join(SEARCH_DEFAULTS)})")
        try:
            out[name] = type(SEARCH_DEFAULTS[name])(value)
        except ValueError:
            raise WeightsError(f"{where}: {name}={value!r} is not "
                               f"{'an integer' if type(SEARCH_DEFAULTS[name]) is int else 'a number'}") from None
    _check_settings(out, where)
    return out


def _check_search(info: dict, players: list, source: str) -> None:
    """Refuses search settings the search could not use (so a bad header fails at load, loudly,
    not in the middle of a game)."""
    if "search" in info:
        _check_settings(info["search"], f"{source}: header.info.search")
    by_players = info.get("search_by_players", {})
    if not isinstance(by_players, dict):
        raise WeightsError(f"{source}: header.info.search_by_players must be an object keyed by player count, "
                           f"got {by_players!r}")
    for key, settings in by_players.items():
        if not key.isdigit() or int(key) not in players:
            raise WeightsError(f"{source}: header.info.search_by_players: {key!r} is not one of the net's "
                               f"player counts {players}")
        _check_settings(settings, f"{source}: header.info.search_by_players.{key}")


def check_for_core(net: NetFile, game: str, core_module, source: str = "weights") -> None:
    """Refuses a net that does not fit `game`'s core: its game, feature version and sizes."""
    if net.game != game:
        raise WeightsError(f"{source}: a net for {net.game!r}, not {game!r}")
    if net.feature_version != core_module.FEATURE_VERSION:
        raise WeightsError(f"{source}: feature version {net.feature_version}, the {game} core encodes "
                           f"version {core_module.FEATURE_VERSION}")
    if net.num_features != core_module.NUM_FEATURES:
        raise WeightsError(f"{source}: {net.num_features} features, the {game} core encodes {core_module.NUM_FEATURES}")
    if net.policy_size != core_module.POLICY_SIZE:
        raise WeightsError(
            f"{source}: policy of {net.policy_size} classes, the {game} core has {core_module.POLICY_SIZE}")


def read(path) -> NetFile:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WeightsError(f"{path}: cannot read ({exc.strerror})") from None
    return parse(data, str(path))


def main(argv=None) -> int:
    """python -m splendor_ai.nn precision IN OUT {float32,bfloat16,int8}: a copy of a net
    that the search evaluates at that precision (docs/learned.md)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m splendor_ai.nn", description=(main.__doc__ or "").split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    pr = sub.add_parser("precision", help="write a copy of a net with another evaluation precision")
    pr.add_argument("source")
    pr.add_argument("out")
    pr.add_argument("precision", choices=PRECISIONS)
    args = ap.parse_args(argv)
    try:
        save(args.out, with_precision(read(args.source), args.precision))
    except WeightsError as exc:
        print(f"weights: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} ({args.precision})")
    return 0
