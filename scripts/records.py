"""Match records kept in git history, out of the tree: `put` archives a match's folder as
``training/matches/<name>.tar.xz`` in one commit on the current branch and takes it out of the
tree again in the next, so the records travel with the branch (every full clone has them, a
shallow one does not) while no checkout carries the file (training/README.md).

    python scripts/records.py put NAME DIR      # the two commits on HEAD; prints the citation
    python scripts/records.py get NAME [OUT]    # unpack NAME's archive from history into OUT
    python scripts/records.py list              # the archives in history, with their commits

`put` touches neither the working tree nor the index: the first commit is HEAD's tree with the
archive added, the second HEAD's tree again, so staged and unstaged changes stay as they were.
(Records were once kept under refs of their own, ``refs/records/<name>``; such a ref does not
travel with a branch and four gates' records were lost that way, so they go into history now.)
"""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

FOLDER = "training/matches"


def git(*args: str, input: bytes | None = None, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], input=input, capture_output=True, check=True,
                          env=env).stdout.decode().strip()


def path_of(name: str) -> str:
    if not name or "/" in name or name.startswith("."):
        raise SystemExit(f"records: {name!r} is not a records name (no '/', not starting with '.')")
    return f"{FOLDER}/{name}.tar.xz"


def added_at(name: str) -> str | None:
    """The commit that added NAME's archive, or None."""
    out = git("log", "--all", "--diff-filter=A", "--format=%H", "-1", "--", path_of(name))
    return out or None


def put(name: str, folder: str) -> str:
    path = path_of(name)
    if not Path(folder).is_dir():
        raise SystemExit(f"records: {folder} is not a folder")
    if added_at(name):
        raise SystemExit(f"records: {path} is already in history (at {added_at(name)[:10]}); choose another name")
    if git("ls-tree", "HEAD", "--", path):
        raise SystemExit(f"records: {path} is in HEAD's tree; records live in history only")
    with tempfile.TemporaryDirectory() as d:
        archive = Path(d) / f"{name}.tar.xz"
        with tarfile.open(archive, "w:xz") as tar:
            tar.add(folder, arcname=name)
        blob = git("hash-object", "-w", str(archive))
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(d) / "index")}
        git("read-tree", "HEAD", env=env)
        git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
        tree = git("write-tree", env=env)
    head = git("rev-parse", "HEAD")
    added = git("commit-tree", tree, "-p", head, "-m", f"records: {name} (the match records cited as "
                f"`python scripts/records.py get {name}`)")
    removed = git("commit-tree", f"{head}^{{tree}}", "-p", added, "-m",
                  f"records: {name} out of the tree again (kept in history at {added[:10]})")
    git("update-ref", "-m", f"records: {name}", "HEAD", removed, head)
    return added


def get(name: str, out: str = ".") -> Path:
    commit = added_at(name)
    if commit is None:
        raise SystemExit(f"records: no {path_of(name)} in this clone's history (a shallow clone needs "
                         "`git fetch --unshallow`)")
    data = subprocess.run(["git", "show", f"{commit}:{path_of(name)}"], capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".tar.xz") as f:
        f.write(data)
        f.flush()
        with tarfile.open(f.name) as tar:
            tar.extractall(out, filter="data")
    return Path(out) / name


def listing() -> list[tuple[str, str]]:
    """(name, commit) of every archive added under training/matches/ in history, oldest first."""
    out = git("log", "--all", "--reverse", "--diff-filter=A", "--format=commit %h", "--name-only", "--",
              f"{FOLDER}/")
    rows, commit = [], ""
    for line in out.splitlines():
        if line.startswith("commit "):
            commit = line.split()[1]
        elif line.endswith(".tar.xz"):
            rows.append((line[len(FOLDER) + 1:-len(".tar.xz")], commit))
    return rows


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["put"] and len(argv) == 3:
        added = put(argv[1], argv[2])
        print(f"{path_of(argv[1])} at {added[:10]} (cite: python scripts/records.py get {argv[1]} DIR)")
    elif argv[:1] == ["get"] and len(argv) in (2, 3):
        print(get(*argv[1:]))
    elif argv == ["list"]:
        for name, commit in listing():
            print(f"{commit} {name}")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
