"""Every code block of README.md and docs/*.md runs (issue 70): the Python blocks of each page in
order, in one namespace per page (as a reader would type them), against real servers; JSON
blocks parse; the blocks of other kinds are run by the test named for them here, and a block
that is in no list fails. The address the pages use (localhost:50551, the default port) is
replaced by the test server's."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "client" / "js" / "README.md"]
FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)

# Blocks of other kinds, and the test that runs them (or why they are not code).
ELSEWHERE = {
    ("README.md", "text"): "tests/service/test_service_snippets.py::test_the_readme_transcript_is_the_programs",
    ("README.md", "js"): "tests/service/test_service_js_client.py (the Node example, against a real server)",
    ("web.md", "js"): "tests/service/test_service_js_client.py (the Node example and the fetch calls)",
    ("web.md", "html"): "tests/service/test_service_js_client.py (the browser example, in Chromium)",
    ("client/js/README.md", "ts"): "client/js/test (the package's own tests call the same API)",
    ("client/js/README.md", "html"): "tests/service/test_service_js_client.py (the browser example, in Chromium)",
    ("protocol.md", "console"): "tests/service/test_service_docs.py::test_the_grpcurl_calls_work_through_reflection "
                                "and tests/service/test_service_web_docs.py::test_the_curl_calls_work",
    ("analysis.md", "console"): "tests/analysis/test_analysis_batch.py (the commands' outputs)",
    ("deploy.md", "yaml"): "a Prometheus configuration for the reader's scraper, not code of this project",
    ("architecture.md", ""): "the layout and the game interface: tests/test_architecture.py",
    ("learned.md", ""): "the .splnn file layout, checked by tests/nn/test_nn.py",
    ("protocol.md", ""): "the command's synopsis, checked by tests/service/test_service_docs.py",
    ("reasons.md", "text"): "the interface's listing: tests/reasons/test_reasons_api.py::"
                            "test_the_documented_interface_is_the_code_s",
}
# Python blocks another test runs with what they need (a player's input, a game's record).
PYTHON_ELSEWHERE = {"protocol.md": "tests/service/test_service_docs.py::test_the_python_examples_run and "
                                   "tests/service/test_service_analyze_game.py::test_the_documented_example_runs"}


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix().removeprefix("docs/")


def blocks(page: Path) -> list[tuple[str, str, int]]:
    text = page.read_text()
    return [(m.group(1), m.group(2), text[:m.start()].count("\n") + 1) for m in FENCE.finditer(text)]


def test_every_block_is_run_somewhere():
    unknown = []
    for page in PAGES:
        for lang, _, line in blocks(page):
            if lang in ("python", "json"):
                continue
            if (_name(page), lang) not in ELSEWHERE:
                unknown.append(f"{_name(page)}:{line} ({lang or 'no language'})")
    assert not unknown, "code blocks no test runs (run them here, or name the test in ELSEWHERE):\n" + \
        "\n".join(unknown)


@pytest.mark.parametrize("page", [p for p in PAGES if any(lang == "json" for lang, _, _ in blocks(p))],
                         ids=_name)
def test_the_json_blocks_parse(page):
    for _, code, line in (b for b in blocks(page) if b[0] == "json"):
        try:
            json.loads(code)
        except json.JSONDecodeError as exc:
            pytest.fail(f"{_name(page)}:{line}: not JSON ({exc})")


@pytest.fixture(scope="module")
def spawn_module_tls(tmp_path_factory):
    from conftest import ServerProcess
    from devcerts import Certificates

    d = tmp_path_factory.mktemp("snippet-tls")
    certs = Certificates(d)
    srv = ServerProcess(d / "server.log", "--tls-cert", certs.path("server.pem"), "--tls-key", certs.path("server.key"))
    srv.certs = certs
    yield srv
    srv.kill()


def _workdir(tmp_path, certs) -> Path:
    """The files the pages' examples open, as a reader would have them: the test CA and client
    certificate (deploy.md), a recorded game (records.md)."""
    import shutil

    from splendor_ai.games import load_game
    from splendor_ai.records import make_record, save

    for name in ("ca.pem", "client.pem", "client.key"):
        shutil.copy(certs.path(name), tmp_path / name)
    state = load_game("base", 2).new_initial_state(7)
    actions = []
    for _ in range(12):
        a = state.legal_actions()[0]
        actions.append(state.action_to_string(a))
        state.apply_action(a)
    save(make_record("base", 2, seed=7, actions=actions), tmp_path / "game.json")
    return tmp_path


def python_pages():
    return [p for p in PAGES if _name(p) not in PYTHON_ELSEWHERE and any(lang == "python" for lang, _, _ in blocks(p))]


@pytest.mark.parametrize("page", python_pages(), ids=_name)
def test_the_python_blocks_run(page, server, spawn_module_tls, tmp_path, monkeypatch, capsys):
    cwd = _workdir(tmp_path, spawn_module_tls.certs)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("SPLENDOR_TOKEN", "a-token")
    namespace: dict = {"__name__": "__doc_example__"}
    for lang, code, line in blocks(page):
        if lang != "python":
            continue
        # TLS examples talk to the TLS server (its certificate carries 127.0.0.1), the others to the plain one
        target = spawn_module_tls.target if "root_certificates" in code else server.target
        runnable = code.replace("localhost:50551", target)
        try:
            exec(compile(runnable, f"{_name(page)}:{line}", "exec"), namespace)
        except Exception as exc:  # the block's own failure, named by its page and line
            pytest.fail(f"{_name(page)}:{line}: {type(exc).__name__}: {exc}")
    capsys.readouterr()


def test_the_readme_transcript_is_the_programs():
    """README.md's `play` transcript is what the program prints for the seed and input named."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "readme_transcript.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr + out.stdout
