#!/usr/bin/env bash
# Runs every test: unit and integration tests, a libFuzzer smoke run of every fuzz target
# over its committed seeds, and the end-to-end scripts. Installs missing system packages.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh test

echo "== build" >&2
swift build --build-tests
echo "== swift test" >&2
# The proxy's tests wait on the cooperative thread pool, which the file-level crash tests keep
# busy with blocking work (killing hundreds of writer processes); on two cores they would starve
# each other, so the two groups run one after the other.
swift test --skip-build --skip CacheProxyTests
swift test --skip-build --filter CacheProxyTests
echo "== fuzz smoke" >&2
./scripts/fuzz.sh smoke "${FUZZ_SECONDS:-5}"
for e2e in scripts/e2e-*.sh; do
    [ -e "$e2e" ] || continue
    echo "== $e2e" >&2
    "$e2e"
done
echo "== all tests passed" >&2
