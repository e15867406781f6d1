"""Shared fixtures: every rules test runs against both implementations of each game; the
markers of the test tiers, given by folder (pyproject.toml lists them)."""
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# The developer's tools (test certificates, the raw HTTP/2 client, the deployment benchmarks) are
# scripts/ in the source tree, not in the wheel; the tests import them from there. The folder
# holds no package of splendor_ai, so the installed one is still what the tests import.
sys.path.insert(0, str(TESTS.parent / "scripts"))
# folder (or file) under tests/ -> the markers of every test in it
TIERS = {
    "service": ("service",),
    "service/test_service_web_browser.py": ("service", "browser"),
    "service/test_service_web_page.py": ("service", "browser"),
    "service/test_service_web_coach.py": ("service", "browser"),
    "service/test_service_js_client.py": ("service", "node"),
    "train": ("training",),
    "bench": ("bench",),
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        try:
            rel = Path(item.fspath).resolve().relative_to(TESTS).as_posix()
        except ValueError:
            continue
        for key, marks in TIERS.items():
            if rel == key or rel.startswith(key + "/"):
                for mark in marks:
                    item.add_marker(mark)


@pytest.fixture(params=["reference", "core"])
def impl(request):
    """The implementation under test: the readable reference or the compiled core."""
    return request.param


@pytest.fixture
def progress(request):
    """say(text): a line on the terminal at once, even while pytest captures the test's
    output, so that a long test shows how far it is (nothing under xdist workers)."""
    capture = request.config.pluginmanager.getplugin("capturemanager")
    reporter = request.config.pluginmanager.getplugin("terminalreporter")

    def say(text: str) -> None:
        if reporter is not None and capture is not None:
            with capture.global_and_fixture_disabled():
                reporter.write_line(f"  {request.node.name}: {text}")

    return say
