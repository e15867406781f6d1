"""docs/protocol.md stays true: every message and field is described, the grpcurl calls
work as grpcurl would make them (through reflection), and the Python examples run."""
import json
import random
import re
import shlex
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pool, json_format, message_factory
from splendor.v1 import splendor_pb2 as pb

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
PROTO_DIR = Path(__file__).resolve().parents[2] / "proto" / "splendor" / "v1"


def _sections() -> dict:
    parts = re.split(r"^### (\w+)\s*$", DOC, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _package_files():
    """splendor.proto and the files it imports publicly (the messages by topic)."""
    files = [pb.DESCRIPTOR, *pb.DESCRIPTOR.public_dependencies]
    assert {f.package for f in files} == {"splendor.v1"}
    return files


def test_every_message_and_field_is_documented():
    sections = _sections()
    messages = {name: m for f in _package_files() for name, m in f.message_types_by_name.items()}
    defined = {m for p in PROTO_DIR.glob("*.proto") for m in re.findall(r"^message (\w+)", p.read_text(), re.M)}
    assert set(messages) == defined
    for name, message in messages.items():
        assert name in sections, f"docs/protocol.md has no section for {name}"
        for field in message.fields:
            assert f"| `{field.name}` |" in sections[name], f"{name}.{field.name} is not documented"
    for enum in [*(e for f in _package_files() for e in f.enum_types_by_name.values()),
                 *(e for m in messages.values() for e in m.enum_types)]:
        for value in enum.values:
            assert f"`{value.name}`" in DOC, f"{enum.full_name}.{value.name} is not documented"


def test_the_facade_exports_every_message_of_the_package():
    """Old imports keep working: `splendor_pb2.X` for every message and enum, whichever file
    defines it (`import public`), and every file of proto/ is one of them."""
    files = _package_files()
    assert {f.name for f in files} == {f"splendor/v1/{p.name}" for p in PROTO_DIR.glob("*.proto")}
    for f in files:
        for name in [*f.message_types_by_name, *f.enum_types_by_name]:
            assert getattr(pb, name).DESCRIPTOR.full_name == f"splendor.v1.{name}"
    for method in pb.DESCRIPTOR.services_by_name["SplendorService"].methods:
        assert f"| `{method.name}` |" in DOC


def _grpcurl_calls():
    """The documented commands: a line starting with "$ ", plus its lines indented by 4."""
    block = DOC.split("### grpcurl, through reflection", 1)[1].split("```console", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append(line[2:])
        elif line.startswith("    ") and commands:
            commands[-1] += "\n" + line
    return [shlex.split(c.replace("\\\n", " ")) for c in commands]


def test_the_grpcurl_calls_work_through_reflection(server):
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

    calls = _grpcurl_calls()
    assert len(calls) >= 5
    with grpc.insecure_channel(server.target) as channel:
        pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        for argv in calls:
            assert argv[:2] == ["grpcurl", "-plaintext"], argv
            if argv[-1] == "list":
                listed = set(DOC.split("localhost:50551 list", 1)[1].split("$", 1)[0].split())
                assert listed == set(ProtoReflectionDescriptorDatabase(channel).get_services())
                continue
            if argv[-2] == "describe":
                pool.FindMessageTypeByName(argv[-1])
                continue
            data = json.loads(argv[argv.index("-d") + 1])
            service_name, method_name = argv[-1].rsplit("/", 1)
            method = pool.FindServiceByName(service_name).methods_by_name[method_name]
            request_cls = message_factory.GetMessageClass(method.input_type)
            response_cls = message_factory.GetMessageClass(method.output_type)
            request = json_format.ParseDict(data, request_cls())
            path = f"/{service_name}/{method_name}"
            if method.server_streaming:
                rpc = channel.unary_stream(path, request_serializer=request_cls.SerializeToString,
                                           response_deserializer=response_cls.FromString)
                replies = list(rpc(request, timeout=30))
            else:
                rpc = channel.unary_unary(path, request_serializer=request_cls.SerializeToString,
                                          response_deserializer=response_cls.FromString)
                replies = [rpc(request, timeout=30)]
            assert replies, argv
            if method_name == "Check":
                assert json_format.MessageToDict(replies[0]) == {"status": "SERVING"}


def test_the_get_move_example_is_the_view_of_the_documented_deal():
    from splendor_ai.games.base import spec
    from splendor_ai.service import convert

    call = next(c for c in _grpcurl_calls() if c[-1].endswith("/GetMove"))
    request = json_format.ParseDict(json.loads(call[call.index("-d") + 1]), pb.GetMoveRequest())
    view = spec.view_position(spec.initial_position(2, 7), 0)
    assert convert.decode_position(request.position).to_position() == spec.validate_position(view)


@pytest.mark.parametrize("game, method", [("marvel", "GetMove"), ("duel", "LegalActions")])
def test_the_marvel_and_duel_examples_are_views_of_the_seed_7_deals(game, method):
    from splendor_ai.games import load_game
    from splendor_ai.service import convert

    call = next(c for c in _grpcurl_calls() if c[-1].endswith(f"/{method}") and f'"{game}"' in c[c.index("-d") + 1])
    request_cls = {"GetMove": pb.GetMoveRequest, "LegalActions": pb.LegalActionsRequest}[method]
    request = json_format.ParseDict(json.loads(call[call.index("-d") + 1]), request_cls())
    deal = load_game(game, 2).new_initial_state(7).view(0)
    assert convert.decode_position(request.position).to_position() == deal.to_position()


def _python_example(title: str) -> str:
    return DOC.split(f"### Python: {title}", 1)[1].split("```python", 1)[1].split("```", 1)[0]


def test_the_python_examples_run(server, capsys):
    from splendor_ai_client import Client

    code = _python_example("the server deals").replace('"localhost:50551"', repr(server.target))
    rng, asked = random.Random(3), []

    def ask_player(moves):  # a human who plays at random (a game can go on forever otherwise)
        asked.append(1)
        assert len(asked) < 300, "the example game does not end"
        return rng.choice(moves)

    exec(compile(code, "protocol.md", "exec"), {"ask_player": ask_player})
    assert "returns" in capsys.readouterr().out
    with Client(server.target, timeout=30) as ai:
        scope = {"ai": ai, "position": ai.new_game(2, seed=7).position}
        exec(compile(_python_example("errors"), "protocol.md", "exec"), scope)
    out = capsys.readouterr().out
    assert "position.base.supply.white" in out and "supply 4 + seats 1 != 4" in out


def _serve_flags():
    from splendor_ai.cli import _serve_flags

    return ["--" + name.replace("_", "-") for name, _, _ in _serve_flags()]


@pytest.mark.parametrize("flag", _serve_flags())
def test_every_server_setting_is_documented(flag):
    env = "SPLENDOR_AI_" + flag[2:].replace("-", "_").upper()
    assert re.search(rf"\| `{flag}` \| `{env}` \|", DOC)
