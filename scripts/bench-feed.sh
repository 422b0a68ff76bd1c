#!/usr/bin/env bash
# Feed start-up on a shaped link (issue 31; Docs/BENCHMARKS.md, "Feed start-up on a shaped link").
#
# The origin (nginx) runs in its own network namespace behind a veth pair shaped by
# `tc ... tbf rate RATE` on both ends, every response started DELAY ms after its request (nginx's
# echo module). A feed player (Benchmarks/feed/feed_player.py) plays a feed of VIDEOS videos as a
# short-video app does: multivariant playlist, the 720p media playlist, whole segments in order;
# a video has started when its first segment is in; the user watches WATCH seconds, then swipes
# (the player's transfers are cut). On each link, in one run, five passes:
#   direct    the player straight to the origin
#   cold      through a fresh proxy on a fresh cache, no prefetch
#   prefetch  through another fresh proxy and cache; before the first video and at each swipe the
#             app posts `/prefetch` for the next 3 videos (`seconds: 6`, the 720p variant)
#   replay    the same feed again through that proxy and cache (the app posts as before)
#   offline   the replay again with the origin stopped
# It prints, per link, the start-up table, the origin requests in flight before each video's
# first segment (nginx's access log, $msec timestamps), what the log says about where the time
# goes, then the goals of issue 31 with the measured values; exits 1 when a goal is missed (0
# with REPORT_ONLY=1) and always when the run failed (a player error, a link not shaped).
#
# Usage (as root): scripts/bench-feed.sh [--links "7mbit:100 3mbit:200"] [--videos 12] [--watch 4]
#                  [--shape ts|fmp4] [--binary PATH] [--report-only]
# The same through the environment: LINKS, VIDEOS, WATCH, SHAPE, SPARSECACHE_BINARY, REPORT_ONLY=1.
# --shape fmp4: 2 s fMP4 segments, the player (and prefetching) on the 1080p variant.
# Without --binary the proxy is built with scripts/build-release.sh. The feed is encoded once
# into .build-feed/media/SHAPE (minutes); each run's data (pass results, nginx's access logs,
# the proxy's logs, the report) is kept in .build-feed/runs/DATE.
# Takes about 20 minutes with the defaults (8 at 7 Mbit/s, 12 at 3 Mbit/s). Not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh
source Benchmarks/feed/link.sh

links=${LINKS:-"7mbit:100 3mbit:200"}
videos=${VIDEOS:-12}
watch=${WATCH:-4}
shape=${SHAPE:-ts}
binary=${SPARSECACHE_BINARY:-}
ahead=3
prefetch_seconds=6
while [ $# -gt 0 ]; do
    case "$1" in
        --links) links=$2; shift 2 ;;
        --videos) videos=$2; shift 2 ;;
        --watch) watch=$2; shift 2 ;;
        --shape) shape=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --report-only) export REPORT_ONLY=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-feed: unknown option $1 (--help lists them)" >&2; exit 2 ;;
    esac
done
case "$shape" in
    ts) height=720 ;;
    fmp4) height=1080 ;;
    *) echo "bench-feed: --shape is ts or fmp4" >&2; exit 2 ;;
esac
[[ "$videos" =~ ^[0-9]+$ ]] && [ "$videos" -ge 2 ] && [ "$videos" -le 100 ] || { echo "bench-feed: --videos is 2 to 100" >&2; exit 2; }
[[ "$watch" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bench-feed: --watch is seconds" >&2; exit 2; }
for link in $links; do
    [[ "$link" =~ ^[0-9]+(\.[0-9]+)?[kmg]?bit:[0-9]+$ ]] || { echo "bench-feed: a link is RATE:DELAY_MS, like 7mbit:100, not '$link'" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "bench-feed: needs root (network namespaces, tc)" >&2; exit 1; }

./scripts/ensure-deps.sh bench
binary_or_release_build "$binary"
binary=$(readlink -f "$BINARY")
[ -x "$binary" ] || { echo "bench-feed: no proxy binary at $binary" >&2; exit 1; }

media=$PWD/.build-feed/media/$shape
Benchmarks/feed/make-feed.sh "$shape" "$videos" "$media"
run_dir=$PWD/.build-feed/runs/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$run_dir"

WORK=$(mktemp -d)
PROXY_PID=""
cleanup() {
    stop_pids "$PLAYER_PID" "$PROXY_PID"
    PROXY_PID=""
    link_down
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

origin=http://$FEED_ORIGIN_ADDRESS
# player ARGS: one pass of the feed player. It runs in the background and is waited for, so that
# SIGTERM or SIGINT reach the clean-up at once (bash runs a trap only after a foreground child).
PLAYER_PID=""
player() {
    python3 Benchmarks/feed/feed_player.py --origin "$origin" --media-root "$media" --videos "$videos" \
        --watch "$watch" --height "$height" "$@" &
    PLAYER_PID=$!
    local status=0
    wait "$PLAYER_PID" || status=$?
    PLAYER_PID=""
    return "$status"
}

# proxy_up NAME: a fresh proxy on a new cache (of this link and pass), allowed to fetch from the test origin only; its
# log (the access log at info) goes to the link's folder.
proxy_up() {
    local cache=$WORK/cache-$link_name-$1
    [ ! -e "$cache" ] || { echo "bench-feed: $cache exists: the $1 pass would not start cold" >&2; exit 1; }
    PROXY_LOG_LEVEL=info start_proxy "$binary" "$cache" --max-size 4GiB \
        --allow-host "$FEED_ORIGIN_ADDRESS" 2>"$link_dir/proxy-$1.log" ||
        { tail -5 "$link_dir/proxy-$1.log" >&2; exit 1; }
    proxy=http://127.0.0.1:$PROXY_PORT
}

proxy_down() {
    stop_pids "$PROXY_PID"
    PROXY_PID=""
}

# settle NAME: waits (up to 90 s) until the origin sends nothing more, and records how long that took.
settle() {
    local waited seconds
    waited=$(origin_wait_idle 90)
    seconds=${waited% busy}
    if [ "$seconds" = "$waited" ]; then
        echo "   the origin went idle $seconds s after the $1 pass" >&2
        idle_json+="${idle_json:+, }\"$1\": \"$seconds s\""
    else
        echo "   the origin was still sending $seconds s after the $1 pass; going on" >&2
        idle_json+="${idle_json:+, }\"$1\": \"still busy after $seconds s\""
    fi
}

# link_check RATE DELAY: one playlist and one first segment straight from the origin, each alone
# on the link: the delay and the rate the passes really ran at.
link_check() {
    local first_video playlist segment ttfb figures
    first_video=$media/v00
    playlist=$(sed -n '/^#EXT-X-STREAM-INF/{n;p}' "$first_video/master.m3u8" | head -1)
    segment=$(grep -v '^#' "$first_video/$(dirname "$playlist")/$(basename "$playlist")" | head -1)
    ttfb=$(curl -sf -o /dev/null -w '%{time_starttransfer}' "$origin/v00/master.m3u8")
    figures=$(curl -sf -o /dev/null -w '%{time_starttransfer} %{time_total} %{size_download}' \
        "$origin/v00/$(dirname "$playlist")/$segment")
    awk -v ttfb="$ttfb" -v figures="$figures" 'BEGIN {
        split(figures, f, " ")
        printf "{\"ttfbMs\": %.1f, \"segmentBytes\": %d, \"segmentRate\": %.0f}\n", ttfb * 1000, f[3], f[3] * 8 / (f[2] - f[1])
    }'
}

link_folders=()
for link in $links; do
    rate=${link%%:*} delay=${link##*:}
    link_name=link-$rate-${delay}ms
    link_dir=$run_dir/$link_name
    link_folders+=("\"$link_name\"")
    mkdir -p "$link_dir"
    idle_json=""
    echo "== link: tbf rate $rate on both ends, $delay ms before each response" >&2
    link_up "$rate"
    origin_start "$media" "$delay" "$link_dir/origin"
    check=$(link_check)
    echo "   link check: $check" >&2

    echo "== direct" >&2
    player --name direct --out "$link_dir/direct.json" || true
    settle direct

    echo "== proxy, cold, no prefetch" >&2
    proxy_up cold
    player --name cold --proxy "$proxy" --out "$link_dir/cold.json" || true
    settle cold
    proxy_down

    echo "== proxy, cold, prefetch $ahead ahead" >&2
    proxy_up prefetch
    player --name prefetch --proxy "$proxy" --prefetch-ahead "$ahead" --prefetch-seconds "$prefetch_seconds" \
        --out "$link_dir/prefetch.json" || true
    settle prefetch
    curl -sf "$proxy/prefetch" >"$link_dir/prefetch-queue.json" || true

    echo "== replay through the same proxy and cache" >&2
    player --name replay --proxy "$proxy" --prefetch-ahead "$ahead" --prefetch-seconds "$prefetch_seconds" \
        --out "$link_dir/replay.json" || true
    settle replay

    echo "== replay with the origin stopped" >&2
    origin_stop
    player --name offline --proxy "$proxy" --prefetch-ahead "$ahead" --prefetch-seconds "$prefetch_seconds" \
        --origin-stopped --out "$link_dir/offline.json" || true
    curl -sf "$proxy/status" >"$link_dir/status-after.json" || true
    proxy_down

    printf '{"rate": "%s", "delayMs": %s, "check": %s, "idle": {%s}}\n' "$rate" "$delay" "$check" "$idle_json" >"$link_dir/link.json"
    link_down
done

printf '{"videos": %s, "watch": %s, "shape": "%s", "height": %s, "ahead": %s, "prefetchSeconds": %s, "binary": "%s", "links": [%s]}\n' \
    "$videos" "$watch" "$shape" "$height" "$ahead" "$prefetch_seconds" "$binary" "$(IFS=,; echo "${link_folders[*]}")" >"$run_dir/run.json"
status=0
python3 Benchmarks/feed/feed_report.py "$run_dir" "$media" | tee "$run_dir/report.txt" || status=$?
echo "bench-feed: data and report in $run_dir" >&2
exit "$status"
