#!/usr/bin/env bash
# What metrics and the access log cost cache hits, measured in one run: three `sparsecache
# serve` processes of one release build, over the same cached 200 MB file, answer wrk's GETs of
# 64 KiB ranges at 16 connections (and 1 and 64), in alternating rounds:
#   baseline    --metrics off --access-log off
#   metrics     --metrics on  --access-log off   goal: >= 0.97 of the baseline's requests/s
#   access log  --metrics off --access-log on    goal: >= 0.95 at 16 connections
# every one at --log-level info, standard error to a file (the access log's lines go there).
# Each round starts with the next of the three, so none is always measured first.
# Prints requests/s and the server's CPU time per request (user + system, from /proc: it moves
# less with the machine's load), and the ratios of the medians. Exits 1 when a goal is missed.
# Environment: DURATION (seconds per wrk run, 3), ROUNDS (5), CONNECTIONS ("1 16 64").
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

duration=${DURATION:-3}
rounds=${ROUNDS:-5}
connections_list=${CONNECTIONS:-"1 16 64"}
./scripts/ensure-deps.sh bench
build_sparsecache release
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/www"
size=$((200 * 1024 * 1024))
head -c "$size" /dev/urandom >"$work/www/movie.mp4"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
encoded=$(urlencode "http://127.0.0.1:$origin_port/movie.mp4")

names=(baseline metrics access-log)
options=("--metrics off --access-log off" "--metrics on --access-log off" "--metrics off --access-log on")
pids=() urls=()
for index in 0 1 2; do
    # shellcheck disable=SC2086
    PROXY_LOG_LEVEL=info start_proxy "$binary" "$work/cache-$index" --max-size 1GiB ${options[$index]} 2>"$work/${names[$index]}.log"
    pids+=("$PROXY_PID") urls+=("http://127.0.0.1:$PROXY_PORT/proxy?url=$encoded")
done
trap 'stop_pids "${pids[@]}" "$NGINX_PID"; rm -rf "$work"' EXIT
PROXY_PID=""
# Twice each: the first GET fills the cache, the second verifies every block, so hits are sendfile.
for url in "${urls[@]}"; do curl -sf -o /dev/null "$url"; curl -sf -o /dev/null "$url"; done

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# measure URL PID CONNECTIONS: "REQ/S CPU_US_PER_REQUEST" of one wrk run.
measure() {
    local url=$1 pid=$2 connections=$3 before after output
    before=$(cpu_ticks "$pid")
    output=$(wrk -t"$((connections < 2 ? 1 : 2))" -c"$connections" -d"${duration}s" -s Benchmarks/proxy/ranges.lua "$url" -- "$size")
    after=$(cpu_ticks "$pid")
    awk -v before="$before" -v after="$after" -v hz="$(getconf CLK_TCK)" '
        /requests in/ { requests = $1 } /^Requests\/sec:/ { rate = $2 }
        END { printf "%s %.1f", rate, (after - before) / hz * 1e6 / requests }' <<<"$output"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "req/s, and in brackets the server's CPU per request in µs; $rounds alternating rounds of ${duration}s"
missed=0
for connections in $connections_list; do
    declare -A rates=() cpus=()
    printf "%-4s %-6s %20s %20s %20s\n" conns round "${names[@]}"
    for round in $(seq 1 "$rounds"); do
        declare -A cells=()
        # Each round starts with the next server, so none is always measured first.
        for step in 0 1 2; do
            index=$(((round + step) % 3))
            read -r rate cpu <<<"$(measure "${urls[$index]}" "${pids[$index]}" "$connections")"
            rates[$index]+="$rate "
            cpus[$index]+="$cpu "
            cells[$index]=$(printf " %12s (%5s)" "$rate" "$cpu")
        done
        printf "%-4s %-6s%s%s%s\n" "$connections" "$round" "${cells[0]}" "${cells[1]}" "${cells[2]}"
        unset cells
    done
    base_rate=$(tr ' ' '\n' <<<"${rates[0]}" | grep . | median)
    base_cpu=$(tr ' ' '\n' <<<"${cpus[0]}" | grep . | median)
    for index in 1 2; do
        rate=$(tr ' ' '\n' <<<"${rates[$index]}" | grep . | median)
        cpu=$(tr ' ' '\n' <<<"${cpus[$index]}" | grep . | median)
        ratio=$(awk -v a="$rate" -v b="$base_rate" 'BEGIN { printf "%.3f", a / b }')
        cpu_ratio=$(awk -v a="$cpu" -v b="$base_cpu" 'BEGIN { printf "%.3f", a / b }')
        goal=""
        if [ "$index" = 1 ]; then goal=0.97; elif [ "$connections" = 16 ]; then goal=0.95; fi
        verdict=""
        if [ -n "$goal" ]; then
            if awk -v r="$ratio" -v g="$goal" 'BEGIN { exit !(r >= g) }'; then verdict="(goal >= $goal: met)"; else
                verdict="(goal >= $goal: MISSED)"; missed=1; fi
        fi
        echo "  ${names[$index]} at $connections connections: median $rate req/s = $ratio x the baseline's $base_rate; CPU per request $cpu µs = $cpu_ratio x $verdict"
    done
    unset rates cpus
done
lines=$(grep -c 'method=GET' "$work/access-log.log" || true)
echo "access log lines written: $lines; metrics and baseline logs: $(grep -c 'method=' "$work/metrics.log" "$work/baseline.log" | tr '\n' ' ')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$missed"
