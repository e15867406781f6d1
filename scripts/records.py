"""Match records kept out of every clone: a match's records go under a git ref of their own,
``refs/records/<name>`` (a commit holding ``<name>.tar.xz``), which `git clone` does not fetch,
so a reader fetches the records of a figure when they want them (training/README.md).

    python scripts/records.py put NAME DIR      # archive DIR as NAME.tar.xz under refs/records/NAME
    python scripts/records.py get NAME [OUT]    # fetch refs/records/NAME (from origin if missing), unpack into OUT
    python scripts/records.py list              # the records refs here

`put` does not push: `git push origin refs/records/NAME` publishes it.
"""
from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path


def git(*args: str, input: bytes | None = None) -> str:
    return subprocess.run(["git", *args], input=input, capture_output=True, check=True).stdout.decode().strip()


def put(name: str, folder: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        archive = Path(d) / f"{name}.tar.xz"
        with tarfile.open(archive, "w:xz") as tar:
            tar.add(folder, arcname=name)
        blob = git("hash-object", "-w", str(archive))
    tree = git("mktree", input=f"100644 blob {blob}\t{name}.tar.xz\n".encode())
    commit = git("commit-tree", tree, "-m", f"records: {name}")
    git("update-ref", f"refs/records/{name}", commit)
    return commit


def get(name: str, out: str = ".") -> Path:
    ref = f"refs/records/{name}"
    try:
        git("rev-parse", "--verify", ref)
    except subprocess.CalledProcessError:
        git("fetch", "origin", f"{ref}:{ref}")
    data = subprocess.run(["git", "show", f"{ref}:{name}.tar.xz"], capture_output=True, check=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".tar.xz") as f:
        f.write(data)
        f.flush()
        with tarfile.open(f.name) as tar:
            tar.extractall(out, filter="data")
    return Path(out) / name


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["put"] and len(argv) == 3:
        print(f"refs/records/{argv[1]} = {put(argv[1], argv[2])} (publish: git push origin refs/records/{argv[1]})")
    elif argv[:1] == ["get"] and len(argv) in (2, 3):
        print(get(*argv[1:]))
    elif argv == ["list"]:
        print(git("for-each-ref", "--format=%(refname:strip=2) %(objectname:short)", "refs/records/"))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
