#!/usr/bin/env bash
# End to end: ffmpeg makes a real HLS stream (MPEG-TS segments under a multivariant playlist,
# and fMP4 in one file addressed by byte ranges), nginx serves it on 127.0.0.1, ffmpeg plays it
# through `sparsecache serve`, nginx is stopped, ffmpeg plays it again from the cache alone, and
# every output must be identical to playing the origin directly (bytes and per-packet MD5s).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-proxy

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making the streams" >&2
mkdir -p "$work/www/ts" "$work/www/fmp4"
sources=(-f lavfi -i testsrc=duration=6:size=320x240:rate=25 -f lavfi -i sine=frequency=440:duration=6)
codecs=(-c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest)
ffmpeg -nostdin -loglevel error -y "${sources[@]}" "${codecs[@]}" -f hls -hls_time 2 -hls_playlist_type vod \
    -hls_segment_filename "$work/www/ts/segment%d.ts" "$work/www/ts/index.m3u8"
ffmpeg -nostdin -loglevel error -y "${sources[@]}" "${codecs[@]}" -f hls -hls_time 2 -hls_playlist_type vod \
    -hls_segment_type fmp4 -hls_flags single_file "$work/www/fmp4/index.m3u8"
cat >"$work/www/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=320x240
ts/index.m3u8
M3U8

origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
origin="http://127.0.0.1:$origin_port"
through_proxy() { echo "http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$1")"; }

# play URL NAME FORMAT: ffmpeg -c copy to NAME.out and a per-packet MD5 list NAME.md5.
play() {
    ffmpeg -nostdin -loglevel error -y -i "$1" -map 0 -c copy -f "$3" "$work/$2.out"
    ffmpeg -nostdin -loglevel error -y -i "$1" -map 0 -c copy -f framemd5 "$work/$2.md5"
}

failures=0
compare() {
    if cmp -s "$work/$1.out" "$work/$2.out" && cmp -s "$work/$1.md5" "$work/$2.md5"; then
        echo "e2e-proxy: $2 is identical to $1 ($(wc -c <"$work/$2.out") bytes, $(grep -vc '^#' "$work/$2.md5") packets)" >&2
    else
        echo "e2e-proxy: FAIL: $2 differs from $1" >&2
        failures=$((failures + 1))
    fi
}

echo "== direct, through the proxy, and offline" >&2
play "$origin/master.m3u8" direct-ts mpegts
play "$origin/fmp4/index.m3u8" direct-fmp4 mp4
play "$(through_proxy "$origin/master.m3u8")" proxy-ts mpegts
play "$(through_proxy "$origin/fmp4/index.m3u8")" proxy-fmp4 mp4
compare direct-ts proxy-ts
compare direct-fmp4 proxy-fmp4

stop_pids "$NGINX_PID"
NGINX_PID=""
if python3 -c "import socket; socket.create_connection(('127.0.0.1', $origin_port), 0.5)" 2>/dev/null; then
    echo "e2e-proxy: FAIL: the origin is still up" >&2
    exit 1
fi
play "$(through_proxy "$origin/master.m3u8")" offline-ts mpegts
play "$(through_proxy "$origin/fmp4/index.m3u8")" offline-fmp4 mp4
compare direct-ts offline-ts
compare direct-fmp4 offline-fmp4

status=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$PROXY_PORT/status').read().decode())")
echo "$status" | python3 -c '
import json, sys
status = json.load(sys.stdin)
cache = status["cache"]
print("e2e-proxy: cache %d entries, %d bytes; %d hits, %d misses; %d bytes from origin" % (
    cache["entries"], cache["sizeBytes"], cache["hits"], cache["misses"], cache["bytesFromOrigin"]), file=sys.stderr)
assert cache["hits"] > 0 and cache["entries"] >= 6, "expected cached entries and hits"
'
stop_pids "$PROXY_PID"
PROXY_PID=""
[ "$failures" -eq 0 ] || { echo "e2e-proxy: $failures comparison(s) failed" >&2; exit 1; }
echo "e2e-proxy: 4 passed, 0 failed" >&2
