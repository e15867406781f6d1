"""training/README.md's commands run as written (its indented blocks, a command a line): the
match archive it unpacks from history, the net versions it lists and extracts. They read git
history, so a shallow clone without those commits skips them, saying so."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "training" / "README.md"


def commands() -> list[str]:
    """Every line of an indented block that follows a blank line (markdown's code blocks)."""
    out, prev_blank, in_block = [], True, False
    for line in README.read_text().splitlines():
        if line.startswith("    ") and line.strip() and (prev_blank or in_block):
            out.append(line.strip())
            in_block = True
        elif line.strip():
            in_block = False
        prev_blank = not line.strip()
    return out


def test_the_readme_has_the_commands_this_test_expects():
    cmds = commands()
    assert any(c.startswith("git show ") for c in cmds)
    assert any(c.startswith("python -m splendor_ai.nn.versions") and "--extract" in c for c in cmds)
    assert any(c.startswith("splendor-ai bench gate") for c in cmds)


@pytest.mark.parametrize("command", commands())
def test_the_command_runs(command, tmp_path):
    for rev in re.findall(r"\b([0-9a-f]{7})[:\s]", command + " "):
        if subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}^{{commit}}"],
                          capture_output=True).returncode:
            pytest.skip(f"commit {rev} is not in this clone's history (a shallow clone)")
    # The reader's /tmp is this test's folder; `python` and `splendor-ai` are this environment's.
    shell = command.replace("/tmp", str(tmp_path))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    shell = re.sub(r"^python\b", sys.executable, shell)
    done = subprocess.run(["bash", "-o", "pipefail", "-c", shell], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
    if "tar x" in command:
        assert any(tmp_path.rglob("*.json")), "the archive unpacked no record"
    elif "--out" in command:
        assert Path(done.stdout.strip()).stat().st_size > 1000
    else:
        assert "commit" in done.stdout and len(done.stdout.splitlines()) > 2, done.stdout
