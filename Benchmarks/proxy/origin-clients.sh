#!/usr/bin/env bash
# The proxy's two origin clients side by side, in one run (issue 33): URLSession (`.urlSession`,
# product CacheProxy, what an app links) and AsyncHTTPClient (`.asyncHTTPClient`, product
# CacheProxyServer, what `sparsecache serve` uses). `sparsecache serve` cannot take the URLSession
# client (the CLI does not link FoundationNetworking), so both run in OriginClientProxy
# (Benchmarks/Sources/OriginClientProxy), one process per client, same build, same defaults.
#   1. time to first byte of misses through nginx throttled to 1 MB/s, direct and through each
#      client's proxy (ttfb.py: 256 KiB ranges of new URLs, every response checked);
#   2. 2 MB misses from an unthrottled nginx: each request a new URL (a fresh miss the proxy
#      fetches, stores and streams at once), timed by curl, every body compared with the file.
# Runs alternate between the clients (which goes first alternates too) and the median run is kept.
# Goals (exit 1 when one is missed): each client's miss TTFB within GOAL_TTFB_MS (5, as
# bench-proxy.sh's) of direct; URLSession's 2 MB miss throughput >= GOAL_THROUGHPUT_RATIO (0.5)
# of AsyncHTTPClient's (Docs/BENCHMARKS.md, "The two origin clients", says why those numbers).
# Environment: RUNS (3), TTFB_COUNT (30 misses per ttfb.py run), MISS_COUNT (10 misses per
# throughput run), GOAL_TTFB_MS (5), GOAL_THROUGHPUT_RATIO (0.5).
# bench-proxy.sh runs this as its last section; it also runs alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

runs=${RUNS:-3}
ttfb_count=${TTFB_COUNT:-30}
miss_count=${MISS_COUNT:-10}
goal_ttfb_ms=${GOAL_TTFB_MS:-5}
goal_ratio=${GOAL_THROUGHPUT_RATIO:-0.5}
clients=(urlSession asyncHTTPClient)

./scripts/ensure-deps.sh bench
swift build -c release --package-path Benchmarks --product OriginClientProxy >&2
proxy_binary="$(swift build -c release --package-path Benchmarks --show-bin-path)/OriginClientProxy"

use_scratch_directory
work=$WORK
declare -A client_pid client_port
throttled_pid=""
# use_scratch_directory's trap stops NGINX_PID; this one also stops the throttled nginx and the
# two proxies.
trap 'stop_pids "${client_pid[@]}" "$throttled_pid" "$NGINX_PID"; rm -rf "$work"' EXIT

segment_size=2000000
mkdir -p "$work/www"
head -c "$segment_size" /dev/urandom >"$work/www/segment.ts"
throttled_port=$(free_port)
NGINX_LIMIT_RATE=1m start_nginx "$work/www" "$throttled_port" "$work/throttled"
throttled_pid=$NGINX_PID
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"

# start_client_proxy CLIENT: OriginClientProxy with CLIENT and a cache of its own; records its
# pid and the port it prints once it listens.
start_client_proxy() {
    "$proxy_binary" "$1" "$work/cache-$1" >"$work/port-$1" &
    client_pid[$1]=$!
    for _ in $(seq 1 400); do
        grep -sqE '^[0-9]+$' "$work/port-$1" && break
        sleep 0.05
    done
    client_port[$1]=$(grep -E '^[0-9]+$' "$work/port-$1" | head -1)
    [ -n "${client_port[$1]}" ] || { echo "OriginClientProxy $1 did not start" >&2; exit 1; }
}
for client in "${clients[@]}"; do start_client_proxy "$client"; done

# miss_seconds URL: GETs URL, compares the body with the segment, prints curl's total time in
# seconds; exits 1 on a wrong status, size or byte.
miss_seconds() {
    local figures code size seconds
    figures=$(curl -s -o "$work/body" -w '%{http_code} %{size_download} %{time_total}' "$1")
    read -r code size seconds <<<"$figures"
    if [ "$code" != 200 ] || [ "$size" != "$segment_size" ] || ! cmp -s "$work/body" "$work/www/segment.ts"; then
        echo "origin-clients: $1 answered $code with $size bytes, not 200 with the segment's $segment_size" >&2
        exit 1
    fi
    echo "$seconds"
}

# The order of CLIENTS in run RUN: alternating which goes first.
run_order() {
    if [ $(($1 % 2)) -eq 1 ]; then echo "${clients[@]}"; else echo "${clients[1]} ${clients[0]}"; fi
}

through() { echo "http://127.0.0.1:${client_port[$1]}/proxy?url=$(urlencode "$2")"; }

echo "== origin clients: warming (one checked miss each)" >&2
for client in "${clients[@]}"; do miss_seconds "$(through "$client" "$origin/segment.ts?warm")" >/dev/null; done

echo "== origin clients: miss TTFB through nginx at 1 MB/s, $runs alternating runs of $ttfb_count misses" >&2
declare -A direct_runs proxy_runs
for run in $(seq 1 "$runs"); do
    for client in $(run_order "$run"); do
        # ttfb.py names its misses by number alone: each run gets a path of its own (a link to
        # the segment), or the runs after the first would time the first one's cached entries.
        mkdir -p "$work/www/$run-$client"
        ln "$work/www/segment.ts" "$work/www/$run-$client/segment.ts"
        # ttfb.py checks every response it times (206, the whole range) and exits 1 otherwise.
        ttfb=$(python3 Benchmarks/proxy/ttfb.py "http://127.0.0.1:$throttled_port/$run-$client/segment.ts" "${client_port[$client]}" "$ttfb_count")
        read -r _ direct _ < <(echo "$ttfb" | grep '^direct')
        read -r _ proxied _ < <(echo "$ttfb" | grep '^proxy')
        echo "    run $run $client: direct $direct ms, proxy $proxied ms" >&2
        direct_runs[$client]+="$direct "
        proxy_runs[$client]+="$proxied "
    done
done

echo "== origin clients: 2 MB misses, $runs alternating runs of $miss_count (each a new URL, every body compared)" >&2
declare -A rate_runs cpu_ticks_used
direct_rates=()
for run in $(seq 1 "$runs"); do
    seconds=()
    for index in $(seq 1 "$miss_count"); do seconds+=("$(miss_seconds "$origin/segment.ts?direct=$run-$index")"); done
    direct_rates+=("$(python3 -c "print($segment_size / 1e6 / $(median "${seconds[@]}"))")")
    for client in $(run_order "$run"); do
        seconds=()
        before=$(cpu_ticks "${client_pid[$client]}")
        for index in $(seq 1 "$miss_count"); do
            seconds+=("$(miss_seconds "$(through "$client" "$origin/segment.ts?miss=$run-$index")")")
        done
        cpu_ticks_used[$client]=$((${cpu_ticks_used[$client]:-0} + $(cpu_ticks "${client_pid[$client]}") - before))
        rate=$(python3 -c "print($segment_size / 1e6 / $(median "${seconds[@]}"))")
        echo "    run $run $client: median $(median "${seconds[@]}") s, $rate MB/s" >&2
        rate_runs[$client]+="$rate "
    done
done

failed=0
# shellcheck disable=SC2086 # the runs are space-separated numbers
figure() { median ${1}; }
us=${clients[0]} ahc=${clients[1]}
printf "%-34s %14s %16s %16s  %s\n" "origin clients (median of $runs runs)" "$us" "$ahc" "ratio us/ahc" goal
declare -A over verdict_ttfb
for client in "${clients[@]}"; do
    over[$client]=$(python3 -c "print($(figure "${proxy_runs[$client]}") - $(figure "${direct_runs[$client]}"))")
    verdict_ttfb[$client]=$(python3 -c "print('PASS' if ${over[$client]} <= $goal_ttfb_ms else 'FAIL')")
    [ "${verdict_ttfb[$client]}" = PASS ] || failed=$((failed + 1))
done
printf "%-34s %14.2f %16.2f %15.2fx  each <= +%s ms: %s / %s\n" "miss TTFB, ms over direct" "${over[$us]}" "${over[$ahc]}" \
    "$(python3 -c "print($(figure "${proxy_runs[$us]}") / $(figure "${proxy_runs[$ahc]}"))")" "$goal_ttfb_ms" "${verdict_ttfb[$us]}" "${verdict_ttfb[$ahc]}"
printf "%-34s %14.2f %16.2f\n" "  (through the proxy, ms)" "$(figure "${proxy_runs[$us]}")" "$(figure "${proxy_runs[$ahc]}")"
printf "%-34s %14.2f %16.2f\n" "  (direct, ms)" "$(figure "${direct_runs[$us]}")" "$(figure "${direct_runs[$ahc]}")"
us_rate=$(figure "${rate_runs[$us]}")
ahc_rate=$(figure "${rate_runs[$ahc]}")
ratio=$(python3 -c "print($us_rate / $ahc_rate)")
verdict=$(python3 -c "print('PASS' if $ratio >= $goal_ratio else 'FAIL')")
[ "$verdict" = PASS ] || failed=$((failed + 1))
printf "%-34s %14.1f %16.1f %15.2fx  >= %sx: %s\n" "2 MB miss, MB/s" "$us_rate" "$ahc_rate" "$ratio" "$goal_ratio" "$verdict"
printf "%-34s %14.1f\n" "  (direct from nginx, MB/s)" "$(median "${direct_rates[@]}")"
# What each miss cost the proxy's process in CPU (user + system), all runs together: where a
# client is slower because it does more per byte, this shows it.
cpu_ms() { python3 -c "print(${cpu_ticks_used[$1]} * 1000 / $(getconf CLK_TCK) / ($runs * $miss_count))"; }
printf "%-34s %14.1f %16.1f %15.2fx\n" "  (proxy CPU per miss, ms)" "$(cpu_ms "$us")" "$(cpu_ms "$ahc")" \
    "$(python3 -c "print(${cpu_ticks_used[$us]} / max(1, ${cpu_ticks_used[$ahc]}))")"

# Each proxy shuts down on SIGTERM and closes its store; a failure there is the tool's, reported.
for client in "${clients[@]}"; do
    kill "${client_pid[$client]}"
    wait "${client_pid[$client]}" || echo "origin-clients: OriginClientProxy $client exited with status $? on SIGTERM" >&2
    client_pid[$client]=""
done
echo "origin-clients: $((3 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
