"""The search: information-set MCTS over the Cython cores, baseline bots, the arena."""
from .mcts import (
    ActionStats,
    Config,
    Limits,
    Search,
    SearchError,
    SearchResult,
    Evaluator,
    choose,
    evaluator_info,
    search,
)
from .turns import Turn, TurnSearch, play_turn

__all__ = [
    "ActionStats",
    "Config",
    "Limits",
    "Search",
    "SearchError",
    "SearchResult",
    "Evaluator",
    "Turn",
    "TurnSearch",
    "choose",
    "evaluator_info",
    "play_turn",
    "search",
]
