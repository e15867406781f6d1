"""Shared fixtures: every rules test runs against both implementations of each game."""
import pytest


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
