"""Training end to end, tiny: one generation of self-play, training, export and gate."""
from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("torch", reason="training needs the [train] extra (PyTorch)")

from splendor_ai import nn  # noqa: E402
from splendor_ai.cli import main  # noqa: E402
from splendor_ai.train import Run, SelfPlaySettings, TrainError, TrainSettings  # noqa: E402
from splendor_ai.train.selfplay import play_game  # noqa: E402

TINY = dict(games=3, first_games=3, workers=1, hidden=[16], epochs=2, gate_games=2, gate_iterations=8,
            heuristic_factor=1.0, selfplay=SelfPlaySettings(iterations=12, fast_iterations=6))


def test_one_generation_runs_end_to_end_and_resumes(tmp_path):
    out = tmp_path / "run"
    history = Run(out, TrainSettings(game="base", players=[2], generations=1, **TINY), log=lambda m: None).run()
    assert [r["generation"] for r in history] == [1]
    row = history[0]
    assert row["games"] == 3 and row["positions"] > 0 and 0 <= row["vs_best"] <= 1
    cand = out / "gen-0001" / "net.splnn"
    net = nn.load(cand, "base")
    assert net.generation == 1 and net.players == (2,)
    assert (out / "best.splnn").exists() == row["accepted"]
    assert "| 1 | 3 |" in (out / "history.md").read_text()
    state = json.loads((out / "state.json").read_text())
    assert state["generation"] == 1 and (out / "checkpoint.pt").exists()
    assert "value target" not in (out / "history.md").read_text()  # one target all along: no column
    # Resuming with a higher target plays generation 2 only, and keeps generation 1's files;
    # a new value target applies from there on, and the history says which row used which.
    mtime = cand.stat().st_mtime
    history = Run(out, log=lambda m: None, search_value_weight=1.0, generations=2).run()
    assert [r["generation"] for r in history] == [1, 2] and cand.stat().st_mtime == mtime
    assert [r["search_value_weight"] for r in history] == [0.5, 1.0]
    lines = (out / "history.md").read_text().splitlines()
    assert "value target |" in lines[4] and lines[6].endswith("| 0.5 |") and lines[7].endswith("| 1 |")
    assert json.loads((out / "state.json").read_text())["settings"]["search_value_weight"] == 1.0
    # A distilled generation plays no games: a fresh net on every kept position, gated.
    history = Run(out, log=lambda m: None).distill()
    row = history[2]
    assert row["generation"] == 3 and row["games"] == row["positions"] == 0
    assert row["distilled"] == history[0]["positions"] + history[1]["positions"]
    assert nn.read(out / "gen-0003" / "net.splnn").info["positions"] == row["distilled"]
    assert f"| 3 (distilled from {row['distilled']} positions) | 0 | 0 |" in (out / "history.md").read_text()
    with pytest.raises(TrainError, match="holds a run for base"):
        Run(out, TrainSettings(game="marvel", players=[2], generations=3, **TINY))
    # A plain resume keeps the run's own target (here already passed: nothing to play); the
    # command line's --generations on a resume without --game sets a new one.
    assert [r["generation"] for r in Run(out, log=lambda m: None).run()] == [1, 2, 3]
    with pytest.raises(TrainError, match="--generations must be at least 1"):
        Run(out, generations=0)
    assert main(["train", "--out", str(out), "--generations", "4"]) == 0
    state = json.loads((out / "state.json").read_text())
    assert state["generation"] == 4 and state["settings"]["generations"] == 4


def test_self_play_records_mover_relative_targets():
    sp = SelfPlaySettings(iterations=10, fast_iterations=5, full_share=0.5)
    data = play_game("duel", 2, 3, None, sp)
    n = len(data["players"])
    assert n > 10 and data["features"].shape[0] == n
    # Each position's value target is the outcome from the mover's seat: a distribution.
    assert (abs(data["value"].sum(1) - 1) < 1e-6).all()
    # Some positions carry a policy target (the full searches), each a distribution.
    off = data["pol_offsets"]
    with_policy = [i for i in range(n) if off[i + 1] > off[i]]
    assert 0 < len(with_policy) < n
    for i in with_policy:
        assert abs(data["pol_p"][off[i]:off[i + 1]].sum() - 1) < 1e-5


def test_bad_settings_are_refused_clearly(tmp_path):
    with pytest.raises(TrainError, match="--players: duel is played by 2"):
        Run(tmp_path / "a", TrainSettings(game="duel", players=[3]))
    with pytest.raises(TrainError, match="no run to resume"):
        Run(tmp_path / "b")
    with pytest.raises(TrainError, match="--search-value-weight must be between 0 and 1, got 1.5"):
        Run(tmp_path / "c", TrainSettings(game="base", players=[2]), search_value_weight=1.5)
    with pytest.raises(TrainError, match="--lr must be above 0 and at most 1, got 0"):
        Run(tmp_path / "d", TrainSettings(game="base", players=[2]), lr=0.0)
    with pytest.raises(TrainError, match="--lr-schedule: 'linear' is not one of constant, cosine"):
        Run(tmp_path / "e", TrainSettings(game="base", players=[2], lr_schedule="linear"))


def test_cli_without_a_run_names_the_problem(tmp_path, capsys):
    with pytest.raises(SystemExit, match="no run to resume"):
        main(["train", "--out", str(tmp_path / "none")])
    with pytest.raises(SystemExit, match="--league and --league-net start a run"):
        main(["train", "--out", str(tmp_path / "none"), "--league", "2"])


def test_a_run_can_start_from_a_net_and_gate_at_equal_time(tmp_path):
    first = tmp_path / "first"
    settings = dict(TINY, hidden=[16], gate_games=2)
    Run(first, TrainSettings(game="base", players=[2], generations=1, **settings), log=lambda m: None).run()
    start = first / "gen-0001" / "net.splnn"
    out = tmp_path / "second"
    run = Run(out, TrainSettings(game="base", players=[2], generations=1, init_net=str(start), gate_seconds=0.01,
                                 data=[str(first)], **settings), log=lambda m: None)
    # Generation 0 is the given net: it is the best, and self-play and the gate use it.
    assert run.state["best"] == 0 and (out / "best.splnn").read_bytes() == start.read_bytes()
    from splendor_ai.train import model as M

    model = M.from_netfile(nn.read(start))
    again = M.export(model, "base", [2], nn.read(start).feature_version, 1, {})
    assert list(again.payload) == list(nn.read(start).payload)
    history = run.run()
    assert history[0]["generation"] == 1 and "0.01 s per move" in (out / "history.md").read_text()
    # Every generation also trains on the first run's positions.
    first_positions = Run(first).state["history"][0]["positions"]
    assert len(run.window_data(1)["players"]) == first_positions + history[0]["positions"]
    assert "Started from" in (out / "history.md").read_text()
    with pytest.raises(TrainError, match="--init-net: .* hidden layers"):
        Run(tmp_path / "third", TrainSettings(game="base", players=[2], init_net=str(start),
                                              **dict(settings, hidden=[8])))
    # Fresh nets of another shape may be trained against it: it is only the best to beat.
    other = Run(tmp_path / "wider", TrainSettings(game="base", players=[2], generations=1, init_net=str(start),
                                                  data=[str(first)], **dict(settings, hidden=[24], warm_start=False)),
                log=lambda m: None)
    assert other.state["best"] == 0 and not (tmp_path / "wider" / "checkpoint.pt").exists()
    other.run()
    assert nn.read(tmp_path / "wider" / "gen-0001" / "net.splnn").hidden == [24]
    with pytest.raises(TrainError, match="--init-net"):
        Run(tmp_path / "fourth", TrainSettings(game="duel", players=[2], init_net=str(start), **settings))
    with pytest.raises(TrainError, match="--data: .* holds no self-play files"):
        Run(tmp_path / "fifth", TrainSettings(game="base", players=[2], data=[str(tmp_path)], **settings))


def test_the_gate_plays_every_player_count_of_the_run(tmp_path):
    out = tmp_path / "run"
    settings = dict(TINY, gate_games=3)
    history = Run(out, TrainSettings(game="marvel", players=[2, 4], generations=1, **settings),
                  log=lambda m: None).run()
    row = history[0]
    # Two games at 2 players, one at 4; each count's score is scaled so that an even share is 0.5.
    assert set(row["vs_best_by_players"]) == {"2", "4"}
    two, four = row["vs_best_by_players"]["2"], row["vs_best_by_players"]["4"]
    assert two in (0.0, 0.25, 0.5, 0.75, 1.0) and 0 <= four <= 1
    assert row["vs_best"] == pytest.approx((2 * two + four) / 3, abs=1e-3)
    text = (out / "history.md").read_text()
    assert "spread evenly over the player counts" in text and f"2p {two:.1%}, 4p {four:.1%} |" in text


def test_a_resumed_run_can_switch_to_warm_starts(tmp_path):
    # A run that trained fresh nets, restored without the self-play files it trained on
    # (its --data folder gone), goes on from its checkpoint's weights, and says so.
    first = tmp_path / "first"
    Run(first, TrainSettings(game="base", players=[2], generations=1, **TINY), log=lambda m: None).run()
    out = tmp_path / "run"
    Run(out, TrainSettings(game="base", players=[2], generations=1, warm_start=False, data=[str(first)], **TINY),
        log=lambda m: None).run()
    shutil.rmtree(first)
    with pytest.raises(SystemExit, match="contradict"):
        main(["train", "--out", str(out), "--warm-start", "--no-warm-start"])
    said = []
    history = Run(out, log=said.append, generations=2, warm_start=True).run()
    assert [r["warm_start"] for r in history] == [False, True]
    assert f"--data {first}: no such folder; generation 2 trains without its positions" in said
    text = (out / "history.md").read_text()
    assert "| 2 (warm) |" in text and "| 1 |" in text and "went on training" in text
    assert json.loads((out / "state.json").read_text())["settings"]["warm_start"] is True


def test_a_resumed_run_can_lower_its_learning_rate(tmp_path):
    import torch

    out = tmp_path / "run"
    Run(out, TrainSettings(game="base", players=[2], generations=1, **TINY), log=lambda m: None).run()
    with pytest.raises(TrainError, match="--lr must be above 0"):
        Run(out, lr=-1.0)
    history = Run(out, log=lambda m: None, generations=2, lr=3e-4).run()
    assert [r["lr"] for r in history] == [1e-3, 3e-4]
    # The optimiser went on from its saved state, at the new rate.
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert {g["lr"] for g in saved["optimizer"]["param_groups"]} == {3e-4}
    text = (out / "history.md").read_text()
    assert "learning rate |" in text and "| 0.001 |" in text and "| 0.0003 |" in text
    assert json.loads((out / "state.json").read_text())["settings"]["lr"] == 3e-4


def test_selfplay_only_keeps_games_for_a_distill(tmp_path, capsys):
    # --selfplay-only plays the next generation's games and stops: no net, no gate, no
    # generation finished; a --distill of the same run then trains on exactly those games.
    out = tmp_path / "pool"
    args = ["train", "--game", "base", "--players", "2", "--out", str(out), "--games", "3", "--workers", "1",
            "--hidden", "16", "--epochs", "2", "--iterations", "12", "--fast-iterations", "6",
            "--gate-games", "2", "--gate-iterations", "8"]
    with pytest.raises(SystemExit, match="--distill and --selfplay-only contradict"):
        main(args + ["--selfplay-only", "--distill"])
    assert main(args + ["--selfplay-only"]) == 0
    assert "3 games" in capsys.readouterr().out
    state = json.loads((out / "state.json").read_text())
    assert state["generation"] == 0 and state["history"] == []
    assert list((out / "gen-0001").glob("selfplay-*.npz")) and not (out / "gen-0001" / "net.splnn").exists()
    positions = Run(out, log=lambda m: None).selfplay_only()[0]  # again: the chunks are kept, none replayed
    history = Run(out, log=lambda m: None).distill()
    assert [r["generation"] for r in history] == [1]
    assert history[0]["games"] == 3 and history[0]["distilled"] == history[0]["positions"] == positions > 0


def test_a_run_trains_on_the_positions_of_its_own_player_counts(tmp_path):
    # A pool of 2- and 3-player games feeds a 2-player run its 2-player positions alone, each
    # with its own targets (the policy rows of the positions left out are left out with them).
    pool = tmp_path / "pool"
    assert main(["train", "--game", "base", "--players", "2", "3", "--out", str(pool), "--games", "4",
                 "--workers", "1", "--hidden", "16", "--iterations", "12", "--fast-iterations", "6",
                 "--selfplay-only", "--seed", "5"]) == 0
    both = Run(pool, log=lambda m: None).window_data(1)
    assert set(both["players"].tolist()) == {2, 3}
    two = Run(tmp_path / "two", TrainSettings(game="base", players=[2], data=[str(pool)], **TINY),
              log=lambda m: None).window_data(0)
    keep = both["players"] == 2
    assert (two["players"] == 2).all() and len(two["players"]) == keep.sum()
    assert (two["features"] == both["features"][keep]).all() and (two["value"] == both["value"][keep]).all()
    off, off2 = both["pol_offsets"], two["pol_offsets"]
    for j, i in enumerate(keep.nonzero()[0]):
        assert (two["pol_cls"][off2[j]:off2[j + 1]] == both["pol_cls"][off[i]:off[i + 1]]).all()
        assert (two["pol_p"][off2[j]:off2[j + 1]] == both["pol_p"][off[i]:off[i + 1]]).all()
    with pytest.raises(TrainError, match="no self-play positions of 4 players"):
        Run(tmp_path / "four", TrainSettings(game="base", players=[4], data=[str(pool)], **TINY),
            log=lambda m: None).window_data(0)


def test_the_learning_rate_falls_to_zero_over_a_cosine_training(tmp_path):
    out = tmp_path / "run"
    logs = []
    Run(out, TrainSettings(game="base", players=[2], generations=1, **dict(TINY, epochs=3)), log=logs.append).run()
    rates = [float(m.split("(learning rate ")[1].split()[0]) for m in logs if "learning rate" in m]
    assert len(rates) == 3 and 1e-3 >= rates[0] > rates[1] > rates[2] and rates[2] <= 2.5e-4
    logs.clear()
    Run(tmp_path / "flat", TrainSettings(game="base", players=[2], generations=1,
                                         **dict(TINY, epochs=2, lr_schedule="constant")), log=logs.append).run()
    assert [float(m.split("(learning rate ")[1].split()[0]) for m in logs if "learning rate" in m] == [1e-3, 1e-3]
    # A run saved before the setting existed resumes at the constant rate it trained with.
    state = json.loads((out / "state.json").read_text())
    del state["settings"]["lr_schedule"]
    (out / "state.json").write_text(json.dumps(state))
    assert Run(out).settings.lr_schedule == "constant"


def test_a_league_game_seats_its_opponents_and_records_only_the_learner(monkeypatch):
    from splendor_ai.train import selfplay

    net = str(nn.shipped_path("base", 3))
    seen = []
    real = selfplay.Search

    def spy(state, limits, cfg):
        seen.append((state.current_player(), cfg.evaluator, cfg.net, limits.iterations))
        return real(state, limits, cfg)

    monkeypatch.setattr(selfplay, "Search", spy)
    sp = SelfPlaySettings(iterations=8, fast_iterations=4, full_share=0.5)
    data = play_game("base", 3, 5, net, sp, opponents={1: (None, 2.0), 2: (net, 1.0)})
    by_seat = {seat: [s for s in seen if s[0] == seat] for seat in range(3)}
    assert all(s[1:3] == ("net", net) for s in by_seat[0])  # the learner
    assert all(s[1] == "heuristic" and s[3] in (16, 8) for s in by_seat[1])  # twice the budget
    assert all(s[1:3] == ("net", net) and s[3] in (8, 4) for s in by_seat[2])
    assert by_seat[1] and by_seat[2]
    assert len(data["players"]) == len(by_seat[0])  # only the learner's decisions are positions
    with pytest.raises(ValueError, match="the learner keeps one"):
        play_game("base", 2, 5, net, sp, opponents={0: (None, 1.0), 1: (None, 1.0)})


def test_the_league_is_the_newest_accepted_nets_but_the_best_and_the_heuristic(tmp_path):
    first = tmp_path / "first"
    Run(first, TrainSettings(game="base", players=[2], generations=1, **TINY), log=lambda m: None).run()
    start = first / "gen-0001" / "net.splnn"
    out = tmp_path / "run"
    run = Run(out, TrainSettings(game="base", players=[2], generations=1, init_net=str(start), league=2,
                                 league_share=1.0, **TINY), log=lambda m: None)
    assert run.league_members() == [None]  # the start net is the best: the heuristic alone
    history = run.run()
    row = history[0]
    assert row["league_games"] == row["games"] == 3 and row["league"] == ["heuristic"]
    assert "| 1 | 3 (3 league) |" in (out / "history.md").read_text()
    # Later generations: the newest accepted nets other than the best, at most `league`, the start net among them.
    for g in (2, 3):
        run.gen_dir(g).mkdir(exist_ok=True)
        shutil.copyfile(start, run.gen_dir(g) / "net.splnn")
    run.state["history"] = [dict(row, generation=1, accepted=True), dict(row, generation=2, accepted=False),
                            dict(row, generation=3, accepted=True)]
    run.state["best"] = 3
    assert run.league_members() == [str(run.gen_dir(1) / "net.splnn"), str(out / "start.splnn"), None]
    run.settings.league = 1
    assert run.league_members() == [str(run.gen_dir(1) / "net.splnn"), None]
    run.settings.league = 0
    assert run.league_members() == []
    with pytest.raises(TrainError, match="--league-share must be above 0 and at most 1, got 0"):
        Run(tmp_path / "bad", TrainSettings(game="base", players=[2], league=1, league_share=0.0))
    with pytest.raises(TrainError, match="--league must be 0"):
        Run(tmp_path / "bad2", TrainSettings(game="base", players=[2], league=-1))


def test_outside_league_nets_are_copied_at_the_start_seated_and_named_as_given(tmp_path):
    first = tmp_path / "first"
    Run(first, TrainSettings(game="base", players=[2], generations=1, **TINY), log=lambda m: None).run()
    start = first / "gen-0001" / "net.splnn"
    shipped = nn.shipped_path("base", 2)
    refs = [str(shipped), "HEAD:splendor_ai/nets/base.splnn"]  # a file, and a version in git history
    out = tmp_path / "run"
    run = Run(out, TrainSettings(game="base", players=[2], generations=1, init_net=str(start), league_nets=refs,
                                 league_share=1.0, **TINY), log=lambda m: None)
    copies = [out / "league" / "net-0.splnn", out / "league" / "net-1.splnn"]
    assert run.league_members() == [*map(str, copies), None]  # without --league: the outside nets and the heuristic
    assert copies[0].read_bytes() == shipped.read_bytes()
    assert nn.load(copies[1], "base").checksum == nn.load(nn.shipped_path("base", 3), "base").checksum
    row = run.run()[0]
    assert row["league_games"] == 3 and row["league"] == [*refs, "heuristic"]
    # Self-play alone, then a --distill of its games: the distilled generation's row says how many
    # of the games it trained on were league games, as a played generation's row does.
    only = tmp_path / "only"
    Run(only, TrainSettings(game="base", players=[2], generations=1, init_net=str(start), league_nets=refs[:1],
                            league_share=1.0, **TINY), log=lambda m: None).selfplay_only()
    row = Run(only, log=lambda m: None).distill()[-1]
    assert row["league_games"] == 3 and row["league"] == [refs[0], "heuristic"]
    assert "selfplay_league" not in json.loads((only / "state.json").read_text())
    # A resumed run plays the copies it made: the source may change or go.
    mtime = copies[1].stat().st_mtime
    assert Run(out, log=lambda m: None).league_members() == [*map(str, copies), None]
    assert copies[1].stat().st_mtime == mtime
    with pytest.raises(TrainError, match="--league-net needs --init-net"):
        Run(tmp_path / "bad", TrainSettings(game="base", players=[2], league_nets=refs))
    with pytest.raises(TrainError, match="--league-net nosuchrev:splendor_ai/nets/base.splnn"):
        Run(tmp_path / "bad2", TrainSettings(game="base", players=[2], init_net=str(start), hidden=[16],
                                             league_nets=["nosuchrev:splendor_ai/nets/base.splnn"]))
    with pytest.raises(TrainError, match="--league-net .*duel"):  # a net of another game
        Run(tmp_path / "bad3", TrainSettings(game="base", players=[2], init_net=str(start), hidden=[16],
                                             league_nets=[str(nn.shipped_path("duel", 2))]))
    with pytest.raises(TrainError, match="--league-net nofile.splnn: no such file"):
        Run(tmp_path / "bad4", TrainSettings(game="base", players=[2], init_net=str(start), hidden=[16],
                                             league_nets=["nofile.splnn"]))
