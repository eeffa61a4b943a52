#!/usr/bin/env bash
# Regenerates src/dissem_client/ipc_pb2.py and its type stub ipc_pb2.pyi from
# proto/ipc.proto with the Debian protoc (protobuf-compiler 3.21).
# Deterministic: running it again on the same schema produces identical
# files, which are kept in the tree so the package works without protoc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/src/dissem_client}
command -v protoc >/dev/null || { echo "generate.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }
protoc --proto_path="$root/proto" --python_out="$out" --pyi_out="$out" "$root/proto/ipc.proto"
