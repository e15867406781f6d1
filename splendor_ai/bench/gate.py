"""The ship gate: a candidate net against a pool, at equal CPU time a move, on paired deals.

    splendor-ai bench gate --game G --players N [N ...] --candidate NET [--incumbent NET]
        [--older NET ...] [--mixed KEY,KEY ...] [--seconds S] [--deals K] [--processes P]
        [--records DIR] [--write [FILE]] [--history [FILE]]

A net is a file or REV:PATH, a version in git history (`python -m splendor_ai.nn.versions
PATH` lists them). The pool: the incumbent (the net the candidate would replace; default the
shipped net of the game and player count), older nets of that game and count (`--older`; default
the two newest versions in git history, distinct weights, older than the incumbent), the heuristic
search, and at 3-4 players mixed tables (each older net beside the heuristic search, at 4 players
the incumbent too; `--mixed` names others). Each table is a set of opponents for the other seats,
played in every seat arrangement in turn. For every table the candidate and the incumbent play the
same deals in the same seats against the same opponents with the same search seeds: the result is
the paired difference, deal by deal (gate_rule.py has the interval and the decision).

Equal time: each side's cost per iteration is measured first, in this process, on positions of the
game at that player count (CPU time, one thread, best of --rounds), and each side gets the
iterations that take --seconds a move (`gate_rule.equal_time_budgets`): the budgets are iteration
counts, as a frontend's levels are, so a busy machine changes no game. With --records DIR the
budgets are kept in DIR/budgets.json and every game in DIR as it ends; the same command again reads
them back and plays only the missing games. --write puts the table in BENCHMARKS.md, --history in
the net's training history (training/history/<net>.md). Off a terminal (a gate of hours, run in
the background) a line at every tenth of the games says how far it is (ProgressLog).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import sys
import tempfile
import time
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .. import nn
from ..nn import versions
from .. import progress as _progress
from ..records import RecordError, load, save
from ..search.arena import play_game
from ..search.mcts import Config, Limits, SearchError, search
from . import gate_rule
from .report import machine_line, write_section

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"base": (2, 3, 4), "duel": (2,), "marvel": (2, 3, 4)}
FEW_DEALS = 50  # below this many deals a table, the output says it decides nothing


@dataclass
class Side:
    """One search in the gate: a net (its file, how it was named) or the heuristic search."""

    key: str  # candidate, incumbent, older1, ..., heuristic
    path: str | None  # the weights file the bots load (None: the heuristic search)
    name: str  # as given: a file, or REV:PATH
    checksum: str = ""
    weights: str = ""
    hidden: tuple[int, ...] = ()
    precision: str = "float32"

    @property
    def cost_class(self) -> tuple | None:
        """Sides of one class cost the same an iteration (gate_rule.pool_costs); None: the heuristic."""
        return None if self.path is None else (self.hidden, self.precision)

    def config(self) -> Config:
        return Config(evaluator="heuristic") if self.path is None else Config(evaluator="net", net=self.path)

    def spec(self, iterations: int) -> str:
        if self.path is None:
            return f"mcts:iterations={iterations},evaluator=heuristic"
        return f"mcts:iterations={iterations},evaluator=net,net={self.path}"

    def describe(self) -> str:
        if self.path is None:
            return "the heuristic search"
        return f"{self.name} ({self.checksum})"


@dataclass(frozen=True)
class Table:
    """The opponents in the other seats (side keys; the last fills any seats left)."""

    players: int
    others: tuple[str, ...]

    @property
    def label(self) -> str:
        keys = list(self.others) + [self.others[-1]] * (self.players - 1 - len(self.others))
        if len(set(keys)) == 1:
            return keys[0] + (f" x{len(keys)}" if len(keys) > 1 else "")
        return " + ".join(keys)

    @property
    def slug(self) -> str:
        return f"{self.players}p-" + "-".join(self.filled())

    def filled(self) -> list[str]:
        return list(self.others) + [self.others[-1]] * (self.players - 1 - len(self.others))


def arrangements(players: int, others: list[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Every seating of a table: (the focal seat, the other seats' keys in seat order), the seat
    changing fastest, then each distinct order of the others."""
    orders = sorted(set(itertools.permutations(others)))
    out = []
    for order in orders:
        for seat in range(players):
            rest = list(order)
            seats = [rest[(s - seat - 1) % players] if s != seat else None for s in range(players)]
            out.append((seat, tuple(k for k in seats if k is not None)))
    return out


def seats_of(players: int, seat: int, others: tuple[str, ...]) -> list[str | None]:
    """Seat -> side key (None for the focal seat) for one arrangement."""
    it = iter(others)
    return [None if s == seat else next(it) for s in range(players)]


def deal_seed(seed: int, table: Table, i: int) -> int:
    """Deal i of a table: its own deals (a stable number from the table's name), the same for the
    candidate and the incumbent."""
    return seed * 1_000_003 + (zlib.crc32(table.slug.encode()) % 100_003) * 10_007 + i


# --- the sides ---------------------------------------------------------------------------------

def load_side(key: str, ref: str, game: str, netdir: Path) -> Side:
    """A net named by a file or by REV:PATH (extracted into `netdir` under a stable name)."""
    if os.path.isfile(ref):
        path = ref
    else:
        rev, sep, rel = ref.partition(":")
        if not sep:
            raise ValueError(f"{key}: {ref!r} is no file and no REV:PATH (a version in git history)")
        path = str(netdir / f"{rev}-{Path(rel).name}")
        if not os.path.isfile(path):
            versions.extract(ref, path)
    net = nn.load(path, game)
    return Side(key, path, ref, net.checksum, versions.weights_checksum(net.file), tuple(net.file.hidden),
                net.file.info.get("precision", "float32"))


def default_older(game: str, players: list[int], exclude: set[str], after: str, count: int) -> list[str]:
    """The `count` newest nets in git history for `game` covering every count in `players`, one a
    weights (its newest header, as it last shipped), older than the version whose weights are
    `after` (the incumbent; where history lacks it, the newest), none whose weights are in
    `exclude`; as REV:PATH."""
    files = {nn.shipped_path(game, p, ROOT / "splendor_ai" / "nets") for p in players}
    files.add(ROOT / "splendor_ai" / "nets" / f"{game}.splnn")
    found = []
    for f in sorted(files):
        found += versions.versions(f)
    found.sort(key=lambda v: -v.when)
    seen, rows = set(), []
    for v in found:
        if v.weights not in seen:
            seen.add(v.weights)
            rows.append(v)
    marks = [i for i, v in enumerate(rows) if v.weights == after]
    start = marks[0] + 1 if marks else 0
    picked = [v for v in rows[start:] if v.weights not in exclude and all(v.covers(p) for p in players)]
    return [v.ref for v in picked[:count]]


# --- equal time --------------------------------------------------------------------------------

def game_positions(game: str, players: int, count: int = 8, seed: int = 5):
    """`count` positions of the game at `players` seats: from seeded heuristic games (200
    iterations a move), at evenly spaced points of each game, four a game."""
    from ..games import load_game

    out: list = []
    g = 0
    while len(out) < count:
        state = load_game(game, players).new_initial_state(seed * 1_000 + g)
        states = [state.clone()]
        k = 0
        while not state.is_terminal():
            r = search(state, Limits(iterations=200), Config(evaluator="heuristic", seed=seed * 7919 + g * 131 + k))
            state.apply_action(r.action)
            k += 1
            if not state.is_terminal():
                states.append(state.clone())
        for q in range(4):
            if len(out) < count:
                out.append(states[q * len(states) // 4])
        g += 1
    return out


def measure_costs(sides: dict[str, Config], positions, iterations: dict[str, int] | int,
                  rounds: int = 3) -> dict[str, float]:
    """Each side's CPU seconds per iteration (one thread): a search of its `iterations` on every
    position, the sides taking turns each round (the order rotated), best round of `rounds`."""
    keys = list(sides)
    best = {k: float("inf") for k in keys}
    for r in range(rounds):
        for k in keys[r % len(keys):] + keys[:r % len(keys)]:
            n = iterations[k] if isinstance(iterations, dict) else iterations
            cpu, done = 0.0, 0
            for j, state in enumerate(positions):
                cfg = Config(**{**sides[k].__dict__, "seed": 1 + j, "threads": 1})
                t0 = time.process_time()
                res = search(state, Limits(iterations=n), cfg)
                cpu += time.process_time() - t0
                done += res.iterations
            best[k] = min(best[k], cpu / max(1, done))
    return best


def measure_budgets(sides: list[Side], game: str, players: int, seconds: float, positions: int = 8,
                    rounds: int = 3, log=print) -> tuple[dict[str, float], dict[str, int]]:
    """Costs (s per iteration) and equal-time budgets at `players` seats: a first pass at 300
    iterations a search gives each side's rough budget, the measured pass searches that many."""
    states = game_positions(game, players, positions)
    configs = {s.key: s.config() for s in sides}
    rough = measure_costs(configs, states, 300, rounds=1)
    first = gate_rule.equal_time_budgets(rough, seconds)
    sizes = {k: min(max(v, 200), 100_000) for k, v in first.items()}
    measured = measure_costs(configs, states, sizes, rounds=rounds)
    costs = gate_rule.pool_costs(measured, {s.key: s.cost_class for s in sides if s.cost_class is not None})
    budgets = gate_rule.equal_time_budgets(costs, seconds)
    log(f"{players} players: measured on {len(states)} positions, best of {rounds}: "
        + ", ".join(f"{k} {measured[k] * 1e6:.2f}"
                    + (f" (its shape's mean {costs[k] * 1e6:.2f})" if costs[k] != measured[k] else "")
                    + f" µs/iteration -> {budgets[k]:,}" for k in configs))
    return costs, budgets


# --- the games ---------------------------------------------------------------------------------

def _task(args):
    game, players, seats, seed = args
    rec = play_game(game, players, seats, seed)
    return {k: rec[k] for k in ("format", "version", "game", "players", "seed", "initial_position", "seats",
                                "actions", "evaluations", "returns", "evaluators", "finished", "points", "turns")}


def plan(game: str, tables: list[Table], sides: dict[str, Side], budgets: dict[int, dict[str, int]],
         deals: int, seed: int):
    """Every game of the gate: (table, deal, who, focal seat, task), in deal order across tables,
    the candidate's and the incumbent's game of a deal side by side."""
    out = []
    seatings = {t: arrangements(t.players, t.filled()) for t in tables}
    for i in range(deals):
        for t in tables:
            seat, others = seatings[t][i % len(seatings[t])]
            b = budgets[t.players]
            for who in ("candidate", "incumbent"):
                specs = [sides[who if k is None else k].spec(b[who if k is None else k])
                         for k in seats_of(t.players, seat, others)]
                out.append((t, i, who, seat, (game, t.players, specs, deal_seed(seed, t, i))))
    return out


def seat_identity(spec: str, checksum: str | None = None, by_path: dict[str, str] | None = None) -> str:
    """A seat's spec with its net's file replaced by the net's checksum (``checksum``, or the one
    ``by_path`` gives for the spec's file): the same game whatever folder its nets were read from
    (records unpacked elsewhere, `records.py get NAME DIR`) or whatever path named them (a
    candidate named from another directory)."""
    head, sep, path = spec.partition(",net=")
    if not sep:
        return spec
    return f"{head},net#{checksum if by_path is None else by_path.get(path)}"


def play(games, processes: int, records: Path | None, on_game=None,
         checksums: dict[str, str] | None = None) -> tuple[dict, int, int]:
    """Play (or read back) every planned game; -> ({(table, deal, who): the focal seat's result},
    games played, games read back). ``on_game(played, to_play, results)`` after each game played.
    A game read back must be the planned one: its game, seats (budgets and nets, a net known by its
    checksum, ``checksums[path]``) and seed."""
    checksums = checksums or {}
    results, todo = {}, []
    for t, i, who, seat, task in games:
        path = records / t.slug / f"{who}-{i:05d}.json" if records else None
        if path is not None and path.exists():
            rec = load(path)
            nets = [e.get("checksum") if isinstance(e, dict) else None for e in rec.get("evaluators") or []]
            seats = rec.get("seats") or []
            kept = [seat_identity(spec, nets[k] if k < len(nets) else None) for k, spec in enumerate(seats)]
            planned = [seat_identity(spec, by_path=checksums) for spec in task[2]]
            if (rec.get("game"), rec.get("players"), kept, rec.get("seed")) != (task[0], task[1], planned, task[3]):
                raise ValueError(f"{path} is not this gate's game (other nets, budgets or deals): use another folder")
            results[(t, i, who)] = rec["returns"][seat]
        else:
            todo.append((t, i, who, seat, task, path))
    bar = _progress.bar(len(games), "gate games", "game", initial=len(games) - len(todo))
    played = 0  # counted here: a disabled bar counts nothing

    def finished(item, rec):
        nonlocal played
        t, i, who, seat, _task_, path = item
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            save(rec, path)
        results[(t, i, who)] = rec["returns"][seat]
        bar.update(1)
        played += 1
        if on_game is not None:
            on_game(played, len(todo), results)

    with bar:
        if processes <= 1 or len(todo) <= 1:
            for item in todo:
                finished(item, _task(item[4]))
        else:
            with ProcessPoolExecutor(max_workers=min(processes, len(todo))) as pool:
                futures = {pool.submit(_task, item[4]): item for item in todo}
                for fut in as_completed(futures):
                    finished(futures[fut], fut.result())
    return results, len(todo), len(games) - len(todo)


class ProgressLog:
    """A gate's progress where no bar is drawn (stderr not a terminal: a gate of hours run in the
    background, its output in a file): a line at every tenth of the games to play with the games
    played, the time so far and, at this pace, the time left; the deals every table has complete
    (``--deals`` that many writes their table now, playing nothing) and the pooled paired
    difference so far over every deal both nets have played."""

    def __init__(self, tables: list["Table"], deals: int, confidence: float, log, clock=time.monotonic):
        self.tables, self.deals, self.confidence, self.log, self.clock = tables, deals, confidence, log, clock
        self.start = clock()

    def __call__(self, played: int, to_play: int, results: dict) -> None:
        if played >= to_play or played not in {to_play * k // 10 for k in range(1, 10)}:
            return  # the last game is followed by the table itself
        elapsed = self.clock() - self.start
        paired = comparisons(self.tables, self.deals, results)
        complete = min(len(c) for c, _ in paired.values())
        pooled = gate_rule.paired_interval([c - i for cs, is_ in paired.values() for c, i in zip(cs, is_)],
                                           self.confidence)
        self.log(f"{played:,} of {to_play:,} games played ({played / to_play:.0%}) in {_span(elapsed)}, "
                 f"about {_span(elapsed / played * (to_play - played))} to go; {complete} deal"
                 f"{'' if complete == 1 else 's'} complete in every table; pooled so far "
                 f"{gate_rule.fmt_difference(pooled)}")


def _span(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min" if seconds < 5400 else \
        f"{seconds / 3600:.1f} h"


# --- the table ---------------------------------------------------------------------------------

def comparisons(tables: list[Table], deals: int, results: dict) -> dict[str, tuple[list[float], list[float]]]:
    """Per table: (the candidate's results, the incumbent's) over the deals both played."""
    out = {}
    for t in tables:
        both = [i for i in range(deals) if (t, i, "candidate") in results and (t, i, "incumbent") in results]
        out[f"{t.players}p vs {t.label}"] = ([results[(t, i, "candidate")] for i in both],
                                              [results[(t, i, "incumbent")] for i in both])
    return out


def render(args, sides: dict[str, Side], costs: dict, budgets: dict, tables: list[Table],
           paired: dict, decision: gate_rule.Decision, elapsed: float, played: int, resumed: int,
           pooled: bool, measured_on: str | None = None, read_back: bool = False) -> str:
    """The gate's section. ``read_back``: the costs came from the records' budgets.json, measured
    where the records began (``measured_on``, that machine's line; None in files from before it
    was kept), not on the machine whose line heads the table."""
    counts = sorted(budgets)
    cand = sides["candidate"]
    pct = f"{decision.confidence:.0%}"
    cmd = command_line(args)
    deals = min((iv.n for iv in decision.members.values()), default=0)
    if not read_back:
        where = "in this run on this machine"
    elif measured_on:
        where = f"where these records began ({measured_on}; read back from their budgets.json)"
    else:
        where = "where these records began (read back from their budgets.json, which does not name the machine)"
    lines = [
        f"## Ship gate at equal time: {args.game}, {'-'.join(map(str, counts))} players, "
        f"{Path(cand.name).name} against the pool, {args.seconds:g} s a move",
        "",
        f"Command: `{cmd}` ({machine_line()}). Candidate {cand.describe()}; the net it would replace "
        f"(incumbent) {sides['incumbent'].describe()}. Every side at **equal time**, {args.seconds:g} s of CPU "
        f"a move: its iterations a move are that time over its cost per iteration, measured {where} on "
        f"{args.positions} positions of the game at each player count (one thread, CPU time, best of "
        f"{args.rounds}"
        + ("; sides whose nets have one shape and precision share their costs' mean, since they do the same work "
           "an iteration" if pooled else "")
        + "), then fixed as an iteration count for every game. Paired deals: in each table the candidate "
        "and the incumbent play the same deals in the same seat against the same opponents (seat arrangements in "
        "turn), only the net in that seat changed. A result is the seat's share of the win (shared wins split). "
        f"Paired difference: candidate minus incumbent, deal by deal, in points, with the {pct} Student t interval "
        "of its mean. "
        f"{played} games played in {elapsed:.0f} s" + (f", {resumed} read back from records" if resumed else "")
        + f", {args.processes} at a time.",
        "",
        "| side | net | hidden | "
        + " | ".join(f"µs/iteration, {p}p | iterations a move, {p}p" for p in counts) + " |",
        "|---|---|---|" + "---|---|" * len(counts),
    ]
    for key, s in sides.items():
        hidden = "×".join(map(str, s.hidden)) if s.hidden else "–"
        lines.append(f"| {key} | {s.describe()} | {hidden} | "
                     + " | ".join(f"{costs[p][key] * 1e6:.2f} | {budgets[p][key]:,}" for p in counts) + " |")
    lines += [
        "",
        "| table (other seats) | seatings | deals | candidate's share | incumbent's share | fair share | "
        f"paired difference ({pct} interval) | |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in tables:
        name = f"{t.players}p vs {t.label}"
        c, i = paired[name]
        iv = decision.members[name]
        mark = "worse beyond noise" if iv.worse else "better beyond noise" if iv.better else "within noise"
        lines.append(f"| {name} | {len(arrangements(t.players, t.filled()))} | {iv.n} | {_share(c)} | {_share(i)} | "
                     f"{1 / t.players:.1%} | {_diff(iv)} | {mark if iv.n >= 2 else 'too few deals'} |")
    pc = [x for c, _ in paired.values() for x in c]
    pi = [x for _, i in paired.values() for x in i]
    pool = decision.pooled
    lines.append(f"| **pooled** | | {pool.n} | {_share(pc)} | {_share(pi)} | | **{_diff(pool)}** | "
                 f"{'better beyond noise' if pool.better else 'not better beyond noise'} |")
    rule = ("its interval above 0" if decision.pooled_rule == "interval" else "its mean above 0")
    lines += ["", f"Decision, at equal time: **{decision.verdict}**. The rule: no table's interval below 0, and the "
              f"pooled difference (every table's deals together) better, {rule}. " + "; ".join(decision.reasons) + "."]
    if deals < FEW_DEALS:
        lines.append(f"Only {deals} deal{'' if deals == 1 else 's'} a table: a check that the gate runs, "
                     "not a measurement (a gate plays 200 or more).")
    return "\n".join(lines)


def _share(xs: list[float]) -> str:
    return f"{sum(xs) / len(xs):.1%}" if xs else "–"


def _diff(iv: gate_rule.Interval) -> str:
    if iv.n < 2:
        return f"{100 * iv.mean:+.1f}" if iv.n else "–"
    return f"{100 * iv.mean:+.1f} ({100 * iv.lo:+.1f} .. {100 * iv.hi:+.1f})"


def command_line(args) -> str:
    parts = ["splendor-ai bench gate", f"--game {args.game}", "--players " + " ".join(map(str, args.players)),
             f"--candidate {args.candidate}"]
    if args.incumbent:
        parts.append(f"--incumbent {args.incumbent}")
    parts += [f"--older {o}" for o in args.older]
    parts += [f"--mixed {m}" for m in args.mixed]
    if args.no_mixed:
        parts.append("--no-mixed")
    parts += [f"--seconds {args.seconds:g}", f"--deals {args.deals}", f"--seed {args.seed}",
              f"--processes {args.processes}"]
    # the measurement's settings are part of the budgets' key (budgets.json): the command given
    # again must name them to read its records back
    parts += [f"--positions {args.positions}"] if args.positions != 8 else []
    parts += [f"--rounds {args.rounds}"] if args.rounds != 3 else []
    if args.records:
        parts.append(f"--records {args.records}")
    if args.confidence != 0.95 or args.pooled != "interval":
        parts += [f"--confidence {args.confidence:g}", f"--pooled {args.pooled}"]
    return " ".join(parts) + (" --write" if args.write else "")


def append_history(path: str | os.PathLike, name: str, body: str) -> None:
    """Append the gate's table to a net's training history (training/history/<net>.md), as its own
    section: a later run of the same gate (`name`) replaces it, others are kept beside it."""
    write_section(path, name, body)


def section_name(game: str, players: list[int]) -> str:
    return f"gate-{game}-{'-'.join(map(str, sorted(players)))}p"


# --- the command -------------------------------------------------------------------------------

def default_tables(players: list[int], older: list[str], mixed: list[tuple[str, ...]] | None) -> list[Table]:
    """Each member alone in the other seats, then the mixed tables at 3-4 players: `mixed` where
    given, else each older net beside the heuristic search (and, at 4 players, the incumbent)."""
    members = ["incumbent", *older, "heuristic"]
    out = []
    for p in players:
        out += [Table(p, (m,)) for m in members]
        if p < 3:
            continue
        if mixed is not None:
            out += [Table(p, m) for m in mixed]
        else:
            out += [Table(p, (o, "heuristic") if p == 3 else (o, "heuristic", "incumbent")) for o in older]
    return out


def run(args) -> int:
    counts = sorted(set(args.players))
    bad = [p for p in counts if p not in PLAYERS[args.game]]
    if bad:
        raise ValueError(f"--players: {args.game} is played by {', '.join(map(str, PLAYERS[args.game]))} players")
    records = Path(args.records) if args.records else None
    tmp = None
    if records:
        netdir = records / "nets"
        netdir.mkdir(parents=True, exist_ok=True)
    else:
        netdir = Path(tmp := tempfile.mkdtemp(prefix="splendor-gate-"))
    try:
        return _run(args, counts, records, netdir)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(args, counts: list[int], records: Path | None, netdir: Path) -> int:
    shipped = {str(nn.shipped_path(args.game, p)) for p in counts}
    if not args.incumbent and len(shipped) > 1:
        raise ValueError(f"the shipped nets differ between {counts} players: give --incumbent")
    cand = load_side("candidate", args.candidate, args.game, netdir)
    inc = load_side("incumbent", args.incumbent or shipped.pop(), args.game, netdir)
    if cand.checksum == inc.checksum:
        raise ValueError(f"the candidate is the incumbent ({cand.checksum}): give --incumbent, the net it would "
                         "replace (to gate a shipped net again, the net it replaced)")
    older_refs = args.older or default_older(args.game, counts, {cand.weights, inc.weights}, inc.weights,
                                             args.older_count)
    if len(older_refs) < 2:
        print(f"gate: only {len(older_refs)} older nets in the pool (a gate's pool has two or more: give --older)",
              file=sys.stderr)
    sides = {"candidate": cand, "incumbent": inc}
    for n, ref in enumerate(older_refs, 1):
        sides[f"older{n}"] = load_side(f"older{n}", ref, args.game, netdir)
    sides["heuristic"] = Side("heuristic", None, "heuristic")
    for s in sides.values():
        if s.path is not None:
            net = nn.read(s.path)
            missing = [p for p in counts if p not in net.players]
            if missing:
                raise ValueError(f"{s.key} {s.name} does not cover {missing} players (it covers {net.players})")
    mixed = None if not args.mixed else [tuple(m.split(",")) for m in args.mixed]
    for m in mixed or []:
        unknown = [k for k in m if k not in sides or k == "candidate"]
        if unknown or not all(len(m) <= p - 1 for p in counts if p >= 3):
            raise ValueError(f"--mixed {','.join(m)}: name up to players-1 of {', '.join(list(sides)[1:])}")
    tables = default_tables(counts, [k for k in sides if k.startswith("older")], [] if args.no_mixed else mixed)
    costs, budgets, pooled, measured_on, read_back = _budgets(args, counts, sides, records)
    games = plan(args.game, tables, sides, budgets, args.deals, args.seed)
    t0 = time.perf_counter()
    report = None if _progress.on_terminal(sys.stderr) else \
        ProgressLog(tables, args.deals, args.confidence, lambda m: print(f"gate: {m}", file=sys.stderr, flush=True))
    results, played, resumed = play(games, args.processes, records, report,
                                    {s.path: s.checksum for s in sides.values() if s.path})
    elapsed = time.perf_counter() - t0
    paired = comparisons(tables, args.deals, results)
    decision = gate_rule.decide({k: [c - i for c, i in zip(*v)] for k, v in paired.items()},
                                args.confidence, args.pooled)
    body = render(args, sides, costs, budgets, tables, paired, decision, elapsed, played, resumed, pooled,
                  measured_on, read_back)
    print(body)
    if records:
        (records / "gate.json").write_text(json.dumps({
            "command": command_line(args), "sides": {k: vars(s) | {"hidden": list(s.hidden)} for k, s in sides.items()},
            "costs": {str(p): c for p, c in costs.items()}, "budgets": {str(p): b for p, b in budgets.items()},
            "tables": {k: {"candidate": c, "incumbent": i} for k, (c, i) in paired.items()},
            "decision": {"ship": decision.ship, "reasons": decision.reasons}}, indent=1) + "\n")
    if args.write:
        write_section(args.write, section_name(args.game, counts), body)
        print(f"\nwrote the '{section_name(args.game, counts)}' section of {args.write}")
    if args.history:
        stem = Path(str(nn.shipped_path(args.game, counts[0]))).stem
        path = args.history if args.history != "-" else ROOT / "training" / "history" / f"{stem}.md"
        name = f"{section_name(args.game, counts)}-{cand.checksum}-{args.seconds:g}s"
        append_history(path, name, body.replace("## Ship gate", "### Ship gate", 1))
        print(f"appended the table to {path}")
    return 0


def _budgets(args, counts: list[int], sides: dict[str, Side], records: Path | None):
    """Each count's costs and budgets, whether sides of one shape shared their costs' mean
    (gate_rule.pool_costs), the machine they were measured on (its line) and whether they were read
    back: measured now, or read back from DIR/budgets.json where a run of the same gate (same
    sides, time and measurement) measured them (the games there were played with those budgets),
    perhaps on another machine (records unpacked elsewhere)."""
    key = {"game": args.game, "seconds": args.seconds, "positions": args.positions, "rounds": args.rounds,
           "sides": {k: s.checksum or "heuristic" for k, s in sides.items()}}
    path = records / "budgets.json" if records else None
    saved = json.loads(path.read_text()) if path is not None and path.exists() else None
    if saved is not None:
        if saved["key"] != key or any(str(p) not in saved["budgets"] for p in counts):
            raise ValueError(f"{path} holds budgets measured for another gate (other nets, time or player "
                             "counts): use another --records folder")
        print(f"gate: the budgets measured before, read back from {path}", file=sys.stderr)
        # budgets.json files written before pooling have no "pooled", before their machine no "machine"
        return ({p: saved["costs"][str(p)] for p in counts}, {p: saved["budgets"][str(p)] for p in counts},
                bool(saved.get("pooled")), saved.get("machine"), True)
    costs, budgets, machine = {}, {}, machine_line()
    for p in counts:
        costs[p], budgets[p] = measure_budgets(list(sides.values()), args.game, p, args.seconds, args.positions,
                                               args.rounds, log=lambda m: print(f"gate: {m}", file=sys.stderr))
    if path is not None:
        path.write_text(json.dumps({"key": key, "costs": {str(p): c for p, c in costs.items()},
                                    "budgets": {str(p): b for p, b in budgets.items()}, "pooled": True,
                                    "machine": machine}, indent=1) + "\n")
    return costs, budgets, True, machine, False


def list_versions(game: str, players: list[int]) -> int:
    files = {nn.shipped_path(game, p, ROOT / "splendor_ai" / "nets") for p in players}
    files.add(ROOT / "splendor_ai" / "nets" / f"{game}.splnn")
    for f in sorted(files):
        rel = f.relative_to(ROOT)
        print(f"{rel} (name a version as REV:{rel.as_posix()}):")
        print(versions.table(versions.versions(f)))
        print()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench gate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(PLAYERS), default="base")
    ap.add_argument("--players", type=int, nargs="+", default=None,
                    help="player counts, each with its own tables (default 2)")
    ap.add_argument("--candidate", default=None, help="the net to gate: a file or REV:PATH")
    ap.add_argument("--incumbent", default=None,
                    help="the net it would replace (default: the shipped net of the game and player count)")
    ap.add_argument("--older", action="append", default=[], metavar="NET",
                    help="an older net of the pool (repeatable; default: the newest ones in git history older than "
                         "the incumbent, --older-count of them)")
    ap.add_argument("--older-count", type=int, default=2, help="older nets taken from git history (default 2)")
    ap.add_argument("--mixed", action="append", default=[], metavar="KEY,KEY",
                    help="a mixed table at 3-4 players: the sides in the other seats (incumbent, older1, ..., "
                         "heuristic; the last fills the seats left); repeatable, in place of the default mixed tables")
    ap.add_argument("--no-mixed", action="store_true", help="no mixed tables")
    ap.add_argument("--seconds", type=float, default=0.05, help="CPU time a move for every side (default 0.05)")
    ap.add_argument("--deals", type=int, default=200, help="deals a table, each played by both nets (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--processes", type=int, default=1, help="games at once (default 1: one core a search)")
    ap.add_argument("--positions", type=int, default=8, help="positions the costs are measured on (default 8)")
    ap.add_argument("--rounds", type=int, default=3, help="measurement rounds, the best counts (default 3)")
    ap.add_argument("--confidence", type=float, default=0.95, help="the intervals' confidence (default 0.95)")
    ap.add_argument("--pooled", choices=gate_rule.POOLED_RULES, default="interval",
                    help="the pooled test: its interval above 0 (default) or its mean above 0 (point)")
    ap.add_argument("--records", metavar="DIR", default=None,
                    help="keep the budgets and each game in DIR; the same command again reads them back and plays "
                         "only the missing games")
    ap.add_argument("--write", nargs="?", const="BENCHMARKS.md", default=None, metavar="FILE",
                    help="also write the table to FILE (default: BENCHMARKS.md here)")
    ap.add_argument("--history", nargs="?", const="-", default=None, metavar="FILE",
                    help="also append the table to FILE (default: the net's training/history/<net>.md)")
    ap.add_argument("--list-versions", action="store_true",
                    help="list the versions in git history of the game's net files, and stop")
    args = ap.parse_args(argv)
    args.players = args.players or [2]
    try:
        if args.list_versions:
            return list_versions(args.game, args.players)
        if not args.candidate:
            ap.error("--candidate is required (a file or REV:PATH)")
        if args.deals < 1 or not args.seconds > 0 or args.processes < 1 or args.positions < 1 or args.rounds < 1:
            ap.error("--deals, --processes, --positions and --rounds must be at least 1 and --seconds positive")
        if not 0 < args.confidence < 1:
            ap.error("--confidence must be between 0 and 1")
        return run(args)
    except (SearchError, ValueError, RecordError, nn.WeightsError) as exc:
        print(f"gate: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
