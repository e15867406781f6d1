"""Ship a trained net: copy a run's best net into the package with its search settings.

    python -m splendor_ai.train.ship RUN_DIR [--search net_rollout_depth=10,net_rollout_weight=0.5]
        [--search-for 3:c_puct=0.5] [--measured "76.7% of 30 games vs heuristic at 0.1 s"] [--players 2]

The net goes to splendor_ai/nets/<game>.splnn (the default of the search where it covers the
player count); the settings go into its header's info.search, which the search uses for any
setting a Config leaves unset; --search-for N:SETTINGS (repeatable) goes into
info.search_by_players, which takes their place at N players. The run's history table and settings are copied to
training/history/<stem>.md and <stem>.state.json (the provenance of the shipped net; checkpoints
stay out of the repository: a later run starts from the shipped net with --init-net). With
--players N the net covers N players only and goes to nets/<game>-<N>p.splnn:
the search prefers it to the game's net at N players, for a net that plays one player count
better than the game's net but not the others.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from .. import nn
from ..nn.weights import parse_settings

ROOT = Path(__file__).resolve().parents[2]


def _settings(text: str, flag: str) -> dict:
    try:
        return parse_settings(text, flag)
    except nn.WeightsError as exc:
        raise SystemExit(str(exc)) from None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m splendor_ai.train.ship", description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a training run's folder (splendor-ai train --out)")
    ap.add_argument("--search", default="", help="recommended search settings, k=v,...")
    ap.add_argument("--search-for", action="append", default=[], metavar="N:SETTINGS",
                    help="recommended search settings at N players alone, N:k=v,... (repeatable)")
    ap.add_argument("--measured", default="", help="the measurement behind shipping it (kept in the header)")
    ap.add_argument("--net", default=None, help="ship this weights file instead of the run's best net")
    ap.add_argument("--made", default="", help="with --net: how that net was made (kept in the header)")
    ap.add_argument("--players", type=int, default=None,
                    help="ship it for this player count only, as nets/<game>-<N>p.splnn")
    args = ap.parse_args(argv)
    run = Path(args.run)
    state = json.loads((run / "state.json").read_text())
    if args.net is None and state.get("best") is None:
        raise SystemExit(f"{run}: no generation has passed its gate yet (or give --net)")
    netfile = nn.read(args.net or run / "best.splnn")
    search = _settings(args.search, "--search")
    by_players = {}
    for item in args.search_for:
        n, sep, text = item.partition(":")
        counts = [args.players] if args.players is not None else netfile.players
        if not sep or not n.isdigit() or int(n) not in counts:
            raise SystemExit(f"--search-for {item!r}: give N:k=v,... with N one of the net's player counts "
                             f"{counts}")
        by_players[n] = _settings(text, f"--search-for {n}")
    netfile.info = {k: v for k, v in netfile.info.items() if k != "search_by_players"}
    netfile.info = {**netfile.info, "search": search, "measured": args.measured,
                    **({"search_by_players": by_players} if by_players else {}),
                    "run_generation": state["best"] if args.net is None else None,
                    **({"made": args.made} if args.made else {})}
    stem = netfile.game
    if args.players is not None:
        if args.players not in netfile.players:
            raise SystemExit(f"--players {args.players}: the net covers {netfile.players} players")
        netfile.players = [args.players]
        stem = f"{netfile.game}-{args.players}p"
    nn.load(netfile, netfile.game)  # it must load
    dest = ROOT / "splendor_ai" / "nets" / f"{stem}.splnn"
    dest.parent.mkdir(parents=True, exist_ok=True)
    nn.save(dest, netfile)
    keep = ROOT / "training" / "history"
    keep.mkdir(parents=True, exist_ok=True)
    for name, kept in (("history.md", f"{stem}.md"), ("state.json", f"{stem}.state.json")):
        if (run / name).exists():
            shutil.copyfile(run / name, keep / kept)
    print(f"shipped {args.net or 'generation %s of %s' % (state['best'], run)} as {dest.relative_to(ROOT)}; "
          f"its history in {(keep / f'{stem}.md').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
