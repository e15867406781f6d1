"""The TypeScript client (client/js, the npm package splendor-ai-client) from pytest: its
dependencies installed (`npm ci`, once per package-lock.json), its generated code and its
browser bundle fresh, its Node tests (`node --test`, against real servers for the three games)
passing, and the Node and browser examples of README.md and docs/web.md running against a real
server (the browser one under Node's fetch, and in headless Chromium where it is installed).

Skipped, with the reason, only where Node 18+ and npm cannot be had; in CI ($CI set) their
absence fails (.ci/run installs them from Debian)."""
from __future__ import annotations

import fcntl
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "client" / "js"
BUNDLE = JS / "browser" / "splendor-ai-client.js"
PAGE_COPY = ROOT / "splendor_ai" / "service" / "static" / "splendor-ai-client.js"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
MIN_NODE = 18


def _need(problem: str):
    if IN_CI:
        pytest.fail(f"{problem}: CI must run the TypeScript client's tests (.ci/run installs nodejs and npm)")
    pytest.skip(f"{problem} (apt-get install -y nodejs npm; .ci/run installs them)")


def _run(argv, *, cwd=JS, timeout=300, env=None, check=True) -> subprocess.CompletedProcess:
    try:
        out = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{' '.join(map(str, argv))} ran over {timeout} s:\n{exc.stdout}\n{exc.stderr}")
    if check and out.returncode != 0:
        pytest.fail(f"{' '.join(map(str, argv))} failed ({out.returncode}):\n"
                    f"{out.stdout[-6000:]}\n{out.stderr[-6000:]}")
    return out


class Node:
    def __init__(self, node: str, npm: str):
        self.node, self.npm = node, npm
        bin_dir = str(JS / "node_modules" / ".bin")
        node_dir = str(Path(node).resolve().parent)
        self.env = dict(os.environ, PATH=os.pathsep.join([bin_dir, node_dir, os.environ.get("PATH", "")]),
                        SPLENDOR_AI_PYTHON=sys.executable)


@pytest.fixture(scope="module")
def js() -> Node:
    """Node and npm, the package's dependencies installed and its TypeScript compiled to dist/."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        _need("the TypeScript client's tests need Node.js and npm, and " +
              ("neither is" if not node and not npm else f"{'node' if not node else 'npm'} is not") + " installed")
    version = _run([node, "--version"]).stdout.strip()
    major = int(re.match(r"v(\d+)", version).group(1))
    if major < MIN_NODE:
        _need(f"the TypeScript client needs Node {MIN_NODE} or later, this is {version}")
    tools = Node(node, npm)
    lock = JS / "package-lock.json"
    stamp_path = JS / "node_modules" / ".splendor-ai-stamp"
    stamp = hashlib.sha256(lock.read_bytes() + (JS / "package.json").read_bytes() + version.encode()).hexdigest()
    # Other test runs in this tree may build at the same time: one at a time.
    lock_file = Path(tempfile.gettempdir()) / f"splendor-ai-js-{hashlib.sha1(str(JS).encode()).hexdigest()[:12]}.lock"
    with open(lock_file, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not stamp_path.exists() or stamp_path.read_text() != stamp:
            # npm ci: exactly package-lock.json; --prefer-offline reuses npm's cache (CI caches ~/.npm).
            _run([npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"], timeout=600, env=tools.env)
            stamp_path.write_text(stamp)
        _run([node, JS / "node_modules" / "typescript" / "bin" / "tsc", "-p", "tsconfig.json"], env=tools.env)
    return tools


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_dependencies_are_pinned_exactly():
    package = json.loads((JS / "package.json").read_text())
    locked = json.loads((JS / "package-lock.json").read_text())["packages"]
    deps = {**package["dependencies"], **package["devDependencies"]}
    for name in ("@bufbuild/protobuf", "@bufbuild/protoc-gen-es", "@bufbuild/buf", "@connectrpc/connect",
                 "@connectrpc/connect-web", "@connectrpc/connect-node", "typescript", "esbuild"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", deps[name]), f"{name} {deps[name]} is not an exact version"
        assert locked[f"node_modules/{name}"]["version"] == deps[name], f"package-lock.json disagrees on {name}"
    assert package["engines"]["node"] == f">={MIN_NODE}"


def test_the_generated_code_is_not_stale(js, tmp_path):
    """What buf's protoc-gen-es makes of proto/ now is what src/gen/ holds."""
    _run([JS / "node_modules" / ".bin" / "buf", "generate", "--template", "buf.gen.yaml", "-o", tmp_path],
         env=js.env)
    fresh, committed = _files(tmp_path / "src" / "gen"), _files(JS / "src" / "gen")
    protos = sorted(p.stem for p in (ROOT / "proto" / "splendor" / "v1").glob("*.proto"))
    assert set(fresh) == {f"splendor/v1/{name}_pb.ts" for name in protos} | {"google/rpc/error_details_pb.ts"}
    stale = sorted(name for name in fresh.keys() | committed.keys() if fresh.get(name) != committed.get(name))
    assert not stale, f"{stale} differ from proto/: run `npm run generate` in client/js and commit the result"


def test_the_browser_bundle_is_fresh(js, tmp_path):
    """browser/splendor-ai-client.js (committed, what pages load) is what the sources build; so is
    the demo page's copy, where it has one."""
    out = tmp_path / "bundle.js"
    _run([js.node, JS / "scripts" / "bundle.mjs", out], env=js.env)
    assert out.read_bytes() == BUNDLE.read_bytes(), \
        "client/js/browser/splendor-ai-client.js is stale: run `npm run build` in client/js and commit it"
    if PAGE_COPY.exists():
        assert PAGE_COPY.read_bytes() == BUNDLE.read_bytes(), \
            f"{PAGE_COPY.relative_to(ROOT)} differs from client/js/browser/splendor-ai-client.js: copy it again"


def test_the_node_tests_pass(js):
    """node --test test/*.test.mjs: every method for the three games, errors naming the field,
    cancel, deadlines, Busy, the protocols, tokens, the bundle; each file starts its own server."""
    tests = sorted(str(p.relative_to(JS)) for p in (JS / "test").glob("*.test.mjs"))
    assert len(tests) >= 3
    started = time.monotonic()
    out = _run([js.node, "--test", "--test-reporter=tap", *tests], timeout=300, env=js.env, check=False)
    text = out.stdout + out.stderr
    counts = {k: int(v) for k, v in re.findall(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", text, re.M)}
    failed = "\n".join(re.findall(r"^\s*not ok .*$", text, re.M))
    assert out.returncode == 0 and counts.get("fail") == 0, f"the Node tests failed:\n{failed}\n\n{text[-12000:]}"
    assert counts["pass"] == counts["tests"] >= 40 and counts["skipped"] == counts["cancelled"] == 0, counts
    print(f"{counts['pass']} Node tests passed in {time.monotonic() - started:.1f} s")


# ------------------------------------------------------------------- the docs' examples

NODE_EXAMPLE = re.compile(r"```js\n(// node example\.mjs.*?)```\n", re.S)
BROWSER_EXAMPLE = re.compile(r"```html\n(<script type=\"module\">\n(.*?)</script>\n)```\n", re.S)
DOC_URL = "http://localhost:8080"


def _examples():
    readme, web = (ROOT / "README.md").read_text(), (ROOT / "docs" / "web.md").read_text()
    node = [m.group(1) for m in NODE_EXAMPLE.finditer(readme)] + [m.group(1) for m in NODE_EXAMPLE.finditer(web)]
    assert len(node) == 2, "README.md and docs/web.md each have one Node example (```js starting // node example.mjs)"
    assert node[0] == node[1], "the Node examples of README.md and docs/web.md differ"
    browser = list(BROWSER_EXAMPLE.finditer(web))
    assert len(browser) == 1, "docs/web.md has one browser example (```html with a <script type=\"module\">)"
    return node[0], browser[0].group(1), browser[0].group(2)


def test_the_docs_examples_are_about_ten_lines():
    node, _, script = _examples()
    for code in (node, script):
        assert DOC_URL in code
        assert 8 <= len(code.strip().splitlines()) <= 14


@pytest.fixture(scope="module")
def example_server(tmp_path_factory):
    pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")
    from conftest import ServerProcess
    from web_helpers import http_port

    srv = ServerProcess(tmp_path_factory.mktemp("js-examples") / "server.log", "--http-port", "0",
                        "--cors-origin", "*", "--max-concurrent", "4", "--max-threads", "1", "--grace", "1")
    yield f"http://127.0.0.1:{http_port(srv)}"
    srv.kill()
    assert "Traceback" not in srv.text() and "outcome=INTERNAL" not in srv.text(), srv.text()


def test_the_node_example_runs(js, example_server, tmp_path):
    """In an app of its own, the package installed as the README says: `npm pack`'s tarball (a
    copy of the package's files, with its dependencies), not a link to the source tree."""
    node, _, _ = _examples()
    packed = _run([js.npm, "pack", "--pack-destination", tmp_path, "--no-audit", "--no-fund"], cwd=JS, timeout=600,
                  env=js.env).stdout.strip().splitlines()[-1]
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "version": "1.0.0", "private": true, "type": "module"}')
    _run([js.npm, "install", tmp_path / packed, "--no-audit", "--no-fund", "--prefer-offline"], cwd=app, timeout=600,
         env=js.env)
    installed = app / "node_modules" / "splendor-ai-client"
    assert installed.is_dir() and not installed.is_symlink() and (installed / "dist" / "node.js").is_file()
    tmp_path = app
    (tmp_path / "example.mjs").write_text(node.replace(DOC_URL, example_server))
    out = _run([js.node, "example.mjs"], cwd=tmp_path, timeout=120, env=js.env).stdout
    assert re.search(r"^the AI plays \S", out, re.M), out
    assert re.search(r"^\[ '.+ \d+\.\d%'", out, re.M), out
    assert "refused: moves[0].notation" in out, out


def test_the_browser_example_runs_under_node_fetch(js, example_server, tmp_path):
    """The page's script as it is, with the bundle: the same fetch transport a browser uses."""
    _, _, script = _examples()
    code = script.replace(DOC_URL, example_server).replace('"./splendor-ai-client.js"', json.dumps(BUNDLE.as_uri()))
    (tmp_path / "page.mjs").write_text(code)
    out = _run([js.node, "page.mjs"], cwd=tmp_path, timeout=120, env=js.env).stdout
    assert re.search(r"^the AI plays \S", out, re.M), out
    assert re.search(r"^\d+ iterations, best \S+", out, re.M), out


def test_the_browser_example_runs_in_chromium(js, example_server, tmp_path):
    """The page itself in headless Chromium, served from another origin than the server's port
    (so through CORS, as a web app calls it), the bundle next to it."""
    pytest.importorskip("selenium", reason="the browser tests need selenium (the test extra)")
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; "
                    ".ci/run installs them); the example ran under Node's fetch instead")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    _, page, _ = _examples()
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html>\n" + page.replace(DOC_URL, example_server))
    shutil.copy(BUNDLE, site / "splendor-ai-client.js")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kw):
            super().__init__(*args, directory=str(site), **kw)

        def log_message(self, *args):
            pass

    files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=files.serve_forever, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(f"http://127.0.0.1:{files.server_address[1]}/index.html")
        seen, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            seen += [e["message"] for e in driver.get_log("browser")]
            if any("iterations, best" in m for m in seen) and any("the AI plays" in m for m in seen):
                break
            if _errors(seen):
                break
            time.sleep(0.2)
        time.sleep(1.5)  # the analysis runs 1 s, then the loop ends
        seen += [e["message"] for e in driver.get_log("browser")]
    finally:
        driver.quit()
        files.shutdown()
    text = "\n".join(seen)
    assert "the AI plays" in text and re.search(r"\d+ iterations, best \w", text), text
    assert not _errors(seen), text


def _errors(messages):
    return [m for m in messages if ("Uncaught" in m or "Error" in m) and "favicon" not in m]


def test_the_bench_runs_the_typescript_client(js, tmp_path):
    """`python scripts/bench_web_ts.py` (its figures are in BENCHMARKS.md, never checked here): three
    positions per budget, the section written to a scratch file."""
    pytest.importorskip("connectrpc", reason="the HTTP port needs the 'web' extra (connectrpc, uvicorn)")
    out_file = tmp_path / "B.md"
    out = _run([sys.executable, str(ROOT / "scripts" / "bench_web_ts.py"), "--calls", "3", "--js", JS,
                "--write", out_file],
               cwd=tmp_path, timeout=300, env=js.env).stdout
    rows = re.findall(r"^\| GetMove, (1|1,000) iterations?: (the whole call|beyond the search) \|"
                      r"( [\d.]+ / [\d.]+ ms \|){3}( [\d.]+x \|){2}$", out, re.M)
    assert len(rows) == 4, out
    section = out_file.read_text()
    assert "<!-- bench:web-ts -->" in section and "Node v" in section and "--calls 3 --write" in section


def test_an_app_type_checks_against_the_package(js, tmp_path):
    """The types ship with the package and resolve through its "exports", for Node (NodeNext) and
    for bundlers (Bundler): an app's TypeScript using the API type-checks; a wrong call does not."""
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "splendor-ai-client").symlink_to(JS, target_is_directory=True)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    app = '''
import { SplendorClient, InvalidArgument, Game, type GetMoveResponse, type Position } from "splendor-ai-client";

const ai = new SplendorClient({ baseUrl: "http://localhost:8080", token: "t", timeoutMs: 5000 });
const dealt = await ai.newGame({ game: "duel", players: 2, seed: 7n });
const position: Position = dealt.position!;
const turn: GetMoveResponse = await ai.getMove(position, { level: 5, signal: new AbortController().signal });
const names: string[] = turn.moves.map((m) => m.notation);
for await (const report of ai.analyze(position, { iterations: 1000, lines: 3 })) {
  const p: number | undefined = report.stats?.lines[0]?.winProbability;
}
const cat = await ai.getCatalog(Game.MARVEL);
if (cat.catalog.case === "marvel") console.log(cat.catalog.value.locations.length);
try { await ai.applyActions(position, ["take wug"]); } catch (e) {
  if (e instanceof InvalidArgument) console.log(e.field, e.fieldViolations[0]?.description, e.codeName);
}
'''
    (tmp_path / "app.ts").write_text(app)
    tsc = [js.node, JS / "node_modules" / "typescript" / "bin" / "tsc", "--noEmit", "--strict", "--target", "es2022",
           "--skipLibCheck", "--types", "node", "--typeRoots", JS / "node_modules" / "@types", "app.ts"]
    for resolution in (["--module", "nodenext", "--moduleResolution", "nodenext"],
                       ["--module", "esnext", "--moduleResolution", "bundler"]):
        out = _run([*tsc, *resolution], cwd=tmp_path, env=js.env, check=False)
        assert out.returncode == 0, out.stdout + out.stderr
    (tmp_path / "app.ts").write_text(app + '\nawait ai.getMove(position, { level: "five" });\n')
    out = _run([*tsc, "--module", "nodenext", "--moduleResolution", "nodenext"], cwd=tmp_path, env=js.env,
               check=False)
    assert out.returncode != 0 and "app.ts(18," in out.stdout and "not assignable to type 'number'" in out.stdout, \
        out.stdout
