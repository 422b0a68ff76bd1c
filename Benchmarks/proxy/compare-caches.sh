#!/usr/bin/env bash
# Cache hits in `sparsecache serve` against the caches a player is usually put behind, all in
# front of the same nginx origin and measured in the same rounds: nginx serving the files itself
# (static, sendfile), nginx with proxy_cache, Varnish with memory storage (-s malloc) and with
# file storage (-s file, an mmap'd file), and the proxy. Workloads: GETs of a cached 2 MB segment
# (200, the whole body) and of 64 KiB ranges of a cached 200 MB file (206), at 1, 16 and 64
# connections. Every response is checked (Benchmarks/proxy/verify.lua): a wrong status or body,
# a socket error or a timeout fails its figure.
#
# Each cell is ROUNDS rounds in which every server runs once, in an order that rotates from round
# to round; the figure is the median of the rounds. Seven by default: this machine has slow periods
# of a few seconds that hit whichever server is running (Docs/BENCHMARKS.md, "what the slow rounds
# are"), and of three rounds one slow one leaves two to decide the median. Beside req/s it prints each
# server's CPU time per request (user + system, from /proc) and the client's (wrk's): on loopback
# the client's kernel receives what the server sends, so what a server's way of sending costs its
# client counts as much as what it costs the server. Goals: the proxy at >= 1.0x the faster Varnish on
# segments, and at >= 1.0x nginx static on ranges at 16 and 64 connections.
#
# Usage: Benchmarks/proxy/compare-caches.sh [SPARSECACHE_BINARY]  (default: a release build)
# Environment: DURATION (seconds per wrk run, 3), ROUNDS (7), CONNECTIONS ("1 16 64"),
#              WORKLOADS ("segment range").
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

duration=${DURATION:-3}
rounds=${ROUNDS:-7}
connection_counts=${CONNECTIONS:-1 16 64}
workloads=${WORKLOADS:-segment range}
./scripts/ensure-deps.sh bench
command -v varnishd >/dev/null 2>&1 || [ -x /usr/sbin/varnishd ] || {
    echo "installing: varnish" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends varnish >/dev/null
}
varnishd=$(command -v varnishd 2>/dev/null || echo /usr/sbin/varnishd)
binary_or_release_build "${1:-}"
binary=$BINARY

use_scratch_directory
work=$WORK
VARNISH_PIDS=() CACHE_NGINX_PID=""
trap 'stop_pids "$PROXY_PID" "${VARNISH_PIDS[@]}" "$CACHE_NGINX_PID" "$NGINX_PID"; rm -rf "$work"' EXIT

make_media_files "$work/www"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"

# nginx with proxy_cache in front of the origin: its own instance, two workers like the origin.
cache_port=$(free_port)
mkdir -p "$work/nginx-cache/tmp" "$work/nginx-cache/store"
sed -e "s#listen 127.0.0.1:$origin_port; root $work/www;#listen 127.0.0.1:$cache_port; location / { proxy_pass $origin; proxy_cache hits; proxy_cache_valid 200 206 1d; proxy_http_version 1.1; proxy_set_header Connection \"\"; }#" \
    -e "s#^http {#http {\n    proxy_cache_path $work/nginx-cache/store levels=1:2 keys_zone=hits:10m max_size=1g inactive=1d use_temp_path=off;#" \
    -e "s#$work/nginx/#$work/nginx-cache/#g" "$work/nginx/nginx.conf" >"$work/nginx-cache/nginx.conf"
# nginx's workers drop root privileges and write the cache.
chmod a+rwx "$work/nginx-cache/store"
"$(nginx_binary)" -c "$work/nginx-cache/nginx.conf" &
CACHE_NGINX_PID=$!
wait_for_port "$cache_port"

# Varnish in front of the origin, as Debian installs it, with a VCL that keeps every object for
# the whole run (the default TTL of 120 s is shorter than the run). STORAGE: malloc or file.
start_varnish() {
    local name=$1 storage=$2 port
    port=$(free_port)
    mkdir -p "$work/$name"
    chmod a+rx "$work/$name"
    cat >"$work/$name/default.vcl" <<VCL
vcl 4.1;
backend origin { .host = "127.0.0.1"; .port = "$origin_port"; }
sub vcl_backend_response { set beresp.ttl = 1d; }
VCL
    chmod a+r "$work/$name/default.vcl"
    "$varnishd" -F -a "127.0.0.1:$port" -f "$work/$name/default.vcl" -n "$work/$name/state" -s "$storage" \
        >"$work/$name/log" 2>&1 &
    VARNISH_PIDS+=($!)
    wait_for_port "$port"
    VARNISH_PORT=$port
}
start_varnish varnish-malloc malloc,1G
varnish_malloc_port=$VARNISH_PORT
start_varnish varnish-file "file,$work/varnish-file/storage.bin,1G"
varnish_file_port=$VARNISH_PORT

# Its access log off, as nginx's is here (--access-log costs 2-3 µs a request: "Metrics and the access log").
start_proxy "$binary" "$work/cache" --max-size 1GiB --access-log off

servers=(nginx nginx-cache varnish-malloc varnish-file sparsecache)
titles=("nginx static" "nginx proxy_cache" "Varnish (malloc)" "Varnish (file, mmap)" "sparsecache")
# server_url SERVER PATH: where SERVER answers for the origin's PATH.
server_url() {
    case $1 in
        nginx) echo "$origin$2" ;;
        nginx-cache) echo "http://127.0.0.1:$cache_port$2" ;;
        varnish-malloc) echo "http://127.0.0.1:$varnish_malloc_port$2" ;;
        varnish-file) echo "http://127.0.0.1:$varnish_file_port$2" ;;
        sparsecache) echo "http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$origin$2")" ;;
    esac
}
# server_pids SERVER: the processes whose CPU time a request to SERVER costs.
server_pids() {
    local pid
    case $1 in
        nginx) pid=$NGINX_PID ;;
        nginx-cache) pid=$CACHE_NGINX_PID ;;
        varnish-malloc) pid=${VARNISH_PIDS[0]} ;;
        varnish-file) pid=${VARNISH_PIDS[1]} ;;
        sparsecache) pid=$PROXY_PID ;;
    esac
    echo "$pid" $(pgrep -P "$pid" | tr '\n' ' ')
}

echo "== warming the caches" >&2
for server in "${servers[@]}"; do
    for path in /segment.ts /movie.mp4; do
        warm_and_check "$(server_url "$server" "$path")" "$work/www$path"
    done
done

# measure SERVER WORKLOAD CONNECTIONS: "REQ/S SERVER_US CLIENT_US WRONG" of one wrk run.
measure() {
    local server=$1 workload=$2 connections=$3
    local url checks pids before after client
    url=$(server_url "$server" "$(workload_path "$workload")")
    read -r -a checks <<<"$(workload_checks "$workload" "$work/www")"
    read -r -a pids <<<"$(server_pids "$server")"
    before=$(cpu_ticks "${pids[@]}")
    client=$(timed_verified_wrk "$work/wrk.out" "$connections" "$duration" "$url" "${checks[@]}")
    after=$(cpu_ticks "${pids[@]}")
    wrk_figures "$work/wrk.out" "$before" "$after" "$client"
}

# proxy_choices: "SENDFILE_CHOSEN REQUESTS COLD_READS MAPPED" from the proxy's /status, to tell what
# share of a run's ranges it chose to send with sendfile rather than copy from the mapping
# (HitWriteChooser), how many it read on its cold-read threads (pages the kernel had dropped), and
# what share it wrote from a mapping (the rest went out with sendfile, by choice or because the
# file could not be mapped).
proxy_choices() {
    curl -sf "http://127.0.0.1:$PROXY_PORT/status" | python3 -c '
import json, sys
traffic = json.load(sys.stdin)["traffic"]
print(traffic["sendfileChosenHits"], traffic["requests"], traffic["coldReads"], traffic["mappedHits"])'
}

# share PART WHOLE: PART as a percentage of WHOLE.
share() {
    awk -v part="$1" -v whole="$2" 'BEGIN { printf "%.0f %%", (whole > 0 ? 100 * part / whole : 0) }'
}

failed=0
declare -A rate
echo "== $rounds rounds per cell, ${duration}s per run, servers in rotating order; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for workload in $workloads; do
    for connections in $connection_counts; do
        echo "-- $workload, $connections connections: req/s (server CPU µs/request, client CPU µs/request$([ "$workload" = range ] && echo ", the proxy's ranges sent with sendfile by choice, written from a mapping, and read cold"))"
        declare -A runs=()
        for round in $(seq 1 "$rounds"); do
            line="round $round:"
            for index in $(seq 0 $((${#servers[@]} - 1))); do
                server=${servers[$(((index + round - 1) % ${#servers[@]}))]}
                counts_choices=false
                [ "$server" = sparsecache ] && [ "$workload" = range ] && counts_choices=true
                $counts_choices && read -r chosen_before requests_before cold_before mapped_before < <(proxy_choices)
                read -r rps server_us client_us wrong < <(measure "$server" "$workload" "$connections")
                if [ "$wrong" -ne 0 ]; then
                    # What went wrong (wrk's socket errors, statuses, bodies), for whoever reads the log.
                    echo "   $server: $wrong wrong or failed responses: $(grep -E 'Socket errors|Non-2xx|^verified' "$work/wrk.out" | tr '\n' ' ')" >&2
                    failed=$((failed + 1))
                fi
                runs[$server]="${runs[$server]:-} $rps"
                line="$line $server $rps ($server_us, $client_us"
                if $counts_choices; then
                    read -r chosen_after requests_after cold_after mapped_after < <(proxy_choices)
                    line="$line, sendfile $(share $((chosen_after - chosen_before)) $((requests_after - requests_before)))"
                    line="$line, mapped $(share $((mapped_after - mapped_before)) $((requests_after - requests_before)))"
                    line="$line, cold $((cold_after - cold_before))"
                fi
                line="$line)"
            done
            echo "  $line"
        done
        for server in "${servers[@]}"; do
            # shellcheck disable=SC2086
            rate[$workload,$connections,$server]=$(median ${runs[$server]})
        done
        # Per-round ratios, the proxy against the baseline of the goal.
        read -r -a proxy_runs <<<"${runs[sparsecache]}"
        read -r -a malloc_runs <<<"${runs[varnish-malloc]}"
        read -r -a file_runs <<<"${runs[varnish-file]}"
        read -r -a nginx_runs <<<"${runs[nginx]}"
        ratios=""
        for round in $(seq 0 $((rounds - 1))); do
            if [ "$workload" = segment ]; then
                best=$((malloc_runs[round] > file_runs[round] ? malloc_runs[round] : file_runs[round]))
            else
                best=${nginx_runs[round]}
            fi
            ratios="$ratios $(awk -v a="${proxy_runs[round]}" -v b="$best" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
        done
        echo "  sparsecache / $([ "$workload" = segment ] && echo "faster Varnish" || echo "nginx static") per round:$ratios"
        unset runs
    done
done

echo
echo "load after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for workload in $workloads; do
    echo
    if [ "$workload" = segment ]; then
        echo "requests/s for a cached 2 MB segment (median of $rounds rounds)"
    else
        echo "requests/s for 64 KiB ranges of a cached 200 MB file (median of $rounds rounds)"
    fi
    header="| connections |"
    rule="|---|"
    for title in "${titles[@]}"; do header="$header $title |"; rule="$rule---|"; done
    echo "$header ratio | goal |"
    echo "$rule---|---|"
    for connections in $connection_counts; do
        row="| $connections |"
        for server in "${servers[@]}"; do row="$row $(printf "%'d" "${rate[$workload,$connections,$server]}") |"; done
        proxy=${rate[$workload,$connections,sparsecache]}
        if [ "$workload" = segment ]; then
            malloc=${rate[$workload,$connections,varnish-malloc]} file=${rate[$workload,$connections,varnish-file]}
            baseline=$((malloc > file ? malloc : file))
            goal="x faster Varnish"
        else
            baseline=${rate[$workload,$connections,nginx]}
            goal="x nginx static"
        fi
        ratio=$(awk -v a="$proxy" -v b="$baseline" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        verdict=PASS
        if [ "$workload" = segment ] || [ "$connections" -ge 16 ]; then
            # The rates themselves, not the rounded ratio: 29,986 against 30,000 prints 1.00x and fails.
            [ "$proxy" -ge "$baseline" ] || { verdict=FAIL; failed=$((failed + 1)); }
        else
            verdict="(no goal)"
        fi
        echo "$row ${ratio}$goal | $verdict |"
    done
done
echo "compare-caches: $([ "$failed" -eq 0 ] && echo PASS || echo "FAIL ($failed)")"
[ "$failed" -eq 0 ]
