#!/usr/bin/env bash
# End to end: playback sessions with a real player. ffmpeg makes a multivariant stream (three
# variants) and three short videos, nginx serves them on 127.0.0.1 (with an access log), and
# ffmpeg plays through `sparsecache serve`:
#   1. a session locked to the lowest variant plays identically to that variant played directly
#      (per-packet MD5s), and nginx's log shows no segment of another variant;
#   2. a virtual playlist of the three videos decodes to the video frames of the three played
#      one after another, and holds their audio packets in the same order;
#   3. a hideUntilBuffered + bufferAhead session through a throttled origin: its playlist grows
#      between reloads while ffmpeg plays it, ends with EXT-X-ENDLIST, and the play equals a
#      direct one.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-sessions

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making the streams" >&2
www=$work/www
mkdir -p "$www"
codecs=(-c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest)
# make NAME SOURCE SIZE SECONDS: an HLS VOD stream of 2 s TS segments in $www/NAME.
make() {
    mkdir -p "$www/$1"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "$2=duration=$4:size=$3:rate=25" -f lavfi -i "sine=frequency=440:duration=$4" \
        "${codecs[@]}" -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$www/$1/s%d.ts" "$www/$1/index.m3u8"
}
make low testsrc 320x180 10
make mid testsrc 640x360 10
make high testsrc 960x540 10
cat >"$www/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180
low/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=640x360
mid/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=960x540
high/index.m3u8
M3U8
make a testsrc 320x180 4
make b smptebars 320x180 6
make c rgbtestsrc 320x180 4

origin_port=$(free_port)
NGINX_ACCESS_LOG=$work/access.log start_nginx "$www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
origin="http://127.0.0.1:$origin_port"
proxy="http://127.0.0.1:$PROXY_PORT"

# open_session JSON: prints the session's playlist URL.
open_session() {
    curl -sf -X POST "$proxy/sessions" -H 'Content-Type: application/json' -d "$1" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["playlist"])'
}
# packets URL NAME [ffmpeg input options]: per-packet MD5s of a copy of every stream.
packets() {
    local url=$1 name=$2; shift 2
    ffmpeg -nostdin -loglevel error -y "$@" -i "$url" -map 0 -c copy -f framemd5 "$work/$name.md5"
}
# frames URL: the MD5 of each decoded video frame, one per line, without timestamps.
frames() {
    ffmpeg -nostdin -loglevel error -i "$1" -map 0:v -fps_mode passthrough -f framemd5 - | grep -v '^#' | awk -F', *' '{print $6}'
}
# audio_packets URL: the MD5 of each audio packet, one per line, without timestamps. Packets,
# not decoded samples: an AAC decoder carries each frame's overlap into the next, so the first
# samples of a video joined after another differ from those of the video played alone.
audio_packets() {
    ffmpeg -nostdin -loglevel error -i "$1" -map 0:a -c copy -f framemd5 - | grep -v '^#' | awk -F', *' '{print $6}'
}

passed=0
failures=0
pass() { echo "e2e-sessions: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-sessions: FAIL: $1" >&2; failures=$((failures + 1)); }

echo "== 1. a session locked to the lowest variant" >&2
packets "$origin/low/index.m3u8" direct-low
: >"$work/access.log"
locked=$(open_session "{\"url\": \"$origin/master.m3u8\", \"quality\": \"lowest\"}")
packets "$locked" session-low
others=$(grep -cE '^/(mid|high)/.*\.ts ' "$work/access.log" || true)
lows=$(grep -cE '^/low/.*\.ts ' "$work/access.log" || true)
if cmp -s "$work/direct-low.md5" "$work/session-low.md5" && [ "$others" -eq 0 ] && [ "$lows" -gt 0 ]; then
    pass "the locked session plays the lowest variant identically ($(grep -vc '^#' "$work/session-low.md5") packets); the origin served $lows low segments and none of another variant"
else
    fail "locked session: packets $(cmp -s "$work/direct-low.md5" "$work/session-low.md5" && echo equal || echo differ), $others segments of other variants"
fi

echo "== 2. a virtual playlist of three videos" >&2
{ frames "$origin/a/index.m3u8"; frames "$origin/b/index.m3u8"; frames "$origin/c/index.m3u8"; } >"$work/direct-frames"
{ audio_packets "$origin/a/index.m3u8"; audio_packets "$origin/b/index.m3u8"; audio_packets "$origin/c/index.m3u8"; } >"$work/direct-audio"
virtual=$(open_session "{\"urls\": [\"$origin/a/index.m3u8\", \"$origin/b/index.m3u8\", \"$origin/c/index.m3u8\"]}")
frames "$virtual" >"$work/virtual-frames"
audio_packets "$virtual" >"$work/virtual-audio"
if [ -s "$work/direct-frames" ] && cmp -s "$work/direct-frames" "$work/virtual-frames" \
    && [ -s "$work/direct-audio" ] && cmp -s "$work/direct-audio" "$work/virtual-audio"; then
    pass "the virtual playlist decodes to the $(wc -l <"$work/direct-frames") video frames of the three videos in order, with their $(wc -l <"$work/direct-audio") audio packets"
else
    fail "virtual playlist: $(wc -l <"$work/virtual-frames") video frames and $(wc -l <"$work/virtual-audio") audio packets, expected $(wc -l <"$work/direct-frames") and $(wc -l <"$work/direct-audio") equal ones"
fi

echo "== 3. hideUntilBuffered + bufferAhead through a throttled origin" >&2
stop_pids "$PROXY_PID" "$NGINX_PID"
NGINX_PID="" PROXY_PID=""
NGINX_LIMIT_RATE=150k start_nginx "$www" "$origin_port" "$work/nginx-slow"
start_proxy "$binary" "$work/cache-slow"
proxy="http://127.0.0.1:$PROXY_PORT"
hidden=$(open_session "{\"url\": \"$origin/high/index.m3u8\", \"hideUntilBuffered\": true, \"bufferAhead\": {\"segments\": 2}}")
# Watch the playlist while ffmpeg plays it: segment counts of successive reloads, for at most
# 120 s (the whole stream takes about 40 s at this rate): a playlist that never ends fails the
# check below instead of hanging the script.
(
    deadline=$((SECONDS + 120))
    while [ "$SECONDS" -lt "$deadline" ]; do
        body=$(curl -sf "$hidden" || true)
        echo "$(grep -c '\.ts' <<<"$body" || true) $(grep -c 'EXT-X-ENDLIST' <<<"$body" || true)"
        grep -q 'EXT-X-ENDLIST' <<<"$body" && break
        sleep 0.3
    done
) >"$work/reloads" &
watcher=$!
packets "$hidden" session-hidden -live_start_index 0
wait "$watcher"
packets "$origin/high/index.m3u8" direct-high
counts=$(awk '{print $1}' "$work/reloads" | uniq | tr '\n' ' ')
distinct=$(awk '{print $1}' "$work/reloads" | sort -un | wc -l)
if [ "$distinct" -ge 3 ] && tail -1 "$work/reloads" | grep -q ' 1$' && cmp -s "$work/direct-high.md5" "$work/session-hidden.md5"; then
    pass "the hidden playlist grew between reloads (segments listed: $counts) and ended with EXT-X-ENDLIST; the play equals a direct one"
else
    fail "hideUntilBuffered: segments listed per reload: $counts; last: $(tail -1 "$work/reloads"); packets $(cmp -s "$work/direct-high.md5" "$work/session-hidden.md5" && echo equal || echo differ)"
fi

stop_pids "$PROXY_PID"
PROXY_PID=""
echo "e2e-sessions: $passed passed, $failures failed" >&2
[ "$failures" -eq 0 ]
