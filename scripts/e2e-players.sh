#!/usr/bin/env bash
# End to end: real players play an HLS stream (ffmpeg-made, MPEG-TS segments under a
# multivariant playlist, on nginx) through `sparsecache serve`, with the URL forms
# Docs/PLAYERS.md gives:
#   GStreamer playbin and uridecodebin (its decoded frames must have the checksums of a direct
#   play, online and again with the origin stopped), GStreamer through a playback session,
#   mpv, ffplay and VLC.
# Each player plays its own copy of the stream (its own URLs), and passes when it exits cleanly
# and every playlist and segment of its copy is then cached whole. Ends with "N passed, M failed".
# Exit 77 when GStreamer is missing and cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-players
if ! command -v gst-launch-1.0 >/dev/null 2>&1; then
    echo "e2e-players: SKIPPED: GStreamer (gst-launch-1.0) is not installed and could not be installed" >&2
    exit "$SKIPPED_STATUS"
fi

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making the stream" >&2
mkdir -p "$work/stream/ts"
ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc=duration=6:size=320x240:rate=25 -f lavfi -i sine=frequency=440:duration=6 \
    -c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest \
    -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$work/stream/ts/segment%d.ts" "$work/stream/ts/index.m3u8"
cat >"$work/stream/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=320x240,CODECS="avc1.42c00d,mp4a.40.2"
ts/index.m3u8
M3U8
segments=$(grep -c '^segment' "$work/stream/ts/index.m3u8")
players=(playbin uridecodebin session mpv ffplay vlc)
for player in direct "${players[@]}"; do
    mkdir -p "$work/www/$player"
    cp -r "$work/stream/." "$work/www/$player/"
done

origin_port=$(free_port)
origin="http://127.0.0.1:$origin_port"
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
proxy="http://127.0.0.1:$PROXY_PORT"
# The URL form every player takes: `sparsecache url` encodes the origin URL whole.
through_proxy() { "$binary" url --port "$PROXY_PORT" "$1"; }

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "e2e-players: ok: $1" >&2; }
fail() { failed=$((failed + 1)); echo "e2e-players: FAIL: $1" >&2; }

# cached_whole NAME: the two playlists and every segment of the player's copy are cached whole.
cached_whole() {
    curl -fsS "$proxy/entries?limit=1000" | python3 -c '
import json, sys
copy, count = sys.argv[1], int(sys.argv[2])
entries = {entry["url"]: entry for entry in json.load(sys.stdin)["entries"]}
wanted = [copy + "/master.m3u8", copy + "/ts/index.m3u8"] + [copy + "/ts/segment%d.ts" % n for n in range(count)]
missing = [url for url in wanted if not entries.get(url, {}).get("complete")]
if missing:
    sys.exit("not cached whole: " + ", ".join(missing))
' "$origin/$1" "$segments"
}

# played NAME COMMAND...: the player exits 0 and its copy is then cached whole.
played() {
    local name=$1; shift
    if ! command -v "$1" >/dev/null 2>&1; then
        fail "$name: $1 is not installed"
        return
    fi
    if ! timeout 120 "$@" >"$work/$name.log" 2>&1; then
        fail "$name: the player failed (see below)"
        tail -5 "$work/$name.log" >&2
    elif message=$(cached_whole "$name" 2>&1); then
        pass "$name played every segment through the proxy"
    else
        fail "$name: $message"
    fi
}

# checksums URL FILE: the SHA-1 of every decoded video frame, as GStreamer's checksumsink prints it.
checksums() {
    gst-launch-1.0 -q uridecodebin uri="$1" name=d \
        d. ! video/x-raw ! queue ! videoconvert ! checksumsink sync=false \
        d. ! audio/x-raw ! queue ! audioconvert ! fakesink sync=false >"$2"
}

echo "== players through the proxy" >&2
played playbin gst-launch-1.0 -q playbin uri="$(through_proxy "$origin/playbin/master.m3u8")" \
    video-sink="fakesink sync=false" audio-sink="fakesink sync=false"

checksums "$origin/direct/master.m3u8" "$work/direct.sums"
if [ "$(wc -l <"$work/direct.sums")" -lt 100 ]; then
    fail "the direct play decoded $(wc -l <"$work/direct.sums") frames, expected 150"
fi
if checksums "$(through_proxy "$origin/uridecodebin/master.m3u8")" "$work/uridecodebin.sums" \
    && cmp -s "$work/direct.sums" "$work/uridecodebin.sums" && cached_whole uridecodebin; then
    pass "uridecodebin decoded the same $(wc -l <"$work/direct.sums") frames as a direct play"
else
    fail "uridecodebin: frames differ from a direct play, or its copy is not cached"
fi

session=$(curl -fsS -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$origin/session/master.m3u8\", \"quality\": \"lowest\"}")
session_playlist=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["playlist"])' "$session")
played session gst-launch-1.0 -q playbin uri="$session_playlist" video-sink="fakesink sync=false" audio-sink="fakesink sync=false"

played mpv mpv --no-config --really-quiet --vo=null --ao=null --untimed "$(through_proxy "$origin/mpv/master.m3u8")"
played ffplay env SDL_AUDIODRIVER=dummy ffplay -nodisp -autoexit -loglevel error "$(through_proxy "$origin/ffplay/master.m3u8")"
# VLC refuses to run as root; it plays as an unprivileged user.
vlc_user=()
if [ "$(id -u)" -eq 0 ]; then vlc_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp); fi
if command -v cvlc >/dev/null 2>&1; then
    played vlc "${vlc_user[@]}" cvlc -q --intf dummy --vout dummy --aout dummy --play-and-exit "$(through_proxy "$origin/vlc/master.m3u8")"
else
    fail "vlc: cvlc is not installed"
fi

echo "== the origin stopped: GStreamer plays from the cache alone" >&2
stop_pids "$NGINX_PID"
NGINX_PID=""
if checksums "$(through_proxy "$origin/uridecodebin/master.m3u8")" "$work/offline.sums" && cmp -s "$work/direct.sums" "$work/offline.sums"; then
    pass "uridecodebin offline decoded the same frames as a direct play"
else
    fail "uridecodebin offline: frames differ from a direct play"
fi

echo "e2e-players: $passed passed, $failed failed" >&2
[ "$failed" -eq 0 ]
