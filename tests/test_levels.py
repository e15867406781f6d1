"""The difficulty ladder's definition (its strength is measured in BENCHMARKS.md)."""
import pytest

from splendor_ai.games import load_game
from splendor_ai.search.levels import LEVELS, get_level, level_bot


def test_ten_levels_with_growing_budgets_and_falling_temperatures():
    assert sorted(LEVELS) == list(range(1, 11))
    its = [LEVELS[i].iterations for i in range(1, 8)]
    secs = [LEVELS[i].seconds for i in range(8, 11)]
    temps = [LEVELS[i].temperature for i in range(1, 11)]
    assert its == sorted(set(its)) and secs == sorted(set(secs)) and temps == sorted(temps, reverse=True)
    # the top levels think for a time (at least about a second at the top), not a count
    assert all(LEVELS[i].iterations is None for i in range(8, 11)) and LEVELS[10].seconds >= 1.0
    assert LEVELS[10].limits().seconds == LEVELS[10].seconds and LEVELS[7].limits().iterations == 1500


@pytest.mark.parametrize("bad", [0, 11, "5", 2.5, True])
def test_unknown_levels_are_rejected(bad):
    with pytest.raises(ValueError):
        get_level(bad)


def test_a_level_bot_plays_legal_moves():
    state = load_game("base", 2).new_initial_state(4)
    bot = level_bot(3, seed=1)
    for _ in range(6):
        action = bot.choose(state)
        assert action in state.search_actions()
        state.apply_action(action)
