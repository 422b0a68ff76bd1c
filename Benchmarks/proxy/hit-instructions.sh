#!/usr/bin/env bash
# The user-space instructions a cache hit costs the proxy, counted by callgrind: a figure that
# does not move with the load or the periods of a shared machine, as req/s and CPU time do (the
# other benchmarks print those, side by side with their peers). For each binary: the proxy runs
# under callgrind in front of nginx, with a 200 MB file cached; after 200 hits to warm up, the
# counters are zeroed, COUNT GETs of 64 KiB ranges are made on one keep-alive connection
# (Benchmarks/proxy/range_hits.py, every answer checked), and the instructions of every thread
# of the proxy are divided by COUNT. The kernel's part (the copy, TCP) is not counted.
# Usage: Benchmarks/proxy/hit-instructions.sh BINARY...   (COUNT=2000)
# FIELD="Connection: keep-alive, x-codec" counts hits answered behind the HTTP/1 codec
# (CacheHitHandler) instead of from the raw bytes (the field reaches every request).
# Goal: the first binary is the baseline; every other one costs at most GOAL_RATIO (default 1.02)
# times its instructions per hit. A single binary is held to MAX_INSTRUCTIONS per hit (default
# 25,000: the counts are stable to a few per mille, the latest build's is in Docs/BENCHMARKS.md).
# Exits 1 when a goal is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh
count=${COUNT:-2000}
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
./scripts/ensure-deps.sh bench

use_scratch_directory
work=$WORK
VALGRIND_PID=""
trap 'stop_pids "$VALGRIND_PID" "$NGINX_PID"; rm -rf "$work"' EXIT
make_media_files "$work/www"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
target="/proxy?url=$(urlencode "http://127.0.0.1:$origin_port/movie.mp4")"

for binary in "$@"; do
    name=$(basename "$binary")
    # Valgrind cannot read the DWARF 5 debug information Swift 6 emits: a copy without it.
    objcopy --strip-debug "$binary" "$work/$name"
    port=$(free_port)
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$name" -q \
        "$work/$name" serve --port "$port" --cache-dir "$work/cache-$name" --access-log off --log-level warning >"$work/$name.log" 2>&1 &
    VALGRIND_PID=$!
    until curl -sf -o /dev/null "http://127.0.0.1:$port/status"; do
        kill -0 "$VALGRIND_PID" 2>/dev/null || { cat "$work/$name.log" >&2; exit 1; }
        sleep 1
    done
    curl -sf -o /dev/null "http://127.0.0.1:$port$target"
    python3 Benchmarks/proxy/range_hits.py "$port" "$target" 200 "$BIG_SIZE"
    callgrind_control --zero "$VALGRIND_PID" >/dev/null 2>&1
    python3 Benchmarks/proxy/range_hits.py "$port" "$target" "$count" "$BIG_SIZE"
    callgrind_control --dump "$VALGRIND_PID" >/dev/null 2>&1
    stop_pids "$VALGRIND_PID"
    VALGRIND_PID=""
    # The dump made on request is the file's part 1; the one written at exit is not counted.
    instructions=$(awk '/^summary:/ { print $2 }' "$work/callgrind.$name".*1)
    per_hit=$((instructions / count))
    echo "$binary: $per_hit instructions per 64 KiB range hit (user space, $count hits)"
    if [ -z "${baseline:-}" ]; then
        baseline=$per_hit
        baseline_binary=$binary
    else
        ratio=$(awk -v a="$per_hit" -v b="$baseline" 'BEGIN { printf "%.3f", a / b }')
        echo "  $ratio x the baseline ($baseline_binary)"
        if ! awk -v ratio="$ratio" -v goal="${GOAL_RATIO:-1.02}" 'BEGIN { exit !(ratio <= goal) }'; then
            echo "hit-instructions: goal missed: $binary costs $ratio x the baseline's instructions per hit (goal <= ${GOAL_RATIO:-1.02})" >&2
            missed=1
        fi
    fi
done
if [ $# -eq 1 ] && [ "$baseline" -gt "${MAX_INSTRUCTIONS:-25000}" ]; then
    echo "hit-instructions: goal missed: $baseline instructions per hit > ${MAX_INSTRUCTIONS:-25000}" >&2
    missed=1
fi
[ "${missed:-0}" -eq 0 ] && echo "hit-instructions: goal met"
[ "${missed:-0}" -eq 0 ]
