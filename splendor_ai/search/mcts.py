"""Information-set MCTS over the Cython cores: the Python API (limits, results, threads).

The tree loop is ext/search.pyx; this module prepares the root, runs one tree per thread
(root parallelism, one RNG stream each), merges the trees and turns action ids into notation.
"""
from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .._core import search as _search
from ..games import HiddenInformationError
from ..games.errors import SplendorError
from ..games.registry import spec as game_spec
from . import cores
from .. import nn
from ..nn.weights import SEARCH_DEFAULTS
from .params import PuctParams, tree_arguments


class SearchError(SplendorError):
    """Bad search parameters or a position that cannot be searched."""


@dataclass(frozen=True)
class Limits:
    """When to stop: whichever of iterations and seconds comes first (at least one is needed)."""

    iterations: int | None = None
    seconds: float | None = None
    max_nodes: int = 2_000_000  # per tree; when reached the search stops expanding

    def check(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise SearchError("limits: give iterations, seconds or both")
        if self.iterations is not None and (isinstance(self.iterations, bool) or self.iterations < 1):
            raise SearchError(f"limits.iterations must be a positive integer, got {self.iterations!r}")
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise SearchError(f"limits.seconds must be a positive number, got {self.seconds!r}")
        if self.max_nodes < 1:
            raise SearchError(f"limits.max_nodes must be positive, got {self.max_nodes!r}")


@dataclass(frozen=True)
class Config:
    """How to search. The defaults are the tuned ones (docs/search.md)."""

    c_uct: float = 0.4  # exploration constant (values are win probabilities in [0, 1])
    prior_weight: float = 3.0  # progressive bias: prior / (1 + visits)
    rollout_depth: int = 20  # actions before the evaluation scores the rollout; -1: to the end
    rollout_cap: int = 1000  # hard cap on a rollout (a simulated game that will not end)
    threads: int = 1
    seed: int | None = None  # None: a fresh seed per search (SearchResult.seed reports it)
    perfect_information: bool = False  # search the given full state without redrawing anything
    # The leaf evaluation (docs/learned.md): "net" (PUCT with the learned net's priors and
    # values), "heuristic" (UCT with the hand-written evaluation and rollouts, the settings
    # above), or "auto": the net where one is given or shipped for the game and player count.
    evaluator: str = "auto"
    net: object = None  # a splendor_ai.nn.Net or a weights file's path; None: the shipped net
    # The net's search settings; None takes the value the net's file recommends (its
    # header's info.search, measured when the net was shipped), else the default beside it.
    c_puct: float | None = None  # PUCT exploration (1.5) for two seats; n seats use 2/n of it
    fpu_reduction: float | None = None  # an unvisited move's value: the parent's mean less this (0.1)
    net_rollout_depth: int | None = None  # > 0: blend the net's leaf value with a rollout this long (0)
    net_rollout_weight: float | None = None  # the rollout's share in that blend (0.0)
    root_noise: float = 0.0  # Dirichlet noise share in the root's priors (self-play)
    noise_alpha: float = 0.3

    def check(self) -> None:
        if not (self.c_uct >= 0 and math.isfinite(self.c_uct)):
            raise SearchError(f"config.c_uct must be a non-negative number, got {self.c_uct!r}")
        if not (self.prior_weight >= 0 and math.isfinite(self.prior_weight)):
            raise SearchError(f"config.prior_weight must be non-negative, got {self.prior_weight!r}")
        if self.rollout_depth < -1:
            raise SearchError(f"config.rollout_depth must be -1 (to the end) or more, got {self.rollout_depth}")
        if self.rollout_cap < 1:
            raise SearchError(f"config.rollout_cap must be positive, got {self.rollout_cap}")
        if not 1 <= self.threads <= 64:
            raise SearchError(f"config.threads must be 1..64, got {self.threads}")
        if self.seed is not None and not 0 <= self.seed < 2**64:
            raise SearchError(f"config.seed must be in 0..2**64-1, got {self.seed}")
        if self.evaluator not in ("auto", "net", "heuristic"):
            raise SearchError(f"config.evaluator must be 'auto', 'net' or 'heuristic', got {self.evaluator!r}")
        if self.c_puct is not None and not (self.c_puct > 0 and math.isfinite(self.c_puct)):
            raise SearchError(f"config.c_puct must be a positive number, got {self.c_puct!r}")
        if self.fpu_reduction is not None and not (0 <= self.fpu_reduction <= 1):
            raise SearchError(f"config.fpu_reduction must be in [0, 1], got {self.fpu_reduction!r}")
        if self.net_rollout_depth is not None and self.net_rollout_depth < 0:
            raise SearchError(f"config.net_rollout_depth must be 0 or more, got {self.net_rollout_depth}")
        if self.net_rollout_weight is not None and not 0 <= self.net_rollout_weight <= 1:
            raise SearchError(f"config.net_rollout_weight must be in [0, 1], got {self.net_rollout_weight!r}")
        if not 0 <= self.root_noise <= 1:
            raise SearchError(f"config.root_noise must be in [0, 1], got {self.root_noise!r}")
        if not (self.noise_alpha > 0 and math.isfinite(self.noise_alpha)):
            raise SearchError(f"config.noise_alpha must be a positive number, got {self.noise_alpha!r}")

    def evaluator_info(self, game: str, players: int) -> "Evaluator":
        """What a search of ``game`` with ``players`` seats evaluates with: see ``evaluator_info``."""
        return evaluator_info(self, game, players)


@dataclass(frozen=True)
class Evaluator:
    """What evaluated a search's positions: ``kind`` "net" (a learned net: its file name and the
    first 16 hex digits of the SHA-256 of its file) or "heuristic" (net and checksum empty)."""

    kind: str
    net: str = ""
    checksum: str = ""

    def __str__(self) -> str:
        return f"net {self.net} ({self.checksum})" if self.kind == "net" else self.kind

    @classmethod
    def of(cls, net) -> "Evaluator":
        """The evaluator of a search with ``net`` (a splendor_ai.nn.Net, or None: the heuristic)."""
        return cls("heuristic") if net is None else cls("net", net.name, net.checksum)


def evaluator_info(config: "Config", game: str, players: int) -> Evaluator:
    """What a search of ``game`` with ``players`` seats under ``config`` evaluates with (the net
    ``config`` names or the shipped one, resolved as the search resolves it). SearchError when
    the config names a net that cannot be used."""
    return Evaluator.of(resolve_net(config, game, players))


_loaded_nets: dict = {}

NET_SEARCH_DEFAULTS = SEARCH_DEFAULTS
FORCED_WIN_DEPTH = 2  # moves of the same seat after a root move that the exhaustive look follows
FORCED_WIN_SAMPLES = 8  # redraws of the hidden cards a forced win must hold in (a view)


def net_search_settings(config: Config, net, players: int | None = None) -> dict:
    """The PUCT settings a search with `net` of `players` seats uses (``PuctParams.of``: the
    config's, else the net's recommendation, else NET_SEARCH_DEFAULTS), as a dict."""
    puct = PuctParams.of(config, net, players)
    return {name: getattr(puct, name) for name in NET_SEARCH_DEFAULTS}


def resolve_net(config: Config, game: str, players: int):
    """The net `config` searches `game` with, or None for the heuristic evaluation."""
    if config.evaluator == "heuristic":
        return None
    net = config.net
    if isinstance(net, (str, bytes)) or hasattr(net, "__fspath__"):
        key = (str(net), game)
        if key not in _loaded_nets:
            try:
                _loaded_nets[key] = nn.load(net, game)
            except nn.WeightsError as exc:
                raise SearchError(f"config.net: {exc}") from None
        net = _loaded_nets[key]
    if net is None:
        net = nn.shipped_net(game, players)
    elif not isinstance(net, nn.Net):
        raise SearchError(f"config.net must be a Net or a weights file's path, got {type(net).__name__}")
    elif net.game != game:
        raise SearchError(f"config.net is a net for {net.game!r}, not {game!r}")
    if net is None and config.evaluator == "net":
        raise SearchError(f"no net is shipped for {game} with {players} players: give config.net "
                          "or use evaluator='heuristic'")
    return net


@dataclass
class ActionStats:
    action: int
    move: str
    visits: int
    value: float  # mean value for the acting seat (its win probability)
    prior: float
    pv: list[str] = field(default_factory=list)  # principal variation, this move first
    # The exact value for the acting seat when the move is proven to end the game with that
    # result (1 a win, 0 a loss, 1/k a win shared by k seats: every visit through it ended the
    # game at once with that value), else None. See order_actions for how it rules the choice.
    proven: float | None = None
    # the same line as (position dictionary, action id) pairs: what a caller encoding the line
    # needs (the service's moves), without replaying it again; the position is None for a move
    # that is the same in every position (the game spec's FIXED_NOTATION)
    pv_steps: list[tuple[dict | None, int]] = field(default_factory=list, repr=False, compare=False)
    # For a proven win (proven == 1): the moves the same seat still makes after this one before
    # the game ends with its win (0: this move ends it; 1: Duel's privilege, then the winning buy).
    proven_in: int | None = None


PROVEN_WIN = 1.0  # the best result a seat can have: it wins alone


def _is_proven_win(a: ActionStats) -> bool:
    return a.proven is not None and a.proven >= PROVEN_WIN


def proven_losses(actions: list[ActionStats]) -> set[int]:
    """The actions among ``actions`` (a position's searched moves) that are proven losses: proven
    to end the game with a result worse than an alternative's, for sure. That is a proven value
    below the best proven value among them (a proven 0 or a shared win beside a proven win; a
    proven 0 beside a proven shared win), or a proven 0 (nothing can do worse) beside any
    move that is not proven. A proven value in between (a shared win: 1/2, 1/3, 1/4) beside
    unproven moves is not a loss: those may do better or worse, and only their estimates say
    which, so the usual choice decides. There is always at least one move that is not a loss."""
    proven = [a.proven for a in actions if a.proven is not None]
    if not proven:
        return set()
    best = max(proven)
    unproven = len(proven) < len(actions)
    return {a.action for a in actions
            if a.proven is not None and (a.proven < best or (a.proven <= 0.0 and unproven))}


def order_actions(actions: list[ActionStats]) -> list[ActionStats]:
    """The search's moves in the order it would play them (``SearchResult.actions``): proven
    wins first (most visited first), then every move that is not a proven loss (``proven_losses``),
    most visited first, then the proven losses (the best proven value first, then visits).
    Visits tie-break on the mean value, then the lower action id. Thus a proven win is played
    whenever the search found one, the quicker win over a move that might win later; a proven
    loss only when every move is one, the later loss over the certain one."""
    losses = proven_losses(actions)

    def key(a: ActionStats):
        rank = 0 if _is_proven_win(a) else 2 if a.action in losses else 1
        quicker = (a.proven_in or 0) if rank == 0 else 0  # among wins, the one that ends the game sooner
        return (rank, quicker, -a.proven if rank == 2 and a.proven is not None else 0.0, -a.visits, -a.value,
                a.action)

    return sorted(actions, key=key)


@dataclass
class SearchResult:
    seat: int
    action: int
    move: str
    actions: list[ActionStats]  # in the order the search would play them: order_actions
    win_probability: list[float]  # per seat, from the root's backed-up values
    iterations: int
    nodes: int
    elapsed: float
    iterations_per_second: float
    tree_bytes: int  # peak tree memory (node storage of every tree)
    node_limit_hit: bool
    cancelled: bool
    out_of_time: bool
    seed: int | None = None  # the seed it ran with: Config(seed=...) repeats it
    evaluator: Evaluator | None = None  # what evaluated its positions (the net's name and checksum)

    def top(self, k: int = 3) -> list[ActionStats]:
        return self.actions[:k]


def _pv_steps(state, actions: list[int], position: dict) -> list[tuple[dict | None, int, str]]:
    """A line of play from `state` (whose dictionary is ``position``, made once for all the
    lines of a search), as far as the state knows the cards: each step's position (the
    dictionary it is played in; None for a move that reads nothing of it, one of the spec's
    FIXED_NOTATION), action and notation. The first action is one of the state's legal actions
    and always starts the line, also when what it draws is unknown here (a line of that move
    alone is neither copied nor replayed); each later one is kept while it can be played here,
    so the line stops before a move that is not legal here or that depends on what the state
    does not know."""
    out: list[tuple[dict | None, int, str]] = []
    s: Any = None  # the line's state after the steps so far, made only for a line of more than one move
    spec = game_spec(state.game)
    fixed = spec.FIXED_NOTATION
    for i, a in enumerate(actions):
        text = fixed.get(a)
        step = None if text is not None else position if i == 0 else s.to_position()
        if text is None:
            try:
                text = spec.action_to_string(step, a)
            except ValueError:  # a card this state cannot name
                break
        if i or len(actions) > 1:
            if s is None:
                s = state.clone()
            try:
                s.apply_action(a)
            except HiddenInformationError:  # it draws what this state does not know: the line ends with it
                if i == 0:
                    out.append((step, a, text))
                break
            except ValueError:  # a move legal where the search found it but not here ends the line
                break
        out.append((step, a, text))
        if s is not None and s.is_terminal():
            break
    return out


def fresh_seed() -> int:
    """A seed for a search given none: every call differs."""
    return random.SystemRandom().getrandbits(63)


class Search:
    """One search of one position; ``run()`` blocks, ``cancel()`` may come from another thread."""

    _tree: _search.TreeSearch
    _started: float | None  # perf_counter() at run()

    def __init__(self, state, limits: Limits, config: Config = Config(), root_actions=None,
                 reuse: "tuple[Search, int] | None" = None):
        """``reuse=(previous_search, action)``: start from the subtree the previous search (of
        the position before ``action``, finished, same threads) grew below that action."""
        limits.check()
        config.check()
        if state.is_terminal():
            raise SearchError("the game is over: nothing to search")
        core_state = cores.to_core(state)
        seat = core_state.current_player()
        if config.perfect_information and core_state.to_position()["observer"] is not None:
            raise SearchError("perfect-information search needs a full position, not a seat's view")
        if root_actions is not None:
            legal = set(core_state.search_actions())
            root_actions = sorted(set(root_actions))
            bad = [a for a in root_actions if a not in legal]
            if not root_actions or bad:
                raise SearchError(
                    "root_actions: " + (f"{bad} are not among the actions searched here" if bad else "empty"))
        self.root_actions = root_actions
        self.seed = config.seed if config.seed is not None else fresh_seed()
        self.state = state
        self.seat = seat
        self.limits = limits
        self.config = config
        self._core_state = core_state
        self.net = resolve_net(config, core_state.game, core_state.players)
        self._tree = _search.TreeSearch(
            cores.game_def(core_state.game), core_state._state_bytes(), seat,
            **tree_arguments(config, limits, self.net, core_state.players, self.seed, root_actions,
                             (reuse[0]._tree, reuse[1]) if reuse else None))
        self._started = None
        # The root moves that win within the seat's own moves, found exhaustively at the start
        # (a move the tree never visits is played when it wins): FORCED_WIN_DEPTH more moves of
        # the same seat at most, on FORCED_WIN_SAMPLES redraws of what it cannot see.
        self._forced = self._tree.forced_wins(FORCED_WIN_DEPTH, FORCED_WIN_SAMPLES)

    def cancel(self) -> None:
        self._tree.cancel()

    def snapshot(self) -> SearchResult:
        """The statistics so far; safe to call from another thread while ``run()`` is going."""
        elapsed = time.perf_counter() - self._started if self._started is not None else 0.0
        self._tree.pause()
        try:
            return self._result(elapsed)
        finally:
            self._tree.resume()

    def run(self) -> SearchResult:
        t0 = self._started = time.perf_counter()
        n = self.config.threads
        if n == 1:
            self._tree.run_tree(0)
        else:
            errors = []

            def work(i):
                try:
                    self._tree.run_tree(i)
                except BaseException as exc:  # surfaced below
                    errors.append(exc)
                    self._tree.cancel()

            threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(1, n)]
            for t in threads:
                t.start()
            work(0)
            for t in threads:
                t.join()
            if errors:
                raise errors[0]
        elapsed = time.perf_counter() - t0
        return self._result(elapsed)

    def _prior_choice(self) -> tuple[int, float]:
        """The move a search without a single iteration plays, and its prior: the favourite of
        the priors the (reused) root already holds, else the net's policy (with the net) or the
        game's one-ply evaluation (heuristic), on one redraw of what a seat's view hides.
        Never just the first legal action."""
        legal = self.root_actions or self._core_state.search_actions()
        known = [(prior, -a, a) for a, _n, _v, prior, _pv in self._tree.root_stats() if a in legal]
        if known:
            prior, _, best = max(known)
            return best, prior
        if len(legal) == 1:
            return legal[0], 1.0
        state = self._core_state
        if state.to_position()["observer"] is not None:
            state = state.resample(self.seat, random.Random(self.seed))
        if self.net is not None:
            index = cores.module(state.game).policy_index
            _values, logits = self.net.evaluate(state.features(), state.players, [index(a) for a in legal])
            top = max(logits)
            weights = [math.exp(x - top) for x in logits]
            i = max(range(len(legal)), key=lambda k: (logits[k], -k))
            return legal[i], weights[i] / sum(weights)
        best = _search.one_ply_action(cores.game_def(state.game), state._state_bytes())
        if best not in legal:  # root_actions left the evaluation's favourite out
            best = legal[0]
        return best, 0.0

    def _result(self, elapsed: float) -> SearchResult:
        summary = self._tree.summary()
        stats = []
        # A reused subtree can hold actions legal only in other redraws of the hidden cards
        # (below a Duel replenish, say): only this position's legal actions are answers.
        legal = set(self.root_actions or self._core_state.search_actions())
        # proven wins, at once or within the seat's own moves (ActionStats.proven_in): the tree's, and
        # the ones the exhaustive look at the start found, visited or not
        wins = self._tree.root_wins()
        for a, k in self._forced.items():
            wins[a] = min(k, wins.get(a, k))
        visited = set()
        position = self._core_state.to_position()
        for action, visits, value_sum, prior, pv, proven in self._tree.root_stats(proven=True):
            if visits == 0 or action not in legal:
                continue
            visited.add(action)
            steps = _pv_steps(self._core_state, pv, position)
            pv_moves = [text for _, _, text in steps]
            stats.append(
                ActionStats(
                    action=action,
                    move=pv_moves[0] if pv_moves else self._core_state.action_to_string(action),
                    visits=visits,
                    value=value_sum / visits,
                    prior=prior,
                    pv=pv_moves,
                    pv_steps=[(p, a) for p, a, _ in steps],
                    proven=proven if action not in wins else PROVEN_WIN,
                    proven_in=wins.get(action),
                )
            )
        for action in sorted(set(wins) - visited):  # a forced win the tree did not visit
            if action in legal:
                move = self._core_state.action_to_string(action)
                stats.append(ActionStats(action, move, 0, PROVEN_WIN, 0.0, [move], PROVEN_WIN,
                                         [(position, action)], wins[action]))
        stats = order_actions(stats)
        iterations = summary["iterations"]
        if not stats:
            # Nothing visited (cancelled or out of time before one iteration, no reused subtree):
            # play the evaluator's own choice.
            best, prior = self._prior_choice()
            stats = [ActionStats(best, self._core_state.action_to_string(best), 0, 0.0, prior, [])]
        seats = self._core_state.players
        win = [v / iterations for v in summary["seat_values"]] if iterations else [1.0 / seats] * seats
        first = stats[0]
        return SearchResult(
            seat=self.seat,
            action=first.action,
            move=first.move,
            actions=stats,
            win_probability=win,
            iterations=iterations,
            nodes=summary["nodes"],
            elapsed=elapsed,
            iterations_per_second=iterations / elapsed if elapsed > 0 else 0.0,
            tree_bytes=summary["tree_bytes"],
            node_limit_hit=summary["node_limit_hit"],
            cancelled=summary["cancelled"],
            out_of_time=summary["out_of_time"],
            seed=self.seed,
            evaluator=Evaluator.of(self.net),
        )


def search(state, limits: Limits, config: Config = Config()) -> SearchResult:
    """Search `state` from the view of the seat to act; see Limits and Config."""
    return Search(state, limits, config).run()


def choose(result: SearchResult, temperature: float = 0.0, rng: random.Random | None = None) -> int:
    """The action to play: ``result.action`` at temperature 0 (``order_actions``: a proven win,
    else the most visited move that is not a proven loss), else visits ** (1/T) sampling among
    the moves that are not proven losses (``proven_losses``). A proven win is always played: a
    temperature picks a weaker move, never a losing one when a win is proven."""
    if temperature <= 0 or len(result.actions) == 1 or _is_proven_win(result.actions[0]):
        return result.action
    rng = rng or random.Random()
    losses = proven_losses(result.actions)
    pool = [s for s in result.actions if s.action not in losses]
    weights = [s.visits ** (1.0 / temperature) for s in pool]
    return rng.choices([s.action for s in pool], weights=weights)[0]
