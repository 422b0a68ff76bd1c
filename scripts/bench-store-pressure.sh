#!/usr/bin/env bash
# Cache hits while the disk is slow to sync: `sparsecache serve` (release) with every fsync and
# fdatasync delayed FSYNC_DELAY_MS (20) by an LD_PRELOAD shim (Benchmarks/store/slow-fsync.c).
# wrk -t2 -c16 asks for 64 KiB ranges of one cached 200 MB file while a second client
# (Benchmarks/store/new-entries.py) creates a new entry per request, MISS_RATE (20) per second
# in both modes so that both do the same work (0: as fast as they complete). Runs with
# --durability none and --durability ordered alternate (RUNS, default 3, of DURATION seconds,
# default 10; medians). Goals, ordered against none measured in the same run: hit rate >= 0.9x,
# hits' p99 < 2x. Exit 1 when a goal is missed. BINARY=path runs another build of sparsecache.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

duration=${DURATION:-10}
runs=${RUNS:-3}
delay_ms=${FSYNC_DELAY_MS:-20}
miss_rate=${MISS_RATE:-20}
./scripts/ensure-deps.sh bench
command -v gcc >/dev/null 2>&1 || { echo "gcc is needed to build the fsync shim" >&2; exit 1; }
if [ -z "${BINARY:-}" ]; then build_sparsecache release; fi
binary=$BINARY

use_scratch_directory
work=$WORK
MISS_PID=""
trap 'stop_pids "$MISS_PID" "$PROXY_PID" "$NGINX_PID"; rm -rf "$work"' EXIT
gcc -shared -fPIC -O2 -o "$work/slow-fsync.so" Benchmarks/store/slow-fsync.c -ldl

mkdir -p "$work/www"
head -c $((200 * 1000 * 1000)) /dev/urandom >"$work/www/movie.mp4"
head -c $((256 * 1024)) /dev/urandom >"$work/www/small.bin"
big_size=$(stat -c %s "$work/www/movie.mp4")
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"

# to_ms VALUE: wrk's latency ("812.00us", "2.31ms", "1.02s") in milliseconds.
to_ms() {
    python3 -c "import sys, re; v, u = re.match(r'([0-9.]+)(us|ms|s)', sys.argv[1]).groups(); print(float(v) * {'us': 0.001, 'ms': 1, 's': 1000}[u])" "$1"
}

# measure DURABILITY: prints "REQUESTS_PER_SECOND P99_MS MISSES_PER_SECOND" of one run.
measure() {
    local durability=$1 cache="$work/cache-$1-$RANDOM"
    LD_PRELOAD="$work/slow-fsync.so" FSYNC_DELAY_MS=$delay_ms start_proxy "$binary" "$cache" --max-size 4GiB --durability "$durability"
    local target
    target="http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$origin/movie.mp4")"
    curl -sf -o /dev/null "$target"  # the whole file cached (and verified) by its fill
    python3 Benchmarks/store/new-entries.py "$PROXY_PORT" "$origin/small.bin" "$miss_rate" "$work/misses" &
    MISS_PID=$!
    local output
    output=$(wrk -t2 -c16 -d"${duration}s" --latency -s Benchmarks/proxy/ranges.lua "$target" -- "$big_size")
    stop_pids "$MISS_PID"
    MISS_PID=""
    local misses
    misses=$(cat "$work/misses" 2>/dev/null || true)
    misses=${misses:-0}
    stop_pids "$PROXY_PID"
    PROXY_PID=""
    rm -rf "$cache" "$work/misses" "$work/misses.new"
    if echo "$output" | grep -q -E "Non-2xx|Socket errors"; then
        echo "$output" | grep -E "Non-2xx|Socket errors" | sed 's/^/    wrk: /' >&2
    fi
    local rps p99
    rps=$(echo "$output" | awk '/^Requests\/sec:/ { print $2 }')
    p99=$(to_ms "$(echo "$output" | awk '$1 == "99%" { print $2 }')")
    echo "$rps $p99 $(python3 -c "print(f'{$misses / $duration:.1f}')")"
}

median() {
    printf "%s\n" "$@" | sort -n | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'
}

echo "== 64 KiB range hits (wrk -t2 -c16, ${duration}s) while a second client creates ${miss_rate} entries/s (0: unpaced); fsync delayed ${delay_ms} ms" >&2
declare -A rps p99 misses
for durability in none ordered; do rps[$durability]="" p99[$durability]="" misses[$durability]=""; done
for run in $(seq 1 "$runs"); do
    for durability in none ordered; do
        read -r r p m < <(measure "$durability")
        printf "run %d %-8s %10.0f hits/s  p99 %7.2f ms  %6.1f new entries/s\n" "$run" "$durability" "$r" "$p" "$m" >&2
        rps[$durability]+=" $r" p99[$durability]+=" $p" misses[$durability]+=" $m"
    done
done
# shellcheck disable=SC2086
{
    none_rps=$(median ${rps[none]}); ordered_rps=$(median ${rps[ordered]})
    none_p99=$(median ${p99[none]}); ordered_p99=$(median ${p99[ordered]})
    none_misses=$(median ${misses[none]}); ordered_misses=$(median ${misses[ordered]})
}
rate_ratio=$(python3 -c "print(f'{$ordered_rps / $none_rps:.2f}')")
p99_ratio=$(python3 -c "print(f'{$ordered_p99 / $none_p99:.2f}')")
printf "%-12s %12s %10s %14s\n" durability "hits/s" "p99 ms" "new entries/s"
printf "%-12s %12.0f %10.2f %14.1f\n" none "$none_rps" "$none_p99" "$none_misses"
printf "%-12s %12.0f %10.2f %14.1f\n" ordered "$ordered_rps" "$ordered_p99" "$ordered_misses"
rate_verdict=$(python3 -c "print('PASS' if $ordered_rps / $none_rps >= 0.9 else 'FAIL')")
p99_verdict=$(python3 -c "print('PASS' if $ordered_p99 / $none_p99 < 2 else 'FAIL')")
echo "hit rate, ordered / none: ${rate_ratio}x $rate_verdict (>= 0.9x)"
echo "hits' p99, ordered / none: ${p99_ratio}x $p99_verdict (< 2x)"
[ "$rate_verdict" = PASS ] && [ "$p99_verdict" = PASS ]
