"""The repository's weight: tracked files and bytes, a fresh shallow clone, the quick test tier.

    python scripts/bench_repo.py [--before REV] [--after REV] [--tests] [--write [FILE]]

Run from the repository root. For each of two commits (default: the one before issue 52's
clean-up, ``dff69a8``, and ``HEAD``): the tracked files and their bytes, and the wall time of a
fresh depth-1 clone of that commit with its checkout (best of three, from a ``file://`` URL, so
it is the disk and git's work, not a network). With ``--tests``, also the wall time and the count of
the quick test tier (``QUICK``, the README's) and of the whole suite in the current tree, each run
by the current interpreter's pytest, the whole suite both as configured (pytest-xdist's workers)
and in one process (``-n 0``). With ``--install``, the installed size of the server as the
README installs it (``pip install ./client '.[web]'`` into a fresh virtual environment, from a
fresh clone of each commit), the site-packages of each.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from splendor_ai.bench.report import add_write_option, machine_line, report

BEFORE = "dff69a8"  # the last commit before issue 52 took the evidence out of the tree
QUICK = "not (slow or service or training or bench)"  # README.md: the quick tier


def _pytest(marks: str | None, *extra: str) -> tuple[float, str, str]:
    """(seconds, pytest's last line, its collected count line) of a run in this tree (``extra``:
    more options, e.g. ``-n 0`` for one process instead of pyproject.toml's workers)."""
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra] + (["-m", marks] if marks else [])
    collected = subprocess.run(args + ["--collect-only"], capture_output=True, text=True).stdout.strip()
    t0 = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    took = time.perf_counter() - t0
    return took, (done.stdout.strip().splitlines() or ["?"])[-1], (collected.splitlines() or ["?"])[-1]


def installed_mb(rev: str) -> float:
    """MB of site-packages after the README's install of ``rev`` into a fresh environment."""
    tmp = Path(tempfile.mkdtemp(prefix="splendor-install-"))
    try:
        _git("clone", "-q", "--no-local", Path.cwd().resolve().as_uri(), str(tmp / "src"))
        _git("checkout", "-q", rev, cwd=tmp / "src")
        subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
        subprocess.run([str(tmp / "venv" / "bin" / "pip"), "install", "-q", "./client", ".[web]"], cwd=tmp / "src",
                       check=True, capture_output=True)
        site = next((tmp / "venv" / "lib").glob("python*/site-packages"))
        return sum(f.stat().st_size for f in site.rglob("*") if f.is_file()) / 1e6
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _git(*args: str, cwd: str | Path = ".") -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def tracked(rev: str) -> tuple[int, int]:
    """(files, bytes) of the tree at ``rev``."""
    files = size = 0
    for line in _git("ls-tree", "-r", "-l", rev).splitlines():
        files += 1
        field = line.split()[3]
        size += int(field) if field.isdigit() else 0
    return files, size


def clone_seconds(rev: str, tries: int = 3) -> float:
    """Best wall time of a depth-1 fetch of ``rev`` into a new repository, with its checkout."""
    sha = _git("rev-parse", rev).strip()
    url = Path.cwd().resolve().as_uri()
    best = float("inf")
    for _ in range(tries):
        tmp = tempfile.mkdtemp(prefix="splendor-clone-")
        try:
            _git("init", "-q", cwd=tmp)
            t0 = time.perf_counter()
            _git("fetch", "-q", "--depth", "1",
                 "--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack", url, sha, cwd=tmp)
            _git("checkout", "-q", "FETCH_HEAD", cwd=tmp)
            best = min(best, time.perf_counter() - t0)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/bench_repo.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default=BEFORE, help=f"the earlier commit (default {BEFORE})")
    ap.add_argument("--after", default="HEAD", help="the later commit (default HEAD)")
    ap.add_argument("--tests", action="store_true", help="also time the quick tier and the whole suite here")
    ap.add_argument("--install", action="store_true", help="also measure each commit's installed size")
    add_write_option(ap)
    args = ap.parse_args(argv)
    if not Path(".git").exists():
        ap.error("run it from the repository root (no .git here)")
    rows = []
    for rev in (args.before, args.after):
        try:
            files, size = tracked(rev)
        except subprocess.CalledProcessError as exc:
            ap.error(f"{rev}: not a commit here ({exc.stderr.strip()})")
        rows.append((rev, _git("rev-parse", "--short", rev).strip(), files, size, clone_seconds(rev)))
        print(f"{rev}: {files:,} files, {size / 1e6:.1f} MB, shallow clone {rows[-1][4]:.2f} s", flush=True)
    (_, b_sha, b_files, b_size, b_clone), (_, a_sha, a_files, a_size, a_clone) = rows
    cmd = "python scripts/bench_repo.py" + (f" --before {args.before}" if args.before != BEFORE else "") + (
        " --tests" if args.tests else "") + (" --install" if args.install else "")
    lines = [
        "## Repository: tracked files, a fresh clone, the quick test tier",
        "",
        f"Command: `{cmd}` ({machine_line()}). A depth-1 clone of each commit from a `file://` URL, with its "
        "checkout, best of three.",
        "",
        "| figure | before | after | after / before |",
        "|---|---|---|---|",
        f"| commit | {b_sha} | {a_sha} | |",
        f"| tracked files | {b_files:,} | {a_files:,} | {a_files / b_files:.2f}x |",
        f"| tracked bytes | {b_size / 1e6:.1f} MB | {a_size / 1e6:.1f} MB | {a_size / b_size:.2f}x |",
        f"| shallow clone + checkout | {b_clone:.2f} s | {a_clone:.2f} s | {a_clone / b_clone:.2f}x |",
    ]
    if args.install:
        b_mb, a_mb = installed_mb(args.before), installed_mb(args.after)
        lines.append(f"| installed server (`pip install ./client '.[web]'`), site-packages | {b_mb:.1f} MB | "
                     f"{a_mb:.1f} MB | {a_mb / b_mb:.2f}x |")
    if args.tests:
        quick, quick_tail, quick_count = _pytest(QUICK)
        full, full_tail, _ = _pytest(None)
        one, one_tail, _ = _pytest(None, "-n", "0")
        lines += ["", f"The quick tier (`pytest -m \"{QUICK}\"`, this tree): {quick:.0f} s, `{quick_count}`, "
                      f"`{quick_tail}`. The whole suite (`pytest`, as CI runs it, in pyproject.toml's worker "
                      f"processes): {full:.0f} s, `{full_tail}`; in one process (`pytest -n 0`): {one:.0f} s, "
                      f"`{one_tail}` ({full / one:.2f}x)."]
    report(args, "repo", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
