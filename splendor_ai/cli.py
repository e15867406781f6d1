"""The command line: ``splendor-ai <command>``.

Commands: ``serve`` (the gRPC service), ``health`` (its health check), ``play`` (a person against
the AI in the terminal), ``analyze`` (a recorded game, turn by turn), ``demo`` (a game played move by move),
``selfplay`` (the arena), ``train`` (the learned evaluation), ``bench`` (the benchmarks).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from .games import GAMES, SplendorError, load_game


def _demo(args) -> int:
    game = load_game(args.game, args.players)
    state = game.new_initial_state(args.seed)
    rng = random.Random(args.seed)
    print(state, "\n")
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = rng.choice(state.search_actions())
        print(f"turn {state.to_position()['turn']:3d}  seat {seat}: {state.action_to_string(action)}")
        state.apply_action(action)
        moves += 1
    print("\n" + str(state))
    returns = state.returns()
    winners = [i for i, r in enumerate(returns) if r > 0]
    print(f"\n{moves} actions; winner(s): seat {', '.join(map(str, winners))}")
    return 0


def _bench(args) -> int:
    from .bench import main

    return main(list(args.rest))


def _selfplay(args) -> int:
    from .records import RecordError
    from .search.arena import arena_json, run_arena

    if args.games < 1:
        raise SystemExit("splendor-ai selfplay: --games must be at least 1")
    if not args.bot:
        raise SystemExit("splendor-ai selfplay: give at least one --bot")
    if len(args.bot) > args.players:
        raise SystemExit(f"splendor-ai selfplay: {len(args.bot)} bots for {args.players} seats")
    if args.resume and not args.records:
        raise SystemExit("splendor-ai selfplay: --resume needs --records DIR")
    try:
        result = run_arena(args.game, args.players, args.bot, args.games, seed=args.seed, processes=args.processes,
                           progress=not args.quiet, record_dir=args.records, resume=args.resume)
    except (ValueError, RecordError) as exc:
        raise SystemExit(f"splendor-ai selfplay: {exc}") from None
    print(result.table())
    if args.moves:
        print(result.moves_table())
    if args.json:
        with open(args.json, "w") as f:
            f.write(arena_json(result) + "\n")
    return 0


def _play(args) -> int:
    from . import play

    remote = play.Remote(ca=args.ca, tls=args.tls, cert=args.cert, key=args.key, server_name=args.server_name,
                         token_file=args.token_file)
    return play.main(args.game, args.players, args.level, server=args.server, seat=args.seat, seed=args.seed,
                     record_path=args.record, hint_iterations=args.hint_iterations, remote=remote)


def _analyze(args) -> int:
    from pathlib import Path

    from . import analysis
    from .records import load, save

    options = analysis.Options(args.iterations, args.seed, args.threads, args.mistake, args.blunder,
                               args.played_visits)
    options.check()
    show_progress = not args.quiet and sys.stderr.isatty()
    if args.out_dir is None:
        if len(args.records) > 1 or Path(args.records[0]).is_dir():
            raise analysis.AnalysisError("several records (or a folder) need --out-dir DIR")
        for flag, value in (("--workers", args.workers), ("--ray", args.ray), ("--charts", args.charts or None)):
            if value is not None:
                raise analysis.AnalysisError(f"{flag} is for a batch run: add --out-dir DIR")
        record = load(args.records[0])
        if args.out:
            analysis.need_matplotlib()  # checked before the long search, not after it
        report = analysis.analyze(record, options, progress=analysis.ProgressBar() if show_progress else None)
        print(analysis.table(report["decisions"], report["game"]))
        print()
        print(analysis.summary(report))
        if args.out:
            analysis.chart(report, args.out)
            print(f"chart: {args.out}")
        if args.record_out:
            save({**record, "evaluations": report["decisions"]}, args.record_out)
            print(f"record with evaluations: {args.record_out}")
        return 0
    from .analysis import batch

    for flag, value in (("--out", args.out), ("--record-out", args.record_out)):
        if value:
            raise analysis.AnalysisError(f"{flag} is for one record without --out-dir (use --charts in a batch run)")
    outcome = batch.run(args.records, args.out_dir, options, workers=args.workers, ray_address=args.ray,
                        charts=args.charts, progress=show_progress)
    rate = len(outcome.analysed) / outcome.elapsed * 60 if outcome.elapsed > 0 else 0.0
    print(f"{len(outcome.analysed)} games analysed ({outcome.decisions} decisions, {rate:.1f} games/min), "
          f"{len(outcome.resumed)} already reported, {len(outcome.failed)} skipped; "
          f"reports in {args.out_dir}, summary {Path(args.out_dir) / batch.SUMMARY}")
    return 0 if outcome.ok else 1


def _net_search(text: str) -> dict:
    from .nn.weights import WeightsError, parse_settings

    try:
        return parse_settings(text, "splendor-ai train: --net-search")
    except WeightsError as exc:
        raise SystemExit(str(exc)) from None


def _train(args) -> int:
    try:
        from .train import Run, SelfPlaySettings, TrainError, TrainSettings
    except ImportError as exc:
        raise SystemExit(f"splendor-ai train: {exc}")
    sp = SelfPlaySettings(iterations=args.iterations, fast_iterations=args.fast_iterations,
                          full_share=args.full_share)
    settings = None
    if args.warm_start and args.no_warm_start:
        raise SystemExit("splendor-ai train: --warm-start and --no-warm-start contradict each other")
    if args.game is None and (args.no_warm_start or args.net_search or args.no_augment or args.init_net
                              or args.gate_seconds or args.data or args.lr_schedule or args.league
                              or args.league_net):
        raise SystemExit("splendor-ai train: --net-search, --no-warm-start, --no-augment, --init-net, "
                         "--gate-seconds, --data, --lr-schedule, --league and --league-net start a run (give --game); "
                         "a resumed run keeps the settings in its state.json (but for --generations, "
                         "--search-value-weight, --warm-start and --lr)")
    if args.game is not None:
        settings = TrainSettings(
            game=args.game, players=args.players or ([2] if args.game == "duel" else [2, 3, 4]),
            games=args.games, first_games=args.first_games,
            workers=args.workers, seed=args.seed,
            hidden=args.hidden, window=args.window, epochs=args.epochs, gate_games=args.gate_games,
            gate_iterations=args.gate_iterations, gate_threshold=args.gate_threshold, selfplay=sp,
            warm_start=not args.no_warm_start, net_search=_net_search(args.net_search),
            augment=not args.no_augment, gate_seconds=args.gate_seconds, init_net=args.init_net,
            data=args.data or [], lr_schedule=args.lr_schedule or "cosine", league=args.league,
            league_share=args.league_share, league_nets=args.league_net or [])
    if args.distill and args.selfplay_only:
        raise SystemExit("splendor-ai train: --distill and --selfplay-only contradict each other "
                         "(play the games first, then distill them)")
    try:
        run = Run(args.out, settings, search_value_weight=args.search_value_weight, generations=args.generations,
                  warm_start=True if args.warm_start else None, lr=args.lr)
        if args.selfplay_only:
            positions, games = run.selfplay_only()
            print(f"{args.out}: {games} games, {positions} positions of self-play kept for a --distill")
            return 0
        if args.distill:
            run.distill()
        else:
            run.run()
    except TrainError as exc:
        raise SystemExit(f"splendor-ai train: {exc}")
    print((Path(args.out) / "history.md").read_text())
    return 0


def _serve(args) -> int:
    from .service.server import serve
    from .service.settings import Settings

    if getattr(args, "env_error", None):
        raise SystemExit(f"splendor-ai serve: {args.env_error}")
    try:
        settings = Settings(**{name: getattr(args, name) for name, _, _ in _serve_flags()})
    except ValueError as exc:
        raise SystemExit(f"splendor-ai serve: {exc}")
    try:
        return serve(settings)
    except (OSError, ValueError) as exc:
        raise SystemExit(f"splendor-ai serve: {exc}")


def _health(args) -> int:
    """0 when the server answers SERVING to the standard health check, else 1 (with why)."""
    from .health import HealthError, check

    try:
        return check(args.target, service=args.service, ca=args.ca, cert=args.cert, key=args.key,
                     server_name=args.server_name, timeout=args.timeout)
    except HealthError as exc:
        raise SystemExit(f"splendor-ai health: {exc}")


def _serve_flags() -> list:
    from .service.settings import serve_flags  # light: no gRPC

    return serve_flags()


def _add_serve(sub) -> None:
    from .service.settings import Settings

    serve = sub.add_parser("serve", help="run the gRPC service (docs/protocol.md)",
                           description="Run the gRPC service. Each flag can also be set by the "
                                       "environment variable shown; a flag wins over the variable.")
    try:
        env = Settings.env_defaults()
    except ValueError as exc:  # reported when `serve` runs, not for the other commands
        env = {}
        serve.set_defaults(env_error=str(exc))
    defaults = Settings.__dataclass_fields__
    for name, kind, text in _serve_flags():
        default = env.get(name, defaults[name].default)
        serve.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, default=default,
                           help=f"{text} [env {Settings.env_name(name)}; "
                                f"default {default if default != '' else 'none'}]")
    serve.set_defaults(func=_serve)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="splendor-ai", description="A search-based AI for the Splendor games.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    _add_serve(sub)

    hc = sub.add_parser("health", help="ask a server's standard health check (exit 0 when SERVING)",
                        description="The standard gRPC health check of a running server: prints its status and "
                                    "exits 0 when it is SERVING, 1 otherwise (the container's HEALTHCHECK). Without "
                                    "TARGET it asks this machine's server, over TLS when $SPLENDOR_AI_TLS_CERT names "
                                    "its certificate (as in the container), checking the name that certificate "
                                    "carries (docs/deploy.md).")
    hc.add_argument("target", nargs="?", help="HOST:PORT (default localhost:$SPLENDOR_AI_PORT, or localhost:50551)")
    hc.add_argument("--service", default="", help="the service to ask about (default: the server as a whole)")
    hc.add_argument("--ca", help="TLS: the CA certificates that check the server (PEM file)")
    hc.add_argument("--cert", help="mutual TLS: this client's certificate (PEM file), with --key")
    hc.add_argument("--key", help="mutual TLS: this client's private key (PEM file)")
    hc.add_argument("--server-name", metavar="NAME",
                    help="TLS: the name the server's certificate must carry (default: the host of "
                         "TARGET; without TARGET, a name in $SPLENDOR_AI_TLS_CERT when set)")
    hc.add_argument("--timeout", type=float, default=3.0, help="seconds (default 3)")
    hc.set_defaults(func=_health)

    play = sub.add_parser("play", help="play against the AI in the terminal",
                          description="Play against AI seats in the terminal. Type moves in notation; "
                                      "'help' lists the legal ones, 'hint' shows the engine's top 3, 'undo', "
                                      "'quit'. The game is saved as a record (docs/records.md).")
    play.add_argument("--game", choices=GAMES, default="base")
    play.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    play.add_argument("--level", type=int, choices=range(1, 11), default=5, metavar="1..10",
                      help="difficulty of the AI seats (default 5)")
    play.add_argument("--server", metavar="HOST:PORT", help="a running server (default: start one in-process)")
    play.add_argument("--ca", metavar="PEM", help="--server speaks TLS: the CA certificates that check it")
    play.add_argument("--tls", action="store_true", help="--server speaks TLS, checked against the public CAs")
    play.add_argument("--cert", metavar="PEM", help="mutual TLS: this client's certificate, with --key")
    play.add_argument("--key", metavar="PEM", help="mutual TLS: this client's private key")
    play.add_argument("--server-name", metavar="NAME",
                      help="TLS: the name the server's certificate must carry (default: its host)")
    play.add_argument("--token-file", metavar="FILE",
                      help="the bearer token for --server: the file's first line that is not blank or a # comment "
                           "(default: $SPLENDOR_AI_TOKEN)")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=int, default=None, help="the deal (default: random)")
    play.add_argument("--record", metavar="FILE", help="where to save the game (default splendor-GAME-TIME.json)")
    play.add_argument("--hint-iterations", type=int, default=3000, help="search budget of 'hint' (default 3000)")
    play.set_defaults(func=_play)

    an = sub.add_parser("analyze", help="judge recorded games decision by decision (mistakes, blunders, a chart)",
                        description="Judge every decision of recorded games (docs/records.md) from the mover's "
                                    "view: the played move's value against the best move's, from one search "
                                    "(docs/analysis.md). One record: a table on stdout. With --out-dir: any "
                                    "number of records in parallel, a JSON report per game and summary.csv.")
    an.add_argument("records", nargs="+", metavar="RECORD", help="record files, folders (their *.json) or globs")
    an.add_argument("--iterations", type=int, default=2000, help="search budget per decision (default 2000)")
    an.add_argument("--played-visits", type=int, default=0,
                    help="visits the played move gets at least, forced if needed (default 0: iterations / 4)")
    an.add_argument("--threads", type=int, default=1, help="threads of each search (default 1)")
    an.add_argument("--seed", type=int, default=0, help="decision i is searched with seed + i (default 0)")
    an.add_argument("--mistake", type=float, default=0.10, help="win-probability drop marked a mistake (0.10)")
    an.add_argument("--blunder", type=float, default=0.25, help="win-probability drop marked a blunder (0.25)")
    an.add_argument("--out", metavar="PNG", help="one record: draw every seat's win probability (matplotlib)")
    an.add_argument("--record-out", metavar="FILE", help="one record: save it with the evaluations filled in")
    an.add_argument("--out-dir", metavar="DIR", help="batch: DIR/NAME.json per game and DIR/summary.csv; "
                                                     "games already reported there are skipped")
    an.add_argument("--workers", type=int, default=None,
                    help="batch: games at once in local processes (default: cores / --threads)")
    an.add_argument("--ray", metavar="ADDRESS",
                    help="batch: run on a Ray cluster (ADDRESS, 'auto', or 'local' to start one here); "
                         "needs the [ray] extra")
    an.add_argument("--charts", action="store_true", help="batch: also DIR/NAME.png per game (matplotlib)")
    an.add_argument("--quiet", action="store_true",
                    help="no progress bar (there is none when stderr is not a terminal)")
    an.set_defaults(func=_analyze)

    demo = sub.add_parser("demo", help="play one game (random moves) and print it move by move")
    demo.add_argument("--game", choices=GAMES, default="base")
    demo.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(func=_demo)

    sp = sub.add_parser("selfplay", help="bots against each other, seats rotated, with a results table")
    sp.add_argument("--game", choices=GAMES, default="base")
    sp.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    sp.add_argument("--bot", action="append", default=[],
                    help="random | greedy | mcts[:iterations=N,seconds=S,temperature=T,...] | turn[:the same keys] "
                         "(whole turns as GetMove plays them) | level:N (difficulty 1-10, whole turns); "
                         "repeat per seat (the last one fills the remaining seats)")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--processes", type=int, default=None, help="parallel games (default: all cores)")
    sp.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    sp.add_argument("--records", metavar="DIR", help="save every game as a record (JSON) in DIR as it ends")
    sp.add_argument("--resume", action="store_true",
                    help="with --records: read back the games already saved there and play only the others "
                         "(a stopped match finishes where it stopped)")
    sp.add_argument("--moves", action="store_true",
                    help="also print each bot's decisions per game by kind (take, buy, reserve, replenish, ...)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.set_defaults(func=_selfplay)

    tr = sub.add_parser("train", help="train the learned evaluation by self-play (needs the [train] extra)",
                        description="Expert iteration (docs/learned.md): self-play with the best net, training, "
                                    "a gate match, a history table; everything is kept in --out, and running "
                                    "the same command again resumes the run. Without --game, resumes --out.")
    tr.add_argument("--game", choices=GAMES, default=None)
    tr.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=None,
                    help="player counts to train for (default: all the game has)")
    tr.add_argument("--out", required=True, metavar="DIR", help="the run's folder (created, or resumed)")
    tr.add_argument("--generations", type=int, default=None,
                    help="generations to reach (default 10; a resumed run keeps its own unless this is given)")
    tr.add_argument("--games", type=int, default=200, help="self-play games per generation (default 200)")
    tr.add_argument("--first-games", type=int, default=0,
                    help="games per generation while the heuristic search plays (default: --games)")
    tr.add_argument("--league", type=int, default=0, metavar="K",
                    help="self-play also seats a league beside the best net: the run's K newest accepted nets "
                         "before it and the heuristic search, each other seat drawn on its own (default 0: none)")
    tr.add_argument("--league-net", action="append", default=None, metavar="NET",
                    help="with or without --league: an outside net every league also seats, a file or REV:PATH "
                         "(a version in git history); repeat for more; needs --init-net")
    tr.add_argument("--league-share", type=float, default=0.5,
                    help="with --league: the share of self-play games that seat it (default 0.5)")
    tr.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="self-play processes (default: cores)")
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--hidden", type=int, nargs="+", default=[256, 128], help="hidden layer sizes (default 256 128)")
    tr.add_argument("--window", type=int, default=4, help="generations of positions trained on (default 4)")
    tr.add_argument("--epochs", type=int, default=3)
    tr.add_argument("--iterations", type=int, default=400, help="search budget of recorded decisions (default 400)")
    tr.add_argument("--fast-iterations", type=int, default=100, help="search budget of the others (default 100)")
    tr.add_argument("--full-share", type=float, default=0.5, help="share of decisions recorded (default 0.5)")
    tr.add_argument("--search-value-weight", type=float, default=None,
                    help="value target: this share the search's root estimate, the rest the outcome (default 0.5; "
                         "on a resumed run, from its next generation on)")
    tr.add_argument("--lr", type=float, default=None,
                    help="learning rate of the training (AdamW; default 0.001; on a resumed run, from its next "
                         "generation on)")
    tr.add_argument("--lr-schedule", choices=("cosine", "constant"), default=None,
                    help="the learning rate over each training: cosine (falls to zero over its steps; default) "
                         "or constant")
    tr.add_argument("--net-search", default="", metavar="K=V,...",
                    help="search settings of the run's nets, e.g. net_rollout_depth=10,net_rollout_weight=0.5")
    tr.add_argument("--no-warm-start", action="store_true",
                    help="train a fresh net on the whole window every generation")
    tr.add_argument("--warm-start", action="store_true",
                    help="a resumed run that trained fresh nets goes on from its checkpoint's weights instead "
                         "(e.g. where the self-play files of its earlier generations are gone)")
    tr.add_argument("--no-augment", action="store_true",
                    help="train on the positions as played, without colour permutations (base, Marvel)")
    tr.add_argument("--gate-games", type=int, default=40)
    tr.add_argument("--gate-iterations", type=int, default=200)
    tr.add_argument("--gate-threshold", type=float, default=0.55)
    tr.add_argument("--gate-seconds", type=float, default=0.0,
                    help="gate at this thinking time per decision, every side alike (default 0: "
                         "--gate-iterations, the heuristic at 4x)")
    tr.add_argument("--init-net", default=None, metavar="FILE",
                    help="start the run from this .splnn net (its best net and first weights)")
    tr.add_argument("--data", nargs="+", default=None, metavar="DIR",
                    help="other runs' folders whose self-play positions every generation also trains on "
                         "(of their games, those with one of the run's --players counts)")
    tr.add_argument("--distill", action="store_true",
                    help="one generation without self-play: a fresh net trained on every position the run "
                         "keeps, then the gate (e.g. after changing --search-value-weight)")
    tr.add_argument("--selfplay-only", action="store_true",
                    help="play the next generation's self-play games with the best net and stop (no training, "
                         "no gate): positions for a later --distill of the same run, e.g. --games 10000")
    tr.set_defaults(func=_train)

    bench = sub.add_parser("bench", help="the benchmarks: core, search, strength, levels, service, ... (each "
                           "prints; --write also writes its section of BENCHMARKS.md)", add_help=False)
    bench.add_argument("rest", nargs=argparse.REMAINDER)
    bench.set_defaults(func=_bench)
    return ap


def main(argv=None) -> int:
    parser = build_parser()
    # `bench` hands everything after it to its own parser (`splendor-ai bench -h` included).
    args, extra = parser.parse_known_args(argv)
    if args.command == "bench":
        args.rest = extra + args.rest
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return args.func(args)
    except SplendorError as exc:
        print(f"splendor-ai: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
