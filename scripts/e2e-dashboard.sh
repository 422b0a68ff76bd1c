#!/usr/bin/env bash
# End to end for the dashboard: a `sparsecache serve` caches a few resources of an nginx origin
# (whole and in part), downloads a small presentation pinned, plays it in a session and
# prefetches a video; headless Chromium loads http://127.0.0.1:PORT/, runs its script, and the
# rendered page must list every entry with its coverage, the session, the download and the
# prefetch job, and show the traffic. A screenshot
# of it is written to the scratch folder (and to Docs/dashboard.png with UPDATE_SCREENSHOT=1).
# Exit 77 when Chromium is missing and cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-dashboard
require_chromium e2e-dashboard
chromium_binary=$CHROMIUM

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/www/show"
head -c 400000 /dev/urandom >"$work/www/show/whole.ts"
head -c 900000 /dev/urandom >"$work/www/show/half.mp4"
head -c 200000 /dev/urandom >"$work/www/show/third.ts"
head -c 100000 /dev/urandom >"$work/www/show/s0.ts"
head -c 100000 /dev/urandom >"$work/www/show/s1.ts"
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\ns0.ts\n#EXTINF:4.0,\ns1.ts\n#EXT-X-ENDLIST\n' \
    >"$work/www/show/index.m3u8"
origin_port=$(free_port)
origin="http://127.0.0.1:$origin_port"
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
base="http://127.0.0.1:$PROXY_PORT"
through_proxy() { echo "$base/proxy?url=$(urlencode "$1")"; }

curl -fsS -o /dev/null "$(through_proxy "$origin/show/whole.ts")"
curl -fsS -o /dev/null -H 'Range: bytes=0-449999' "$(through_proxy "$origin/show/half.mp4")"
curl -fsS -o /dev/null "$(through_proxy "$origin/show/third.ts")"
curl -fsS -o /dev/null "$(through_proxy "$origin/show/whole.ts")"
post() { curl -fsS -X POST "$base/$1" -H 'Content-Type: application/json' -d "$2"; }
download=$(post downloads "{\"url\": \"$origin/show/index.m3u8\", \"pin\": true}")
download_id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["id"])' "$download")
for _ in $(seq 1 100); do
    curl -fsS "$base/downloads/$download_id" | grep -q '"state" : "done"' && break
    sleep 0.1
done
session=$(post sessions "{\"url\": \"$origin/show/index.m3u8\"}")
session_id=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["id"])' "$session")
post prefetch "{\"urls\": [\"$origin/show/half.mp4\"], \"bytes\": 1000}" >/dev/null

# Chromium runs as root here only with its sandbox off; its profile stays in the scratch folder.
render() {
    "$chromium_binary" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$work/chromium" --virtual-time-budget=5000 "$@" 2>/dev/null
}

passed=0 failed=0
check() {
    if grep -qF -- "$2" "$work/dom.html"; then
        passed=$((passed + 1))
    else
        echo "e2e-dashboard: FAIL: the rendered page lacks $1 ($2)" >&2
        failed=$((failed + 1))
    fi
}

render --dump-dom "$base/" >"$work/dom.html"
check "the whole entry" "$origin/show/whole.ts"
check "the partial entry" "$origin/show/half.mp4"
check "the third entry" "$origin/show/third.ts"
check "a segment of the download" "$origin/show/s1.ts"
check "the entry count" "1–6 of 6, most recently used first"
check "a pinned entry" '<td>yes</td>'
check "the session" "<td>$session_id</td><td>active</td>"
check "the download" "<td>$download_id</td><td>done</td>"
check "the prefetch job" "$origin/show/half.mp4</td><td class=\"num\">"
check "a full coverage bar" 'style="width: 100%;"'
check "a half coverage bar" 'style="width: 50%;"'
check "the hit ratio" "hit ratio (requests)"
check "the cache directory" "$work/cache"
check "the lanes" "<td>segment</td><td class=\"num\">32</td>"
check "no error shown" '<span id="problem" class="error"></span>'

render --window-size=1280,1100 --screenshot="$work/dashboard.png" "$base/" >/dev/null
if [ -s "$work/dashboard.png" ]; then
    passed=$((passed + 1))
    if [ "${UPDATE_SCREENSHOT:-0}" = 1 ]; then cp "$work/dashboard.png" Docs/dashboard.png; fi
else
    echo "e2e-dashboard: FAIL: no screenshot" >&2
    failed=$((failed + 1))
fi

echo "e2e-dashboard: $passed passed, $failed failed" >&2
[ "$failed" -eq 0 ]
