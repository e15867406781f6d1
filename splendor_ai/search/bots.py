"""Bots behind one small interface: ``choose(state) -> action`` for the seat to act.

``make_bot("mcts:iterations=1000,temperature=0.3")`` builds one from a spec string (the
arena's ``--bot`` argument): ``random``, ``greedy``, ``mcts[:key=value,...]`` (one search a
decision), ``turn[:key=value,...]`` (the same keys, whole turns as the service plays them:
``turns.play_turn``, a turn's later decisions searched on the tree of its first) or ``level:N``
(a difficulty level, see levels.py: whole turns with the level's settings).
"""
from __future__ import annotations

import random
from typing import Any

from .._core import search as _search
from ..games import GAMES
from ..games.base import spec as base_spec
from ..games.errors import SplendorError
from . import cores
from .levels import get_level
from .mcts import Config, Limits, Search, choose, evaluator_info
from .turns import play_turn


class BotSpecError(SplendorError):
    """A bot spec string that names no bot or has a bad parameter."""


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        return self.rng.choice(state.search_actions())


def _target_card(pos: dict, target: int) -> int:
    """The card the target of a legal buy or reserve names."""
    cid = base_spec.buy_target_card(pos, target)
    assert cid is not None  # a legal buy or reserve names a card
    return cid


class GreedyBot:
    """One ply of common sense: buy the best affordable card, else take the tokens that get
    the most promising card closest; return the tokens least needed; any noble. (Base game;
    Duel and Marvel use OnePlyBot, the move their evaluation likes best.)"""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._one_ply = OnePlyBot(seed)

    def choose(self, state) -> int:
        if state.game != "base":
            return self._one_ply.choose(state)
        legal = state.search_actions()
        if len(legal) == 1:
            return legal[0]
        pos = state.to_position()
        seat = pos["seats"][pos["current"]]
        bonus = base_spec.bonuses(seat["cards"])
        tokens = seat["tokens"]
        cards = base_spec.CARDS

        def missing(cid):
            return [max(0, cards[cid].cost[c] - bonus[c] - tokens[c]) for c in range(5)]

        if pos["phase"] == "return":
            # Give back what the best target needs least (gold last).
            need = self._need(pos, seat, bonus, tokens)
            return min(legal, key=lambda a: (a - base_spec.RETURN == base_spec.GOLD,
                                             need[a - base_spec.RETURN] if a - base_spec.RETURN < 5 else 0,
                                             -tokens[a - base_spec.RETURN]))
        if pos["phase"] == "noble":
            return legal[0]
        buys = [a for a in legal if base_spec.action_kind(a) == "buy"]
        if buys:
            def value(a):
                c = cards[_target_card(pos, base_spec.split_buy(a)[0])]
                return (c.points, -sum(c.cost), self.rng.random())
            return max(buys, key=value)
        need = self._need(pos, seat, bonus, tokens)
        takes = [a for a in legal if base_spec.action_kind(a).startswith("take")]
        if takes and sum(tokens) <= 8:
            def gain(a):
                got = base_spec.taken_tokens(a)
                useful = 0.0
                left = list(need)
                for c in got:
                    if left[c] > 0:
                        useful += 1
                        left[c] -= 1
                return (useful, len(got), self.rng.random())
            best = max(takes, key=gain)
            if gain(best)[0] > 0:
                return best
        reserves = [a for a in legal if base_spec.action_kind(a) == "reserve_board"]
        if reserves and len(seat["reserved"]) < 2:
            return max(reserves, key=lambda a: (cards[_target_card(pos, a - base_spec.RESERVE_BOARD)].points,
                                                self.rng.random()))
        if takes:
            return max(takes, key=lambda a: (len(base_spec.taken_tokens(a)), self.rng.random()))
        return self.rng.choice(legal)

    @staticmethod
    def _need(pos, seat, bonus, tokens):
        """Gems still missing for the card that is cheapest to complete (points break ties)."""
        cards = base_spec.CARDS
        candidates = [c for row in pos["board"] for c in row if c >= 0]
        candidates += [r["card"] for r in seat["reserved"] if r["card"] is not None]
        best, best_key = None, None
        for cid in candidates:
            miss = [max(0, cards[cid].cost[c] - bonus[c] - tokens[c]) for c in range(5)]
            key = (max(0, sum(miss) - tokens[base_spec.GOLD]) - 0.5 * cards[cid].points, cid)
            if best_key is None or key < best_key:
                best, best_key = miss, key
        return best or [0] * 5


class OnePlyBot:
    """The greedy bot of games without a hand-written one: the move after which the game's
    own evaluation is best for the mover (one ply, no search)."""

    name = "greedy"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, state) -> int:
        core = cores.to_core(state)
        if core.to_position().get("observer") is not None:
            core = core.resample(core.current_player(), random.Random(self.seed))
        return _search.one_ply_action(cores.game_def(core.game), core._state_bytes())


class MCTSBot:
    name = "mcts"

    def __init__(self, limits: Limits, config: Config = Config(), temperature: float = 0.0, seed: int = 0):
        self.limits = limits
        self.config = config
        self.temperature = temperature
        self.rng = random.Random(seed)
        self._calls = 0

    def choose(self, state) -> int:
        self._calls += 1
        seed = self.config.seed
        if seed is not None:  # a fixed seed: each call its own stream, reproducibly
            seed = (seed * 1_000_003 + self._calls) % 2**64
        cfg = Config(**{**self.config.__dict__, "seed": seed})
        result = Search(state, self.limits, cfg).run()
        return choose(result, self.temperature, self.rng)


class TurnBot:
    """Plays whole turns (``turns.play_turn``), as the service does: the first call of a turn
    searches all of its decisions under the turn's budget, the next calls of the same turn
    play the rest. ``seed``: each turn's search seed is drawn from it (None: fresh seeds)."""

    name = "turn"

    def __init__(self, limits: Limits | None, config: Config = Config(), temperature: float = 0.0,
                 seed: int | None = 0):
        self._limits = limits  # every game's; None where a subclass gives limits_for
        self.config = config
        self.temperature = temperature
        self.rng = random.Random(None if seed is None else seed * 2 + 1)  # the temperature's draws
        self._seeds = random.Random(seed) if seed is not None else None  # each turn's search seed
        self._planned: list[int] = []
        self._planned_for: tuple[int, int] | None = None  # (turn, seat) of the planned actions
        self.turns: list = []  # the Turns played, newest last (their evaluator, iterations, stops)

    def limits_for(self, game: str) -> Limits:
        """The limits of this bot's turns in ``game``."""
        assert self._limits is not None, "a TurnBot made without limits defines limits_for"
        return self._limits

    def choose(self, state) -> int:
        pos = state.to_position()
        key = (pos["turn"], state.current_player())
        if self._planned and self._planned_for == key and self._planned[0] in state.search_actions():
            return self._planned.pop(0)
        seed = self._seeds.getrandbits(63) if self._seeds is not None else None
        cfg = Config(**{**self.config.__dict__, "seed": seed})
        turn = play_turn(state, self.limits_for(state.game), cfg, self.temperature, self.rng)
        self.turns.append(turn)
        self._planned, self._planned_for = turn.actions[1:], key
        return turn.actions[0]


def bot_evaluator(bot, game: str, players: int):
    """What a bot's searches evaluate with (``mcts.Evaluator``), or None for a bot that does not search."""
    config = getattr(bot, "config", None)
    return evaluator_info(config, game, players) if isinstance(config, Config) else None


class LevelBot(TurnBot):
    """A bot at a difficulty level: whole turns with the level's settings for the game being
    played (levels.py; a level's iterations may differ by game)."""

    def __init__(self, level: int, seed: int | None = 0):
        self.level = get_level(level)
        settings = self.level.settings(GAMES[0])  # config and temperature are the same in every game;
        # the limits may not be, so none are stored: each turn takes limits_for(its game)
        super().__init__(None, settings.config, settings.temperature, seed)

    def limits_for(self, game: str) -> Limits:
        return self.level.settings(game).limits


def level_bot(level: int, seed: int | None = 0) -> LevelBot:
    """A bot at difficulty ``level``: whole turns with the level's settings (levels.py)."""
    return LevelBot(level, seed)


def _parse_params(text: str) -> dict[str, str]:
    params: dict[str, str] = {}
    if not text:
        return params
    for part in text.split(","):
        if "=" not in part:
            raise BotSpecError(f"bot parameter {part!r}: expected key=value")
        k, v = (x.strip() for x in part.split("=", 1))
        if k in params:  # the last would silently win: a typo'd match would run other settings
            raise BotSpecError(f"bot parameter {k!r} given twice ({params[k]!r} and {v!r})")
        params[k] = v
    return params


def make_bot(spec: str, seed: int = 0):
    """A bot from a spec string: random | greedy | mcts[:k=v,...] | turn[:k=v,...] | level:N."""
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    if name == "level":
        try:
            return level_bot(int(rest), seed)
        except ValueError as exc:
            raise BotSpecError(f"bot {spec!r}: {exc}") from None
    if name in ("mcts", "turn"):
        params = _parse_params(rest)
        limit_keys = {"iterations": int, "seconds": float, "max_nodes": int}
        config_keys = {"c_uct": float, "prior_weight": float, "rollout_depth": int, "threads": int, "rollout_cap": int,
                       "evaluator": str, "net": str, "c_puct": float, "fpu_reduction": float,
                       "net_rollout_depth": int, "net_rollout_weight": float}
        limits: dict[str, Any] = {}  # Limits' and Config's keywords, parsed by the tables above
        config: dict[str, Any] = {"seed": seed}
        temperature = 0.0
        for k, v in params.items():
            try:
                if k in limit_keys:
                    limits[k] = limit_keys[k](v)
                elif k in config_keys:
                    config[k] = config_keys[k](v)
                elif k == "temperature":
                    temperature = float(v)
                else:
                    raise BotSpecError(
                        f"bot {spec!r}: unknown parameter {k!r} (one of "
                        f"{', '.join([*limit_keys, *config_keys, 'temperature'])})")
            except ValueError:
                raise BotSpecError(f"bot {spec!r}: {k}={v!r} is not a number") from None
        if not limits:
            limits["iterations"] = 1000
        lim, cfg = Limits(**limits), Config(**config)
        try:
            lim.check()
            cfg.check()
        except SplendorError as exc:
            raise BotSpecError(f"bot {spec!r}: {exc}") from None
        return (MCTSBot if name == "mcts" else TurnBot)(lim, cfg, temperature, seed)
    raise BotSpecError(f"unknown bot {spec!r} (random, greedy, mcts[:k=v,...], turn[:k=v,...], level:N)")
