#!/usr/bin/env bash
# End to end: three `sparsecache serve` instances behind an nginx front that routes each origin
# URL to one instance by consistent hashing (the deployment of Docs/SCALING.md, its nginx
# configuration from Benchmarks/proxy/cluster.sh). An nginx origin serves an ffmpeg-made
# multivariant stream (two variants of 1 s TS segments) with an access log.
#   1. ffmpeg plays it through the front: output and per-packet MD5s equal a direct play;
#   2. the origin's log shows every segment fetched exactly once across the cluster, and every
#      instance served some of them (each instance's /metrics);
#   3. one instance is killed with SIGKILL and ffmpeg plays again: identical output, and the
#      origin was asked only for what the dead instance held (its access log says what);
#   4. a session opened through the front plays through the instance that opened it.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh
source Benchmarks/proxy/cluster.sh

require_media_tools e2e-cluster

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== making the stream" >&2
www=$work/www
mkdir -p "$www"
codecs=(-c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest)
for variant in 320x180 480x270; do
    mkdir -p "$www/$variant"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=duration=10:size=$variant:rate=25" \
        -f lavfi -i "sine=frequency=440:duration=10" "${codecs[@]}" -f hls -hls_time 1 -hls_playlist_type vod \
        -hls_segment_filename "$www/$variant/s%d.ts" "$www/$variant/index.m3u8"
done
cat >"$www/master.m3u8" <<M3U8
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180
320x180/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=480x270
480x270/index.m3u8
M3U8
segments=$(cd "$www" && ls -1 */s*.ts | sed 's|^|/|' | sort)

origin_port=$(free_port)
NGINX_ACCESS_LOG=$work/origin.log start_nginx "$www" "$origin_port" "$work/origin"
origin="http://127.0.0.1:$origin_port"
origin_pid=$NGINX_PID
INSTANCE_PIDS=() FRONT_PID=""
trap 'stop_pids "$FRONT_PID" "${INSTANCE_PIDS[@]}" "$origin_pid"; rm -rf "$work"' EXIT
start_cluster "$binary" "$work" 3
front="http://127.0.0.1:$FRONT_PORT"

passed=0
failures=0
pass() { echo "e2e-cluster: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-cluster: FAIL: $1" >&2; failures=$((failures + 1)); }

# play URL NAME: ffmpeg -c copy of every stream to NAME.ts, and per-packet MD5s to NAME.md5.
play() {
    ffmpeg -nostdin -loglevel error -y -i "$1" -map 0 -c copy -f mpegts "$work/$2.ts"
    ffmpeg -nostdin -loglevel error -y -i "$1" -map 0 -c copy -f framemd5 "$work/$2.md5"
}
same() {
    cmp -s "$work/$1.ts" "$work/$2.ts" && cmp -s "$work/$1.md5" "$work/$2.md5"
}
# origin_requests FROM_LINE: the segment paths the origin was asked for from that log line on.
origin_requests() {
    tail -n "+$1" "$work/origin.log" | awk '{ print $1 }' | grep '\.ts$' || true
}
# logs_written: waits (up to 5 s) until each instance's access log holds a line for every request
# its /metrics has counted (the lines leave a few tens of milliseconds after their responses);
# fails, naming the instance, when one does not, since the checks below read those logs.
logs_written() {
    local index counted lines written
    for index in 1 2 3; do
        written=no
        for _ in $(seq 1 100); do
            counted=$(curl -sf "http://127.0.0.1:${INSTANCE_PORTS[$((index - 1))]}/metrics" |
                awk '/^sparsecache_requests_total/ { sum += $2 } END { print sum + 0 }')
            lines=$(grep -c ' method=' "$work/instance$index.log" || true)
            if [ "$counted" -gt 0 ] && [ "$lines" -ge "$counted" ]; then
                written=yes
                break
            fi
            sleep 0.05
        done
        if [ "$written" = no ]; then
            fail "instance $index's access log holds $lines request lines after 5 s, its /metrics counted $counted"
            return 1
        fi
    done
}
# served_by N: the origin paths instance N's access log names.
served_by() {
    grep -o "url=$origin/[^ ]*" "$work/instance$1.log" | sed "s|^url=$origin||" | sort -u || true
}
through_front() { echo "$front/proxy?url=$(urlencode "$1")"; }

echo "== 1. playing through the front" >&2
play "$origin/master.m3u8" direct
mark=$(($(wc -l <"$work/origin.log") + 1))
play "$(through_front "$origin/master.m3u8")" cluster
if same direct cluster; then
    pass "the play through the front equals the direct play ($(grep -vc '^#' "$work/cluster.md5") packets)"
else
    fail "the play through the front differs from the direct play"
fi

echo "== 2. each segment fetched once, every instance serving" >&2
fetched=$(origin_requests "$mark" | sort)
if [ "$fetched" = "$segments" ]; then
    pass "the origin was asked for each of the $(wc -l <<<"$segments") segments exactly once"
else
    fail "the origin's segment requests differ from one per segment: $(diff <(echo "$segments") <(echo "$fetched") | head -5 | tr '\n' ' ')"
fi
counts=""
for index in 1 2 3; do
    count=$(curl -sf "http://127.0.0.1:${INSTANCE_PORTS[$((index - 1))]}/metrics" |
        awk '/^sparsecache_requests_total\{route="proxy",status="2xx"\}/ { print $2 }')
    counts="$counts ${count:-0}"
done
if ! grep -qw 0 <<<"$counts"; then
    pass "every instance served requests (proxy 2xx:$counts)"
else
    fail "an instance served nothing (proxy 2xx:$counts)"
fi
logs_written || true  # logs_written counted the failure; the checks below still run
owned=0
for index in 1 2 3; do
    others=$(for other in 1 2 3; do [ "$other" = "$index" ] || served_by "$other"; done | sort -u)
    shared=$(comm -12 <(served_by "$index" | grep '\.ts$' || true) <(echo "$others" | grep '\.ts$' || true) | wc -l)
    owned=$((owned + shared))
done
if [ "$owned" -eq 0 ]; then
    pass "no segment was served by two instances"
else
    fail "$owned segment(s) were served by more than one instance"
fi
# The instance holding the most segments dies in step 3.
victim=1
for index in 2 3; do
    [ "$(served_by "$index" | grep -c '\.ts$')" -gt "$(served_by "$victim" | grep -c '\.ts$')" ] && victim=$index
done
dead_share=$(served_by "$victim" | grep '\.ts$' || true)

echo "== 3. one instance killed" >&2
kill -KILL "${INSTANCE_PIDS[$((victim - 1))]}"
wait "${INSTANCE_PIDS[$((victim - 1))]}" 2>/dev/null || true
INSTANCE_PIDS[$((victim - 1))]=""
mark=$(($(wc -l <"$work/origin.log") + 1))
play "$(through_front "$origin/master.m3u8")" after-kill
if same direct after-kill; then
    pass "with instance $victim dead the play is still identical"
else
    fail "with instance $victim dead the play differs"
fi
refetched=$(origin_requests "$mark" | sort)
if [ -n "$dead_share" ] && [ "$refetched" = "$(sort <<<"$dead_share")" ]; then
    pass "the origin was asked again for the dead instance's $(wc -l <<<"$dead_share") segments and nothing else"
else
    fail "after the kill the origin was asked for $(wc -l <<<"$refetched") segments; the dead instance held $(wc -l <<<"$dead_share")"
fi

echo "== 4. a session stays on the instance that opened it" >&2
session=$(curl -sf -X POST "$front/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$origin/master.m3u8\", \"quality\": \"lowest\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["playlist"])')
if ffmpeg -nostdin -loglevel error -y -i "$session" -map 0 -c copy -f framemd5 "$work/session.md5" &&
    ffmpeg -nostdin -loglevel error -y -i "$origin/320x180/index.m3u8" -map 0 -c copy -f framemd5 "$work/direct-low.md5" &&
    cmp -s "$work/session.md5" "$work/direct-low.md5"; then
    pass "the session's playlist ($session) plays through its instance, equal to the variant played directly"
else
    fail "the session opened through the front did not play as its variant: $session"
fi

echo "e2e-cluster: $passed passed, $failures failed"
[ "$failures" -eq 0 ]
