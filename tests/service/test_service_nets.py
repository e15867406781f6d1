"""Nets are checked before the ports open; a net fault while serving is loud (an error logged,
counted, health NOT_SERVING) and its message to the caller holds no server path (issue 48 item 4)."""
import logging
import shutil
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

import splendor_ai
from splendor_ai import games, nn
from splendor_ai.games import load_game
from splendor_ai.service import convert, settings
from splendor_ai.service.nets import Nets
from splendor_ai.service.server import SERVICE_NAME, Server
from splendor_ai.service.settings import Settings

INSTALL = str(Path(splendor_ai.__file__).resolve().parent)


def _corrupt(src: Path, dst: Path) -> Path:
    data = bytearray(src.read_bytes())
    data[-5] ^= 0xFF  # one payload byte: the header's checksum no longer matches
    dst.write_bytes(bytes(data))
    return dst


def test_the_light_settings_module_knows_every_game():
    assert set(settings.GAME_NAMES) == set(games.GAMES)


def test_the_shipped_nets_pass_the_check_and_are_the_ones_searched():
    nets = Nets.check()
    assert {p.name for p in nets.shipped} >= {"base.splnn", "duel.splnn", "marvel.splnn"}
    assert nets.overrides == {} and nets.net_for("base", 2) is None


@pytest.mark.parametrize("fault", ["corrupt", "missing", "foreign", "missing beside a player-count net", "uncovered"])
def test_a_bad_or_missing_shipped_net_stops_the_start_in_one_line_naming_the_file(tmp_path, fault):
    for p in nn.shipped_path("base").parent.glob("*.splnn"):
        shutil.copy(p, tmp_path / p.name)
    assert nn.read(tmp_path / "base-2p.splnn").players == [2]  # the cases below rest on it
    if fault == "corrupt":
        _corrupt(tmp_path / "duel.splnn", tmp_path / "duel.splnn")
        expect = ("duel.splnn", "payload checksum does not match")
    elif fault == "missing":
        (tmp_path / "marvel.splnn").unlink()
        expect = ("marvel.splnn", "missing")
    elif fault == "missing beside a player-count net":
        (tmp_path / "base.splnn").unlink()  # base-2p.splnn stays: 3 and 4 players have no net
        expect = ("base.splnn", "missing", "base at 3 players has none")
    elif fault == "uncovered":
        shutil.copy(tmp_path / "base-2p.splnn", tmp_path / "base.splnn")  # a 2-player net as the 3-4 player one
        expect = ("base.splnn", "covers [2] players, not 3")
    else:
        shutil.copy(tmp_path / "duel.splnn", tmp_path / "marvel.splnn")
        expect = ("marvel.splnn", "a net for 'duel', not 'marvel'")
    with pytest.raises(ValueError) as err:
        Nets.check(folder=tmp_path)
    text = str(err.value)
    assert "\n" not in text and all(e in text for e in expect), text


def test_a_bad_net_setting_stops_the_server_before_any_port_opens(tmp_path):
    bad = _corrupt(nn.shipped_path("base", 2), tmp_path / "mine.splnn")
    with pytest.raises(ValueError) as err:
        Server(Settings(host="127.0.0.1", port=0, net=f"base={bad}"))
    assert str(err.value) == f"net check: {bad}: payload checksum does not match header.sha256 (corrupt file)"
    with pytest.raises(ValueError, match="net: 'base' is not GAME=FILE"):
        Settings(net="base")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        Settings(net="chess=x.splnn")
    with pytest.raises(ValueError, match=r"net check: .*nowhere.splnn: missing"):
        Server(Settings(host="127.0.0.1", port=0, net=f"duel={tmp_path / 'nowhere.splnn'}"))


def test_a_net_given_with_the_setting_is_the_one_that_plays(tmp_path):
    mine = tmp_path / "mine-base.splnn"
    shutil.copy(nn.shipped_path("base", 2), mine)
    server = Server(Settings(host="127.0.0.1", port=0, max_concurrent=1, max_threads=1, net=f"base={mine}"))
    port = server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.SplendorServiceStub(channel)
            position = convert.encode_position(load_game("base", 2).new_initial_state(3))
            reply = stub.GetMove(pb.GetMoveRequest(position=position, limits=pb.SearchLimits(iterations=30)),
                                 timeout=30)
            assert (reply.options.evaluator.kind, reply.options.evaluator.net) == ("net", "mine-base.splnn")
            game = stub.AnalyzeGame(pb.AnalyzeGameRequest(initial_position=position, iterations=10), timeout=30)
            assert [r.options.evaluator.net for r in game] == ["mine-base.splnn"]
    finally:
        server.shutdown(0)


def test_a_net_fault_while_serving_is_logged_counted_and_turns_health_not_serving(caplog):
    server = Server(Settings(host="127.0.0.1", port=0, max_concurrent=1, max_threads=1))
    # A real fault of the search's net: the base game handed a Duel net (as a bad deployment would).
    server.nets.overrides["base"] = nn.shipped_net("duel", 2)
    port = server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.SplendorServiceStub(channel)
            position = convert.encode_position(load_game("base", 2).new_initial_state(3))
            with caplog.at_level(logging.ERROR, logger="splendor_ai.service"):
                with pytest.raises(grpc.RpcError) as err:
                    stub.GetMove(pb.GetMoveRequest(position=position, limits=pb.SearchLimits(iterations=30)),
                                 timeout=30)
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "net for base" in err.value.details()
            assert INSTALL not in err.value.details() and "/" not in err.value.details()
            errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
            assert any("net fault (base)" in m and "a net for 'duel'" in m for m in errors), errors
            health = health_pb2_grpc.HealthStub(channel)
            for name in ("", SERVICE_NAME):
                status = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5).status
                assert status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert server.metrics.registry.get_sample_value("splendor_net_faults_total", {"game": "base"}) == 1
    finally:
        server.shutdown(0)
