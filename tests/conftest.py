"""Shared fixtures: every rules test runs against both implementations of each game."""
import pytest


@pytest.fixture(params=["reference", "core"])
def impl(request):
    """The implementation under test: the readable reference or the compiled core."""
    return request.param
