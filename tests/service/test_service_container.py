"""The container's install steps, run as the Dockerfile runs them, in fresh virtual environments.

No container tool can build the image on the machines this suite runs on (podman installs
from Debian, but the base image python:3.11-slim cannot be pulled: no registry but PyPI,
Debian's and npm's is reachable; see docs/deploy.md). So this test does what the Dockerfile
does, from the same lines: the build context as .dockerignore leaves it, `pip wheel` of the
client and the server with its extras into a wheel folder, `pip install --no-index
--find-links` of those wheels alone into a fresh environment, then the installed
`splendor-ai serve` with its HTTP port (the `web` extra) and the installed `splendor-ai health`
as the HEALTHCHECK runs it. Slow: it compiles the Cython cores (about 2 minutes on 2 cores).
"""
import fnmatch
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
import urllib.request
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def dockerignored(rel: str, patterns: list[str]) -> bool:
    """Whether .dockerignore leaves ``rel`` (a path relative to the context) out: patterns
    match from the context's root, ``**/`` any number of folders (Docker's rules, without
    ``!`` exceptions, which the file does not use)."""
    parts = rel.split("/")
    for pattern in patterns:
        if pattern.startswith("**/"):
            tail = pattern[3:]
            if any(fnmatch.fnmatchcase("/".join(parts[i:]), tail) for i in range(len(parts))):
                return True
        elif fnmatch.fnmatchcase(rel, pattern) or any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern)
                                                      for i in range(1, len(parts))):
            return True
    return False


def build_context(dest: Path) -> Path:
    """The repository as `COPY . .` sees it: without what .dockerignore names."""
    patterns = [ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()
                if ln.strip() and not ln.startswith("#")]
    assert not any(p.startswith("!") for p in patterns), "dockerignored() does not handle ! exceptions"
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if not dockerignored(rel_dir + d, patterns)]
        for name in filenames:
            rel = rel_dir + name
            if not dockerignored(rel, patterns):
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / rel, dest / rel, follow_symlinks=False)
    return dest


def test_dockerignore_leaves_out_local_builds_and_keeps_the_sources():
    patterns = [ln.strip() for ln in (ROOT / ".dockerignore").read_text().splitlines()
                if ln.strip() and not ln.startswith("#")]
    for rel in (".git/HEAD", "build/cython/x.c", "client/build/lib/x.py", "client/js/node_modules/a/b.js",
                "splendor_ai/_core/base.cpython-311-x86_64-linux-gnu.so", "ext/base.c", "splendor_ai/__pycache__/x.pyc",
                "splendor_ai.egg-info/PKG-INFO", "client/splendor_ai_client.egg-info/PKG-INFO"):
        assert dockerignored(rel, patterns), rel
    for rel in ("ext/base.pyx", "ext/nn_kernels.h", "setup.py", "pyproject.toml", "client/pyproject.toml",
                "client/splendor/v1/splendor_pb2.py", "splendor_ai/nets/base.splnn",
                "splendor_ai/service/static/index.html"):
        assert not dockerignored(rel, patterns), rel


def _run(cmd, cwd, env, timeout=600):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd}: exit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.mark.slow
def test_the_dockerfile_install_steps_give_a_server_with_its_http_port_and_health_check(tmp_path):
    wheel = re.search(r"^RUN (pip wheel [^\n]*)$", DOCKERFILE, re.M)
    install = re.search(r"^RUN (pip install [^\n]*?) \\$", DOCKERFILE, re.M)
    health = re.search(r'^HEALTHCHECK .*CMD (\[.*\])$', DOCKERFILE, re.M)
    assert wheel and install and health, "the Dockerfile no longer has the lines this test runs"
    assert "'.[web]'" in wheel.group(1) and "'splendor-ai[web]'" in install.group(1)  # item 11: the web extra
    context = build_context(tmp_path / "src")
    # The environment of a fresh image: none of this checkout on the path, no server settings.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPLENDOR_AI_", "PYTHON"))}
    builder, runtime = tmp_path / "build-env", tmp_path / "runtime"
    for env_dir in (builder, runtime):
        venv.EnvBuilder(with_pip=True).create(env_dir)
    wheels = tmp_path / "wheels"
    # Stage 1: `pip wheel ... --wheel-dir /wheels ./client '.[web]'` in the context.
    cmd = [str(builder / "bin" / "python"), "-m", *shlex.split(wheel.group(1).replace("/wheels", str(wheels)))]
    _run(cmd, context, env, timeout=900)
    built = sorted(p.name for p in wheels.glob("*.whl"))
    assert any(n.startswith("splendor_ai-") for n in built) and any(n.startswith("splendor_ai_client-") for n in built)
    assert any(n.startswith("uvicorn-") for n in built) and any(n.startswith("connectrpc-") for n in built)
    # Stage 2: the wheels alone (--no-index), into an environment that has never seen the sources.
    cmd = [str(runtime / "bin" / "python"), "-m", *shlex.split(install.group(1).replace("/wheels", str(wheels)))]
    _run(cmd, tmp_path, env)
    where = _run([str(runtime / "bin" / "python"), "-c", "import splendor_ai, splendor_ai._core.search as s; "
                  "print(splendor_ai.__file__); print(s.__file__)"], tmp_path, env).stdout
    assert all(line.startswith(str(runtime)) for line in where.split()), where  # the installed package, compiled

    log_path = tmp_path / "serve.log"
    bin_dir = runtime / "bin"
    run_env = {**env, "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "SPLENDOR_AI_HTTP_PORT": "0"}
    with open(log_path, "w") as log:
        server = subprocess.Popen([str(bin_dir / "splendor-ai"), "serve", "--host", "127.0.0.1", "--port", "0"],
                                  stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path, env=run_env)
    try:
        deadline = time.monotonic() + 60
        while True:
            text = log_path.read_text()
            grpc_port = re.search(r"listening on \S+:(\d+)", text)
            http_port = re.search(r"http://\S+?:(\d+)/", text)
            if grpc_port and http_port:
                break
            assert server.poll() is None and time.monotonic() < deadline, text
            time.sleep(0.1)
        # The HEALTHCHECK's command, as the image runs it (SPLENDOR_AI_PORT set by its ENV).
        argv = [a.strip().strip('"') for a in health.group(1).strip("[]").split(",")]
        proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=30,
                              env={**run_env, "SPLENDOR_AI_PORT": grpc_port.group(1)})
        assert proc.returncode == 0 and "SERVING" in proc.stdout, proc.stderr
        page = urllib.request.urlopen(f"http://127.0.0.1:{http_port.group(1)}/", timeout=10)
        assert page.status == 200 and b"<html" in page.read().lower()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    assert "Traceback" not in log_path.read_text(), log_path.read_text()

