#!/usr/bin/env bash
# SparseFile against raw pread/pwrite, in one run (Docs/BENCHMARKS.md, "SparseFile").
# Usage: scripts/bench-sparsefile.sh [SCRATCH_DIR]   (default: a fresh folder under /tmp)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh build
# SwiftPM can keep a stale build plan for a path dependency whose targets changed; drop it.
rm -f Benchmarks/.build/release.yaml
swift build -c release --package-path Benchmarks --product SparseFileBenchmark >&2
exec Benchmarks/.build/release/SparseFileBenchmark "$@"
