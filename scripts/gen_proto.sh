#!/usr/bin/env bash
# Regenerates the Python code of the wire contract: proto/ -> client/splendor/v1/*_pb2*.py(i).
# The only way the generated files are made (never edit them by hand); needs grpcio-tools at
# the version pinned in pyproject.toml's `test` extra (tests/service/test_service_generated.py fails
# when the committed files differ from what this produces).
#   usage: scripts/gen_proto.sh [OUT_DIR]    (default: client)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-client}"
python="${PYTHON:-python3}"
# Every .proto of the package gets its messages (*_pb2.py, *_pb2.pyi); only splendor.proto,
# the one with the service, gets gRPC stubs (splendor_pb2_grpc.py): the plugin would write an
# empty stub module for each of the others.
"$python" -m grpc_tools.protoc -Iproto --python_out="$out" --pyi_out="$out" proto/splendor/v1/*.proto
"$python" -m grpc_tools.protoc -Iproto --grpc_python_out="$out" proto/splendor/v1/splendor.proto
