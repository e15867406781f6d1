"""The search's settings as the core takes them (search/params.py): one builder gives
TreeSearch every keyword it has, the UCT and PUCT types hold the config's values, and the stop
codes are the core's."""
import re
from pathlib import Path

from splendor_ai.games import load_game
from splendor_ai.search import Config, Limits, Search
from splendor_ai.search.params import PuctParams, StopCode, UctParams, tree_arguments, uct_of


def _core_keywords() -> set[str]:
    """The parameters of TreeSearch.__cinit__, read from ext/search.pyx (a cdef class has no
    signature Python can inspect)."""
    source = (Path(__file__).resolve().parents[2] / "ext" / "search.pyx").read_text()
    head = re.search(r"def __cinit__\(self,(.*?)\):", source, re.S).group(1)
    names = [re.sub(r"=.*", "", p).split()[-1] for p in head.split(",") if p.strip()]
    return set(names) - {"game_def", "root_state", "seat"}


def test_one_builder_gives_every_keyword_of_the_core():
    keywords = set(tree_arguments(Config(), Limits(iterations=10), None, 2, seed=1))
    assert keywords == _core_keywords()


def test_the_parameter_types_hold_the_config_and_the_nets_recommendation():
    config = Config(c_uct=0.7, prior_weight=1.5, rollout_depth=-1, c_puct=0.9, root_noise=0.25)
    assert uct_of(config) == UctParams(0.7, 1.5, -1, 1000)
    assert PuctParams.of(config, None, 2) == PuctParams(c_puct=0.9, root_noise=0.25)
    assert PuctParams.of(Config(), None, 2) == PuctParams()  # no net: the defaults


def test_the_stop_codes_are_the_cores():
    state = load_game("base", 2).new_initial_state(1)
    search = Search(state, Limits(seconds=30), Config(seed=1, evaluator="heuristic"))
    search.cancel()
    result = search.run()
    assert result.cancelled and search._tree.summary()["stopped"] == [StopCode.CANCELLED]
    timed = Search(state, Limits(seconds=0.05), Config(seed=1, evaluator="heuristic"))
    assert timed.run().out_of_time and timed._tree.summary()["stopped"] == [StopCode.TIME]
    done = Search(state, Limits(iterations=20), Config(seed=1, evaluator="heuristic"))
    done.run()
    assert done._tree.summary()["stopped"] == [StopCode.RUNNING]
