# Type stubs of the compiled search (ext/search.pyx, with ext/search_*.pxi). Kept in step with
# the core by tests/test_core_stubs.py: every name here exists on the module, every public
# callable of the module is here.
from collections.abc import Iterable
from typing import Literal, TypedDict, overload, type_check_only

from splendor_ai._core.base import _GameDefCapsule as _BaseGameDef
from splendor_ai._core.duel import _GameDefCapsule as _DuelGameDef
from splendor_ai._core.marvel import _GameDefCapsule as _MarvelGameDef
from splendor_ai._core.nn import NetCore

# A core's game_def() (any game's).
_GameDef = _BaseGameDef | _MarvelGameDef | _DuelGameDef

NODE_BYTES: int

@type_check_only
class _Summary(TypedDict):
    """TreeSearch.summary(): totals over the trees."""

    iterations: int
    nodes: int
    tree_bytes: int
    seat_values: list[float]
    node_limit_hit: bool
    cancelled: bool
    out_of_time: bool
    stopped: list[int]

# root_stats(): (action, visits, value_sum, prior, principal variation), and with proven=True
# the action's proven value (or None).
_Stats = tuple[int, int, float, float, list[int]]
_ProvenStats = tuple[int, int, float, float, list[int], float | None]

def one_ply_action(game_def: _GameDef, state: bytes) -> int: ...
def _proof_value(code: int) -> float | None: ...

class TreeSearch:
    def __init__(self, game_def: _GameDef, root_state: bytes, seat: int, trees: int = 1, iterations: int = 0,
                 seconds: float = 0.0, max_nodes: int = 1000000, rollout_depth: int = 20, rollout_cap: int = 1000,
                 c_uct: float = 0.4, prior_weight: float = 3.0, determinize: bool = True, seed: int = 0,
                 root_actions: Iterable[int] | None = None, reuse: TreeSearch | None = None,
                 reuse_action: int = -1, net: NetCore | None = None, c_puct: float = 1.5,
                 fpu_reduction: float = 0.1, net_rollout_depth: int = 0, net_rollout_weight: float = 0.0,
                 root_noise: float = 0.0, noise_alpha: float = 0.3) -> None: ...
    @property
    def cancelled(self) -> bool: ...
    def run_tree(self, i: int) -> None: ...
    def cancel(self) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def summary(self) -> _Summary: ...
    @overload
    def root_stats(self, pv_length: int = 8, proven: Literal[False] = False) -> list[_Stats]: ...
    @overload
    def root_stats(self, pv_length: int = 8, *, proven: Literal[True]) -> list[_ProvenStats]: ...
    @overload
    def root_stats(self, pv_length: int, proven: Literal[True]) -> list[_ProvenStats]: ...
    def forced_wins(self, depth: int = 1, samples: int = 2) -> dict[int, int]: ...
    def root_wins(self, limit: int = 4) -> dict[int, int]: ...
