"""The difficulty ladder's definition (its strength is measured in BENCHMARKS.md)."""
import pytest

from splendor_ai.games import load_game
from splendor_ai.search.bots import make_bot
from splendor_ai.search.levels import LEVELS, get_level, level_bot


def test_ten_levels_heuristic_below_net_with_growing_budgets():
    assert sorted(LEVELS) == list(range(1, 11))
    heuristic = [LEVELS[i] for i in range(1, 5)]
    net = [LEVELS[i] for i in range(5, 11)]
    assert all(lv.evaluator == "heuristic" for lv in heuristic) and all(lv.evaluator == "auto" for lv in net)
    for group in (heuristic, net[:3]):
        its = [lv.iterations for lv in group]
        temps = [lv.temperature for lv in group]
        assert its == sorted(set(its)) and temps == sorted(temps, reverse=True)
    # the top levels think for a time (at least about a second at the top), not a count
    secs = [LEVELS[i].seconds for i in range(8, 11)]
    assert secs == sorted(set(secs)) and all(LEVELS[i].iterations is None for i in range(8, 11))
    assert LEVELS[10].seconds >= 1.0 and all(LEVELS[i].temperature == 0 for i in range(8, 11))
    assert LEVELS[10].limits().seconds == LEVELS[10].seconds and LEVELS[7].limits().iterations == 1500


@pytest.mark.parametrize("level, evaluator", [(1, "heuristic"), (4, "heuristic"), (5, "net"), (10, "net")])
def test_a_level_searches_with_its_evaluator(level, evaluator):
    lv = get_level(level)
    assert lv.config(seed=3).evaluator == lv.evaluator and lv.config(seed=3).seed == 3
    assert lv.budget().endswith(evaluator)
    bot = make_bot(lv.spec(), seed=3)
    assert bot.config.evaluator == lv.evaluator and bot.temperature == lv.temperature
    assert level_bot(level, seed=3).config == bot.config


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
