"""The benchmarks: one module per subject, behind ``splendor-ai bench WHICH [options]``.

Each module has ``main(argv) -> int``: it prints its figures and, with ``--write``, writes its
section of BENCHMARKS.md (``report.py``) with the command line that made them. Nothing in the
product imports this package: measuring code lives here, beside the code it measures only by
import. These are the benchmarks a user can run on an installed server; the developer's tools
(the deployment and attack benchmarks, the repository and page timings, test certificates)
are scripts/ in the source tree, which the wheel does not carry.
"""
from __future__ import annotations

import importlib
import sys

# name -> (module under splendor_ai.bench, what it measures)
BENCHES = {
    "core": ("core", "the rules cores: random playouts, actions/s, core vs reference"),
    "search": ("search", "the search: iterations/s, threads, memory, cancellation"),
    "strength": ("strength", "the search's strength: arena matches against baselines"),
    "levels": ("levels", "the difficulty ladder: each level against the one below"),
    "service": ("service", "the gRPC service: latency beyond the search, throughput"),
    "turns": ("turns", "decisions per turn: the time share of each phase of a turn"),
    "thrown": ("thrown", "thrown wins: proven wins played at every level and budget, on last turns"),
    "learned": ("learned", "the learned evaluation: its speed, its strength"),
    "gate": ("gate", "the ship gate: a candidate net against a pool at equal time, paired deals"),
    "scaling": ("scaling", "what more search changes: each budget's moves against a long reference search"),
    "analysis": ("analysis", "splendor-ai analyze: games per minute, verdict noise"),
    "reasons": ("reasons", "reasons: codes fired, every one verified, reasons that explain, a hint's cost"),
    "estimate": ("estimate", "the estimated level of a seat: its calibration (--calibrate), its error and coverage"),
    "web": ("web", "GetMove over the browser protocol (Connect, JSON) against gRPC"),
}


def usage() -> str:
    lines = "\n".join(f"  {name:9s} {what}" for name, (_, what) in BENCHES.items())
    return f"usage: splendor-ai bench {{{','.join(BENCHES)}}} [options]   (-h after one for its options)\n{lines}"


def main(argv: list[str]) -> int:
    """``splendor-ai bench WHICH [options]``: run one benchmark (``-h`` lists them)."""
    if not argv or argv[0] not in BENCHES:
        if argv and argv[0] in ("-h", "--help"):
            print(usage())
            return 0
        print(usage(), file=sys.stderr)
        if argv:
            print(f"splendor-ai bench: unknown benchmark {argv[0]!r}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"{__name__}.{BENCHES[argv[0]][0]}")
    return module.main(argv[1:])
