#!/usr/bin/env bash
# End to end: a newcomer's transcript (issue 37). The commands README.md and Docs/PLAYERS.md give
# a new user, then the second hour, when the proxy is part of an app, against an ffmpeg-made
# origin on 127.0.0.1 (nginx) and the debug build:
#   1. first hour: --version; serve's start-up lines; `sparsecache url` finding the running proxy;
#      ffmpeg playing through it identically to a direct play; fetch handed to the running proxy;
#      ls, stats, verify, get of a whole entry;
#   2. a paused player: a session with a 1 s idle timeout, played for 2 s, paused until it is
#      idle, then played to the end: no 410, the packets of a direct play; and the issue's own
#      case, a session with the default idle timeout (60 s) paused for 90 s
#      (NEWCOMER_PAUSE_SECONDS, above 60), beside the other steps on an origin and a proxy of
#      its own, so that the pause adds about 70 s to the run instead of 90;
#   3. pin while serving: `sparsecache pin` beside the running proxy;
#   4. offline variants: one variant downloaded, the origin stopped, the multivariant playlist
#      lists that variant only and ffmpeg plays it without a single 502, the packets of a direct play;
#   5. bad inputs: each refused with its reason (the CLI's, and the proxy's JSON and routes);
#   6. the dashboard of a proxy with --control-token, rendered in headless Chromium from the
#      address the banner gives.
# Prints one line per check; exits 1 when one fails, 77 when a tool it drives is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-newcomer
require_chromium e2e-newcomer
chromium_binary=$CHROMIUM

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK
started=$SECONDS

passed=0
failures=0
pass() { echo "e2e-newcomer: ok: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-newcomer: FAIL: $1" >&2; failures=$((failures + 1)); }
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}
sc() { "$binary" "$@"; }

echo "== making the streams" >&2
www=$work/www
mkdir -p "$www"
# make NAME SIZE: a 6 s HLS VOD stream of 2 s TS segments in $www/NAME.
make() {
    mkdir -p "$www/$1"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=duration=6:size=$2:rate=25" -f lavfi -i "sine=frequency=440:duration=6" \
        -c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest \
        -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$www/$1/s%d.ts" "$www/$1/index.m3u8"
}
make low 320x180
make mid 640x360
make high 960x540
# As ffmpeg's own multivariant playlists are: a blank line after each variant.
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
# A second copy of the presentation, for the offline step: nothing of it is cached before.
mkdir -p "$www/off"
cp -r "$www/low" "$www/mid" "$www/high" "$www/master.m3u8" "$www/off/"

origin_port=$(free_port)
start_nginx "$www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"
cache=$work/cache

# packets URL NAME [ffmpeg input options]: per-packet MD5s of a copy of every stream; ffmpeg's
# messages go to $work/NAME.log.
packets() {
    local url=$1 name=$2
    shift 2
    ffmpeg -nostdin -loglevel error -y "$@" -i "$url" -map 0 -c copy -f framemd5 "$work/$name.md5" 2>"$work/$name.log"
}
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

echo "== 1. the first hour: README and PLAYERS.md" >&2
check "sparsecache --version names the version" grep -qE '^sparsecache [0-9]' <(sc --version)

# serve_on CACHE OUTPUT [serve options]: `sparsecache serve --port 0`, its standard output (the
# start-up lines) in OUTPUT and its log in OUTPUT.err; sets PROXY_PID and proxy (its base URL).
serve_on() {
    local cache=$1 output=$2
    shift 2
    "$binary" serve --port 0 --cache-dir "$cache" --log-level warning "$@" >"$output" 2>"$output.err" &
    PROXY_PID=$!
    for _ in $(seq 1 600); do [ "$(wc -l <"$output")" -ge 4 ] && break; sleep 0.05; done
    proxy=$(sed -n 's/^listening on \(http:\/\/127.0.0.1:[0-9]*\)$/\1/p' "$output")
    [ -n "$proxy" ] || { echo "e2e-newcomer: the proxy did not start: $(cat "$output.err")" >&2; exit 1; }
}

# The issue's paused player: the default idle timeout (60 s) and a 90 s pause, run in the
# background beside steps 1 to 6 on an origin and a proxy of its own (step 4 stops the others).
# Each check's verdict goes to $work/paused.checks, which the end of the script counts.
pause_seconds=${NEWCOMER_PAUSE_SECONDS:-90}
paused_player() {
    local checks=$work/paused.checks port origin session id playlist state paused_at
    pass() { echo "e2e-newcomer: ok: $1" >&2; echo ok >>"$checks"; }
    fail() { echo "e2e-newcomer: FAIL: $1" >&2; echo FAIL >>"$checks"; }
    trap 'stop_pids "$PROXY_PID" "$NGINX_PID"' EXIT
    trap 'exit 143' TERM
    port=$(free_port)
    start_nginx "$www" "$port" "$work/paused-nginx"
    origin="http://127.0.0.1:$port"
    serve_on "$work/paused-cache" "$work/paused-serve.out"
    packets "$origin/low/index.m3u8" paused-direct
    session=$(curl -sf -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
        -d "{\"url\": \"$origin/master.m3u8\", \"quality\": \"lowest\"}")
    id=$(json_field id <<<"$session")
    playlist=$(json_field playlist <<<"$session")
    packets "$playlist" paused-long-start -t 2 || true
    paused_at=$SECONDS
    # No request of the player's in the pause (a loop of 1 s sleeps, so that a TERM ends it soon).
    while [ $((SECONDS - paused_at)) -lt "$pause_seconds" ]; do sleep 1; done
    state=$(curl -sf "$proxy/sessions/$id" | json_field state || true)
    check "after a $pause_seconds s pause with the default idle timeout, the session is idle, not closed (state: $state)" [ "$state" = idle ]
    packets "$playlist" paused-long-resumed || true
    check "the player paused $pause_seconds s resumes: its whole play equals a direct one, and no request got 410" \
        bash -c "cmp -s '$work/paused-direct.md5' '$work/paused-long-resumed.md5' && ! grep -q 410 '$work/paused-long-resumed.log'"
}
paused_player &
paused_pid=$!
# Stopped with the rest if the script ends early (its own EXIT trap stops its proxy and origin).
trap "stop_pids \"\$paused_pid\"; $(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/")" EXIT

serve_on "$cache" "$work/serve.out"
check "serve's banner names the cache, the dashboard and a URL to play" \
    grep -qzE "cache: $cache, limit 1.0 GiB \(0 entries, 0 B used\)
dashboard: $proxy/
play a URL through it: $proxy/proxy\?url=" "$work/serve.out"

play_url=$(sc url --cache-dir "$cache" "$origin/master.m3u8")
check "sparsecache url finds the running proxy's port" [ "$play_url" = "$proxy/proxy?url=$(urlencode "$origin/master.m3u8")" ]

packets "$origin/master.m3u8" direct-master
packets "$play_url" proxy-master || true
check "ffmpeg plays \$(sparsecache url ...) identically to the origin ($(grep -vc '^#' "$work/proxy-master.md5") packets)" \
    cmp -s "$work/direct-master.md5" "$work/proxy-master.md5"

sc fetch --cache-dir "$cache" --variant lowest "$origin/off/master.m3u8" >"$work/fetch.out" 2>"$work/fetch.err" || true
check "fetch beside serve hands the download to the proxy and completes" \
    grep -q "^fetched $origin/off/master.m3u8: .* (through the proxy at $proxy)$" "$work/fetch.out"
check "ls lists what was played and fetched" grep -q "$origin/off/low/s2.ts" <(sc ls --cache-dir "$cache")
check "stats counts the entries" grep -qE '^entries: [1-9][0-9]*$' <(sc stats --cache-dir "$cache")
check "verify finds every entry sound" sc verify --cache-dir "$cache" --quiet
check "get without --range prints a whole entry, byte for byte" cmp -s <(sc get --cache-dir "$cache" "$origin/low/s1.ts") "$www/low/s1.ts"

echo "== 2. a paused player" >&2
packets "$origin/low/index.m3u8" direct-low
session=$(curl -sf -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$origin/master.m3u8\", \"quality\": \"lowest\", \"bufferAhead\": {\"segments\": 2}, \"idleTimeout\": 1}")
session_id=$(json_field id <<<"$session")
session_playlist=$(json_field playlist <<<"$session")
packets "$session_playlist" paused-start -t 2 || true
state=""
for _ in $(seq 1 300); do
    state=$(curl -sf "$proxy/sessions/$session_id" | json_field state || true)
    [ "$state" = idle ] && break
    sleep 0.1
done
check "a session whose player paused past its idle timeout goes idle, not closed (state: $state)" [ "$state" = idle ]
packets "$session_playlist" paused-resumed || true
check "the paused player resumes: its whole play through the session equals a direct one" \
    cmp -s "$work/direct-low.md5" "$work/paused-resumed.md5"
check "no request of the resumed player got 410" bash -c "! grep -q 410 '$work/paused-resumed.log'"
resumed_state=$(curl -sf "$proxy/sessions/$session_id" | json_field state || true)
check "the resumed session is active again (state: $resumed_state)" [ "$resumed_state" = active ]

echo "== 3. pin while serving" >&2
sc pin --cache-dir "$cache" "$origin/off/low/s0.ts" >"$work/pin.out" 2>"$work/pin.err" || true
check "sparsecache pin beside the running proxy pins the entry ($(head -c 200 "$work/pin.err"))" \
    grep -q '"pinned" : true' <(curl -sf "$proxy/entries?limit=1000" | python3 -c '
import json, sys
for entry in json.load(sys.stdin)["entries"]:
    if entry["url"].endswith("/off/low/s0.ts"): print("\"pinned\" : " + ("true" if entry["pinned"] else "false"))')

echo "== 4. offline variants" >&2
# The origin goes away and the proxy is started again (the next day, on a plane): the cached
# multivariant playlist is then stale, and its revalidation finds the origin unreachable.
stop_pids "$NGINX_PID" "$PROXY_PID"
NGINX_PID="" PROXY_PID=""
serve_on "$cache" "$work/serve-offline.out"
offline_url=$(sc url --cache-dir "$cache" "$origin/off/master.m3u8")
curl -sf "$offline_url" >"$work/offline-master.m3u8" || true
variants=$(grep -c '^#EXT-X-STREAM-INF' "$work/offline-master.m3u8" || true)
check "offline, the multivariant playlist lists only the downloaded variant ($variants listed)" \
    bash -c "[ '$variants' = 1 ] && grep -q 'low%2Findex.m3u8' '$work/offline-master.m3u8'"
packets "$offline_url" offline-play || true
# off/low is a copy of low: the offline play must be the packets of low's direct play.
check "ffmpeg plays it offline without a single 502 ($(grep -c 502 "$work/offline-play.log" || true) lines), identically to a direct play of that variant" \
    bash -c "[ -s '$work/offline-play.md5' ] && ! grep -q 502 '$work/offline-play.log' && cmp -s '$work/direct-low.md5' '$work/offline-play.md5'"

echo "== 5. bad inputs" >&2
# expect_refusal DESCRIPTION STATUS TEXT COMMAND...: the command exits STATUS and says TEXT on stderr.
expect_refusal() {
    local what=$1 status=$2 text=$3
    shift 3
    local got=0
    "$@" >/dev/null 2>"$work/refusal.err" || got=$?
    if [ "$got" = "$status" ] && grep -qF -- "$text" "$work/refusal.err"; then pass "$what"; else
        fail "$what: exit $got, $(head -c 300 "$work/refusal.err")"; fi
}
expect_refusal "get past the end exits 3 saying how long the entry is" 3 "is past the end: it is" \
    sc get --cache-dir "$cache" "$origin/low/s1.ts" --range 999999999-
expect_refusal "ls of a folder that is not a store exits 2" 2 "is a directory but not a store" sc ls "$www"
expect_refusal "hls rewrite refuses a --proxy without a scheme" 1 "write it with its scheme, such as http://127.0.0.1:19010" \
    sc hls rewrite "$www/master.m3u8" --base "$origin/master.m3u8" --proxy 127.0.0.1:19010
expect_refusal "--max-size 2Gb is refused as bits" 2 "reads as bits" sc create "$work/other-store" --max-size 2Gb
expect_refusal "--max-size -5G is refused as negative" 2 "cannot be negative" sc create "$work/other-store" --max-size -5G
sc hls rewrite "$www/master.m3u8" --base "$origin/master.m3u8" --proxy "$proxy" --max-bandwidth 500000 >"$work/rewritten.m3u8"
check "hls rewrite --max-bandwidth leaves no run of blank lines where variants were" \
    bash -c "[ \$(grep -c '^#EXT-X-STREAM-INF' '$work/rewritten.m3u8') = 1 ] && ! grep -qzP '\n\n\n' '$work/rewritten.m3u8'"
check "hls lint reads a playlist from a URL (the proxy's, offline) and says no findings" \
    grep -qx "$offline_url: no findings" <(sc hls lint "$offline_url")
# status_of METHOD PATH [JSON]: the proxy's status for a request (JSON bodies as an app sends them).
status_of() {
    if [ $# -ge 3 ]; then
        curl -s -o "$work/answer.json" -w '%{http_code}' -X "$1" "$proxy$2" -H 'Content-Type: application/json' -d "$3"
    else
        curl -s -o "$work/answer.json" -w '%{http_code}' -X "$1" "$proxy$2"
    fi
}
check "POST /prefetch with a misspelled field is refused naming it" \
    bash -c "[ \"\$0\" = 400 ] && grep -q varient '$work/answer.json'" \
    "$(status_of POST /prefetch "{\"urls\": [\"$origin/off/low/index.m3u8\"], \"varient\": \"lowest\"}")"
check "\"quality\": 720 is refused with a hint to write \"720p\"" \
    bash -c "[ \"\$0\" = 400 ] && grep -q 720p '$work/answer.json'" \
    "$(status_of POST /sessions "{\"url\": \"$origin/off/master.m3u8\", \"quality\": 720}")"
check "GET /?url=... (the /proxy forgotten) is a 400 with a hint, not the dashboard" \
    bash -c "[ \"\$0\" = 400 ] && grep -q '/proxy?url=' '$work/answer.json'" \
    "$(status_of GET "/?url=$(urlencode "$origin/off/master.m3u8")")"
stop_pids "$PROXY_PID"
PROXY_PID=""

echo "== 6. the dashboard of a proxy with a control token" >&2
token=newcomer-$RANDOM$RANDOM
start_nginx "$www" "$origin_port" "$work/nginx-again"
serve_on "$work/cache-token" "$work/serve-token.out" --control-token "$token"
dashboard_line=$(grep '^dashboard: ' "$work/serve-token.out" || true)
check "the banner says to open the dashboard with the token after #token=" grep -qF "dashboard: $proxy/#token=TOKEN" <<<"$dashboard_line"
check "the token itself is not printed" bash -c "! grep -qF '$token' '$work/serve-token.out'"
sc fetch --cache-dir "$work/cache-token" --control-token "$token" "$origin/low/index.m3u8" >/dev/null 2>&1 || true
"$chromium_binary" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/chromium" \
    --virtual-time-budget=5000 --dump-dom "$proxy/#token=$token" >"$work/dom.html" 2>/dev/null || true
check "the page opened as the banner says shows the cache's entries" grep -qF "$origin/low/s2.ts" "$work/dom.html"
check "it shows no error" grep -qF '<span id="problem" class="error"></span>' "$work/dom.html"
check "a finished download's empty error cell is not red" \
    bash -c "grep -qF '<td>done</td>' '$work/dom.html' && grep -qF '<td class=\"muted\">–</td></tr>' '$work/dom.html' && ! grep -qF '<td class=\"error\">–</td>' '$work/dom.html'"
check "the page says how the hit ratio and the request count differ" grep -qF 'so the two numbers differ' "$work/dom.html"

echo "== the player paused $pause_seconds s" >&2
wait "$paused_pid" || true
paused_pid=""
paused_passed=$(grep -c '^ok$' "$work/paused.checks" 2>/dev/null || true)
paused_failed=$(grep -c '^FAIL$' "$work/paused.checks" 2>/dev/null || true)
passed=$((passed + ${paused_passed:-0}))
failures=$((failures + ${paused_failed:-0}))
if [ $((${paused_passed:-0} + ${paused_failed:-0})) -ne 2 ]; then
    fail "the paused player's checks did not all run: $(tail -c 300 "$work/paused-serve.out.err" 2>/dev/null)"
fi

echo "e2e-newcomer: $passed passed, $failures failed in $((SECONDS - started)) s" >&2
[ "$failures" -eq 0 ]
