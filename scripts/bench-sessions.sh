#!/usr/bin/env bash
# Benchmarks what a playback session costs over the plain proxy, in one run:
#   1. requests/s for a cached VOD media playlist (600 segments, long signed URIs) served as the
#      session's playlist and through /proxy?url=, in alternating wrk rounds: goal, the session
#      within 10 % (ratio >= 0.9);
#   2. time to first byte of a cached 64 KiB range of a segment, through /proxy?url= and through
#      the session, request by request on keep-alive connections: goal, the session adds under
#      0.5 ms (median).
# Every response counted is checked (status, and for ranges the body length). Exits 1 when a
# goal is missed. Environment: DURATION (seconds per wrk run, 3), RUNS (alternating rounds, 3),
# TTFB_COUNT (2000).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

duration=${DURATION:-3}
runs=${RUNS:-3}
ttfb_count=${TTFB_COUNT:-2000}
./scripts/ensure-deps.sh bench
build_sparsecache release
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/www/v"
head -c $((2 * 1000 * 1000)) /dev/urandom >"$work/www/v/segment.ts"
python3 - "$work/www/v/index.m3u8" <<'PY'
import sys
lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD"]
for index in range(600):
    lines.append("#EXTINF:6.006,")
    lines.append(f"segment.ts?part={index}&Expires=1767225600&Signature=Q2xvdWRGcm9udC1TaWduYXR1cmUtZXhhbXBsZS0{index:05d}&Key-Pair-Id=APKAEXAMPLE")
lines.append("#EXT-X-ENDLIST")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
origin="http://127.0.0.1:$origin_port"
proxy="http://127.0.0.1:$PROXY_PORT"
media="$origin/v/index.m3u8"
segment="$origin/v/segment.ts"

session=$(curl -sf -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$media\", \"idleTimeout\": 3600}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
plain_playlist="$proxy/proxy?url=$(urlencode "$media")"
session_playlist="$proxy/sessions/$session/index.m3u8"
plain_segment="/proxy?url=$(urlencode "$segment")"
session_segment="/sessions/$session/proxy?url=$(urlencode "$segment")"

echo "== warming the cache" >&2
for url in "$plain_playlist" "$session_playlist" "$proxy$plain_segment" "$proxy$session_segment"; do
    curl -sf -o /dev/null "$url"
done
[ "$(curl -sf "$session_playlist" | grep -c "/sessions/$session/proxy?url=")" -eq 600 ] ||
    { echo "bench-sessions: the session's playlist does not route its 600 segments through the session" >&2; exit 1; }

# wrk_rps URL: requests/s of one run; any non-2xx answer or socket error fails the benchmark.
wrk_rps() {
    local output
    output=$(wrk -t2 -c4 -d"${duration}s" "$1")
    if echo "$output" | grep -q -E "Non-2xx|Socket errors"; then
        echo "$output" >&2
        echo "bench-sessions: errors while measuring $1" >&2
        exit 1
    fi
    echo "$output" | awk '/^Requests\/sec:/ { print $2 }'
}
median() {
    printf "%s\n" "$@" | sort -n | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'
}

echo "== 1. a cached media playlist, $runs alternating rounds of ${duration}s at 4 connections" >&2
plain=() through_session=()
for round in $(seq 1 "$runs"); do
    plain+=("$(wrk_rps "$plain_playlist")")
    through_session+=("$(wrk_rps "$session_playlist")")
    echo "  round $round: /proxy ${plain[-1]} req/s, session ${through_session[-1]} req/s" >&2
done
plain_median=$(median "${plain[@]}")
session_median=$(median "${through_session[@]}")
playlist_ratio=$(python3 -c "print(f'{$session_median / $plain_median:.2f}')")

echo "== 2. time to first byte of a cached 64 KiB range, $ttfb_count requests each, interleaved" >&2
ttfb=$(python3 Benchmarks/proxy/hit_ttfb.py "$PROXY_PORT" "$ttfb_count" "$plain_segment" "$session_segment" | tr '\n' ' ')
read -r plain_ttfb plain_p90 session_ttfb session_p90 <<<"$ttfb"
added=$(python3 -c "print(f'{$session_ttfb - $plain_ttfb:.3f}')")

failures=0
verdict() { if python3 -c "import sys; sys.exit(0 if $1 else 1)"; then echo PASS; else failures=$((failures + 1)); echo FAIL; fi; }
printf '\n%-48s %12s %12s %8s %s\n' "" "/proxy" "session" "ratio" "goal"
printf '%-48s %12s %12s %8s %s\n' "media playlist (600 segments), req/s" "$plain_median" "$session_median" "$playlist_ratio" \
    ">= 0.9 $(verdict "$playlist_ratio >= 0.9")"
printf '%-48s %12s %12s %8s %s\n' "cached 64 KiB range, TTFB median (p90), ms" "$plain_ttfb ($plain_p90)" "$session_ttfb ($session_p90)" \
    "+$added" "< +0.5 ms $(verdict "$added < 0.5")"
[ "$failures" -eq 0 ] || { echo "bench-sessions: $failures goal(s) missed" >&2; exit 1; }
