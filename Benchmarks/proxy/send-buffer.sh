#!/usr/bin/env bash
# The send buffer of loopback connections (`serve --loopback-send-buffer`), measured side by
# side: one proxy per size, each with its own warm cache in front of the same nginx origin, in
# rounds whose order rotates. Workloads as compare-caches.sh's: a cached 2 MB segment (200) and
# 64 KiB ranges of a cached 200 MB file (206), every body checked (verify.lua). Prints, per
# workload and connection count, the median req/s of each size with the proxy's and the
# client's CPU time per request; 0 is the kernel's own sizing (it grows the buffer to megabytes).
#
# Goal (why 256 KiB is the default): against the kernel's own sizing (0, the baseline), the
# default's median req/s is at least GOAL_SEGMENT_16 (1.05) times on whole segments at 16
# connections, and at least GOAL_OTHERS (0.9) times on every other workload and connection
# count measured. SIZES always includes 0 and 256KiB for this. Exits 1 when the goal is missed
# or a response is wrong.
# Usage: Benchmarks/proxy/send-buffer.sh [SPARSECACHE_BINARY]  (default: a release build)
# Environment: SIZES ("0 64KiB 128KiB 256KiB 1MiB"), ROUNDS (3), DURATION (3),
#              CONNECTIONS ("1 16 64"), WORKLOADS ("segment range"), GOAL_SEGMENT_16, GOAL_OTHERS.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

read -r -a sizes <<<"${SIZES:-0 64KiB 128KiB 256KiB 1MiB}"
# The goal's baseline and the default it judges are measured in every run.
[[ " ${sizes[*]} " == *" 0 "* ]] || sizes=(0 "${sizes[@]}")
[[ " ${sizes[*]} " == *" 256KiB "* ]] || sizes+=(256KiB)
goal_segment_16=${GOAL_SEGMENT_16:-1.05}
goal_others=${GOAL_OTHERS:-0.9}
rounds=${ROUNDS:-3}
duration=${DURATION:-3}
connection_counts=${CONNECTIONS:-1 16 64}
workloads=${WORKLOADS:-segment range}
./scripts/ensure-deps.sh bench
binary_or_release_build "${1:-}"
binary=$BINARY

use_scratch_directory
work=$WORK
proxy_pids=() proxy_ports=()
trap 'stop_pids "${proxy_pids[@]}" "$NGINX_PID"; rm -rf "$work"' EXIT
make_media_files "$work/www"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"
for index in "${!sizes[@]}"; do
    start_proxy "$binary" "$work/cache-$index" --max-size 1GiB --access-log off --loopback-send-buffer "${sizes[$index]}"
    proxy_pids+=("$PROXY_PID")
    proxy_ports+=("$PROXY_PORT")
done

url_of() {  # url_of INDEX PATH
    echo "http://127.0.0.1:${proxy_ports[$1]}/proxy?url=$(urlencode "$origin$2")"
}

for index in "${!sizes[@]}"; do
    for path in /segment.ts /movie.mp4; do warm_and_check "$(url_of "$index" "$path")" "$work/www$path"; done
done

# measure INDEX WORKLOAD CONNECTIONS: "REQ/S PROXY_US CLIENT_US WRONG"
measure() {
    local index=$1 workload=$2 connections=$3 url checks before after client
    url=$(url_of "$index" "$(workload_path "$workload")")
    read -r -a checks <<<"$(workload_checks "$workload" "$work/www")"
    before=$(cpu_ticks "${proxy_pids[$index]}")
    client=$(timed_verified_wrk "$work/wrk.out" "$connections" "$duration" "$url" "${checks[@]}")
    after=$(cpu_ticks "${proxy_pids[$index]}")
    wrk_figures "$work/wrk.out" "$before" "$after" "$client"
}

failed=0
for workload in $workloads; do
    for connections in $connection_counts; do
        echo "-- $workload, $connections connections: req/s (proxy CPU µs/request, client CPU µs/request)"
        declare -A rates=() proxy_cpu=() client_cpu=()
        for round in $(seq 1 "$rounds"); do
            line="  round $round:"
            for step in "${!sizes[@]}"; do
                index=$(((step + round - 1) % ${#sizes[@]}))
                read -r rate server client wrong <<<"$(measure "$index" "$workload" "$connections")"
                [ "$wrong" -eq 0 ] || { echo "  ${sizes[$index]}: $wrong wrong or failed responses" >&2; failed=1; }
                rates[$index]+="$rate " proxy_cpu[$index]+="$server " client_cpu[$index]+="$client "
                line+=" ${sizes[$index]} $rate ($server, $client)"
            done
            echo "$line"
        done
        declare -A medians=()
        for index in "${!sizes[@]}"; do
            # shellcheck disable=SC2086
            medians[${sizes[$index]}]=$(median ${rates[$index]})
            # shellcheck disable=SC2086
            printf "  %-8s median %6s req/s (%s, %s)\n" "${sizes[$index]}" "${medians[${sizes[$index]}]}" \
                "$(median ${proxy_cpu[$index]})" "$(median ${client_cpu[$index]})"
        done
        goal=$goal_others
        [ "$workload" = segment ] && [ "$connections" = 16 ] && goal=$goal_segment_16
        # The rates themselves, not a rounded ratio.
        if awk -v a="${medians[256KiB]}" -v b="${medians[0]}" -v g="$goal" 'BEGIN { exit !(a >= g * b) }'; then verdict=PASS; else
            verdict=FAIL; failed=1; fi
        printf "  the default (256KiB) against the kernel's sizing (0): %sx, goal >= %sx: %s\n" \
            "$(awk -v a="${medians[256KiB]}" -v b="${medians[0]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" "$goal" "$verdict"
        unset medians
        unset rates proxy_cpu client_cpu
    done
done
echo "send-buffer: $([ "$failed" -eq 0 ] && echo "goal met" || echo "goal missed or wrong responses")"
exit "$failed"
