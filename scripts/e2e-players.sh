#!/usr/bin/env bash
# End to end: real players play an HLS stream (ffmpeg-made, MPEG-TS segments under a
# multivariant playlist, on nginx) through `sparsecache serve`, with the URL forms
# Docs/PLAYERS.md gives: GStreamer playbin and uridecodebin, GStreamer through a playback
# session, mpv, ffplay and VLC.
# Each player plays its own copy of the stream (its own URLs) and passes when what it decoded is
# what the same player decodes playing the origin directly, video and audio, and every playlist
# and segment of its copy is then cached whole. What each player decoded is written where the
# player can write it: GStreamer's checksumsink (a SHA-1 per video frame) and the raw audio it
# decoded, mpv's encoding mode (--o) and VLC's --sout to a file (then hashed per frame by ffmpeg).
# ffplay writes nothing and its frame checksums (showinfo) differ from one play to the next, so
# for ffplay the bytes it fetched are checked: every request it made got all of its resource, and
# every segment the proxy sent it is the origin's file, byte for byte; and it decoded every frame.
# uridecodebin plays again with the origin stopped. Ends with "N passed, M failed".
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
# The access log (info) says what each request was sent.
PROXY_LOG_LEVEL=info start_proxy "$binary" "$work/cache" 2>"$work/proxy.log"
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

# What a player decoded, as two files: $work/NAME.video (one checksum per decoded video frame, in
# order) and $work/NAME.audio (checksums of the decoded audio). Each OUTPUT function plays URL
# and writes them; it fails when the player fails.
gst_checksums() {  # gst_checksums URL NAME ELEMENT: playbin or uridecodebin
    local url=$1 name=$2 element=$3
    rm -f "$work/$name.pcm"
    if [ "$element" = playbin ]; then
        timeout 120 gst-launch-1.0 -q playbin uri="$url" video-sink="videoconvert ! checksumsink sync=false" \
            audio-sink="audioconvert ! audio/x-raw,format=S16LE ! filesink sync=false location=$work/$name.pcm" >"$work/$name.video"
    else
        timeout 120 gst-launch-1.0 -q uridecodebin uri="$url" name=d \
            d. ! video/x-raw ! queue ! videoconvert ! checksumsink sync=false \
            d. ! audio/x-raw ! queue ! audioconvert ! audio/x-raw,format=S16LE ! filesink sync=false location="$work/$name.pcm" \
            >"$work/$name.video"
    fi
    md5sum <"$work/$name.pcm" >"$work/$name.audio"
}
playbin_output() { gst_checksums "$1" "$2" playbin; }
uridecodebin_output() { gst_checksums "$1" "$2" uridecodebin; }
# A file a player wrote (mpv's --o, VLC's --sout): a hash per video frame, and of the whole audio.
file_checksums() {  # file_checksums FILE NAME
    ffmpeg -v error -nostdin -i "$1" -map 0:v -c copy -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' >"$work/$2.video"
    ffmpeg -v error -nostdin -i "$1" -map 0:a -f md5 - >"$work/$2.audio"
}
mpv_output() {
    timeout 120 mpv --no-config --really-quiet --untimed --o="$work/$2.nut" --ovc=rawvideo --oac=pcm_s16le "$1" >"$work/$2.log" 2>&1 \
        && file_checksums "$work/$2.nut" "$2"
}
# VLC refuses to run as root; it plays as an unprivileged user, into a directory it may write.
vlc_user=()
if [ "$(id -u)" -eq 0 ]; then vlc_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp); fi
mkdir -p "$work/vlc-out"
chmod 777 "$work/vlc-out"
vlc_output() {
    timeout 120 "${vlc_user[@]}" cvlc -q --intf dummy --play-and-exit \
        --sout "#transcode{vcodec=RV24,acodec=s16l}:std{access=file,mux=avi,dst=$work/vlc-out/$2.avi}" "$1" >"$work/$2.log" 2>&1 \
        && file_checksums "$work/vlc-out/$2.avi" "$2"
}
# ffplay writes no file: its showinfo and ashowinfo filters log a line per decoded frame (with a
# dummy display; -noframedrop, so a slow machine does not drop frames), which are counted.
ffplay_output() {
    SDL_AUDIODRIVER=dummy SDL_VIDEODRIVER=dummy timeout 120 ffplay -autoexit -noframedrop -loglevel info \
        -vf showinfo -af ashowinfo "$1" >"$work/$2.log" 2>&1 || return 1
    # A frame's line: "[Parsed_showinfo_0 @ 0x...] n: 0 pts: ... checksum:6913BA18 plane_checksum:[...]"
    # (lines can run together with ffplay's status line: each match stops at its own checksum).
    local frame='_[0-9]* @ [0-9a-fx]*\] n: *[0-9]* [^[]* checksum:[0-9A-F]*'
    grep -o "Parsed_showinfo$frame" "$work/$2.log" | sed 's/.* checksum://' >"$work/$2.video"
    grep -o "Parsed_ashowinfo$frame" "$work/$2.log" | sed 's/.* checksum://' >"$work/$2.audio"
}

# fetched_whole NAME: every request of NAME's copy in the proxy's access log got a 2xx and, for a
# segment, all of its bytes; and every segment, read back from the cache, is the origin's file.
fetched_whole() {
    local name=$1 url status bytes file checked=0
    # A snapshot: the reads below through the proxy add lines of their own.
    grep -o "url=$origin/$name/[^ ]* status=[0-9]* bytes=[0-9]*" "$work/proxy.log" | sed 's/url=//; s/ status=/ /; s/ bytes=/ /' \
        >"$work/$name.fetched" || true
    while read -r url status bytes; do
        [ "${status:0:1}" = 2 ] || { echo "$url was answered $status"; return 1; }
        case "$url" in
        *.ts)
            file="$work/www/${url#"$origin/"}"
            [ "$bytes" = "$(stat -c %s "$file")" ] || { echo "$url: $bytes bytes sent of $(stat -c %s "$file")"; return 1; }
            cmp -s "$file" <(curl -fsS "$(through_proxy "$url")") || { echo "$url: the cached bytes differ from the origin's"; return 1; }
            checked=$((checked + 1))
            ;;
        esac
    done <"$work/$name.fetched"
    [ "$checked" -ge "$segments" ] || { echo "the access log holds $checked of the $segments segments"; return 1; }
}

# compared NAME PLAYER URL: PLAYER's output through the proxy (URL) is its direct play's, at
# least 100 of the stream's 150 video frames and some audio were decoded, and NAME's copy is
# cached whole.
compared() {
    local name=$1 player=$2 url=$3 frames
    if ! "${player}_output" "$url" "$name"; then
        fail "$name: the player failed"
        tail -5 "$work/$name.log" 2>/dev/null >&2 || true
        return
    fi
    frames=$(wc -l <"$work/$name.video")
    if [ "$frames" -lt 100 ] || [ ! -s "$work/$name.audio" ]; then
        fail "$name: decoded $frames video frames and $(wc -c <"$work/$name.audio") bytes of audio checksums through the proxy"
    elif [ "$player" = ffplay ]; then
        # ffplay's status line runs into the filters' lines of its log, and a frame's line is at
        # times cut and not counted, in either play (seen: 148 of 150 through the proxy once,
        # 149 of 150 in the direct play once, 150 when played again). A cut never adds a frame,
        # so when the counts differ both are played once more and each side's higher count is
        # compared.
        local direct again
        direct=$(wc -l <"$work/direct-ffplay.video")
        if [ "$frames" -ne "$direct" ]; then
            echo "e2e-players: $name counted $frames video frames, its direct play $direct: both played once more" >&2
            if "${player}_output" "$url" "$name-again"; then
                again=$(wc -l <"$work/$name-again.video")
                if [ "$again" -gt "$frames" ]; then frames=$again; fi
            fi
            if ffplay_output "$origin/direct/master.m3u8" direct-ffplay-again; then
                again=$(wc -l <"$work/direct-ffplay-again.video")
                if [ "$again" -gt "$direct" ]; then direct=$again; fi
            fi
        fi
        if [ "$frames" -ne "$direct" ]; then
            fail "$name: decoded $frames video frames, its direct play $direct"
        elif ! message=$(fetched_whole "$name" 2>&1); then
            fail "$name: $message"
        elif message=$(cached_whole "$name" 2>&1); then
            pass "$name decoded all $frames video frames, as its direct play, from the origin's bytes, and its copy is cached whole"
        else
            fail "$name: $message"
        fi
    elif ! cmp -s "$work/direct-$player.video" "$work/$name.video"; then
        fail "$name: its video frames differ from $player's direct play"
    elif ! cmp -s "$work/direct-$player.audio" "$work/$name.audio"; then
        fail "$name: its audio differs from $player's direct play"
    elif message=$(cached_whole "$name" 2>&1); then
        pass "$name decoded the same $frames video frames and audio as $player's direct play, and its copy is cached whole"
    else
        fail "$name: $message"
    fi
}

echo "== each player plays the origin directly" >&2
for player in playbin uridecodebin mpv ffplay vlc; do
    if ! "${player}_output" "$origin/direct/master.m3u8" "direct-$player"; then
        fail "$player: the direct play failed"
        tail -5 "$work/direct-$player.log" 2>/dev/null >&2 || true
    elif [ "$(wc -l <"$work/direct-$player.video")" -lt 100 ] || [ ! -s "$work/direct-$player.audio" ]; then
        fail "$player: the direct play decoded $(wc -l <"$work/direct-$player.video") video frames, expected 150, or no audio"
    fi
done

echo "== players through the proxy" >&2
compared playbin playbin "$(through_proxy "$origin/playbin/master.m3u8")"
compared uridecodebin uridecodebin "$(through_proxy "$origin/uridecodebin/master.m3u8")"
session=$(curl -fsS -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$origin/session/master.m3u8\", \"quality\": \"lowest\"}")
session_playlist=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["playlist"])' "$session")
compared session playbin "$session_playlist"
compared mpv mpv "$(through_proxy "$origin/mpv/master.m3u8")"
compared ffplay ffplay "$(through_proxy "$origin/ffplay/master.m3u8")"
compared vlc vlc "$(through_proxy "$origin/vlc/master.m3u8")"

echo "== the origin stopped: GStreamer plays from the cache alone" >&2
stop_pids "$NGINX_PID"
NGINX_PID=""
if uridecodebin_output "$(through_proxy "$origin/uridecodebin/master.m3u8")" offline \
    && cmp -s "$work/direct-uridecodebin.video" "$work/offline.video" && cmp -s "$work/direct-uridecodebin.audio" "$work/offline.audio"; then
    pass "uridecodebin offline decoded the same video frames and audio as a direct play"
else
    fail "uridecodebin offline: frames or audio differ from a direct play"
fi

echo "e2e-players: $passed passed, $failed failed" >&2
[ "$failed" -eq 0 ]
