"""The HTTP port (--http-port): the same servicer over Connect (JSON, streams) and gRPC-Web,
with the same validation, error details, slots, deadlines and cancellation as gRPC; CORS
closed by default; bearer tokens; the demo page's files."""
import json
import re
import threading
import time
import urllib.request

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")

from google.rpc import error_details_pb2, status_pb2  # noqa: E402
from splendor.v1 import splendor_pb2 as pb  # noqa: E402
from timing import PAUSE, retried  # noqa: E402
from web_helpers import Http, detail, http_port  # noqa: E402

from splendor_ai.service.settings import Settings  # noqa: E402


@pytest.fixture(scope="module")
def web(spawn_module_server):
    srv = spawn_module_server("--http-port", "0", "--max-concurrent", "2", "--max-seconds", "30", "--grace", "2")
    srv.http = Http(http_port(srv))
    return srv


@pytest.fixture(scope="module")
def spawn_module_server(tmp_path_factory):
    from conftest import ServerProcess

    started = []

    def start(*flags, env=None):
        srv = ServerProcess(tmp_path_factory.mktemp("web") / f"server{len(started)}.log", *flags, env=env)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.kill()
        assert "Traceback" not in srv.text() and "outcome=INTERNAL" not in srv.text(), srv.text()


def _new_game(http, game="GAME_BASE", seed=5, players=2):
    return http.call("NewGame", {"game": game, "players": players, "seed": str(seed)})


def test_the_same_answers_as_grpc(web):
    from splendor_ai_client import Client

    dealt = _new_game(web.http)
    assert dealt["status"] == {"toMove": 0, "gameOver": False, "returns": [0.0, 0.0]}  # zeros are printed
    with Client(web.target) as client:
        position = client.stub.NewGame(pb.NewGameRequest(game=pb.GAME_BASE, players=2, seed=5)).position
        grpc_moves = [m.notation for m in client.legal_actions(position).moves]
    from google.protobuf import json_format

    assert json_format.ParseDict(dealt["position"], pb.Position()) == position
    moves = web.http.call("LegalActions", {"position": dealt["position"]})["moves"]
    assert [m["notation"] for m in moves] == grpc_moves
    # proto field names are accepted as well as lowerCamelCase
    applied = web.http.call("ApplyActions", {"position": dealt["position"], "moves": [{"notation": "take wug"}],
                                             "request_id": "r1"})
    assert applied["requestId"] == "r1" and applied["applied"][0]["notation"] == "take wug"
    assert applied["status"]["toMove"] == 1


def test_invalid_argument_names_the_field(web):
    position = _new_game(web.http)["position"]
    position["base"]["seats"][1]["reserved"] = [{"card": 999}]
    status, error = web.http.unary("LegalActions", {"position": position})
    assert status == 400 and error["code"] == "invalid_argument"
    violation = detail(error, error_details_pb2.BadRequest).field_violations[0]
    assert violation.field == "position.base.seats[1].reserved[0].card"
    assert error["message"].startswith("position.base.seats[1].reserved[0].card: ")


def test_an_illegal_move_is_failed_precondition_with_the_reason(web):
    position = _new_game(web.http)["position"]
    status, error = web.http.unary("ApplyActions", {"position": position, "moves": [{"notation": "take ww"},
                                                                                     {"notation": "take ww"}]})
    assert status == 400 and error["code"] == "failed_precondition"
    violation = detail(error, error_details_pb2.PreconditionFailure).violations[0]
    assert violation.type == "ILLEGAL_MOVE" and violation.subject == "moves[1]" and violation.description


def test_json_that_is_not_the_message_is_invalid_argument_on_request(web):
    status, error = web.http.unary("NewGame", {"game": "GAME_BASE", "plyers": 2})
    assert status == 400 and error["code"] == "invalid_argument"
    assert detail(error, error_details_pb2.BadRequest).field_violations[0].field == "request"
    assert "plyers" in error["message"]
    status, _, body = web.http.request("POST", "/splendor.v1.SplendorService/NewGame", b"{not json",
                                       {"content-type": "application/json"})
    assert status == 400 and json.loads(body)["code"] == "invalid_argument"
    status, _, _ = web.http.request("POST", "/splendor.v1.SplendorService/Nope", b"{}",
                                    {"content-type": "application/json"})
    assert status == 404


def test_get_move_and_the_analyze_stream(web):
    position = _new_game(web.http, seed=9)["position"]
    reply = web.http.call("GetMove", {"position": position, "level": 2, "seed": "3"})
    assert reply["turnComplete"] and reply["moves"] and reply["status"]["toMove"] == 1
    messages, end = web.http.stream("Analyze", {"position": position, "limits": {"iterations": "3000"},
                                                "lines": 3, "reportEveryMs": 10, "seed": "1"})
    assert "error" not in end
    assert [m["final"] for m in messages] == [False] * (len(messages) - 1) + [True]
    assert [m["sequence"] for m in messages] == list(range(len(messages)))
    final = messages[-1]["stats"]
    assert int(final["iterations"]) == 3000 and len(final["lines"]) == 3
    assert final["stopReason"] == "STOP_REASON_ITERATIONS"


def test_an_error_in_a_stream_ends_it_with_the_error(web):
    position = _new_game(web.http)["position"]
    messages, end = web.http.stream("Analyze", {"position": position, "candidates": [{"notation": "buy 0"}]})
    assert messages == []
    assert end["error"]["code"] in ("failed_precondition", "invalid_argument")
    assert end["error"]["message"].startswith("candidates[0]")


def test_grpc_web_binary(web):
    request = pb.NewGameRequest(game=pb.GAME_DUEL, seed=4, request_id="w")
    data, trailers = web.http.grpc_web("NewGame", request.SerializeToString())
    assert trailers["grpc-status"] == "0"
    reply = pb.NewGameResponse.FromString(data[0])
    assert reply.request_id == "w" and reply.position.HasField("duel")
    bad = pb.LegalActionsRequest(position=pb.Position(base=pb.BasePosition(players=7)))
    data, trailers = web.http.grpc_web("LegalActions", bad.SerializeToString())
    assert data == [] and trailers["grpc-status"] == "3"  # INVALID_ARGUMENT
    import base64

    raw = trailers["grpc-status-details-bin"]
    status = status_pb2.Status.FromString(base64.b64decode(raw + "=" * (-len(raw) % 4)))
    violation = error_details_pb2.BadRequest()
    status.details[0].Unpack(violation)
    assert violation.field_violations[0].field.startswith("position.base")


def test_the_deadline_header_cuts_the_search(web):
    """Each protocol's deadline header ends a 20 s search in time to answer. The answer is due
    0.25 s before the deadline: a pause of the machine just then can make one late (the web
    server then answers deadline_exceeded itself), so each gets another try (timing.retried);
    a search that ignored the header would be late every time."""
    position = _new_game(web.http)["position"]

    def connect():
        started = time.monotonic()
        reply = web.http.call("GetMove", {"position": position, "limits": {"timeMs": "20000"}, "seed": "1"},
                              headers={"connect-timeout-ms": "2000"})
        assert time.monotonic() - started < 2.0 + PAUSE  # answered at the deadline, not after 20 s
        assert reply["searches"][0]["stopReason"] == "STOP_REASON_DEADLINE"

    def grpc_web():
        started = time.monotonic()
        data, trailers = web.http.grpc_web("GetMove", pb.GetMoveRequest(
            position=convert_position(position), limits=pb.SearchLimits(time_ms=20000), seed=1).SerializeToString(),
            headers={"grpc-timeout": "2000m"})
        assert time.monotonic() - started < 2.0 + PAUSE and trailers["grpc-status"] == "0", trailers
        assert pb.GetMoveResponse.FromString(data[0]).searches[0].stop_reason == pb.STOP_REASON_DEADLINE

    retried(connect)
    retried(grpc_web)


def convert_position(position_json) -> pb.Position:
    from google.protobuf import json_format

    return json_format.ParseDict(position_json, pb.Position())


@pytest.mark.parametrize("rpc", ["Analyze", "GetMove"])
def test_a_browser_that_goes_away_stops_the_search(web, rpc):
    """An Analyze without limits runs to --max-seconds (30 s), a GetMove of 20 s takes 20 s,
    unless the client goes: closing the connection must end the search (CANCELLED) within a
    second or two."""
    import socket
    import struct

    position = _new_game(web.http)["position"]
    rid = f"gone-{rpc}"
    if rpc == "Analyze":
        payload = json.dumps({"position": position, "reportEveryMs": 50, "requestId": rid}).encode()
        body, kind = struct.pack(">BI", 0, len(payload)) + payload, b"application/connect+json"
    else:
        body = json.dumps({"position": position, "limits": {"timeMs": "20000"}, "requestId": rid}).encode()
        kind = b"application/json"
    sock = socket.create_connection(("127.0.0.1", web.http.port))
    sock.sendall(b"POST /splendor.v1.SplendorService/" + rpc.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                 b"content-type: " + kind + b"\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    if rpc == "Analyze":
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")  # the first progress report
    else:
        time.sleep(0.5)  # the search is running
    closed = time.monotonic()
    sock.close()
    pattern = re.compile(rf"{rpc} request_id='{rid}' .* outcome=CANCELLED")
    while not pattern.search(web.text()):
        assert time.monotonic() - closed < 2.0, "the search did not stop:\n" + web.text()[-2000:]
        time.sleep(0.02)


def test_both_ports_share_the_search_slots(web):
    """Two Analyze streams over gRPC take both slots: a GetMove over HTTP is refused at once."""
    from splendor_ai_client import Client

    position = _new_game(web.http)["position"]
    with Client(web.target) as client:
        grpc_position = convert_position(position)
        streams = [client.analyze(grpc_position, time_ms=10_000, report_every_ms=50) for _ in range(2)]
        try:
            for s in streams:
                next(iter(s))  # both are running
            status, error = web.http.unary("GetMove", {"position": position, "level": 1})
            assert status == 429 and error["code"] == "resource_exhausted"
        finally:
            for s in streams:
                s.cancel()


def test_cors_is_closed_by_default(web):
    preflight = {"origin": "https://elsewhere.example", "access-control-request-method": "POST",
                 "access-control-request-headers": "content-type"}
    status, headers, _ = web.http.request("OPTIONS", "/splendor.v1.SplendorService/NewGame", headers=preflight)
    assert status == 403 and "access-control-allow-origin" not in headers
    status, headers, _ = web.http.request("POST", "/splendor.v1.SplendorService/GetCatalog", b"{}",
                                          {"content-type": "application/json", "origin": "https://elsewhere.example"})
    assert status == 200 and "access-control-allow-origin" not in headers


def test_cors_origin_lets_a_listed_page_call(spawn_module_server):
    srv = spawn_module_server("--http-port", "0", "--cors-origin", "https://game.example, http://localhost:5173")
    http = Http(http_port(srv))
    preflight = {"origin": "https://game.example", "access-control-request-method": "POST",
                 "access-control-request-headers": "content-type,connect-protocol-version,connect-timeout-ms"}
    status, headers, _ = http.request("OPTIONS", "/splendor.v1.SplendorService/GetMove", headers=preflight)
    assert status == 204 and headers["access-control-allow-origin"] == "https://game.example"
    assert {"content-type", "connect-protocol-version", "connect-timeout-ms", "grpc-timeout", "x-grpc-web",
            "authorization"} <= {h.strip() for h in headers["access-control-allow-headers"].split(",")}
    assert "POST" in headers["access-control-allow-methods"]
    status, headers, _ = http.request("POST", "/splendor.v1.SplendorService/GetCatalog", b"{}",
                                      {"content-type": "application/json", "origin": "http://localhost:5173"})
    assert status == 200 and headers["access-control-allow-origin"] == "http://localhost:5173"
    assert "grpc-status-details-bin" in headers["access-control-expose-headers"]
    status, headers, _ = http.request("OPTIONS", "/splendor.v1.SplendorService/GetMove",
                                      headers={**preflight, "origin": "https://other.example"})
    assert status == 403 and "access-control-allow-origin" not in headers


def test_the_demo_page_is_served(web):
    status, headers, body = web.http.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html") and b'src="app.js"' in body
    for name in ("app.js", "board.js", "chart.js", "clicks.js", "params.js", "splendor-ai-client.js"):
        status, headers, body = web.http.request("GET", "/" + name)
        assert status == 200 and headers["content-type"].startswith("text/javascript"), name
    status, headers, _ = web.http.request("GET", "/style.css")
    assert status == 200 and headers["content-type"].startswith("text/css")
    assert web.http.request("GET", "/../pyproject.toml")[0] == 404
    assert web.http.request("GET", "/web.py")[0] == 404


def test_the_page_travels_gzipped_and_revalidates(web):
    """A browser that takes gzip gets the page's files compressed (the bundle is most of a first
    visit); one that does not gets them as they are; a copy the browser holds is revalidated
    with its ETag (304, no body) rather than downloaded again."""
    import gzip

    from splendor_ai.service import web as web_module

    plain_status, plain_headers, plain = web.http.request("GET", "/splendor-ai-client.js")
    assert plain_status == 200 and "content-encoding" not in plain_headers
    static = web_module.resources.files(web_module.__package__) / "static"
    assert plain == (static / "splendor-ai-client.js").read_bytes()
    status, headers, packed = web.http.request("GET", "/splendor-ai-client.js",
                                               headers={"accept-encoding": "gzip, deflate, br"})
    assert status == 200 and headers["content-encoding"] == "gzip" and "Accept-Encoding" in headers["vary"]
    assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 2
    assert int(headers["content-length"]) == len(packed)
    assert "content-encoding" not in web.http.request("GET", "/splendor-ai-client.js",
                                                      headers={"accept-encoding": "gzip;q=0"})[1]
    etag = headers["etag"]
    assert etag == plain_headers["etag"] and etag.startswith('"')
    status, headers, body = web.http.request("GET", "/splendor-ai-client.js", headers={"if-none-match": etag})
    assert status == 304 and body == b"" and headers["etag"] == etag
    assert web.http.request("GET", "/app.js", headers={"if-none-match": etag})[0] == 200  # another file's tag
    assert web.http.request("HEAD", "/", headers={"accept-encoding": "gzip"})[2] == b""


def test_bearer_tokens_on_the_http_port(spawn_module_server):
    """The server's tokens guard the HTTP port too: a call without one (or with a wrong one) is
    UNAUTHENTICATED before its body is read, logged and counted; the right one passes."""
    srv = spawn_module_server("--http-port", "0", "--metrics-port", "0", env={"SPLENDOR_AI_TOKENS": "s3cret, other"})
    http = Http(http_port(srv))
    status, error = http.unary("GetCatalog", {})
    assert status == 401 and error["code"] == "unauthenticated"
    status, error = http.unary("GetCatalog", {}, headers={"authorization": "Bearer wrong"})
    assert status == 401
    status, reply = http.unary("GetCatalog", {}, headers={"authorization": "Bearer other"})
    assert status == 200 and reply["game"] == "GAME_BASE"
    data, trailers = http.grpc_web("GetCatalog", pb.GetCatalogRequest().SerializeToString())
    assert data == [] and trailers["grpc-status"] == "16"  # UNAUTHENTICATED
    assert "GetCatalog http token: 1" in srv.text()  # the first refusal's summary line, at once
    metrics = urllib.request.urlopen(srv.metrics_url, timeout=5).read().decode()
    assert 'splendor_refusals_total{port="http",reason="token"} 3.0' in metrics


def test_tls_on_the_http_port(spawn_module_server, tmp_path):
    """With --tls-cert/--tls-key the HTTP port speaks HTTPS only, with the same certificate."""
    import http.client
    import ssl

    from devcerts import Certificates

    certs = Certificates(tmp_path)
    srv = spawn_module_server("--http-port", "0", "--tls-cert", certs.path("server.pem"), "--tls-key",
                              certs.path("server.key"))
    assert "demo page on https://" in srv.text()
    port = http_port(srv)
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                       context=ssl.create_default_context(cafile=certs.path("ca.pem")))
    conn.request("POST", "/splendor.v1.SplendorService/GetCatalog", b'{"game": "GAME_DUEL"}',
                 {"content-type": "application/json"})
    reply = conn.getresponse()
    assert reply.status == 200 and json.loads(reply.read())["game"] == "GAME_DUEL"
    conn.close()
    with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
        Http(port).request("GET", "/", timeout=5)


def test_settings_check_the_http_flags():
    assert Settings(http_port=0, cors_origin="*").http_port == 0
    with pytest.raises(ValueError, match="http_port"):
        Settings(http_port=70000)
    with pytest.raises(ValueError, match="cors_origin: 'game.example' is not an origin"):
        Settings(cors_origin="game.example")
    with pytest.raises(ValueError, match="cors_origin"):
        Settings(cors_origin="https://game.example/path")


def test_sigterm_stops_the_http_port_too(spawn_module_server):
    srv = spawn_module_server("--http-port", "0", "--grace", "2")
    http = Http(http_port(srv))
    position = _new_game(http)["position"]
    out = {}

    def analyze():  # running when SIGTERM comes: answers with what it found
        out["reply"] = http.stream("Analyze", {"position": position})

    worker = threading.Thread(target=analyze)
    worker.start()
    time.sleep(0.3)
    assert srv.terminate(timeout=10) == 0
    worker.join(5)
    messages, end = out["reply"]
    assert "error" not in end and messages[-1]["final"]
    assert messages[-1]["stats"]["stopReason"] == "STOP_REASON_CANCELLED"

