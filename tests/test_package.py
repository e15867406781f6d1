"""What the installed package holds: what a user runs, not the developer's tools (issue 70)."""
import os
from pathlib import Path

import pytest

import splendor_ai

PACKAGE = Path(splendor_ai.__file__).resolve().parent
CORES_MAX_BYTES = 3_000_000  # the five compiled cores together, stripped


def test_the_developer_tools_are_not_in_the_package():
    present = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    tools = {"service/devcerts.py", "bench/deploy.py", "bench/deploy_hostile.py", "bench/deploy_places.py",
             "bench/h2raw.py", "bench/repo.py", "bench/page.py", "bench/web_ts.py"}
    assert not present & tools, f"developer tools in the package (they belong in scripts/): {sorted(present & tools)}"
    assert not list(PACKAGE.rglob("*.pem")) and not list(PACKAGE.rglob("*.key"))


@pytest.mark.skipif(os.environ.get("SPLENDOR_AI_DEBUG", "") not in ("", "0"), reason="a debug build keeps its symbols")
def test_the_compiled_cores_are_stripped():
    cores = list((PACKAGE / "_core").glob("*.so"))
    assert len(cores) == 5, cores
    total = sum(p.stat().st_size for p in cores)
    assert total <= CORES_MAX_BYTES, f"the cores take {total:,} bytes (debug info or symbols left in?)"
