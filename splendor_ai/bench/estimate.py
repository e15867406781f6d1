"""The estimated level of a seat (splendor_ai/analysis/estimate.py): its calibration and its evaluation.

    splendor-ai bench estimate --calibrate --records DIR [--processes 2] [--fit FILE]
    splendor-ai bench estimate --records DIR [--processes 2] [--write [FILE]]

``--calibrate`` plays games between difficulty levels in every game and player count, keeps
every record under ``--records DIR`` (so that a stopped run resumes: the games and the
analyses already there are read back), analyses them at the calibration's budget (2,000
iterations a decision, the analysis's default) and writes the fit, ``levels.json`` (the
package's copy by default). Without it, the bench evaluates the shipped fit on other games of
the same matches (the games after the calibration's, other deals and other seeds, never seen by
the fit): per game and player count, the mean absolute error of the estimated level, the
share of seats whose 80 % interval holds their true level, and the same by level.

The matches: 2 players, the difficulty ladder's own (``splendor-ai bench levels``): level N
against level N-1 for N = 2..10, arena seed 100 + N, in a folder ``GAME-LN-vs-LN-1``, so the
ladder's archived records (``--records`` of that bench) can be copied into DIR and are read
back. 3 and 4 players: levels 1-9 (level 10 left out: its 200,000 iterations a decision would
cost more than the rest of the calibration together), nine line-ups in a cycle, line-up i
holding levels i + d (mod 9) for d in OFFSETS[players], so each level meets opponents below
and above it at several distances; arena seed 1000 * players + i, folder
``GAME-Pp-LA-LB-...``. Seats are rotated by the arena.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .report import add_write_option, machine_line, report

CONFIGS = (("base", 2), ("base", 3), ("base", 4), ("duel", 2), ("marvel", 2), ("marvel", 3), ("marvel", 4))
# players -> (games a match for the calibration, games after them for the evaluation)
GAMES = {2: (40, 40), 3: (9, 6), 4: (8, 4)}
OFFSETS = {3: (0, 1, 3), 4: (0, 1, 3, 5)}  # 3-4 players: line-up i holds levels 1 + (i + d) % 9
MULTI_LEVELS = 9  # 3-4 players: levels 1..9
ITERATIONS = 2000  # the analysis budget the fit is measured at (analysis.Options' default)


@dataclass(frozen=True)
class Match:
    name: str  # its folder under --records
    game: str
    players: int
    levels: tuple[int, ...]  # the bots, in the arena's order (it rotates the seats)
    seed: int  # the arena's seed

    @property
    def bots(self) -> list[str]:
        return [f"level:{n}" for n in self.levels]

    def command(self, games: int) -> str:
        """The ``splendor-ai selfplay`` line that plays the same games."""
        bots = " ".join(f"--bot {b}" for b in self.bots)
        return (f"splendor-ai selfplay --game {self.game} --players {self.players} {bots} --games {games} "
                f"--seed {self.seed} --records DIR/{self.name}")


def matches(game: str, players: int) -> list[Match]:
    if players == 2:
        return [Match(f"{game}-L{n}-vs-L{n - 1}", game, 2, (n, n - 1), 100 + n) for n in range(2, 11)]
    out = []
    for i in range(MULTI_LEVELS):
        levels = tuple(1 + (i + d) % MULTI_LEVELS for d in OFFSETS[players])
        out.append(Match(f"{game}-{players}p-" + "-".join(f"L{n}" for n in levels), game, players, levels,
                         1000 * players + i))
    return out


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (arena and analysis workers)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def play(match: Match, games: int, records: Path, processes: int) -> tuple[list[Path], list[dict]]:
    """The match's first ``games`` games, played or read back from ``records/NAME``: their files
    and their records."""
    from ..search.arena import run_arena

    folder = records / match.name
    result = run_arena(match.game, match.players, match.bots, games, seed=match.seed, processes=processes,
                       progress=False, record_dir=str(folder), resume=True)
    return [folder / f"game-{i:05d}.json" for i in range(games)], result.records


def analysed(match: Match, paths: list[Path], records: Path, iterations: int, workers: int) -> list[dict]:
    """The analysis reports of ``paths`` (made, or read back from ``records/analysis-ITERATIONS/NAME``)."""
    from ..analysis import Options, batch

    out = records / f"analysis-{iterations}" / match.name
    outcome = batch.run([str(p) for p in paths], out, Options(iterations=iterations), workers=workers)
    if not outcome.ok:
        raise SystemExit(f"splendor-ai bench estimate: {match.name}: records that did not analyse: {outcome.failed}")
    return [json.loads((out / f"{p.stem}.json").read_text()) for p in paths]


def seat_games(reports: list[dict]) -> list[dict]:
    """One row per seat of each report: its level (from the record's seat ``level:N``) and its decisions."""
    rows = []
    for rep in reports:
        for seat, spec in enumerate(rep["seats"]):
            rows.append({"level": int(spec.split(":")[1]), "record": rep["path"], "seat": seat,
                         "result": rep["returns"][seat] if rep["returns"] else None,
                         "decisions": [d for d in rep["decisions"] if d["seat"] == seat]})
    return rows


def collect(game: str, players: int, part: str, records: Path, processes: int, iterations: int = ITERATIONS,
            log=print) -> tuple[list[dict], dict]:
    """The seat-games of ``part`` ("calibration" or "evaluation") of a game and player count,
    and what was used (matches, games, commands)."""
    n_cal, n_eval = GAMES[players]
    first, games = (0, n_cal) if part == "calibration" else (n_cal, n_cal + n_eval)
    rows, used, evaluators = [], [], set()
    for match in matches(game, players):
        t0, c0 = time.perf_counter(), cpu_seconds()
        paths, records_played = play(match, games, records, processes)
        for rec in records_played[first:]:
            evaluators |= {(e["kind"], e["net"], e["checksum"]) for e in rec.get("evaluators") or [] if e}
        rows += seat_games(analysed(match, paths[first:], records, iterations, processes))
        used.append({"match": match.name, "levels": list(match.levels), "arena_seed": match.seed,
                     "games": [first, games], "command": match.command(games)})
        log(f"  {match.name}: games {first}-{games - 1} ({time.perf_counter() - t0:.0f} s, "
            f"{cpu_seconds() - c0:.0f} CPU s)")
    levels_nets = [{"kind": k, "net": n, "checksum": c} for k, n, c in sorted(evaluators)]
    return rows, {"matches": used, "levels_evaluated_with": levels_nets}


# ------------------------------------------------------------------------------ the ladder's Elo
# BENCHMARKS.md, sections levels-base, levels-duel and levels-marvel (2 players; level 1 = 0):
# the Elo column, copied here and into the fit (3 and 4 players: the same game's, no ladder of
# their own is measured).
LADDER_ELO = {
    "base": (0, 759, 1118, 1373, 1862, 1980, 2154, 2311, 2333, 2403),
    "duel": (0, 301, 660, 1419, 1856, 2058, 2299, 2479, 2567, 2647),
    "marvel": (0, 512, 766, 1021, 1380, 1527, 1718, 1779, 1859, 1911),
}
LADDER_SOURCE = ("BENCHMARKS.md, levels-base (2026-11-29), levels-duel (2026-11-30), levels-marvel "
                 "(2026-11-29): the 2-player ladders, level 1 = 0; 3 and 4 players take the same game's "
                 "2-player ladder, none of their own being measured")
DROPS = [-0.005, 0.005, 0.01, 0.02, 0.04, 0.07, 0.12, 0.25]  # the signed drops' bin edges (estimate.cell_of)


def config_name(game: str, players: int) -> str:
    return f"{game}-{players}p"


def parse_configs(text: str | None) -> list[tuple[str, int]]:
    if not text:
        return list(CONFIGS)
    out = []
    for part in text.split(","):
        game, _, players = part.strip().partition("-")
        config = (game, int(players.rstrip("p") or 0)) if players.rstrip("p").isdigit() else None
        if config not in CONFIGS:
            raise SystemExit(f"splendor-ai bench estimate: --configs: {part!r} is not one of "
                             + ", ".join(config_name(*c) for c in CONFIGS))
        out.append(config)
    return out


# ------------------------------------------------------------------------------ --calibrate
def calibrate(args, log=print) -> dict:
    """Plays and analyses the calibration games of every configuration asked for and writes the fit."""
    from ..analysis import Options
    from ..analysis import estimate as E
    from ..search.mcts import Config, evaluator_info

    records = Path(args.records)
    path = Path(args.fit)
    try:
        old = json.loads(path.read_text())
        fits = {(f["game"], f["players"]): f for f in old.get("fits", [])}
        if old.get("drops") != DROPS or old.get("iterations") != args.iterations:
            fits = {}  # another model or budget: nothing of the old file is kept
    except (OSError, ValueError):
        fits = {}
    total_cpu = 0.0
    for game, players in parse_configs(args.configs):
        log(f"{config_name(game, players)}: calibration games")
        t0, c0 = time.perf_counter(), cpu_seconds()
        rows, used = collect(game, players, "calibration", records, args.processes, args.iterations, log)
        counts: dict[int, list[list[int]]] = {}
        for r in rows:
            counts.setdefault(r["level"], []).append(E.cell_counts(r["decisions"], DROPS))
        elo = {n: float(LADDER_ELO[game][n - 1]) for n in counts}
        entry = E.make_entry(game, players, counts, elo, DROPS, args.iterations)
        judge = evaluator_info(Config(), game, players)
        cpu = cpu_seconds() - c0
        total_cpu += cpu
        entry.update({
            "date": datetime.date.today().isoformat(),
            "net": {"kind": judge.kind, "net": judge.net, "checksum": judge.checksum},
            "games": sum(len(range(*m["games"])) for m in used["matches"]),
            **used,
        })
        fits[(game, players)] = entry
        log(f"{config_name(game, players)}: {entry['games']} games, temper {entry['temper']} "
            f"({time.perf_counter() - t0:.0f} s, {cpu:.0f} CPU s)")
    data = {
        "format": E.FORMAT,
        "version": 1,
        "date": datetime.date.today().isoformat(),
        "command": "splendor-ai bench estimate --calibrate --records DIR"
                   + (f" --iterations {args.iterations}" if args.iterations != ITERATIONS else ""),
        "iterations": args.iterations,
        "analysis": Options(iterations=args.iterations).to_dict(),
        "drops": DROPS,
        "credible": E.CREDIBLE,
        "temper_coverage": E.TEMPER_COVERAGE,
        "beyond": E.BEYOND,
        "elo_source": LADDER_SOURCE,
        "design": {"games_per_match": {str(p): {"calibration": c, "evaluation": e} for p, (c, e) in GAMES.items()},
                   "offsets": {str(p): list(o) for p, o in OFFSETS.items()},
                   "levels_3_4_players": list(range(1, MULTI_LEVELS + 1))},
        "fits": [fits[c] for c in CONFIGS if c in fits],
    }
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)
    log(f"wrote {path} ({len(data['fits'])} fits; {total_cpu:.0f} CPU s in this run)")
    return data


# ------------------------------------------------------------------------------ evaluation
def held_out(fit_entry: dict, used: dict) -> None:
    """SystemExit unless no evaluation game is one the fit used (same match, same game index)."""
    seen = {(m["match"], i) for m in fit_entry.get("matches", []) for i in range(*m["games"])}
    clash = [(m["match"], i) for m in used["matches"] for i in range(*m["games"]) if (m["match"], i) in seen]
    if clash:
        raise SystemExit(f"splendor-ai bench estimate: {len(clash)} evaluation games were used by the fit, "
                         f"e.g. {clash[0]}")


def score(rows: list[dict], game: str, players: int, iterations: int, fit_path: str | None) -> list[dict]:
    """Each seat-game's estimate beside its true level."""
    from ..analysis import estimate as E

    out = []
    for r in rows:
        est = E.estimate(r["decisions"], game, players, iterations, fit_path)
        if est is not None:
            out.append({**est, "true": r["level"]})
    return out


def metrics(scored: list[dict]) -> dict:
    n = len(scored)
    return {
        "seats": n,
        "mae": statistics.mean(abs(s["level"] - s["est"]) for s in scored),
        "bias": statistics.mean(s["est"] - s["level"] for s in scored),
        "coverage": sum(s["low"] <= s["level"] <= s["high"] for s in scored) / n,
        "width": statistics.mean(s["high"] - s["low"] for s in scored),
        "decisions": statistics.mean(s["decisions"] for s in scored),
        "elo_mae": statistics.mean(abs(s["elo"] - s["true_elo"]) for s in scored),
    }


def evaluate(args, log=print) -> str:
    from ..analysis import estimate as E

    records = Path(args.records)
    fit_path = str(Path(args.fit).resolve())
    E.load.cache_clear()
    E.fit_for.cache_clear()
    data = E.load(fit_path)
    t0, c0 = time.perf_counter(), cpu_seconds()
    table, by_level = [], []
    for game, players in parse_configs(args.configs):
        fit = E.fit_for(game, players, fit_path)
        if fit is None:
            log(f"{config_name(game, players)}: no fit in {args.fit}, left out")
            continue
        entry = next(f for f in data["fits"] if (f["game"], f["players"]) == (game, players))
        log(f"{config_name(game, players)}: evaluation games")
        rows, used = collect(game, players, "evaluation", records, args.processes, data["iterations"], log)
        held_out(entry, used)
        scored = []
        for r in score(rows, game, players, data["iterations"], fit_path):
            scored.append({"level": r["true"], "est": r["level"], "low": r["level_low"], "high": r["level_high"],
                           "decisions": r["decisions"], "elo": r["elo"], "true_elo": fit.elo_at(r["true"])})
        m = metrics(scored)
        first, last = used["matches"][0]["games"]
        table.append(f"| {game} | {players} | {fit.levels[0]}-{fit.levels[-1]} | {len(used['matches'])} × games "
                     f"{first}-{last - 1} | {m['seats']} | {m['decisions']:.0f} | **{m['mae']:.2f}** "
                     f"| {m['bias']:+.2f} "
                     f"| **{m['coverage']:.0%}** | {m['width']:.1f} | {m['elo_mae']:.0f} | {fit.temper:g} |")
        cells = []
        for n in fit.levels:
            mine = [s for s in scored if s["level"] == n]
            if mine:
                lm = metrics(mine)
                cells.append(f"{statistics.mean(s['est'] for s in mine):.1f} ({lm['mae']:.1f}, {lm['coverage']:.0%})")
            else:
                cells.append("–")
        cells += ["–"] * (10 - len(cells))
        by_level.append(f"| {game} | {players} | " + " | ".join(cells) + " |")
        log(table[-1])
    cpu = cpu_seconds() - c0
    cmd = "splendor-ai bench estimate --records DIR" + (f" --configs {args.configs}" if args.configs else "")
    return "\n".join([
        "## Analysis: the estimated level, on games the fit did not see",
        "",
        f"Command: `{cmd}` ({machine_line()}; {time.perf_counter() - t0:.0f} s, {cpu:.0f} CPU s, the games "
        f"and analyses already under DIR read back). The fit: `splendor_ai/analysis/levels.json` "
        f"({data['date']}, `{data['command']}`), analysis at {data['iterations']} iterations a decision. "
        "Evaluated on the games after the calibration's in each match (other deals, other seeds: the arena "
        "seeds deal i with seed × 1,000,003 + i and each bot from that), every seat with a decision with a "
        "choice. Error: |estimated level − true level| (the estimate: the posterior's median); covered: the "
        "seat's level inside its 80 % interval; width: the interval's length in levels; Elo error: against "
        "the ladder's Elo of the true level. Targets: error ≤ 1 level, coverage ≥ 80 %.",
        "",
        "| game | players | levels | games | seats | decisions a seat | mean error (levels) | bias "
        "| coverage | interval width | Elo error | temper |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *table,
        "",
        "By true level: the mean estimate (its mean error, coverage).",
        "",
        "| game | players | " + " | ".join(f"level {n}" for n in range(1, 11)) + " |",
        "|---|---|" + "---|" * 10,
        *by_level,
    ])


def main(argv=None) -> int:
    from ..analysis.estimate import FIT_FILE

    ap = argparse.ArgumentParser(prog="splendor-ai bench estimate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--calibrate", action="store_true",
                    help="play and analyse the calibration games and write the fit (--fit)")
    ap.add_argument("--records", metavar="DIR", required=True,
                    help="the games and their analyses: kept there, read back on the next run")
    ap.add_argument("--configs", default=None,
                    help="only these, comma-separated (base-2p,base-3p,...; default: all "
                         + ", ".join(config_name(*c) for c in CONFIGS) + ")")
    ap.add_argument("--fit", default=str(FIT_FILE), help="the fit file written (--calibrate) or evaluated "
                                                          "(default: the package's levels.json)")
    ap.add_argument("--iterations", type=int, default=ITERATIONS,
                    help=f"--calibrate: the analysis budget of the fit (default {ITERATIONS}, the analysis's default)")
    ap.add_argument("--processes", type=int, default=None,
                    help="games played and analysed at once (default: one per core)")
    add_write_option(ap)
    args = ap.parse_args(argv)
    args.processes = args.processes or os.cpu_count() or 1
    if args.processes < 1 or args.iterations < 10:
        ap.error("--processes must be at least 1 and --iterations at least 10")
    parse_configs(args.configs)
    if args.calibrate:
        if args.write:
            ap.error("--write is for the evaluation (run it without --calibrate)")
        calibrate(args, log=lambda m: print(m, flush=True))
        return 0
    body = evaluate(args, log=lambda m: print(m, flush=True))
    report(args, "analysis-estimate", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
