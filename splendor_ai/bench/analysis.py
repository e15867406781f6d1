"""The analysis benchmark: games analysed per minute, and how noisy the verdicts are.

    splendor-ai bench analysis [--games 8] [--iterations 1000] [--write]

Records: base game, 2 players, greedy against level 1 (arena seed 3). Throughput: the batch
run (``splendor_ai.analysis.batch``) on 1 and 2 local workers, and on a local Ray instance
with 2 CPUs when ray is installed (its start-up timed apart). Noise: the first game analysed
with 3 seeds by the old method (the drop = the mover's win probability in the search of the
position before the move less that in an independent search of the position after it) and
by the new one (both values from one search, the played move's visits forced); for each
decision with a choice, the spread (max - min) of its drop over the seeds, and how often the
seeds disagree on its mark. Prints the figures; ``--write`` also writes the "analysis"
section of BENCHMARKS.md.

    splendor-ai bench analysis --levels [--iterations 2000] [--write]

Accuracy by level (section "analysis-levels"): games between difficulty levels 1, 4 and 7 in
each game (base and Marvel: 3 players, one seat each; Duel: each pair), analysed; per level,
the mean and spread of the seats' accuracy (e^-(drops summed), docs/analysis.md), beside the
old measure (share of decisions below the mistake threshold) that did not separate them.

    splendor-ai bench analysis --cost [--games 4] [--iterations 1000] [--write]

What the coach adds (section "analysis-cost"): ``--games`` games of each game (base and Marvel
2 players, Duel) between levels 3 and 5, each analysed as AnalyzeGame does (``analysis.analyze``)
at ``--iterations`` a decision; CPU time of the searches, of the reasons (``explain_move`` /
``explain_mistake`` of every verdict) and of the per-seat summary (the accuracy and the level
estimate), each against the searches' (target: the reasons and the estimate together at most
10 % of the analysis).
"""
from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from .report import machine_line, write_section
from ..records import replay, save
from ..search import Config, Limits, search
from ..search.arena import run_arena
from ..analysis import Options, analyze, judge, mark_of
from ..analysis import batch

SEEDS = (0, 1000, 2000)
REFERENCE = 10  # the reference verdicts search with this many times the budget
REFERENCE_SEED = 77


def rms(per_seed: list[list[tuple]], reference: list[tuple]) -> float:
    """Root mean square distance of the drops (every seed, decisions with a choice) from the reference's."""
    errors = [(rows[k][0] - ref[0]) ** 2 for k in range(len(per_seed)) for rows, ref in
              [(list(zip(*per_seed))[i], reference[i]) for i in range(len(reference))] if not ref[2]]
    return (sum(errors) / len(errors)) ** 0.5


def old_drops(record: dict, options: Options) -> list[tuple[float, str, bool]]:
    """The old method, per decision: (drop, mark, forced) from two independent searches."""
    states = replay(record)
    evals: list[tuple[list[float], str | None]] = []  # per position: the win probabilities, the move played
    for i, state in enumerate(states):
        if state.is_terminal():
            evals.append((list(state.returns()), None))
            continue
        seat = state.current_player()
        r = search(state.view(seat), Limits(iterations=options.iterations), Config(seed=options.seed + i))
        evals.append((list(r.win_probability), r.move))
    out = []
    for i, move in enumerate(record["actions"]):
        seat = states[i].current_player()
        drop = evals[i][0][seat] - evals[i + 1][0][seat]
        forced = len(states[i].view(seat).search_actions()) == 1
        mark = "" if forced or move == evals[i][1] else mark_of(drop, options)
        out.append((drop, mark, forced))
    return out


def new_drops(record: dict, options: Options) -> list[tuple[float, str, bool, float, int]]:
    """The new method, per decision: (drop, mark, forced, unclipped drop, forced visits)."""
    states = replay(record)
    out = []
    for i, move in enumerate(record["actions"]):
        v = judge(states[i], move, options, i)
        unclipped = 0.0 if v["move"] == v["best"] else v["best_value"] - v["value"]
        out.append((v["drop"], v["mark"], v["forced"], unclipped, v["extra_visits"]))
    return out


def spread(per_seed: list[list[tuple]], k: int = 0) -> tuple[float, float, float]:
    """(mean spread, median spread, share of decisions whose mark differs between seeds) over
    the decisions with a choice; ``k`` picks the figure whose spread is taken."""
    spreads, flips, n = [], 0, 0
    for rows in zip(*per_seed):
        if rows[0][2]:  # forced
            continue
        n += 1
        values = [r[k] for r in rows]
        spreads.append(max(values) - min(values))
        flips += len({r[1] for r in rows}) > 1
    return statistics.mean(spreads), statistics.median(spreads), flips / n


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _throughput(folder: str, options: Options, **how) -> tuple[float, float]:
    """(games per minute, CPU seconds per game) of a batch run over ``folder``."""
    cpu = _cpu_seconds()
    with tempfile.TemporaryDirectory() as out:
        outcome = batch.run([folder], out, options, **how)
    assert outcome.ok and not outcome.resumed
    games = len(outcome.analysed)
    return games / outcome.elapsed * 60, (_cpu_seconds() - cpu) / games


LEVELS = (1, 4, 7)
# game -> (players, line-ups, games per line-up): 3 players hold all three levels at once,
# Duel plays each pair; seats are rotated by the arena.
# game -> (players, the lineups of levels, games a lineup)
LEVEL_MATCHES: dict[str, tuple[int, list[tuple[int, ...]], int]] = {
    "base": (3, [LEVELS], 6), "marvel": (3, [LEVELS], 6), "duel": (2, [(1, 4), (1, 7), (4, 7)], 4)}


def lichess(drop: float) -> float:
    """Lichess's per-move accuracy (0..1) for a drop of win probability (0..1): the curve made
    for chess, shown beside ours to say why it was not taken."""
    return max(0.0, min(1.0, (103.1668 * math.exp(-0.04354 * drop * 100) - 3.1669) / 100))


def accuracy_by_level(game: str, options: Options, seed: int = 5) -> dict[int, list[dict]]:
    """Per level, one row per seat-game: the seat's summary with ``won`` and ``old`` (the
    share of its decisions with a drop below the mistake threshold: the accuracy before
    issue 50) and ``per_move`` (the mean of lichess's per-move accuracy) added."""
    players, lineups, games = LEVEL_MATCHES[game]
    rows: dict[int, list[dict]] = {level: [] for level in LEVELS}
    for lineup in lineups:
        arena = run_arena(game, players, [f"level:{n}" for n in lineup], games, seed=seed, processes=1,
                          progress=False)
        for record in arena.records:
            report = analyze(record, options)
            for s in report["summary"]:
                mine = [d for d in report["decisions"] if d["seat"] == s["seat"] and not d["forced"]]
                old = sum(d["drop"] < options.mistake for d in mine) / len(mine)
                per_move = statistics.mean(lichess(d["drop"]) for d in mine)
                level = int(record["seats"][s["seat"]].split(":")[1])
                rows[level].append({**s, "won": record["returns"][s["seat"]] > 0, "old": old, "per_move": per_move})
    return rows


def _levels_section(options: Options) -> str:
    from ..search.levels import LEVELS as LADDER

    lines = [
        "## Analysis: accuracy by level (games between levels 1, 4 and 7)",
        "",
        f"Command: `splendor-ai bench analysis --levels --iterations {options.iterations} --write` "
        f"({machine_line()}). Base and Marvel: {LEVEL_MATCHES['base'][2]} three-player games of levels "
        f"1, 4 and 7 (one seat each, seats rotated); Duel: {LEVEL_MATCHES['duel'][2]} games of each pair. "
        f"Every game analysed at {options.iterations} iterations per decision (seed 0). Accuracy: "
        "e^-(the seat's drops summed) (docs/analysis.md); old: the share of its decisions with a drop "
        "below 10 %, the measure before issue 50; per move: lichess's per-move accuracy curve, averaged over "
        "the seat's decisions. The engine judging: the default search (the game's shipped net). Mean, standard "
        "deviation and range over the seat-games.",
        "",
        "| game | level | evaluator | seat-games | won | accuracy: mean ± sd (min–max) | old accuracy: mean (min) "
        "| per move (lichess curve) | win probability given away per game | mean drop | as the engine would play |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    gaps = []
    for game in LEVEL_MATCHES:
        rows = accuracy_by_level(game, options)
        means = {}
        for level, seats in rows.items():
            acc = [r["accuracy"] for r in seats]
            means[level] = statistics.mean(acc)
            decisions = sum(r["decisions"] for r in seats)
            lines.append(
                f"| {game} | {level} | {'heuristic' if LADDER[level].evaluator == 'heuristic' else 'net'} "
                f"| {len(seats)} | "
                f"{sum(r['won'] for r in seats)} | {means[level]:.1%} ± {statistics.pstdev(acc):.1%} "
                f"({min(acc):.1%}–{max(acc):.1%}) | {statistics.mean(r['old'] for r in seats):.1%} "
                f"({min(r['old'] for r in seats):.1%}) | {statistics.mean(r['per_move'] for r in seats):.1%} | "
                f"{statistics.mean(r['given_away'] for r in seats):.2f} | "
                f"{sum(r['mean_drop'] * r['decisions'] for r in seats) / decisions:.2%} | "
                f"{sum(r['agreed'] for r in seats) / decisions:.0%} |")
        gaps.append(f"{game} {100 * (means[LEVELS[-1]] - means[LEVELS[0]]):+.1f} points")
    lines += ["", "Level 7 against level 1, mean accuracy: " + ", ".join(gaps) + "."]
    return "\n".join(lines)


COST_GAMES = (("base", 2), ("duel", 2), ("marvel", 2))


class _Timed:
    """A function that adds its CPU time to ``spent`` each time it is called (the analysis's
    hooks, wrapped in place for the cost figure)."""

    def __init__(self, fn, spent: list[float]) -> None:
        self.fn, self.spent = fn, spent

    def __call__(self, *args, **kwargs):
        t0 = time.process_time()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.spent[0] += time.process_time() - t0


def analysis_cost(game: str, players: int, games: int, options: Options, seed: int = 9) -> dict[str, float]:
    """CPU seconds of ``analyze`` on ``games`` games of levels 3 and 5: in all, in its searches,
    in its reasons, in its per-seat summary (the estimate included); and the decisions judged."""
    from .. import analysis as A

    arena = run_arena(game, players, ["level:3", "level:5"], games, seed=seed, processes=1, progress=False)
    searches, reasons, summary = [0.0], [0.0], [0.0]
    hooks = {"explain_move": reasons, "explain_mistake": reasons, "seat_summary": summary}
    saved = {name: getattr(A, name) for name in hooks}
    timed_run = _Timed(lambda search_: search_.run(), searches)
    total, decisions = 0.0, 0
    try:
        for name, spent in hooks.items():
            setattr(A, name, _Timed(saved[name], spent))
        for record in arena.records:
            t0 = time.process_time()
            report = A.analyze(record, options, run=timed_run)
            total += time.process_time() - t0
            decisions += len(report["decisions"])
    finally:
        for name, fn in saved.items():
            setattr(A, name, fn)
    return {"total": total, "searches": searches[0], "reasons": reasons[0], "summary": summary[0],
            "decisions": decisions}


def _cost_section(games: int, options: Options) -> str:
    lines = [
        "## Analysis: what the reasons and the level estimate cost",
        "",
        f"Command: `splendor-ai bench analysis --cost --games {games} --iterations {options.iterations} --write` "
        f"({machine_line()}). {games} games of each game between levels 3 and 5 (base and Marvel 2 players), "
        f"each analysed as AnalyzeGame does (`analysis.analyze`, {options.iterations} iterations a decision, one "
        "thread); CPU time of its searches, of the reasons of every verdict (`explain_move`, `explain_mistake`) "
        "and of the per-seat summary (accuracy and level estimate), the last two against the searches' "
        "(target: together at most 10 %).",
        "",
        "| game | decisions | analysis CPU | searches | reasons | against the searches | summary and estimate "
        "| against the searches |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game, players in COST_GAMES:
        c = analysis_cost(game, players, games, options)
        lines.append(f"| {game} | {c['decisions']} | {c['total']:.1f} s | {c['searches']:.1f} s | "
                     f"{c['reasons']:.2f} s | {c['reasons'] / c['searches']:.1%} | {c['summary'] * 1000:.1f} ms | "
                     f"{c['summary'] / c['searches']:.2%} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench analysis", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8, help="records for the throughput figures (default 8)")
    ap.add_argument("--iterations", type=int, default=1000, help="search budget per decision (default 1000)")
    ap.add_argument("--no-ray", action="store_true", help="leave out the Ray figure")
    ap.add_argument("--levels", action="store_true",
                    help="instead: accuracy by level, games between levels 1, 4 and 7 (section 'analysis-levels')")
    ap.add_argument("--cost", action="store_true",
                    help="instead: what the reasons and the estimate add to an analysis (section 'analysis-cost')")
    ap.add_argument("--write", action="store_true", help="write the 'analysis' section of BENCHMARKS.md")
    ap.add_argument("--out", default="BENCHMARKS.md", help="the file --write writes to")
    args = ap.parse_args(argv)
    if args.games < 2 or args.iterations < 10:
        ap.error("--games must be at least 2 and --iterations at least 10")
    options = Options(iterations=args.iterations)
    if args.cost:
        body = _cost_section(args.games if args.games != 8 else 4, options)
        print(body)
        if args.write:
            write_section(args.out, "analysis-cost", body)
        return 0
    if args.levels:
        body = _levels_section(options)
        print(body)
        if args.write:
            write_section(args.out, "analysis-levels", body)
        return 0
    arena = run_arena("base", 2, ["greedy", "level:1"], args.games, seed=3, processes=1, progress=False)
    lines = [
        "## Analysis: games per minute, verdict noise (base, 2 players)",
        "",
        f"Command: `splendor-ai bench analysis --games {args.games} --iterations {args.iterations} --write` "
        f"({machine_line()}). Records: greedy against level 1, arena seed 3; {args.iterations} iterations per "
        f"decision, the played move's visits forced up to a quarter of that. The machine is shared (load "
        f"average {os.getloadavg()[0]:.1f} at the start): read the ratios and the CPU seconds per game beside "
        f"the games per minute.",
        "",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for i, record in enumerate(arena.records):
            save(record, Path(folder) / f"game-{i:03d}.json")
        decisions = sum(len(r["actions"]) for r in arena.records)
        one, one_cpu = _throughput(folder, options, workers=1)
        two, two_cpu = _throughput(folder, options, workers=2)
        rows = [("1 local worker", one, "1.00x", f"{one_cpu:.2f}"),
                ("2 local workers", two, f"{two / one:.2f}x", f"{two_cpu:.2f}")]
        ray = None if args.no_ray else batch.import_ray()
        if ray is None:
            ray_note = "Ray: not measured (" + ("--no-ray" if args.no_ray else
                                               "ray is not installed; `pip install '.[ray]'`") + ")."
        else:
            t0 = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
            start = time.perf_counter() - t0
            try:
                on_ray, _ = _throughput(folder, options, ray_address="auto")
            finally:
                ray.shutdown()
            rows.append(("local Ray instance, 2 CPUs", on_ray, f"{on_ray / one:.2f}x", "–"))
            ray_note = (f"Ray against the plain local run on 2 workers: {on_ray / two:.2f}x; starting the local "
                        f"instance took {start:.1f} s more (not counted above).")
        lines += [f"{args.games} games, {decisions} decisions in all.", "",
                  "| run | games/min | against 1 worker | CPU seconds per game |", "|---|---|---|---|"]
        lines += [f"| {name} | {rate:.1f} | {ratio} | {cpu} |" for name, rate, ratio, cpu in rows]
        lines += ["", ray_note, ""]

    record = arena.records[0]
    olds = [old_drops(record, Options(iterations=args.iterations, seed=s)) for s in SEEDS]
    news = [new_drops(record, Options(iterations=args.iterations, seed=s)) for s in SEEDS]
    doubled = [new_drops(record, Options(iterations=2 * args.iterations, seed=s)) for s in SEEDS]
    reference = new_drops(record, Options(iterations=REFERENCE * args.iterations, seed=REFERENCE_SEED))
    old_mean, old_median, old_flips = spread(olds)
    new_mean, new_median, new_flips = spread(news)
    raw_mean, raw_median, _ = spread(news, k=3)
    extra = statistics.mean(r[4] for rows in news for r in rows) / args.iterations
    choices = sum(not r[2] for r in news[0])
    own = [old[0] for old, ref in zip(olds[0], reference) if not ref[2] and ref[3] == 0.0]
    lines += [
        f"Verdict noise: game 0 ({len(record['actions'])} decisions, {choices} with a choice) analysed with seeds "
        f"{', '.join(map(str, SEEDS))}. Spread: per decision, max - min of its drop over the 3 seeds. Error: "
        f"the root mean square distance of a drop from the reference, the new method at {REFERENCE}x the budget "
        f"(seed {REFERENCE_SEED}): the mover's loss in what it knew, which the verdict is meant to measure.",
        "",
        "| method | mean spread | median spread | marks that differ between seeds | error against the reference |",
        "|---|---|---|---|---|",
        f"| old: two independent searches (before, after) | {old_mean:.1%} | {old_median:.1%} | {old_flips:.0%} "
        f"| {rms(olds, reference):.1%} |",
        f"| new: one search, the played move's visits forced | {new_mean:.1%} | {new_median:.1%} | {new_flips:.0%} "
        f"| {rms(news, reference):.1%} |",
        f"| new, the drop before it is clipped at 0 | {raw_mean:.1%} | {raw_median:.1%} | | |",
        "| new, twice the iterations ({}) | {:.1%} | {:.1%} | {:.0%} | {:.1%} |".format(
            2 * args.iterations, *spread(doubled), rms(doubled, reference)),
        "",
        f"Seed spread, new / old: {new_mean / old_mean:.2f}x; error against the reference, new / old: "
        f"{rms(news, reference) / rms(olds, reference):.2f}x. " + (
            f"The old method's drop of a move the reference search itself plays ({len(own)} decisions; it "
            f"should be 0): mean {statistics.mean(own):+.1%}, from {min(own):+.1%} to {max(own):+.1%} — the next "
            f"position is another seat's view after a card was drawn, the same for every seed, so the seed "
            f"spread does not show it. " if own else "") +
        f"The forced visits cost {extra:.1%} of "
        f"the budget per decision on average.",
    ]
    body = "\n".join(lines)
    print(body)
    if args.write:
        write_section(args.out, "analysis", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
