"""Say what played: every search's answer names its evaluator (kind, net file, checksum), and so
does the call's log line (issues 48, 50). Through the real server."""
import hashlib
import re

import grpc
import pytest
from splendor.v1 import splendor_pb2 as pb
from splendor.v1 import splendor_pb2_grpc as pb_grpc

from splendor_ai import nn
from splendor_ai.games import load_game
from splendor_ai.service import convert


def _checksum(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@pytest.fixture(scope="module")
def stub(server):
    with grpc.insecure_channel(server.target) as channel:
        yield pb_grpc.SplendorServiceStub(channel)


@pytest.fixture(scope="module")
def position():
    return convert.encode_position(load_game("base", 2).new_initial_state(8))


def test_get_move_names_the_net_or_the_heuristic_it_played_with(stub, server, position):
    net = nn.shipped_path("base", 2)
    reply = stub.GetMove(pb.GetMoveRequest(position=position, level=6, seed=1, request_id="ev-net"), timeout=60)
    ev = reply.options.evaluator
    assert (ev.kind, ev.net, ev.checksum) == ("net", net.name, _checksum(net))
    reply = stub.GetMove(pb.GetMoveRequest(position=position, level=1, seed=1, request_id="ev-h"), timeout=60)
    ev = reply.options.evaluator
    assert (ev.kind, ev.net, ev.checksum) == ("heuristic", "", "")
    text = server.text()
    line = next(ln for ln in text.splitlines() if "request_id='ev-net'" in ln)
    assert f"evaluator=net net={net.name} checksum={_checksum(net)}" in line
    assert "/" not in re.search(r"net=(\S+)", line).group(1)  # a name, never a server path
    line = next(ln for ln in text.splitlines() if "request_id='ev-h'" in ln)
    assert "evaluator=heuristic" in line and " net=" not in line


def test_analyze_and_analyze_game_name_their_evaluator(stub, position):
    net = nn.shipped_path("base", 2)
    replies = list(stub.Analyze(pb.AnalyzeRequest(position=position, limits=pb.SearchLimits(iterations=50), seed=1),
                                timeout=60))
    assert all((r.options.evaluator.kind, r.options.evaluator.net) == ("net", net.name) for r in replies)
    assert replies[-1].options.evaluator.checksum == _checksum(net)
    state = load_game("base", 2).new_initial_state(8)
    move = state.action_to_string(state.search_actions()[0])
    replies = list(stub.AnalyzeGame(pb.AnalyzeGameRequest(initial_position=position, iterations=20,
                                                          moves=[pb.Move(notation=move)]), timeout=60))
    for r in replies:
        ev = r.options.evaluator
        assert (ev.kind, ev.net, ev.checksum) == ("net", net.name, _checksum(net))


def test_the_json_log_line_holds_evaluator_net_and_checksum():
    import json
    import logging

    from splendor_ai.search.mcts import Evaluator
    from splendor_ai.service.calls import Call, JsonFormatter

    call = Call("GetMove", "r1", "ipv4:127.0.0.1:5")
    call.evaluator = Evaluator("net", "base-2p.splnn", "0123456789abcdef")
    record = logging.LogRecord("splendor_ai.service", logging.INFO, __file__, 1, "x", (), None)
    record.call = call.fields(0.01)
    out = json.loads(JsonFormatter().format(record))
    assert (out["evaluator"], out["net"], out["checksum"]) == ("net", "base-2p.splnn", "0123456789abcdef")
    assert "evaluator" not in Call("GetCatalog").fields(0.0)  # no search, no evaluator
