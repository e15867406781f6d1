"""A net file's versions in git history (splendor_ai/nn/versions.py). Each test makes a small
repository of its own, so a shallow clone of this one runs them too."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from splendor_ai import nn
from splendor_ai.nn import versions, weights as W

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "PATH": "/usr/bin:/bin", "HOME": str(repo)}
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True)
    return out.stdout.strip()


@pytest.fixture
def repo(tmp_path):
    """Three versions of nets/duel.splnn: the 128x128 reference, its header given c_puct 1.0 (the
    same weights), then the shipped 256x256 net."""
    r = tmp_path / "repo"
    (r / "nets").mkdir(parents=True)
    git(r, "init", "-q")
    target = r / "nets" / "duel.splnn"
    old = W.read(ROOT / "training" / "reference" / "duel.splnn")
    W.save(target, old)
    git(r, "add", "."), git(r, "commit", "-qm", "the old net")
    old.info = {**old.info, "search": {"c_puct": 1.0}}
    W.save(target, old)
    git(r, "commit", "-qam", "its header: c_puct 1.0")
    shutil.copyfile(ROOT / "splendor_ai" / "nets" / "duel.splnn", target)
    git(r, "commit", "-qam", "the new net")
    return r


def test_versions_lists_each_commit_with_its_checksums_newest_first(repo):
    rows = versions.versions("nets/duel.splnn", root=repo)
    assert [v.subject for v in rows] == ["the new net", "its header: c_puct 1.0", "the old net"]
    assert rows[0].hidden == (256, 256) and rows[2].hidden == (128, 128) and rows[0].players == (2,)
    assert rows[0].checksum == nn.load(ROOT / "splendor_ai" / "nets" / "duel.splnn", "duel").checksum
    assert rows[2].checksum == nn.load(ROOT / "training" / "reference" / "duel.splnn", "duel").checksum
    # a header change gives another file checksum but the same weights
    assert rows[1].checksum != rows[2].checksum and rows[1].weights == rows[2].weights != rows[0].weights
    assert rows[1].search == {"c_puct": 1.0} and rows[0].when >= rows[1].when >= rows[2].when
    assert rows[0].ref == f"{rows[0].commit}:nets/duel.splnn"
    text = versions.table(rows)
    assert rows[2].checksum in text and "128x128" in text


def test_extract_writes_a_version_to_a_file_and_refuses_what_is_not_a_net(repo, tmp_path):
    rows = versions.versions("nets/duel.splnn", root=repo)
    tmp = versions.extract(rows[2].ref, root=repo)
    try:
        assert nn.load(tmp, "duel").checksum == rows[2].checksum and tmp.name.startswith("splnn-")
    finally:
        tmp.unlink()
    out = versions.extract(rows[1].ref, tmp_path / "x" / "v.splnn", root=repo)
    assert nn.load(out, "duel").file.search_settings() == {"c_puct": 1.0}
    with pytest.raises(versions.VersionError):
        versions.extract("0000000:nets/duel.splnn", root=repo)
    with pytest.raises(versions.VersionError, match="REV:PATH"):
        versions.blob("nets/duel.splnn", root=repo)
    (repo / "notes.txt").write_text("not a net\n")
    git(repo, "add", "."), git(repo, "commit", "-qm", "notes")
    with pytest.raises(W.WeightsError):
        versions.extract("HEAD:notes.txt", root=repo)
