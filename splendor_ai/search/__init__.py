"""The search: information-set MCTS over the Cython cores, baseline bots, the arena."""
from .mcts import (
    ActionStats,
    Config,
    Limits,
    Search,
    SearchError,
    SearchResult,
    choose,
    play_turn,
    search,
)

__all__ = [
    "ActionStats",
    "Config",
    "Limits",
    "Search",
    "SearchError",
    "SearchResult",
    "choose",
    "play_turn",
    "search",
]
