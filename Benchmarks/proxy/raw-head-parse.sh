#!/usr/bin/env bash
# Times the raw request-head reader of the hit path (`RawRequestHead.read`) against its version
# at BASE_REVISION, in one process, alternating rounds: a change to the reader must not make
# hits dearer. Usage: Benchmarks/proxy/raw-head-parse.sh BASE_REVISION
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git show "$1:Sources/CacheProxy/Parsing/RawRequestHead.swift" | sed 's/RawRequestHead/RawRequestHeadBase/g' >"$work/base.swift"
cp Sources/CacheProxy/Parsing/RawRequestHead.swift "$work/current.swift"
cp Benchmarks/proxy/raw-head-main.swift "$work/main.swift"
swiftc -O -lm -o "$work/raw-head" "$work/base.swift" "$work/current.swift" "$work/main.swift"
"$work/raw-head"
