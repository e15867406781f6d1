"""Self-play games that produce training positions (docs/learned.md, section 5).

Per decision (with more than one legal action), a position records the mover's features
(from the core: only what the mover can see), the search's win probabilities at the root
and at the end every seat's outcome, both relative to the mover. Playout-cap randomisation (as
in KataGo): a share of decisions gets the full search, and only those also record a policy
target (the legal actions' classes with the search's visit shares); the others get a quick
search.

League games (issue 69: training that aims at a pool, not at one opponent): some seats are
taken by other players, past nets of the run or the heuristic search, each searching with its
own evaluator; only the learner's seats record positions, so every position is the learner's
search at a table of varied opponents.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ..games import load_game
from ..search import Config, Limits, Search
from ..search import cores

MAX_DECISIONS = 3000  # a self-play game that has not ended by then is dropped


@dataclass(frozen=True)
class SelfPlaySettings:
    iterations: int = 400  # full searches (recorded)
    fast_iterations: int = 100  # quick searches (not recorded)
    full_share: float = 0.5  # share of decisions that get the full search
    root_noise: float = 0.25  # Dirichlet noise at the root of full searches (net only)
    noise_alpha: float = 0.3
    sample_decisions: int = 12  # the first decisions of a game are sampled by visits
    c_puct: float | None = None  # None: the net's recommendation (docs/search.md)
    target_power: float = 1.0  # policy target: visits ** power, normalised (2 sharpens the
    # heuristic search's exploration-heavy visit counts for generation 0)


def _choice(result, sample: bool, rng: random.Random) -> int:
    """The move played: sampled by visits among the first decisions of a game (`sample`), else the search's."""
    if sample and len(result.actions) > 1:
        return rng.choices([a.action for a in result.actions], [a.visits for a in result.actions])[0]
    return result.action


def play_game(game: str, players: int, seed: int, net_path: str | None, settings: SelfPlaySettings,
              opponents: dict[int, tuple[str | None, float]] | None = None) -> dict | None:
    """One self-play game; returns its positions as arrays, or None if it did not end.
    `opponents`: seat -> (net file, or None for the heuristic search; its budget as a multiple
    of the learner's), the seats the learner (`net_path`) does not play; their decisions are
    searched the same way (full or quick) but not recorded."""
    state = load_game(game, players).new_initial_state(seed)
    core = cores.module(game)
    rng = random.Random(seed)
    base = Config(evaluator="net", net=net_path, c_puct=settings.c_puct) if net_path else Config(evaluator="heuristic")
    opponents = opponents or {}
    if not set(opponents) < set(range(players)):
        raise ValueError(f"opponents' seats {sorted(opponents)}: each of 0..{players - 1}, and the learner keeps one")
    others = {seat: (Config(evaluator="net", net=path) if path else Config(evaluator="heuristic"), factor)
              for seat, (path, factor) in opponents.items()}
    feats: list[bytes] = []
    movers: list[int] = []
    qs: list[list[float]] = []
    pol_cls: list[list[int]] = []
    pol_p: list[list[float]] = []
    decisions = 0
    while not state.is_terminal():
        decisions += 1
        if decisions > MAX_DECISIONS:
            return None
        legal = state.search_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        mover = state.current_player()
        full = rng.random() < settings.full_share
        if mover in others:  # an opponent's move: its own search, nothing recorded
            cfg, factor = others[mover]
            budget = settings.iterations if full else settings.fast_iterations
            result = Search(state, Limits(iterations=max(1, int(budget * factor))),
                            Config(**{**cfg.__dict__, "seed": rng.getrandbits(63)})).run()
            state.apply_action(_choice(result, decisions <= settings.sample_decisions, rng))
            continue
        noise = settings.root_noise if (full and net_path) else 0.0
        cfg = Config(**{**base.__dict__, "seed": rng.getrandbits(63), "root_noise": noise,
                        "noise_alpha": settings.noise_alpha})
        limits = Limits(iterations=settings.iterations if full else settings.fast_iterations)
        result = Search(state, limits, cfg).run()
        # Every decision teaches the value; only the full searches teach the policy.
        shares: dict[int, float] = {}
        if full:
            weights = [a.visits ** settings.target_power for a in result.actions]
            total = sum(weights)
            for a, w in zip(result.actions, weights):
                c = core.policy_index(a.action)
                shares[c] = shares.get(c, 0.0) + w / total
            for a in legal:
                shares.setdefault(core.policy_index(a), 0.0)
        feats.append(state.features())
        movers.append(mover)
        qs.append(result.win_probability)
        pol_cls.append(list(shares))
        pol_p.append(list(shares.values()))
        state.apply_action(_choice(result, decisions <= settings.sample_decisions, rng))
    returns = state.returns()
    n = len(movers)
    z = np.zeros((n, 4), dtype=np.float32)
    q = np.zeros((n, 4), dtype=np.float32)
    for i, m in enumerate(movers):
        for k in range(players):
            z[i, k] = returns[(m + k) % players]
            q[i, k] = qs[i][(m + k) % players]
    offsets = np.zeros(n + 1, dtype=np.int32)
    for i, c in enumerate(pol_cls):
        offsets[i + 1] = offsets[i] + len(c)
    return {
        "features": np.frombuffer(b"".join(feats), dtype=np.float32).reshape(n, core.NUM_FEATURES).astype(np.float16),
        "players": np.full(n, players, dtype=np.int8),
        "value": z,
        "search_value": q,  # the search's win probabilities at the root, mover first
        "pol_offsets": offsets,
        "pol_cls": np.array([c for cs in pol_cls for c in cs], dtype=np.int16),
        "pol_p": np.array([p for ps in pol_p for p in ps], dtype=np.float32),
        "decisions": np.array([decisions], dtype=np.int32),
    }


def subset(part: dict, keep: np.ndarray) -> dict:
    """The positions of a part where `keep` (a boolean per position) holds (policy offsets re-based)."""
    off = part["pol_offsets"]
    lens = (off[1:] - off[:-1])[keep]
    rows = np.concatenate([np.arange(off[i], off[i + 1]) for i in np.flatnonzero(keep)] or [np.zeros(0, np.int64)])
    out = {k: part[k][keep] for k in ("features", "players", "value", "search_value") if k in part}
    out["pol_cls"], out["pol_p"] = part["pol_cls"][rows], part["pol_p"][rows]
    out["pol_offsets"] = np.concatenate([[0], np.cumsum(lens)]).astype(off.dtype)
    out["decisions"] = part["decisions"]  # per game, and games are not split by position: counts only
    return out


def merge(parts: list[dict]) -> dict:
    """Concatenates games' position arrays (policy offsets re-based)."""
    parts = [p for p in parts if p is not None and len(p["players"])]
    if not parts:
        raise ValueError("no positions to merge")
    for p in parts:  # positions from before the search's values were recorded: the outcome
        if "search_value" not in p:
            p["search_value"] = p["value"]
    out = {k: np.concatenate([p[k] for p in parts])
           for k in ("features", "players", "value", "search_value", "pol_cls", "pol_p", "decisions")}
    offsets = [np.zeros(1, dtype=np.int64)]
    base = 0
    for p in parts:
        offsets.append(p["pol_offsets"][1:].astype(np.int64) + base)
        base += int(p["pol_offsets"][-1])
    out["pol_offsets"] = np.concatenate(offsets)
    return out
