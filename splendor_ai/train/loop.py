"""Expert iteration: self-play, training, export and a gate, one generation at a time.

Everything a run has done is kept in its folder (``--out``), so a stopped run resumes where
it was: finished self-play chunks are not replayed, a trained candidate is not retrained, a
gated generation is not gated again. The folder:

    state.json               settings, generations done, the best net, the history
    history.md               the history table (one line per generation)
    checkpoint.pt            the latest model and optimiser (training continues from it)
    best.splnn               the best net so far (the one self-play uses)
    league/net-N.splnn       the outside league members (--league-net), as the run started
    gen-0001/selfplay-000.npz ...   self-play positions, one file per chunk of games
    gen-0001/net.splnn       the generation's candidate
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from .. import nn as splnn
from ..nn import versions
from .. import progress
from ..search import cores
from ..search.arena import run_arena
from . import augment, model as M
from .selfplay import SelfPlaySettings, merge, play_game, subset


class TrainError(Exception):
    """A training run that cannot start or go on (the message says why)."""


@dataclass
class TrainSettings:
    game: str
    players: list[int]
    generations: int = 10  # generations to reach (a resumed run goes on up to this number)
    games: int = 200  # self-play games per generation
    first_games: int = 0  # games per generation while no net has passed the gate (0: games);
    # those are played by the heuristic search (cheaper per game), so more of them pay
    workers: int = 2
    seed: int = 1
    hidden: list[int] = field(default_factory=lambda: [256, 128])
    window: int = 4  # generations of positions trained on
    epochs: int = 3
    search_value_weight: float = 0.5  # the value target: this much the search's root estimate, the rest the outcome
    net_search: dict = field(default_factory=dict)  # search settings the run's nets are played with
    # (self-play, gates): written into each candidate's info.search (docs/search.md)
    warm_start: bool = True  # each generation goes on training the last one's weights; False: a
    # fresh net on the whole window every generation (a distillation of all positions kept)
    augment: bool = True  # colour permutations of the training positions where the game has
    # that symmetry (train/augment.py: base and Marvel)
    batch_size: int = 512
    lr: float = 1e-3
    lr_schedule: str = "cosine"  # "constant", or "cosine": the rate falls to zero over each
    # training's steps (runs saved before this setting trained at a constant rate)
    weight_decay: float = 1e-4
    gate_games: int = 40
    gate_iterations: int = 200
    gate_seconds: float = 0.0  # > 0: the gate and the 'vs heuristic' match give every side this
    # much time per decision instead of iterations (equal time, whatever each search costs)
    data: list[str] = field(default_factory=list)  # other runs' folders whose self-play
    # positions every generation also trains on (e.g. a first run's heuristic games)
    init_net: str | None = None  # a .splnn file the run starts from: generation 0's best net,
    # self-play's first player, and the weights the first training goes on from
    gate_threshold: float = 0.55
    heuristic_factor: float = 4.0  # the heuristic search's iterations per net iteration in the
    # history's "vs heuristic" match: about equal thinking time (BENCHMARKS.md has the speeds)
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    league: int = 0  # > 0: self-play also seats past nets (this many of the run's newest accepted
    # ones before the best, its start net among them) and the heuristic search beside the best net
    league_share: float = 0.5  # with a league: the share of self-play games that seat it
    league_nets: list[str] = field(default_factory=list)  # outside nets every league also seats
    # (a file or REV:PATH, as given; copied into the run's league/ folder when it starts)

    def check(self) -> None:
        from ..games import GAMES

        if self.game not in GAMES:
            raise TrainError(f"--game: no game {self.game!r} (one of {', '.join(GAMES)})")
        counts = {"base": (2, 3, 4), "marvel": (2, 3, 4), "duel": (2,)}[self.game]
        bad = [p for p in self.players if p not in counts]
        if not self.players or bad:
            raise TrainError(
                f"--players: {self.game} is played by {', '.join(map(str, counts))} players, got {self.players}")
        for name in ("generations", "games", "workers", "window", "epochs", "batch_size", "gate_games",
                     "gate_iterations"):
            if getattr(self, name) < 1:
                raise TrainError(f"--{name.replace('_', '-')} must be at least 1")
        if not self.hidden or min(self.hidden) < 1 or len(self.hidden) > 4:
            raise TrainError("--hidden: 1 to 4 positive layer sizes")
        from ..search.mcts import NET_SEARCH_DEFAULTS

        unknown = set(self.net_search) - set(NET_SEARCH_DEFAULTS)
        if unknown:
            raise TrainError(f"--net-search: unknown setting(s) {', '.join(sorted(unknown))} "
                             f"(one of {', '.join(NET_SEARCH_DEFAULTS)})")
        for d in self.data:
            if not sorted(Path(d).glob("gen-*/selfplay-*.npz")):
                raise TrainError(f"--data: {d} holds no self-play files (gen-*/selfplay-*.npz)")
        if self.gate_seconds < 0:
            raise TrainError("--gate-seconds must be 0 (iterations) or more")
        _check_value_weight(self.search_value_weight)
        _check_lr(self.lr)
        if self.lr_schedule not in M.LR_SCHEDULES:
            raise TrainError(f"--lr-schedule: {self.lr_schedule!r} is not one of {', '.join(M.LR_SCHEDULES)}")
        if not 0 < self.gate_threshold < 1:
            raise TrainError("--gate-threshold must be between 0 and 1")
        if self.league < 0:
            raise TrainError(f"--league must be 0 (no league) or more, got {self.league}")
        if not 0 < self.league_share <= 1:
            raise TrainError(f"--league-share must be above 0 and at most 1, got {self.league_share:g}")
        if self.league_nets and self.init_net is None:
            raise TrainError("--league-net needs --init-net: a league plays beside the best net, and a run "
                             "without one starts from the heuristic search")


def _check_value_weight(w: float) -> None:
    if not 0 <= w <= 1:
        raise TrainError(f"--search-value-weight must be between 0 and 1, got {w:g}")


def _check_lr(lr: float) -> None:
    if not 0 < lr <= 1:
        raise TrainError(f"--lr must be above 0 and at most 1, got {lr:g}")


def _seed(*parts: int) -> int:
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x * 6364136223846793005 + p + 1442695040888963407) % 2**63
    return x


def _selfplay_task(args):
    game, players, seed, net_path, settings, opponents = args
    return play_game(game, players, seed, net_path, settings, opponents)


def _shown(member: str | None, out: Path, outside: list[str]) -> str:
    """A league member as the log and the history name it: the heuristic, an outside net as
    `--league-net` gave it, a net of the run by its place in the run's folder."""
    if member is None:
        return "heuristic"
    rel = Path(member).relative_to(out)
    if rel.parent.name == "league" and rel.stem.startswith("net-"):
        return outside[int(rel.stem[4:])]
    return str(rel)


def league_table(players: int, members: list[str | None], rng: random.Random, learner_seat: int,
                 heuristic_factor: float) -> dict[int, tuple[str | None, float]]:
    """The opponents of one league game: every seat but the learner's draws a member (a net
    file, or None: the heuristic search at `heuristic_factor` times the budget) on its own, so a
    3-4 player table mixes them."""
    table = {}
    for seat in range(players):
        if seat != learner_seat:
            member = rng.choice(members)
            table[seat] = (member, heuristic_factor if member is None else 1.0)
    return table


class Run:
    def __init__(self, out: str | os.PathLike, settings: TrainSettings | None = None, log=None,
                 search_value_weight: float | None = None, generations: int | None = None,
                 warm_start: bool | None = None, lr: float | None = None):
        """`settings` start a run in `out` or, where one is, must name its game and players (a
        resumed run keeps its saved settings). `generations`, where given, is the number of
        generations to reach, for a new run (over `settings`) or a resumed one.
        `search_value_weight` changes a resumed run's value target from its next generation on;
        each history row records the one it trained with. `warm_start` likewise: a run resumed
        without the self-play files of its earlier generations (one restored from its copy in
        the repository, say) should go on from its checkpoint's weights, not train a fresh net
        on one generation's positions. `lr` (the learning rate) too: a warm-started generation
        whose held-out loss is lowest after its first epoch or two may want a smaller one."""
        if generations is not None and generations < 1:
            raise TrainError("--generations must be at least 1")
        self.out = Path(out)
        self.warm = False  # whether the latest candidate went on from the checkpoint's weights
        self.league_row: dict = {}  # the latest self-play's league games, for its history row
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        state_path = self.out / "state.json"
        if state_path.exists():
            self.state = json.loads(state_path.read_text())
            saved = _settings_from_dict(self.state["settings"])
            if settings is not None:
                if (settings.game, settings.players) != (saved.game, saved.players):
                    raise TrainError(f"{self.out} holds a run for {saved.game} {saved.players}; "
                                     "resume it with the same --game and --players or use another --out")
            if generations is not None:  # a resume may change this, the value target and the warm start
                saved.generations = generations
            if warm_start is not None:
                for row in self.state["history"]:
                    row.setdefault("warm_start", saved.warm_start and not row.get("distilled"))
                saved.warm_start = warm_start
            for name, value, check in (("search_value_weight", search_value_weight, _check_value_weight),
                                       ("lr", lr, _check_lr)):
                if value is not None:
                    check(value)
                    for row in self.state["history"]:  # rows from before the change keep the old value
                        row.setdefault(name, getattr(saved, name))
                    setattr(saved, name, value)
            self.settings = saved
            self.state["settings"] = dataclasses.asdict(saved)
        else:
            if settings is None:
                raise TrainError(f"{self.out}: no run to resume (state.json missing)")
            if search_value_weight is not None:
                settings.search_value_weight = search_value_weight
            if generations is not None:
                settings.generations = generations
            if warm_start is not None:
                settings.warm_start = warm_start
            if lr is not None:
                settings.lr = lr
            settings.check()
            self.out.mkdir(parents=True, exist_ok=True)
            self.settings = settings
            self.state = {"settings": dataclasses.asdict(settings), "generation": 0, "best": None,
                          "history": [], "stage": None}
            if settings.init_net:
                self._start_from(settings.init_net)
            self._copy_league_nets()
            self._save()
        self.core = cores.module(self.settings.game)

    def _start_from(self, path: str) -> None:
        """Generation 0 is the net in `path`: it becomes the best net, and its weights the
        checkpoint the first training goes on from (where the run's layers are the net's; a
        run of fresh nets may have others)."""
        s = self.settings
        try:
            splnn.load(path, s.game)  # refuses a file for another game or feature version
            net = splnn.read(path)
        except (OSError, splnn.WeightsError) as exc:
            raise TrainError(f"--init-net: {exc}") from None
        if list(net.hidden) != list(s.hidden):
            if s.warm_start:
                raise TrainError(f"--init-net: {path} has hidden layers {list(net.hidden)}, the run {list(s.hidden)} "
                                 "(give --hidden to match, or --no-warm-start to train fresh nets of another "
                                 "shape against it)")
            # Another shape, trained fresh every generation: the net is only the best to beat.
        else:
            model = M.from_netfile(net)
            torch.save({"model": model.state_dict(), "optimizer": None, "generation": 0},
                       self.out / "checkpoint.pt")
        shutil.copyfile(path, self.out / "best.splnn")
        shutil.copyfile(path, self.out / "start.splnn")  # generation 0, for the league once it is not the best
        self.state["best"] = 0

    def _copy_league_nets(self) -> None:
        """The outside league members, copied into league/ as they are when the run starts (a
        REV:PATH extracted from git history), so a resumed run plays the same nets."""
        for i, ref in enumerate(self.settings.league_nets):
            path = self.league_net_path(i)
            path.parent.mkdir(exist_ok=True)
            try:
                if os.path.isfile(ref):
                    splnn.load(ref, self.settings.game)  # refuses a net of another game
                    shutil.copyfile(ref, path)
                elif ":" in ref:  # git's own spelling of a version, as nn.versions lists them
                    versions.extract(ref, path)
                    splnn.load(path, self.settings.game)
                else:
                    raise TrainError(f"--league-net {ref}: no such file (nor a REV:PATH, a version in git history)")
            except (OSError, splnn.WeightsError, versions.VersionError) as exc:
                path.unlink(missing_ok=True)
                raise TrainError(f"--league-net {ref}: {exc}") from None

    def league_net_path(self, i: int) -> Path:
        return self.out / "league" / f"net-{i}.splnn"

    # --------------------------------------------------------------- bookkeeping
    def _save(self) -> None:
        tmp = self.out / "state.json.tmp"
        tmp.write_text(json.dumps(self.state, indent=1))
        tmp.replace(self.out / "state.json")

    def gen_dir(self, g: int) -> Path:
        return self.out / f"gen-{g:04d}"

    def best_path(self) -> str | None:
        return str(self.out / "best.splnn") if self.state["best"] is not None else None

    # --------------------------------------------------------------- the loop
    def run(self) -> list[dict]:
        s = self.settings
        while self.state["generation"] < s.generations:
            g = self.state["generation"] + 1
            t0 = time.perf_counter()
            spent = self.state.get("spent", 0.0)
            self.log(f"generation {g}: self-play with {self._player()}")
            positions, games = self.selfplay(g)
            self.log(f"generation {g}: {games} games, {positions} positions; training")
            cand, _ = self.train(g)
            self.log(f"generation {g}: gate")
            row = self.gate(g, cand)
            row.update(games=games, positions=positions, seconds=round(spent + time.perf_counter() - t0, 1),
                       **self.league_row)
            self._finish(g, row)
        return self.state["history"]

    def distill(self) -> list[dict]:
        """One generation without new self-play: a fresh net trained on every position the run
        keeps (its --data, every generation's self-play, an unfinished generation's chunks too),
        then gated like any other. Worth it when the training itself changed (a new value
        target, say): the kept games teach the new net what a generation's worth of new games
        would, in minutes instead of an hour."""
        g = self.state["generation"] + 1
        t0 = time.perf_counter()
        d = self.gen_dir(g)
        d.mkdir(exist_ok=True)
        positions, games = _count(d)
        self.log(f"generation {g}: distilling every kept position into a fresh net")
        cand, trained = self.train(g, window=g, fresh=True)
        self.log(f"generation {g}: gate")
        row = self.gate(g, cand)
        row.update(games=games, positions=positions, seconds=round(time.perf_counter() - t0, 1),
                   distilled=trained)
        league = self.state.get("selfplay_league") or {}
        if league.get("generation") == g:  # a --selfplay-only's league games, among those trained on
            row.update(league_games=league["league_games"], league=league["league"])
        self._finish(g, row)
        return self.state["history"]

    def _player(self) -> str:
        """Who plays the next self-play games, for the log."""
        return "the heuristic search" if self.state["best"] is None else f"the net of generation {self.state['best']}"

    def selfplay_only(self) -> tuple[int, int]:
        """The next generation's self-play games with the best net, and nothing else (no
        training, no gate); returns (positions, games). A --distill of the same run then
        trains a fresh net on them (it counts an unfinished generation's games): the way to
        give one net many more positions of the best net's play than a generation's window."""
        g = self.state["generation"] + 1
        self.log(f"generation {g}: self-play only, with {self._player()}")
        positions, games = self.selfplay(g)
        league = f" ({self.league_row['league_games']} of them league games)" if self.league_row else ""
        self.log(f"generation {g}: {games} games{league}, {positions} positions kept for a --distill")
        if self.league_row:  # for the --distill that trains on these games: its history row says so
            self.state["selfplay_league"] = {"generation": g, **self.league_row}
            self._save()
        return positions, games

    def _finish(self, g: int, row: dict) -> None:
        row["search_value_weight"] = self.settings.search_value_weight
        row["warm_start"] = self.warm
        row["lr"] = self.settings.lr
        self.state["history"].append(row)
        self.state["generation"] = g
        self.state.pop("spent", None)
        self.state.pop("selfplay_league", None)
        self._save()
        self.write_history()
        self.log(f"generation {g}: {'accepted' if row['accepted'] else 'rejected'} "
                 f"(score vs best {row['vs_best']:.3f})")

    def selfplay(self, g: int) -> tuple[int, int]:
        s = self.settings
        d = self.gen_dir(g)
        d.mkdir(exist_ok=True)
        chunk = max(1, s.workers * 4)
        net = self.best_path()
        games, sp = s.games, s.selfplay
        if net is None:
            # The heuristic search: as many iterations as the net gets in about the same time,
            # and its exploration-heavy visit counts sharpened into a policy target.
            games = s.first_games or s.games
            sp = dataclasses.replace(sp, iterations=int(sp.iterations * s.heuristic_factor),
                                     fast_iterations=int(sp.fast_iterations * s.heuristic_factor),
                                     target_power=2.0)
        members = self.league_members() if net is not None else []
        if members:
            self.log(f"generation {g}: league of {', '.join(_shown(m, self.out, s.league_nets) for m in members)}")
        tasks = []
        for i in range(games):
            players = s.players[i % len(s.players)]
            rng = random.Random(_seed(s.seed, g, i, 5))
            opponents = None
            if members and rng.random() < s.league_share:
                opponents = league_table(players, members, rng, (i // len(s.players)) % players, s.heuristic_factor)
            tasks.append((s.game, players, _seed(s.seed, g, i), net, sp, opponents))
        league_games = sum(1 for t in tasks if t[5])
        names = [_shown(m, self.out, s.league_nets) for m in members]
        self.league_row = {"league_games": league_games, "league": names} if league_games else {}
        pool = ProcessPoolExecutor(max_workers=s.workers) if s.workers > 1 else None
        # On a terminal only (splendor_ai.progress): a redirected training log gets no bar.
        bar = progress.bar(len(tasks), "self-play", "game")
        try:
            for k, start in enumerate(range(0, len(tasks), chunk)):
                path = d / f"selfplay-{k:03d}.npz"
                if not path.exists():
                    batch = tasks[start:start + chunk]
                    parts = list(pool.map(_selfplay_task, batch)) if pool else [_selfplay_task(t) for t in batch]
                    parts = [p for p in parts if p is not None and len(p["players"])]
                    if parts:
                        data = merge(parts)
                        np.savez(str(path) + ".tmp.npz", **data)
                        os.replace(str(path) + ".tmp.npz", path)
                    else:
                        np.savez(str(path) + ".tmp.npz", empty=np.zeros(0))
                        os.replace(str(path) + ".tmp.npz", path)
                bar.update(min(start + chunk, len(tasks)) - bar.n)
        finally:
            bar.close()
            if pool:
                pool.shutdown()
        return _count(d)

    def league_members(self) -> list[str | None]:
        """Whom league games seat beside the best net: the nets of the run's newest accepted
        generations other than the best (its start net, generation 0, among them), `league` of
        them, the outside nets of `--league-net`, and the heuristic search (None). Empty without a
        league."""
        outside = [str(self.league_net_path(i)) for i in range(len(self.settings.league_nets))]
        if self.settings.league <= 0:
            return [*outside, None] if outside else []
        accepted = [r["generation"] for r in self.state["history"] if r.get("accepted")]
        if (self.out / "start.splnn").exists():
            accepted = [0] + accepted
        nets = [str(self.out / "start.splnn") if g == 0 else str(self.gen_dir(g) / "net.splnn")
                for g in reversed(accepted) if g != self.state["best"]]
        nets = [p for p in nets if Path(p).exists()][:self.settings.league]
        return [*nets, *outside, None]

    def window_data(self, g: int, window: int | None = None) -> dict:
        parts = []
        paths = [p for d in self.settings.data for p in sorted(Path(d).glob("gen-*/selfplay-*.npz"))]
        for h in range(max(1, g - (window or self.settings.window) + 1), g + 1):
            paths += sorted(self.gen_dir(h).glob("selfplay-*.npz"))
        for path in paths:  # the run's own newest positions last: they are the ones held out
            with np.load(path) as z:
                if "players" in z:
                    part = {k: z[k] for k in z.files}
                    # a run trains for its player counts only: a --data pool's other games are left out
                    keep = np.isin(part["players"], self.settings.players)
                    parts.append(part if keep.all() else subset(part, keep))
        if not any(len(p["players"]) for p in parts):
            counts = ", ".join(map(str, self.settings.players))
            raise TrainError(f"generation {g}: no self-play positions of {counts} players")
        return merge(parts)

    def train(self, g: int, window: int | None = None, fresh: bool = False) -> tuple[Path, int]:
        """Generation g's candidate (trained on the last `window` generations, by default the
        run's; `fresh`: from new weights even where the run warm-starts) and its positions."""
        s = self.settings
        cand = self.gen_dir(g) / "net.splnn"
        ckpt = self.out / "checkpoint.pt"
        self.warm = bool(ckpt.exists() and s.warm_start and not fresh)  # (a finished candidate: as it was)
        if cand.exists():
            return cand, int(splnn.read(cand).info.get("positions", 0))
        torch.manual_seed(_seed(s.seed, g, 7) % 2**31)
        model = M.PolicyValueNet(self.core.NUM_FEATURES, s.hidden, self.core.POLICY_SIZE)
        opt_state = None
        if self.warm:
            saved = torch.load(ckpt, weights_only=False)
            model.load_state_dict(saved["model"])
            opt_state = saved["optimizer"]  # None after --init-net
        for d in s.data:
            if not Path(d).is_dir():
                self.log(f"--data {d}: no such folder; generation {g} trains without its positions")
        data = self.window_data(g, window)
        metrics, opt_state = M.train(model, data, epochs=s.epochs, batch_size=s.batch_size, lr=s.lr,
                                     weight_decay=s.weight_decay, seed=_seed(s.seed, g, 11) % 2**31,
                                     optimizer_state=opt_state, search_value_weight=s.search_value_weight,
                                     symmetry=augment.for_game(s.game) if s.augment else None,
                                     lr_schedule=s.lr_schedule, log=self.log)
        torch.save({"model": model.state_dict(), "optimizer": opt_state, "generation": g}, str(ckpt) + ".tmp")
        os.replace(str(ckpt) + ".tmp", ckpt)
        netfile = M.export(model, s.game, s.players, self.core.FEATURE_VERSION, g,
                           {"positions": int(len(data["players"])), "window": s.window, **metrics,
                            "search": dict(s.net_search)})
        splnn.save(cand, netfile)
        splnn.load(cand, s.game)  # the exported file must load
        return cand, int(len(data["players"]))

    def gate(self, g: int, cand: Path) -> dict:
        s = self.settings
        best = self.best_path()
        it = s.gate_iterations
        if s.gate_seconds > 0:
            budget = heur_budget = f"seconds={s.gate_seconds:g}"
        else:
            budget, heur_budget = f"iterations={it}", f"iterations={int(it * s.heuristic_factor)}"
        new_spec = f"mcts:{budget},evaluator=net,net={cand}"
        heur_spec = f"mcts:{heur_budget},evaluator=heuristic"
        best_spec = f"mcts:{budget},evaluator=net,net={best}" if best else heur_spec
        seed = _seed(s.seed, g, 13) % 2**31
        score, by_players = self.match([new_spec, best_spec], seed)
        if best is None:
            vs_heur = score
        else:
            vs_heur, _ = self.match([new_spec, heur_spec], seed + 1)
        accepted = score >= s.gate_threshold
        if accepted:
            shutil.copyfile(cand, self.out / "best.splnn.tmp")
            os.replace(self.out / "best.splnn.tmp", self.out / "best.splnn")
            self.state["best"] = g
        return {"generation": g, "vs_best": round(score, 4), "vs_heuristic": round(vs_heur, 4),
                "vs_best_by_players": by_players, "accepted": accepted, "best_after": self.state["best"]}

    def match(self, bots: list[str], seed: int) -> tuple[float, dict]:
        """The first bot's score in a gate-sized match (the others fill the other seats),
        its games spread evenly over the run's player counts. In a p-player game a win counts
        p/2 (capped at 1 per count), so that an even share scores 0.5 at every count; the
        score is the games-weighted mean over the counts, beside each count's own."""
        s = self.settings
        k = len(s.players)
        total, by_players = 0.0, {}
        for i, players in enumerate(s.players):
            n = s.gate_games // k + (1 if i < s.gate_games % k else 0)
            if n == 0:
                continue
            result = run_arena(s.game, players, bots, n, seed=seed + 7919 * i, processes=s.workers, progress=True)
            score = min(1.0, result.bots[0].win_rate * players / 2)
            by_players[str(players)] = round(score, 4)
            total += score * n
        return total / s.gate_games, by_players

    def write_history(self) -> None:
        s = self.settings
        if s.gate_seconds > 0:
            budget, heur = f"{s.gate_seconds:g} s", "the same time"
        else:
            budget = f"{s.gate_iterations} iterations"
            heur = f"{s.heuristic_factor:g}x the iterations (about equal time)"
        multi = len(s.players) > 1
        older = any("vs_best_by_players" not in r for r in self.state["history"])
        weights = {r.get("search_value_weight", s.search_value_weight) for r in self.state["history"]}
        varied = len(weights) > 1
        rates = {r.get("lr", s.lr) for r in self.state["history"]}
        lr_varied = len(rates) > 1
        distilled = any(r.get("distilled") for r in self.state["history"])
        starts = {r["warm_start"] for r in self.state["history"] if "warm_start" in r}
        lines = [
            f"# Training history: {s.game}, players {', '.join(map(str, s.players))}",
            "",
            (f"Started from {s.init_net} (generation 0). " if s.init_net else "")
            + f"Gate: {s.gate_games} games at {budget} per move, seats rotated; accepted at a score of "
            f"{s.gate_threshold:.2f} or more. 'vs heuristic': the same net against the heuristic search given "
            f"{heur}."
            + (" The gate's games are spread evenly over the player counts"
               + (f" (in rows without a last column, {s.players[0]}-player games only)" if older else "")
               + "; in a p-player game a win counts p/2, so that an even share scores 0.5." if multi else "")
            + (" 'value target': the search's share in the value target the generation trained on "
               "(`--search-value-weight`; the outcome has the rest)." if varied else "")
            + (" A 'distilled' generation (`--distill`) played no games of its own beyond those in its "
               "folder: a fresh net trained on every position the run keeps." if distilled else "")
            + (" A generation marked 'warm' went on training the previous generation's weights on its "
               "window; the others trained a fresh net on theirs." if len(starts) > 1 else "")
            + (" 'learning rate': the optimiser's (AdamW) learning rate in the generation's training "
               "(`--lr`)." if lr_varied else "")
            + (" 'games (N league)': N of them seated the best net beside league members (past nets of the "
               "run, the outside nets of `--league-net` and the heuristic search, each seat drawn on its own: "
               "`--league`), whose moves are not "
               "trained on." if any(r.get("league_games") for r in self.state["history"]) else ""),
            "",
            "| generation | games | positions | wall time | score vs previous best | score vs heuristic | accepted |"
            + (" vs previous best by player count |" if multi else "") + (" value target |" if varied else "")
            + (" learning rate |" if lr_varied else ""),
            "|---|---|---|---|---|---|---|" + ("---|" if multi else "") + ("---|" if varied else "")
            + ("---|" if lr_varied else ""),
        ]
        for r in self.state["history"]:
            by = r.get("vs_best_by_players", {})
            gen = (f"{r['generation']} (distilled from {r['distilled']} positions)" if r.get("distilled")
                   else r["generation"])
            if len(starts) > 1 and r.get("warm_start"):
                gen = f"{gen} (warm)"
            games = f"{r['games']} ({r['league_games']} league)" if r.get("league_games") else r["games"]
            lines.append(f"| {gen} | {games} | {r['positions']} | {r['seconds']:.0f} s | "
                         f"{r['vs_best']:.1%} | {r['vs_heuristic']:.1%} | {'yes' if r['accepted'] else 'no'} |"
                         + (" " + ", ".join(f"{p}p {v:.1%}" for p, v in by.items()) + " |" if multi else "")
                         + (f" {r.get('search_value_weight', s.search_value_weight):g} |" if varied else "")
                         + (f" {r.get('lr', s.lr):g} |" if lr_varied else ""))
        (self.out / "history.md").write_text("\n".join(lines) + "\n")


def _settings_from_dict(d: dict) -> TrainSettings:
    d = dict(d)
    d.setdefault("lr_schedule", "constant")  # a run saved before the setting: as it trained
    d["selfplay"] = SelfPlaySettings(**d["selfplay"])
    return TrainSettings(**d)


def _count(d: Path) -> tuple[int, int]:
    """(positions, games) in a generation folder's self-play files."""
    positions = games = 0
    for path in sorted(d.glob("selfplay-*.npz")):
        with np.load(path) as z:
            if "players" in z:
                positions += len(z["players"])
                games += len(z["decisions"])
    return positions, games
