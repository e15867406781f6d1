"""gRPC-Web text mode (application/grpc-web-text: the grpc-web JavaScript client's default) is
served on the HTTP port, unary and server streaming; application/grpc sent there gets a clean
415 without a traceback in the log (issue 48 item 5)."""
import base64
import struct

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")

from splendor.v1 import splendor_pb2 as pb  # noqa: E402
from web_helpers import SERVICE, Http, frames, http_port  # noqa: E402

from splendor_ai.games import load_game  # noqa: E402
from splendor_ai.service import convert  # noqa: E402

TEXT = "application/grpc-web-text"


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    from conftest import ServerProcess

    srv = ServerProcess(tmp_path_factory.mktemp("webtext") / "server.log", "--http-port", "0",
                        "--max-concurrent", "1", "--max-threads", "1", "--grace", "1")
    srv.http = Http(http_port(srv))
    yield srv
    srv.kill()
    assert "Traceback" not in srv.text() and "outcome=INTERNAL" not in srv.text(), srv.text()


def _text_call(web, rpc: str, message, kind: str = TEXT + "+proto", pieces: int = 1):
    framed = struct.pack(">BI", 0, len(message.SerializeToString())) + message.SerializeToString()
    cut = len(framed) // pieces
    parts = [framed[i * cut:(i + 1) * cut if i < pieces - 1 else len(framed)] for i in range(pieces)]
    body = b"".join(base64.b64encode(p) for p in parts)  # padded pieces end to end, as clients may send
    status, headers, reply = web.http.request("POST", f"/{SERVICE}/{rpc}", body,
                                              {"content-type": kind, "accept": kind, "x-grpc-web": "1"})
    assert status == 200, (status, reply)
    assert headers["content-type"].startswith(TEXT), headers
    raw = b"".join(base64.b64decode(piece) for piece in _pieces(reply))
    data, trailers = [], {k: v for k, v in headers.items() if k.startswith("grpc-")}
    for flags, payload in frames(raw):
        if flags & 0x80:
            for line in payload.decode().strip().split("\r\n"):
                key, _, value = line.partition(":")
                trailers[key.strip().lower()] = value.strip()
        else:
            data.append(payload)
    return data, trailers


def _pieces(text: bytes):
    import re

    return re.findall(rb"[^=]+=*", text)


@pytest.mark.parametrize("kind,pieces", [(TEXT + "+proto", 1), (TEXT, 1), (TEXT + "+proto", 3)])
def test_grpc_web_text_unary(web, kind, pieces):
    data, trailers = _text_call(web, "NewGame", pb.NewGameRequest(game=pb.GAME_DUEL, seed=4, request_id="t"),
                                kind, pieces)
    assert trailers["grpc-status"] == "0"
    reply = pb.NewGameResponse.FromString(data[0])
    assert reply.request_id == "t" and reply.position.HasField("duel")
    data, trailers = _text_call(web, "LegalActions", pb.LegalActionsRequest(position=pb.Position(base=pb.BasePosition(
        players=2))))
    assert data == [] and trailers["grpc-status"] == "3"  # INVALID_ARGUMENT, as over binary gRPC-Web


def test_grpc_web_text_server_stream(web):
    position = convert.encode_position(load_game("base", 2).new_initial_state(2))
    request = pb.AnalyzeRequest(position=position, limits=pb.SearchLimits(time_ms=400), report_every_ms=100, seed=1)
    data, trailers = _text_call(web, "Analyze", request)
    assert trailers["grpc-status"] == "0"
    replies = [pb.AnalyzeResponse.FromString(d) for d in data]
    assert len(replies) >= 2 and replies[-1].final and not replies[0].final


def test_a_body_that_is_not_base64_is_a_clean_400(web):
    status, _, body = web.http.request("POST", f"/{SERVICE}/NewGame", b"%%%not base64%%%",
                                       {"content-type": TEXT + "+proto"})
    assert status == 400 and b"not base64" in body


@pytest.mark.parametrize("kind", ["application/grpc", "application/grpc+proto"])
def test_grpc_sent_to_the_http_port_is_a_clean_415(web, kind):
    before = web.text().count("\n")
    for _ in range(3):
        status, headers, body = web.http.request("POST", f"/{SERVICE}/NewGame", b"\x00\x00\x00\x00\x00",
                                                 {"content-type": kind})
        assert status == 415 and b"gRPC port" in body and "grpc-web-text" in headers["accept-post"]
    assert "Traceback" not in web.text() and web.text().count("\n") == before  # nothing logged per request
