"""Every server setting is range-checked with its real bound, and a bad one is refused at
start with a line that names it (issue 67, finding 4): infinities, a tree bigger than the
memory, more connections than the open-file limit allows, blank or binary secrets."""
import subprocess
import sys

import pytest

from splendor_ai.service.settings import NODE_BYTES, Settings, check_resources, load_tokens, open_file_room, serve_flags


@pytest.mark.parametrize("name, value", [
    ("max_seconds", float("inf")), ("max_seconds", float("nan")), ("max_call_seconds", float("inf")),
    ("grace", float("inf")), ("header_timeout", float("inf")), ("body_timeout", float("nan")),
    ("idle_timeout", 10.0 ** 7),  # gRPC takes int32 milliseconds: at most 24.8 days
    ("max_nodes", 10 ** 12),  # node indices are int32 in the core
    ("max_concurrent", 1_000_000), ("max_iterations", 10 ** 10), ("max_streams", 2 ** 31),
    ("send_timeout", 0.0), ("stuck_seconds", float("inf")), ("max_call_seconds", 10 ** 6),
])
def test_a_value_beyond_its_real_bound_is_refused_naming_the_setting(name, value):
    with pytest.raises(ValueError, match=rf"^{name}: .* is out of range"):
        Settings(**{name: value})


def test_the_relations_between_settings_are_checked():
    with pytest.raises(ValueError, match="max_seconds: 700 is more than max_call_seconds"):
        Settings(max_seconds=700)
    with pytest.raises(ValueError, match="max_batch: 3 is more than max_concurrent"):
        Settings(max_concurrent=2, max_batch=3)
    with pytest.raises(ValueError, match="server_name .* needs tls_cert"):
        Settings(server_name="ai.example.com")
    assert Settings(max_concurrent=2).max_batch == 1 and Settings(max_concurrent=1).max_batch == 1
    assert Settings(max_concurrent=8).max_batch == 4 and Settings(max_concurrent=8, max_batch=8).max_batch == 8


def test_a_tree_bigger_than_the_memory_and_connections_beyond_the_open_files_are_refused():
    s = Settings(max_nodes=100_000_000, max_threads=4, max_concurrent=2)
    with pytest.raises(ValueError, match=r"max_nodes: .* 11\.9 GiB a search, more than this machine's memory"):
        check_resources(s, open_files=1024, memory=8 << 30)
    assert check_resources(s, 1024, memory=64 << 30) == []
    warnings = check_resources(s, 1024, memory=20 << 30)
    assert len(warnings) == 1 and "2 searches at their node cap would take 23.8 GiB" in warnings[0]
    with pytest.raises(ValueError, match=r"max_connections: 5000 is more than the open-file limit allows \(1024 files"):
        check_resources(Settings(max_connections=5000), open_files=1024, memory=None)
    assert check_resources(Settings(max_connections=open_file_room(1024)), 1024, None) == []
    assert NODE_BYTES == 32


def test_blank_and_binary_secrets_are_refused(tmp_path):
    with pytest.raises(ValueError, match="SPLENDOR_AI_TOKENS is set but holds no token"):
        load_tokens("", {"SPLENDOR_AI_TOKENS": " , ,"})
    assert load_tokens("", {"SPLENDOR_AI_TOKENS": ""}) == []  # empty: unset
    assert load_tokens("", {"SPLENDOR_AI_TOKENS": "a1, b2"}) == ["a1", "b2"]
    binary = tmp_path / "tokens.bin"
    binary.write_bytes(b"\xff\xfe\x00secret")
    with pytest.raises(ValueError, match=rf"token_file: {binary} is not UTF-8 text"):
        load_tokens(str(binary), {})


def test_every_setting_has_its_flag_variable_and_help_from_one_declaration():
    from splendor_ai.cli import build_parser

    flags = serve_flags()
    assert [name for name, _, _ in flags] == list(Settings.__dataclass_fields__)
    serve = next(a for a in build_parser()._subparsers._group_actions[0].choices.items() if a[0] == "serve")[1]
    shown = {a.dest: a.help for a in serve._actions if a.dest != "help"}
    for name, _, text in flags:
        assert shown[name].startswith(text) and f"env {Settings.env_name(name)}" in shown[name]


@pytest.mark.parametrize("flags, env, message", [
    (("--max-seconds", "inf"), {}, "max_seconds: inf is out of range"),
    (("--max-nodes", str(10 ** 12)), {}, "max_nodes: 1000000000000 is out of range"),
    (("--max-concurrent", "1000000"), {}, "max_concurrent: 1000000 is out of range"),
    (("--max-connections", str(10 ** 7)), {}, "max_connections: 10000000 is more than the open-file limit allows"),
    ((), {"SPLENDOR_AI_TOKENS": " , ,"}, "SPLENDOR_AI_TOKENS is set but holds no token"),
    ((), {"SPLENDOR_AI_MAX_SECONDS": "inf"}, "max_seconds: inf is out of range"),
])
def test_serve_refuses_them_with_one_line(flags, env, message, tmp_path):
    import os

    out = subprocess.run([sys.executable, "-m", "splendor_ai.cli", "serve", "--port", "0", *flags],
                         capture_output=True, text=True, timeout=30, cwd=tmp_path, env={**os.environ, **env})
    assert out.returncode != 0 and message in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert "listening on" not in out.stderr
