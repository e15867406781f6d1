"""docs/protocol.md's curl calls over the HTTP port work as curl makes them (with curl itself
where it is installed), the shown error is the one the server gives, and the HTTP flags are
documented."""
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")

from web_helpers import Http, http_port  # noqa: E402

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def _curl_calls():
    """(argv, the output shown after it or "") for each "$ curl" of the curl section."""
    block = DOC.split("### curl, over the browser protocol", 1)[1].split("```console", 1)[1].split("```", 1)[0]
    calls = []
    for line in block.splitlines():
        if line.startswith("$ "):
            calls.append([line[2:], ""])
        elif line.startswith("    ") and calls and not calls[-1][1]:
            calls[-1][0] += "\n" + line
        elif line.strip() and calls:
            calls[-1][1] += line
    return [(shlex.split(c.replace("\\\n", " ")), shown) for c, shown in calls]


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    from conftest import ServerProcess

    srv = ServerProcess(tmp_path_factory.mktemp("webdocs") / "server.log", "--http-port", "0")
    yield srv
    srv.kill()


def _run(argv, port):
    """The call as curl makes it: with curl if it is here, else the same request by hand."""
    url = argv[-1].replace("localhost:8080", f"127.0.0.1:{port}")
    if shutil.which("curl"):
        out = subprocess.run([*argv[:-1], url], capture_output=True, text=True, timeout=60, check=True).stdout
        return json.loads(out)
    headers = dict(h.split(": ", 1) for h in (argv[i + 1] for i, a in enumerate(argv) if a == "-H"))
    data = argv[argv.index("-d") + 1]
    _, _, body = Http(port).request("POST", url.split(str(port), 1)[1], data.encode(), headers)
    return json.loads(body)


def test_the_curl_calls_work(web):
    calls = _curl_calls()
    assert len(calls) >= 4
    port = http_port(web)
    methods = set()
    for argv, shown in calls:
        assert argv[:2] == ["curl", "-s"] and "content-type: application/json" in argv, argv
        assert argv[-1].startswith("http://localhost:8080/splendor.v1.SplendorService/"), argv
        json.loads(argv[argv.index("-d") + 1])  # the body is JSON
        reply = _run(argv, port)
        method = argv[-1].rsplit("/", 1)[1]
        methods.add(method)
        if shown:
            assert reply == json.loads(shown)
        else:
            assert "code" not in reply, reply
            if method == "GetMove":
                assert reply["moves"] and "turnComplete" in reply  # a view: a blind reserve stops the turn
    assert {"NewGame", "GetCatalog", "GetMove", "ApplyActions"} <= methods


def test_the_curl_get_move_is_the_grpcurl_one():
    from test_service_docs import _grpcurl_calls

    grpcurl = next(c for c in _grpcurl_calls() if c[-1].endswith("/GetMove"))
    curl = next(argv for argv, _ in _curl_calls() if argv[-1].endswith("/GetMove"))
    assert json.loads(curl[curl.index("-d") + 1]) == json.loads(grpcurl[grpcurl.index("-d") + 1])


@pytest.mark.parametrize("flag", ["--http-port", "--cors-origin"])
def test_the_http_flags_are_documented(flag):
    env = "SPLENDOR_AI_" + flag[2:].replace("-", "_").upper()
    assert re.search(rf"\| `{flag}` \| `{env}` \|", DOC)
    assert flag in DOC.split("## Running the server", 1)[1].split("```", 2)[1]
