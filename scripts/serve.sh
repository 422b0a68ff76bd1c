#!/usr/bin/env bash
# The main job: builds SparseCache (release) and runs the localhost HLS caching proxy.
#   scripts/serve.sh [sparsecache serve options...]
# Defaults: 127.0.0.1:9000, cache in $XDG_CACHE_HOME/sparsecache (or ~/.cache/sparsecache),
# 1 GiB. Play http://127.0.0.1:9000/proxy?url=<percent-encoded URL>; stop with Ctrl-C.
# Docs/PROXY.md describes every option.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh build
binary=$(./scripts/build-release.sh)
exec "$binary" serve "$@"
