"""The match records behind the figures: scripts/records.py keeps them in git history (a round
trip in a scratch repository), and every records citation in the docs resolves in this clone."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "records.py"
DOCS = [ROOT / "BENCHMARKS.md", ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "training").rglob("*.md"))]


def git(cwd, *args) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def records(cwd, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture
def repo(tmp_path):
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    git(r, "config", "user.email", "t@example.org")
    git(r, "config", "user.name", "t")
    (r / "a.txt").write_text("a\n")
    git(r, "add", "a.txt")
    git(r, "commit", "-q", "-m", "first")
    return r


def test_put_keeps_the_records_in_history_not_in_the_tree_and_get_gives_them_back(repo, tmp_path):
    match = tmp_path / "match"
    (match / "table1").mkdir(parents=True)
    (match / "table1" / "game-1.json").write_text('{"moves": []}\n')
    (match / "budgets.json").write_text("{}\n")
    (repo / "a.txt").write_text("changed, not staged\n")  # put leaves the work in progress alone
    (repo / "b.txt").write_text("staged\n")
    git(repo, "add", "b.txt")
    tree_before = git(repo, "rev-parse", "HEAD^{tree}")

    done = records(repo, "put", "gate-x", str(match))
    assert done.returncode == 0, done.stderr
    assert "python scripts/records.py get gate-x" in done.stdout
    assert git(repo, "rev-parse", "HEAD^{tree}") == tree_before  # the tip's tree is the one before
    assert git(repo, "rev-list", "--count", "HEAD") == "3"
    assert git(repo, "ls-tree", "HEAD^", "training/matches/gate-x.tar.xz")  # the commit before holds it
    assert git(repo, "diff", "--cached", "--name-only") == "b.txt"
    assert (repo / "a.txt").read_text() == "changed, not staged\n"
    assert not (repo / "training").exists()

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    got = records(clone, "get", "gate-x", str(tmp_path / "out"))
    assert got.returncode == 0, got.stderr
    assert (tmp_path / "out" / "gate-x" / "table1" / "game-1.json").read_text() == '{"moves": []}\n'
    listed = records(clone, "list")
    assert listed.stdout.split()[-1] == "gate-x"

    again = records(repo, "put", "gate-x", str(match))  # a name is given once
    assert again.returncode != 0 and "already in history" in again.stderr
    missing = records(clone, "get", "gate-y", str(tmp_path / "out"))
    assert missing.returncode != 0 and "no training/matches/gate-y.tar.xz" in missing.stderr
    bad = records(repo, "put", "../up", str(match))
    assert bad.returncode != 0 and "not a records name" in bad.stderr


def cited() -> tuple[set[str], set[tuple[str, str]]]:
    names, revs = set(), set()
    for doc in DOCS:
        text = doc.read_text()
        names |= {n for n in re.findall(r"records\.py get ([A-Za-z0-9._-]+)", text) if n != "NAME"}
        revs |= {(rev, path) for rev, path in
                 re.findall(r"\b([0-9a-f]{7,40}):(training/matches/[A-Za-z0-9._-]+\.tar\.xz)", text)
                 if not path.endswith("/NAME.tar.xz")}
    return names, revs


def test_every_records_citation_resolves_in_this_clone():
    try:
        inside = git(ROOT, "rev-parse", "--is-inside-work-tree") == "true"
    except (subprocess.CalledProcessError, FileNotFoundError):
        inside = False
    if not inside:
        pytest.skip("not a git checkout: the records live in its history")
    if git(ROOT, "rev-parse", "--is-shallow-repository") == "true":
        pytest.skip("a shallow clone does not hold the history the records live in")
    names, revs = cited()
    assert names or revs
    for name in sorted(names):
        assert git(ROOT, "log", "--all", "--diff-filter=A", "--format=%h", "-1", "--",
                   f"training/matches/{name}.tar.xz"), f"records {name} cited but not in history"
    for rev, path in sorted(revs):
        assert subprocess.run(["git", "cat-file", "-e", f"{rev}:{path}"], cwd=ROOT).returncode == 0, \
            f"{rev}:{path} cited but not in history"
