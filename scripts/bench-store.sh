#!/usr/bin/env bash
# CacheStore goals, in one run (Docs/BENCHMARKS.md, "CacheStore").
# Usage: scripts/bench-store.sh [SCRATCH_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh build
# SwiftPM can keep a stale build plan for a path dependency whose targets changed; drop it.
rm -f Benchmarks/.build/release.yaml
swift build -c release --package-path Benchmarks --product CacheStoreBenchmark >&2
exec Benchmarks/.build/release/CacheStoreBenchmark "$@"
