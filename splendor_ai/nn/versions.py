"""A net file's versions in git history: list them with their checksums, extract one.

    python -m splendor_ai.nn.versions splendor_ai/nets/base.splnn
    python -m splendor_ai.nn.versions splendor_ai/nets/base.splnn --extract f9ea81d --out /tmp/g7.splnn

Every commit that changed the file is a version: its short hash, date, the first 16 hex digits
of the SHA-256 of the whole file (the checksum that records, logs and training/README.md quote),
the first 16 of its payload's SHA-256 (the weights alone: two versions that differ only in their
header's search settings share it), its layers, player counts and header search settings. An
older net plays as it shipped: `REV:PATH` (git's own spelling, `f9ea81d:splendor_ai/nets/base.splnn`)
names it wherever `bench gate` takes a net, and `extract` writes it to a file (by default a
temporary one, which the caller removes). Needs the repository's git history: a shallow clone
lists only the versions it holds.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import weights as W

ROOT = Path(__file__).resolve().parents[2]


class VersionError(ValueError):
    """A version that git cannot give (no repository, no such commit or file)."""


@dataclass(frozen=True)
class NetVersion:
    commit: str  # the short hash of the commit that wrote this version
    date: str  # its date, YYYY-MM-DD
    when: int  # its commit time, seconds since 1970 (orders versions of several files)
    subject: str  # its subject line
    path: str  # the file's path in the repository at that commit
    checksum: str  # first 16 hex digits of the SHA-256 of the file
    weights: str  # first 16 hex digits of the payload's SHA-256 (header.sha256)
    hidden: tuple[int, ...]
    players: tuple[int, ...]
    search: dict  # header info.search, with info.search_by_players under "by_players" where it has one

    @property
    def ref(self) -> str:
        """How `bench gate` and `extract` name it: REV:PATH."""
        return f"{self.commit}:{self.path}"

    def covers(self, players: int) -> bool:
        return players in self.players


def _git(args: list[str], root: Path, binary: bool = False):
    try:
        out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=120)
    except OSError as exc:
        raise VersionError(f"git cannot run here ({exc.strerror})") from None
    if out.returncode != 0:
        raise VersionError(f"git {' '.join(args)}: {out.stderr.decode(errors='replace').strip()[:300]}")
    return out.stdout if binary else out.stdout.decode()


def _relative(path: str | os.PathLike, root: Path) -> str:
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            raise VersionError(f"{path} is not inside the repository {root}") from None
    return p.as_posix()


def blob(ref: str, root: Path = ROOT) -> bytes:
    """The bytes of REV:PATH (git show)."""
    rev, sep, path = ref.partition(":")
    if not sep or not rev or not path:
        raise VersionError(f"{ref!r}: give REV:PATH, e.g. f9ea81d:splendor_ai/nets/base.splnn")
    return _git(["show", f"{rev}:{_relative(path, root)}"], root, binary=True)


def _version(commit: str, date: str, when: int, subject: str, path: str, data: bytes) -> NetVersion:
    net = W.parse(data, f"{commit}:{path}")
    info = net.info or {}
    search = dict(info.get("search") or {})
    if info.get("search_by_players"):
        search["by_players"] = info["search_by_players"]
    return NetVersion(commit, date, when, subject, path, W.file_checksum(data), weights_checksum(net),
                      tuple(net.hidden), tuple(net.players), search)


def weights_checksum(net: W.NetFile) -> str:
    """The first 16 hex digits of the SHA-256 of a net's payload: the same for two files whose
    headers alone differ (a search setting changed), as header.sha256 is."""
    import hashlib

    return hashlib.sha256(net.payload_bytes()).hexdigest()[:16]


def versions(path: str | os.PathLike, root: Path = ROOT) -> list[NetVersion]:
    """Every version of the net file at `path` (relative to the repository root, or absolute
    inside it) in git history, newest first; commits that deleted it are left out."""
    rel = _relative(path, root)
    log = _git(["log", "--format=%h%x09%ad%x09%ct%x09%s", "--date=short", "--", rel], root)
    out = []
    for line in log.splitlines():
        commit, date, when, subject = (line.split("\t", 3) + ["", "", ""])[:4]
        try:
            data = _git(["show", f"{commit}:{rel}"], root, binary=True)
        except VersionError:  # the commit deleted it
            continue
        out.append(_version(commit, date, int(when or 0), subject, rel, data))
    return out


def extract(ref: str, out: str | os.PathLike | None = None, root: Path = ROOT) -> Path:
    """Write REV:PATH's bytes to `out` (default: a new temporary file, which the caller removes)
    and return its path; refuses bytes that are not a weights file."""
    data = blob(ref, root)
    W.parse(data, ref)  # a weights file, its checksum right
    if out is None:
        fd, name = tempfile.mkstemp(prefix="splnn-", suffix=".splnn")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return Path(name)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, out)
    return out


def table(rows: list[NetVersion]) -> str:
    lines = [f"{'commit':8s} {'date':10s} {'file sha256':16s} {'weights':16s} {'hidden':10s} {'players':8s} search"]
    for v in rows:
        lines.append(f"{v.commit:8s} {v.date:10s} {v.checksum:16s} {v.weights:16s} "
                     f"{'x'.join(map(str, v.hidden)):10s} {','.join(map(str, v.players)):8s} {v.search or '-'}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m splendor_ai.nn.versions", description=__doc__.split("\n\n")[0])
    ap.add_argument("net", help="the net file's path in the repository (e.g. splendor_ai/nets/base.splnn)")
    ap.add_argument("--extract", metavar="REV", default=None, help="write the version of commit REV to --out")
    ap.add_argument("--out", default=None, help="with --extract: the file to write (default: a temporary file)")
    args = ap.parse_args(argv)
    try:
        if args.extract:
            print(extract(f"{args.extract}:{args.net}", args.out))
            return 0
        print(table(versions(args.net)))
    except (VersionError, W.WeightsError) as exc:
        print(f"versions: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
