#!/usr/bin/env bash
# Times the raw request-head reader of the hit path (`RawRequestHead.read`) against its version
# at BASE_REVISION, in one process, alternating rounds: a change to the reader must not make
# hits dearer. Usage: Benchmarks/proxy/raw-head-parse.sh BASE_REVISION
# Goal: the current reader's median time per head at most GOAL_RATIO (default 1.05) times the
# base's, measured in the same process; exits 1 when it is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ git show "$1:Sources/CacheProxyParsing/RawRequestHead.swift" 2>/dev/null \
    || git show "$1:Sources/CacheProxy/Parsing/RawRequestHead.swift"; } | sed 's/RawRequestHead/RawRequestHeadBase/g' >"$work/base.swift"
cp Sources/CacheProxyParsing/RawRequestHead.swift "$work/current.swift"
cp Benchmarks/proxy/raw-head-main.swift "$work/main.swift"
swiftc -O -lm -o "$work/raw-head" "$work/base.swift" "$work/current.swift" "$work/main.swift"
"$work/raw-head" | tee "$work/output"
goal=${GOAL_RATIO:-1.05}
ratio=$(sed -n 's/.*current \/ base \([0-9.]*\)$/\1/p' "$work/output")
[ -n "$ratio" ] || { echo "raw-head-parse: no ratio printed" >&2; exit 1; }
if awk -v ratio="$ratio" -v goal="$goal" 'BEGIN { exit !(ratio <= goal) }'; then
    echo "raw-head-parse: goal met: current / base $ratio <= $goal"
else
    echo "raw-head-parse: goal missed: current / base $ratio > $goal" >&2
    exit 1
fi
