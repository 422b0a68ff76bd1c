#!/usr/bin/env bash
# Compares two builds of `sparsecache serve`, and nginx, on GETs of cached 64 KiB ranges of a
# 200 MB file, in alternating rounds: what a change costs per request, measured side by side
# (the machine is shared, so only figures taken in the same minutes compare).
# Usage: Benchmarks/proxy/compare-builds.sh OLD_BINARY NEW_BINARY [CONNECTIONS (16)] [ROUNDS (3)]
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh
old_binary=$1
new_binary=$2
connections=${3:-16}
rounds=${4:-3}

use_scratch_directory
work=$WORK
mkdir -p "$work/www"
head -c $((200 * 1024 * 1024)) /dev/urandom >"$work/www/movie.mp4"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"
start_proxy "$old_binary" "$work/cache-old" --max-size 1GiB
old_pid=$PROXY_PID
old_port=$PROXY_PORT
trap 'stop_pids "$old_pid" "$PROXY_PID" "$NGINX_PID"; rm -rf "$work"' EXIT
start_proxy "$new_binary" "$work/cache-new" --max-size 1GiB
encoded=$(urlencode "$origin/movie.mp4")
old="http://127.0.0.1:$old_port/proxy?url=$encoded"
new="http://127.0.0.1:$PROXY_PORT/proxy?url=$encoded"
# Twice each: the first GET fills the cache, the second proves it is served from it.
for url in "$old" "$new"; do curl -sf -o /dev/null "$url"; curl -sf -o /dev/null "$url"; done

requests_per_second() {
    wrk -t"$((connections < 2 ? 1 : 2))" -c"$connections" -d3s -s Benchmarks/proxy/ranges.lua "$1" -- $((200 * 1024 * 1024)) | awk '/^Requests\/sec:/ { print $2 }'
}
printf "%-6s %12s %12s %12s\n" round "nginx req/s" "old req/s" "new req/s"
for round in $(seq 1 "$rounds"); do
    printf "%-6s %12s %12s %12s\n" "$round" "$(requests_per_second "$origin/movie.mp4")" \
        "$(requests_per_second "$old")" "$(requests_per_second "$new")"
done
