#!/usr/bin/env bash
# End to end for prefetching and offline downloads, with ffmpeg-made streams on an nginx origin:
#  1. POST /prefetch the heads of 5 videos, stop the origin, and play the first seconds of each
#     through the proxy with `ffmpeg -t`: identical to playing them from the origin directly.
#  2. `sparsecache fetch` a stream, stop the origin, play it whole through the proxy: identical.
#  3. Stop a `fetch` half-way through a slow origin (SIGTERM), run it again: it completes, and
#     the origin's access log shows that it never asked again for a byte it had stored.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-prefetch

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making 5 streams" >&2
patterns=(testsrc testsrc2 smptebars rgbtestsrc pal75bars)
for index in 0 1 2 3 4; do
    mkdir -p "$work/www/v$index"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "${patterns[$index]}=duration=8:size=320x240:rate=25" \
        -f lavfi -i "sine=frequency=$((300 + 100 * index)):duration=8" \
        -c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest \
        -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$work/www/v$index/s%d.ts" "$work/www/v$index/index.m3u8"
done

origin_port=$(free_port)
origin="http://127.0.0.1:$origin_port"
through_proxy() { echo "http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$1")"; }
# play URL NAME [SECONDS]: ffmpeg -c copy into NAME.ts and per-packet MD5s into NAME.md5.
play() {
    local limit=()
    [ $# -ge 3 ] && limit=(-t "$3")
    ffmpeg -nostdin -loglevel error -y -i "$1" "${limit[@]}" -map 0 -c copy -f mpegts "$work/$2.ts"
    ffmpeg -nostdin -loglevel error -y -i "$1" "${limit[@]}" -map 0 -c copy -f framemd5 "$work/$2.md5"
}
failures=0
compare() {
    if cmp -s "$work/$1.ts" "$work/$2.ts" && cmp -s "$work/$1.md5" "$work/$2.md5"; then
        echo "e2e-prefetch: $2 is identical to $1 ($(grep -vc '^#' "$work/$2.md5") packets)" >&2
    else
        echo "e2e-prefetch: FAIL: $2 differs from $1" >&2
        failures=$((failures + 1))
    fi
}
# play_offline CACHE_DIR URL NAME: with the origin stopped, plays URL whole through a proxy on
# CACHE_DIR and compares it with the direct play NAME was made from.
play_offline() {
    stop_pids "$NGINX_PID"
    NGINX_PID=""
    start_proxy "$binary" "$1"
    play "$(through_proxy "$2")" "offline-$3"
    compare "direct-$3" "offline-$3"
    stop_pids "$PROXY_PID"
    PROXY_PID=""
}

start_nginx "$work/www" "$origin_port" "$work/nginx"
for index in 0 1 2 3 4; do play "$origin/v$index/index.m3u8" "direct-head-$index" 4; done
play "$origin/v0/index.m3u8" direct-whole-0
play "$origin/v1/index.m3u8" direct-whole-1

echo "== 1. prefetch the heads of 5 videos, then play them offline" >&2
start_proxy "$binary" "$work/cache-prefetch"
urls=$(for index in 0 1 2 3 4; do printf '"%s/v%d/index.m3u8",' "$origin" "$index"; done)
python3 - "$PROXY_PORT" "[${urls%,}]" <<'PY'
import json, sys, time, urllib.request
port, urls = sys.argv[1], json.loads(sys.argv[2])
body = json.dumps({"urls": urls, "seconds": 6}).encode()
request = urllib.request.Request(f"http://127.0.0.1:{port}/prefetch", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request) as response:
    assert response.status == 202, response.status
for _ in range(600):
    queue = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/prefetch"))
    if queue["queued"] == 0 and queue["running"] == 0:
        break
    time.sleep(0.05)
states = [job["state"] for job in queue["jobs"]]
assert states == ["done"] * 5, queue
print("e2e-prefetch: prefetched 5 heads, %d bytes" % queue["bytesFetched"], file=sys.stderr)
PY
stop_pids "$NGINX_PID"
NGINX_PID=""
for index in 0 1 2 3 4; do
    play "$(through_proxy "$origin/v$index/index.m3u8")" "offline-head-$index" 4
    compare "direct-head-$index" "offline-head-$index"
done
stop_pids "$PROXY_PID"
PROXY_PID=""

echo "== 2. fetch a whole stream, then play it offline" >&2
start_nginx "$work/www" "$origin_port" "$work/nginx"
"$binary" fetch "$origin/v0/index.m3u8" --cache-dir "$work/cache-fetch" 2>"$work/fetch.log"
tail -1 "$work/fetch.log" >&2
play_offline "$work/cache-fetch" "$origin/v0/index.m3u8" whole-0

echo "== 3. stop a fetch half-way through a slow origin, then resume it" >&2
NGINX_ACCESS_LOG="$work/access.log" NGINX_LIMIT_RATE=40k start_nginx "$work/www" "$origin_port" "$work/nginx-slow"
"$binary" fetch "$origin/v1/index.m3u8" --cache-dir "$work/cache-resume" 2>"$work/fetch1.log" &
FETCH_PID=$!
sleep 2
kill -TERM "$FETCH_PID"
wait "$FETCH_PID" && { echo "e2e-prefetch: FAIL: the fetch finished before it could be stopped" >&2; exit 1; } || true
FETCH_PID=""
"$binary" ls "$work/cache-resume" --json >"$work/stored.json"
cp "$work/access.log" "$work/access-first.log"
"$binary" fetch "$origin/v1/index.m3u8" --cache-dir "$work/cache-resume" 2>"$work/fetch2.log"
tail -1 "$work/fetch2.log" >&2
python3 - "$work/stored.json" "$work/access-first.log" "$work/access.log" "$origin" <<'PY'
import json, sys
stored_path, first_log, full_log, origin = sys.argv[1:]
# What the first run had stored, per URL (fills are written in order from where they start).
stored = {entry["key"][len(origin):]: entry["cachedBytes"] for entry in json.load(open(stored_path))}
first = len(open(first_log).read().splitlines())
second = open(full_log).read().splitlines()[first:]
partial = [path for path, size in stored.items() if path.endswith(".ts") and 0 < size]
assert partial, "the first run stored no segment bytes: stop it later"
for line in second:
    path, rng, status, sent = line.rsplit(" ", 3)
    rng = rng.strip('"')
    start = int(rng[len("bytes="):].split("-")[0]) if rng.startswith("bytes=") and rng[6:7] != "-" else 0
    if stored.get(path, 0) > start:
        sys.exit(f"e2e-prefetch: FAIL: the second run asked for bytes of {path} it had stored ({rng}, {stored[path]} stored)")
print("e2e-prefetch: resumed %d resources (%d partly stored), no stored byte asked for again" % (len(second), len(partial)), file=sys.stderr)
PY
play_offline "$work/cache-resume" "$origin/v1/index.m3u8" whole-1

echo "== 4. fetch into a cache directory a running proxy holds: the proxy downloads it" >&2
stop_pids "$NGINX_PID"
NGINX_PID=""
start_nginx "$work/www" "$origin_port" "$work/nginx-handoff"
start_proxy "$binary" "$work/cache-handoff"
"$binary" fetch "$origin/v0/index.m3u8" --cache-dir "$work/cache-handoff" >"$work/handoff.out" 2>"$work/handoff.log"
grep -q "through the proxy at http://127.0.0.1:$PROXY_PORT" "$work/handoff.out" ||
    { echo "e2e-prefetch: FAIL: fetch did not hand the download to the running proxy: $(cat "$work/handoff.out" "$work/handoff.log")" >&2; exit 1; }
tail -1 "$work/handoff.out" >&2
stop_pids "$NGINX_PID"
NGINX_PID=""
play "$(through_proxy "$origin/v0/index.m3u8")" handoff-whole-0
compare direct-whole-0 handoff-whole-0
stop_pids "$PROXY_PID"
PROXY_PID=""

[ "$failures" -eq 0 ] || { echo "e2e-prefetch: $failures comparison(s) failed" >&2; exit 1; }
echo "e2e-prefetch: all passed" >&2
