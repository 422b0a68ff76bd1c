#!/usr/bin/env bash
# End to end: the proxy's defences with real clients. ffmpeg makes an HLS stream (MPEG-TS
# segments) and an MP4 file, nginx serves them on 127.0.0.1, and:
#   1. GStreamer, a second real player besides ffmpeg (which the other scripts drive), plays both
#      through `sparsecache serve` on its defaults: it passes the Host check, and every decoded
#      video frame and the decoded audio equal GStreamer playing the origin directly;
#   2. curl, standing in for a hostile page's browser, gets 421 for a rebinding Host (on a cache
#      hit too), 403 for a foreign Origin and 415 for a text/plain body on POST /prefetch, and 403
#      for the proxy itself and a link-local address as origins;
#   3. with --control-token, --allow-origin and --allow-request-host: /status needs the token,
#      the allowed origin gets CORS headers, the extra name passes the Host check, and /proxy
#      still needs no token.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-security
if ! command -v gst-launch-1.0 >/dev/null 2>&1; then
    echo "e2e-security: SKIPPED: GStreamer (gst-launch-1.0) is not installed and could not be installed" >&2
    exit "$SKIPPED_STATUS"
fi

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making the streams" >&2
mkdir -p "$work/www/ts"
sources=(-f lavfi -i testsrc=duration=6:size=320x240:rate=25 -f lavfi -i sine=frequency=440:duration=6)
codecs=(-c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest)
ffmpeg -nostdin -loglevel error -y "${sources[@]}" "${codecs[@]}" -f hls -hls_time 2 -hls_playlist_type vod \
    -hls_segment_filename "$work/www/ts/segment%d.ts" "$work/www/ts/index.m3u8"
ffmpeg -nostdin -loglevel error -y "${sources[@]}" "${codecs[@]}" "$work/www/movie.mp4"

origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
origin="http://127.0.0.1:$origin_port"
proxy="http://127.0.0.1:$PROXY_PORT"
through_proxy() { echo "$proxy/proxy?url=$(urlencode "$1")"; }

passed=0
failures=0
pass() { echo "e2e-security: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-security: FAIL: $1" >&2; failures=$((failures + 1)); }

# decode URI NAME: GStreamer decodes URI's video to raw I420 frames in NAME.yuv and its audio to
# raw 16-bit samples in NAME.pcm.
decode() {
    timeout 120 gst-launch-1.0 -q uridecodebin uri="$1" name=decoder \
        decoder. ! queue ! videoconvert ! video/x-raw,format=I420 ! filesink location="$work/$2.yuv" \
        decoder. ! queue ! audioconvert ! audio/x-raw,format=S16LE ! filesink location="$work/$2.pcm" >"$work/$2.log" 2>&1 ||
        { cat "$work/$2.log" >&2; return 1; }
}

echo "== 1. GStreamer through the proxy, on its defaults" >&2
frame=$((320 * 240 * 3 / 2))
for media in ts/index.m3u8 movie.mp4; do
    name=${media//\//-}
    decode "$origin/$media" "direct-$name"
    if ! decode "$(through_proxy "$origin/$media")" "proxy-$name"; then
        fail "GStreamer could not play $media through the proxy"
    elif [ ! -s "$work/direct-$name.yuv" ] || [ ! -s "$work/direct-$name.pcm" ]; then
        fail "GStreamer's direct play of $media decoded no video or no audio"
    elif cmp -s "$work/direct-$name.yuv" "$work/proxy-$name.yuv" && cmp -s "$work/direct-$name.pcm" "$work/proxy-$name.pcm"; then
        pass "GStreamer plays $media through the proxy: $(($(stat -c %s "$work/proxy-$name.yuv") / frame)) video frames and $(($(stat -c %s "$work/proxy-$name.pcm") / 2)) audio samples, identical to a direct play"
    else
        fail "GStreamer through the proxy differs from a direct play of $media (video $(cmp -s "$work/direct-$name.yuv" "$work/proxy-$name.yuv" && echo equal || echo differs), audio $(cmp -s "$work/direct-$name.pcm" "$work/proxy-$name.pcm" && echo equal || echo differs))"
    fi
done

echo "== 2. a hostile page's requests, on the defaults" >&2
# expect STATUS DESCRIPTION CURL_ARGS...: the status curl gets must be STATUS.
expect() {
    local wanted=$1 what=$2; shift 2
    local got
    got=$(curl -s -o "$work/body" -w '%{http_code}' "$@")
    if [ "$got" = "$wanted" ]; then
        pass "$what: $got $(head -c 100 "$work/body" | LC_ALL=C tr -c '[:print:]' ' ')"
    else
        fail "$what: expected $wanted, got $got"
    fi
}
cached=$(through_proxy "$origin/movie.mp4")
expect 421 "a rebinding Host on /status" -H "Host: attacker.example:$PROXY_PORT" "$proxy/status"
expect 421 "a rebinding Host on a cached range" -H "Host: attacker.example:$PROXY_PORT" -H 'Range: bytes=0-99' "$cached"
expect 206 "the proxy's own Host on a cached range" -H 'Range: bytes=0-99' "$cached"
expect 403 "a foreign Origin on POST /prefetch" -X POST -H 'Origin: https://attacker.example' -H 'Content-Type: text/plain' \
    -d "{\"urls\": [\"$origin/movie.mp4\"], \"seconds\": 6}" "$proxy/prefetch"
expect 415 "a text/plain body on POST /prefetch" -X POST -H 'Content-Type: text/plain' \
    -d "{\"urls\": [\"$origin/movie.mp4\"], \"seconds\": 6}" "$proxy/prefetch"
expect 403 "the proxy as its own origin" "$(through_proxy "http://127.0.0.1:$PROXY_PORT/status")"
expect 403 "a link-local origin" "$(through_proxy "http://169.254.169.254/latest/meta-data/")"
stop_pids "$PROXY_PID"
PROXY_PID=""

echo "== 3. a control token, an allowed origin, another name" >&2
token=e2e-$RANDOM$RANDOM
start_proxy "$binary" "$work/cache" --control-token "$token" --allow-origin https://app.example --allow-request-host tv.local
proxy="http://127.0.0.1:$PROXY_PORT"
expect 401 "/status without the token" "$proxy/status"
expect 401 "/status with a wrong token" -H 'Authorization: Bearer wrong' "$proxy/status"
expect 200 "/status with the token" -H "Authorization: Bearer $token" "$proxy/status"
expect 200 "/status by another allowed name" -H "Host: tv.local:$PROXY_PORT" -H "Authorization: Bearer $token" "$proxy/status"
expect 200 "/proxy without a token" "$(through_proxy "$origin/ts/index.m3u8")"
if curl -s -D - -o /dev/null -H 'Origin: https://app.example' -H 'Range: bytes=0-99' "$(through_proxy "$origin/movie.mp4")" |
    grep -qi '^access-control-allow-origin: https://app.example'; then
    pass "the allowed origin gets Access-Control-Allow-Origin"
else
    fail "the allowed origin got no Access-Control-Allow-Origin"
fi
stop_pids "$PROXY_PID"
PROXY_PID=""

[ "$failures" -eq 0 ] || { echo "e2e-security: $failures check(s) failed" >&2; exit 1; }
echo "e2e-security: $passed passed, 0 failed" >&2
