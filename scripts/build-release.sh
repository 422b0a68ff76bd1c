#!/usr/bin/env bash
# Builds the release `sparsecache` and prints its path. Every script that wants a release
# build uses this, so that they all share one build (a change of flags rebuilds everything).
#
# On Linux the Swift runtime and Foundation are linked into the executable
# (--static-swift-stdlib): the proxy's resident memory is 2.4 MiB smaller than with them loaded as
# shared libraries (30.8 against 33.2 MiB with 64 clients streaming a cached file:
# Docs/BENCHMARKS.md, "Resident memory"), and the binary runs without the toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product sparsecache)
[ "$(uname -s)" = Linux ] && flags+=(--static-swift-stdlib)
swift build "${flags[@]}" >&2
echo "$(swift build -c release --show-bin-path)/sparsecache"
