#!/usr/bin/env bash
# The proxy's resident memory with 64 streaming clients, split into what it allocated
# (RssAnon) and the file pages it maps (RssFile: its executable and libraries, and the cache
# files hits are written from). Two loads, one after the other: 64 curl clients streaming the
# cached 200 MB file at 8 MB/s each (as scripts/bench-proxy.sh does), then wrk with 64
# connections GETting 8 cached 2 MB segments over and over. Each figure is the peak of samples
# taken every 0.2 s. The script fails when a curl client gets anything but a 200 with at least
# 1 MB, or when wrk sees a socket error or a status other than 2xx.
# Goal: under each load, what the proxy allocated (RssAnon) grows by at most GOAL_ANON_MIB
# (default 16) MiB over the idle proxy's, measured in the same run (it grows by about 1 MiB);
# exits 1 when it is missed.
#
# Usage: Benchmarks/proxy/resident-memory.sh [SPARSECACHE_BINARY [serve options...]]
#        (default: a release build; --mapped-memory 0 sends every hit with sendfile)
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

./scripts/ensure-deps.sh bench
binary_or_release_build "${1:-}"
binary=$BINARY
[ $# -eq 0 ] || shift

use_scratch_directory
work=$WORK
make_media_files "$work/www"
for index in 1 2 3 4 5 6 7 8; do
    dd if="$work/www/movie.mp4" of="$work/www/segment$index.ts" bs=1000 skip=$((index * 4)) count=2000 status=none
done
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"
start_proxy "$binary" "$work/cache" --max-size 1GiB --access-log off "$@"
proxied() { echo "http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$origin$1")"; }
for path in /movie.mp4 /segment{1..8}.ts; do
    curl -sf -o /dev/null "$(proxied "$path")"
    cmp <(curl -sf "$(proxied "$path")") "$work/www$path" || { echo "resident-memory: wrong body for $path" >&2; exit 1; }
done

# memory: "VmRSS RssAnon RssFile" of the proxy now, in KiB.
memory() { awk '/^(VmRSS|RssAnon|RssFile):/ { printf "%s ", $2 } END { print "" }' "/proc/$PROXY_PID/status"; }
# peak SECONDS: the sample with the largest VmRSS over SECONDS.
peak() {
    local end=$(($(date +%s) + $1))
    : >"$work/samples"
    while [ "$(date +%s)" -lt "$end" ]; do
        memory >>"$work/samples"
        sleep 0.2
    done
    sort -n "$work/samples" | tail -1
}
show() { awk -v name="$1" '{ printf "%-48s VmRSS %6.1f MiB  RssAnon %5.1f MiB  RssFile %5.1f MiB\n", name, $1 / 1024, $2 / 1024, $3 / 1024 }' <<<"$2"; }

idle=$(memory)
show "idle, just after the warming hits" "$idle"
# Mappings no hit used for a second are released (CacheProxyConfiguration.MappedFiles.idleRelease).
sleep 3
show "idle, 3 s later" "$(memory)"
clients=()
for _ in $(seq 1 64); do
    curl -s -o /dev/null -w '%{http_code} %{size_download}\n' --limit-rate 8M --max-time 8 "$(proxied /movie.mp4)" >>"$work/clients" &
    clients+=($!)
done
streaming=$(peak 7)
wait "${clients[@]}" || true
awk '$1 == 200 && $2 >= 1000000 { good++ } END { exit good == 64 ? 0 : 1 }' "$work/clients" ||
    { echo "resident-memory: not every client was streamed to" >&2; exit 1; }
show "64 clients streaming the cached 200 MB file" "$streaming"

cat >"$work/segments.lua" <<'LUA'
local paths, index = {}, 0
function init(args) for i = 1, #args do paths[i] = args[i] end end
function request() index = index % #paths + 1; return wrk.format("GET", paths[index]) end
LUA
paths=()
for index in 1 2 3 4 5 6 7 8; do paths+=("/proxy?url=$(urlencode "$origin/segment$index.ts")"); done
wrk -t2 -c64 -d7s -s "$work/segments.lua" "http://127.0.0.1:$PROXY_PORT" -- "${paths[@]}" >"$work/wrk.out" 2>&1 &
load=$!
sleep 0.5
segments=$(peak 6)
wait "$load"
grep -q "Non-2xx\|Socket errors" "$work/wrk.out" && { echo "resident-memory: wrk saw errors" >&2; cat "$work/wrk.out" >&2; exit 1; }
show "64 connections on 8 cached 2 MB segments" "$segments"
echo "  ($(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.out") requests/s)"
# anon_goal NAME SAMPLE: the load's RssAnon against the idle proxy's.
anon_goal() {
    awk -v name="$1" -v idle="$(awk '{ print $2 }' <<<"$idle")" -v goal="${GOAL_ANON_MIB:-16}" '{
        growth = ($2 - idle) / 1024
        printf "%s: RssAnon %.1f MiB, %.2fx the idle proxy'"'"'s %.1f MiB (+%.1f MiB, goal at most +%s MiB)\n", name, $2 / 1024, $2 / idle, idle / 1024, growth, goal
        exit growth <= goal ? 0 : 1
    }' <<<"$2"
}
missed=0
anon_goal "64 streams" "$streaming" || missed=1
anon_goal "64 connections on segments" "$segments" || missed=1
if [ "$missed" -ne 0 ]; then
    echo "resident-memory: goal missed" >&2
    exit 1
fi
echo "resident-memory: goal met"
