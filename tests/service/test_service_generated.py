"""The generated code is what scripts/gen_proto.sh makes of proto/ now, and the client
stands alone (grpcio, protobuf and googleapis-common-protos only)."""
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "client" / "splendor" / "v1"


def test_generated_code_is_not_stale(tmp_path):
    env = dict(os.environ, PYTHON=sys.executable)
    subprocess.run(["bash", str(ROOT / "scripts" / "gen_proto.sh"), str(tmp_path)], check=True, env=env)
    fresh = {p.name: p.read_bytes() for p in (tmp_path / "splendor" / "v1").iterdir()}
    committed = {p.name: p.read_bytes() for p in GENERATED.iterdir() if p.name != "__init__.py"
                 and p.suffix in (".py", ".pyi")}
    # Messages for every .proto file of the package, stubs for the one with the service.
    protos = sorted(p.stem for p in (ROOT / "proto" / "splendor" / "v1").glob("*.proto"))
    assert "splendor" in protos and len(protos) > 1
    assert set(fresh) == {f"{name}_pb2{ext}" for name in protos for ext in (".py", ".pyi")} | {"splendor_pb2_grpc.py"}
    stale = sorted(name for name in fresh.keys() | committed.keys() if fresh.get(name) != committed.get(name))
    assert not stale, f"{stale} differ from proto/: run scripts/gen_proto.sh and commit the result"


def test_grpcio_tools_is_pinned_exactly_for_reproducible_output():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pins = [d for d in extra if d.startswith("grpcio-tools")]
    assert len(pins) == 1 and "==" in pins[0]


def test_the_client_depends_only_on_grpc_and_protobuf():
    deps = tomllib.loads((ROOT / "client" / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("<")[0].strip() for d in deps}
    assert names == {"grpcio", "protobuf", "googleapis-common-protos"}
    code = ("import sys, grpc, google.protobuf, google.rpc.status_pb2; "
            "before = {m.split('.')[0] for m in sys.modules}; import splendor_ai_client; "
            "print(sorted({m.split('.')[0] for m in sys.modules} - before - set(sys.stdlib_module_names)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    assert out.stdout.strip() == "['splendor', 'splendor_ai_client']", out.stdout
