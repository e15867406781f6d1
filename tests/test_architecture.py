"""docs/architecture.md cannot drift: every tracked top-level folder and every entry of the
package (its folders and its modules) is named in its layout, and nothing it names is gone."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def _layout() -> str:
    return DOC.split("## Layout", 1)[1].split("```", 2)[1]


def _named_in_order() -> list[str]:
    return [line.split()[0] for line in _layout().splitlines() if line and not line.startswith(" ")]


def _named() -> set[str]:
    names = set(_named_in_order())
    return names | {name.split("/", 1)[0] + "/" for name in names if "/" in name.rstrip("/")}


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return out.split()


def test_every_top_level_folder_is_named():
    folders = {path.split("/", 1)[0] + "/" for path in _tracked() if "/" in path}
    missing = folders - _named()
    assert not missing, f"docs/architecture.md's layout does not name {sorted(missing)}"


def test_every_package_entry_is_named():
    entries = {f"splendor_ai/{p.name}/" if p.is_dir() else f"splendor_ai/{p.name}"
               for p in (ROOT / "splendor_ai").iterdir()
               if not p.name.startswith(("__", ".")) and (p.is_dir() or p.suffix == ".py")}
    missing = entries - _named()
    assert not missing, f"docs/architecture.md's layout does not name {sorted(missing)}"


def test_everything_named_exists():
    gone = [name for name in _named() if not (ROOT / name).exists()]
    assert not gone, f"docs/architecture.md names what is not there: {gone}"


def test_the_layers_are_the_ones_the_import_test_checks():
    from test_imports import LAYERS

    order = [name.split("/")[1].removesuffix(".py") for name in _named_in_order() if name.startswith("splendor_ai/")]
    position = {top: i for i, top in enumerate(order)}
    for lower, upper in zip(LAYERS, LAYERS[1:]):
        for a in lower:
            for b in upper:
                if a in position and b in position:
                    assert position[a] < position[b], f"{a} is listed after {b}, but it is a lower layer"
    assert re.search(r"dependency order", DOC)


def test_training_holds_at_most_20_tracked_files():
    """Issue 70: training/ is provenance, not a lab notebook (match records live outside the tree)."""
    files = [p for p in _tracked() if p.startswith("training/")]
    assert len(files) <= 20, (f"training/ tracks {len(files)} files (at most 20: training/README.md says where "
                              "records go)")
