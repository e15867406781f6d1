"""Where more search stops buying strength: each budget's choices against a long reference search.

    splendor-ai bench scaling [--game base] [--positions 40] [--budgets 1000,5000,20000,20000x4]
                              [--reference 160000] [--seed 5] [--write [FILE]]

From ``--positions`` positions of level-5 self-play games (the mover's view, the main decision
of a turn, with a choice), the net search (the game's shipped net, one thread) at each budget
is compared with a reference search of ``--reference`` iterations from the same view:

- **agrees**: the share of positions where it plays the reference's move;
- **regret**: the reference's value of its own move less its value of the budget's move (win
  probability, mean over positions): what the reference thinks the budget's choice gives away;
- a budget ``NxT`` is ``N`` iterations split over ``T`` trees of root parallelism (``threads=T``;
  their root statistics summed): the same count, its choice averaged over T sets of deals;
- **the reference against itself**: a second reference search with another seed. Its
  agreement and regret are the ceiling of what more search of this kind can show: where two
  long searches of the same view disagree, the deals they sampled for the hidden cards
  decided, not the depth.

A budget whose regret is near the reference's own gives away no more than a different seed
of the long search would: more iterations of that search cannot buy much. Seeded: the same
command gives the same table. ``--write`` puts it in the "scaling-GAME" section of BENCHMARKS.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from .levels import positions as selfplay_positions
from .report import add_write_option, machine_line, report, shipped_net_named
from ..search.mcts import Config, Limits, search


def sample(game: str, n: int, seed: int) -> list:
    """``n`` main decisions with a choice, each the mover's view, from level-5 self-play games."""
    out: list = []
    deal = seed
    while len(out) < n:
        for s in selfplay_positions(game, 12, seed=deal):
            if s.phase() == "main" and len(s.search_actions()) > 1 and len(out) < n:
                out.append(s.view(s.current_player()))
        deal += 1
    return out


def parse_budget(text: str) -> tuple[int, int]:
    """``"20000"`` -> (20000, 1); ``"20000x4"`` -> (20000, 4): iterations, trees."""
    its, _, trees = text.strip().lower().partition("x")
    return int(its), int(trees or 1)


def compare(views, budgets: list[str], reference: int) -> tuple[dict, dict]:
    """Per budget (and "reference" for the second long search): agreements, regrets, and the
    reference's median gap between its two best moves and its best move's prior."""
    rows: dict[str, dict[str, Any]] = {b: {"agree": 0, "regret": []} for b in [*budgets, "reference"]}
    gaps, priors = [], []
    for i, view in enumerate(views):
        ref = search(view, Limits(iterations=reference), Config(seed=1_000 + i, evaluator="net"))
        value = {a.action: a.value for a in ref.actions}
        if len(ref.actions) > 1:
            gaps.append(ref.actions[0].value - ref.actions[1].value)
        priors.append(ref.actions[0].prior)
        for b in rows:
            (it, trees), seed = ((reference, 1), 5_000 + i) if b == "reference" else (parse_budget(b), i)
            got = search(view, Limits(iterations=it), Config(seed=seed, evaluator="net", threads=trees))
            rows[b]["agree"] += got.action == ref.action
            # a move the reference never tried counts at its lowest value among those it did
            rows[b]["regret"].append(value[ref.action] - value.get(got.action, min(value.values())))
    return rows, {"gap": statistics.median(gaps) if gaps else 0.0, "prior": statistics.median(priors)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="splendor-ai bench scaling", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("base", "duel", "marvel"), default="base")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budgets", default="1000,5000,20000,20000x4",
                    help="iterations per decision, comma-separated; NxT: N iterations over T trees")
    ap.add_argument("--reference", type=int, default=160_000, help="iterations of the reference search")
    ap.add_argument("--seed", type=int, default=5, help="the first self-play deal the positions come from")
    add_write_option(ap)
    args = ap.parse_args(argv)
    try:
        budgets = [b.strip() for b in args.budgets.split(",")]
        parsed = [parse_budget(b) for b in budgets]
    except ValueError:
        ap.error(f"--budgets must be iterations (N, or NxT for T trees) separated by commas, got {args.budgets!r}")
    if args.positions < 1 or args.reference < 2 or any(not (1 <= n < args.reference and 1 <= t <= 64 and t <= n)
                                                        for n, t in parsed):
        ap.error("--positions must be at least 1, every budget at least 1 and below --reference, "
                 "with 1 to 64 trees and no more trees than iterations")
    t0 = time.perf_counter()
    views = sample(args.game, args.positions, args.seed)
    rows, ref = compare(views, budgets, args.reference)
    seconds = time.perf_counter() - t0
    n = len(views)

    def label(b):
        its, trees = parse_budget(b)
        return f"{its:,} iterations" + (f" over {trees} trees" if trees > 1 else "")

    def row(name, r):
        regret = r["regret"]
        return (f"| {name} | {r['agree'] / n:.0%} ({r['agree']} of {n}) | {100 * statistics.mean(regret):.2f}% "
                f"| {100 * max(regret):.2f}% |")

    cmd = "splendor-ai bench scaling" + (f" --game {args.game}" if args.game != "base" else "") + \
        (f" --positions {args.positions}" if args.positions != 40 else "") + \
        (f" --budgets {args.budgets}" if args.budgets != "1000,5000,20000,20000x4" else "") + \
        (f" --reference {args.reference}" if args.reference != 160_000 else "") + \
        (f" --seed {args.seed}" if args.seed != 5 else "")
    body = "\n".join([
        f"## Search: what more iterations change ({args.game}, 2 players, the net search)",
        "",
        f"Command: `{cmd}` ({machine_line()}; {seconds:,.0f} s). Net: {shipped_net_named(args.game, 2)}. "
        f"{n} main decisions of level-5 self-play games, "
        f"each from the mover's view, searched by the net search (one thread) at each budget and by a reference "
        f"search of {args.reference:,} iterations (N over T trees: root parallelism, the iterations split). "
        "Agrees: plays the reference's move. Regret: the reference's "
        "value (win probability) of its own move less its value of the budget's move. The last row is a second "
        "reference search with another seed: the most a longer search of this kind can agree with itself.",
        "",
        "| search | agrees with the reference | regret, mean | regret, worst |",
        "|---|---|---|---|",
        *[row(label(b), rows[b]) for b in budgets],
        row(f"{args.reference:,} iterations, another seed", rows["reference"]),
        "",
        f"The reference's median gap between its two best moves: {100 * ref['gap']:.2f}% win probability; "
        f"the median prior of its move: {ref['prior']:.2f}.",
    ])
    report(args, f"scaling-{args.game}", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
