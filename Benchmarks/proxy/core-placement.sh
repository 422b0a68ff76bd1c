#!/usr/bin/env bash
# Where the proxy's threads and its client run, and what it costs a cached hit: the proxy on
# CPU 0 with its client (wrk) on CPU 0 too, or on CPU 1 (every response crosses cores), each
# with hits written from the cache file's mapping (the default) and with `sendfile`
# (--mapped-memory 0). Prints requests/s, the proxy's and the client's CPU time per request.
#
# This is how the "slow mode" of Docs/BENCHMARKS.md was traced: a copy into the socket costs
# twice as much when the client reads it on the other core, in some periods of the machine
# and not in others; the same core is always cheap.
#
# Goal (why hits are written from the mapping): with the client on the proxy's core, the
# mapping's median req/s is at least GOAL_RATIO (1.0) times sendfile's for every size, and for
# whole segments (2000000) on the other core too; small ranges on the other core have no goal
# (the slow mode is the machine's). Exits 1 when the goal is missed or an answer is wrong.
#
# Usage: Benchmarks/proxy/core-placement.sh [SPARSECACHE_BINARY]  (default: a release build)
# Environment: ROUNDS (2), CONNECTIONS (4), SIZES ("65536 262144 2000000": body bytes; the last
#              one is the whole 2 MB segment, the others ranges of a 200 MB file), GOAL_RATIO (1.0).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

rounds=${ROUNDS:-2}
connections=${CONNECTIONS:-4}
sizes=${SIZES:-65536 262144 2000000}
goal=${GOAL_RATIO:-1.0}
[ "$(nproc)" -ge 2 ] || { echo "core-placement: needs two CPUs" >&2; exit "$SKIPPED_STATUS"; }
./scripts/ensure-deps.sh bench
binary_or_release_build "${1:-}"
binary=$BINARY

use_scratch_directory
work=$WORK
SENDFILE_PID=""
trap 'stop_pids "$PROXY_PID" "$SENDFILE_PID" "$NGINX_PID"; rm -rf "$work"' EXIT
make_media_files "$work/www"
big_size=$BIG_SIZE
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"

# One event loop each, on CPU 0 with every other thread of the process.
start_proxy "$binary" "$work/cache-sendfile" --max-size 1GiB --access-log off --threads 1 --mapped-memory 0
SENDFILE_PID=$PROXY_PID
sendfile_port=$PROXY_PORT
start_proxy "$binary" "$work/cache-mapped" --max-size 1GiB --access-log off --threads 1
mapped_port=$PROXY_PORT
taskset -a -p -c 0 "$SENDFILE_PID" >/dev/null
taskset -a -p -c 0 "$PROXY_PID" >/dev/null

# url PORT PATH: the proxy at PORT's URL for the origin's PATH.
url() { echo "http://127.0.0.1:$1/proxy?url=$(urlencode "$origin$2")"; }
for port in "$mapped_port" "$sendfile_port"; do
    for path in /segment.ts /movie.mp4; do warm_and_check "$(url "$port" "$path")" "$work/www$path"; done
done

# measure PID URL CLIENT_CPU SIZE: "REQ/S SERVER_US CLIENT_US" of one run; exits on a wrong body.
measure() {
    local pid=$1 target=$2 cpu=$3 size=$4 before after client checks
    if [ "$size" = 2000000 ]; then checks=("$work/www/segment.ts" whole); else checks=("$work/www/movie.mp4" "$big_size" 64 "$size"); fi
    before=$(cpu_ticks "$pid")
    client=$({ TIMEFORMAT='%U %S'; time taskset -c "$cpu" wrk -t1 -c"$connections" -d2s -s Benchmarks/proxy/verify.lua "$target" -- "${checks[@]}" >"$work/wrk.out"; } 2>&1)
    after=$(cpu_ticks "$pid")
    if ! awk '/^verified/ { ok = $2 > 0 && $4 + $6 == 0 } END { exit ok ? 0 : 1 }' "$work/wrk.out"; then
        echo "core-placement: wrong answers: $(grep -E '^verified' "$work/wrk.out")" >&2
        exit 1
    fi
    awk -v before="$before" -v after="$after" -v hz="$(getconf CLK_TCK)" -v client="$client" '
        /requests in/ { requests = $1 } /^Requests\/sec:/ { rate = $2 }
        END { split(client, c, " "); printf "%.0f %.0f %.0f\n", rate, (after - before) / hz * 1e6 / requests, (c[1] + c[2]) * 1e6 / requests }' "$work/wrk.out"
}

# shown "REQ/S SERVER_US CLIENT_US": one run's figures as the table prints them.
shown() {
    local rate server client
    read -r rate server client <<<"$1"
    printf "%6s req/s (%4s, %4s µs)" "$rate" "$server" "$client"
}

declare -A mapped_rates=() sent_rates=()

echo "== the proxy on CPU 0; req/s (proxy CPU µs/request, client CPU µs/request); $connections connections, 2 s per run"
for round in $(seq 1 "$rounds"); do
    for size in $sizes; do
        path=/movie.mp4
        [ "$size" = 2000000 ] && path=/segment.ts
        for placement in same cross; do
            cpu=0
            [ "$placement" = cross ] && cpu=1
            # Assignments, so that a run with wrong answers stops the script.
            mapped=$(measure "$PROXY_PID" "$(url "$mapped_port" "$path")" "$cpu" "$size")
            sent=$(measure "$SENDFILE_PID" "$(url "$sendfile_port" "$path")" "$cpu" "$size")
            printf "round %d, %7d bytes, client on CPU %d (%-5s): mapped %s  sendfile %s\n" "$round" "$size" "$cpu" "$placement" \
                "$(shown "$mapped")" "$(shown "$sent")"
            mapped_rates[$size-$placement]+="${mapped%% *} " sent_rates[$size-$placement]+="${sent%% *} "
        done
    done
done

echo "== the mapping against sendfile, medians of $rounds rounds (goal >= ${goal}x: every size on the same core, whole segments on either)"
missed=0
for size in $sizes; do
    for placement in same cross; do
        # shellcheck disable=SC2086
        mapped=$(median ${mapped_rates[$size-$placement]}) sent=$(median ${sent_rates[$size-$placement]})
        ratio=$(awk -v a="$mapped" -v b="$sent" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        verdict="(no goal)"
        if [ "$placement" = same ] || [ "$size" = 2000000 ]; then
            # The rates themselves, not the rounded ratio.
            if awk -v a="$mapped" -v b="$sent" -v g="$goal" 'BEGIN { exit !(a >= g * b) }'; then verdict=PASS; else verdict=FAIL; missed=1; fi
        fi
        printf "%7d bytes, %-5s core: mapped %6s req/s, sendfile %6s req/s, %sx %s\n" "$size" "$placement" "$mapped" "$sent" "$ratio" "$verdict"
    done
done
echo "core-placement: $([ "$missed" -eq 0 ] && echo "goal met" || echo "goal missed")"
exit "$missed"
