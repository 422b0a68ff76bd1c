#!/usr/bin/env bash
# End to end for the dashboard: a `sparsecache serve` caches a few resources of an nginx origin
# (whole and in part); headless Chromium loads http://127.0.0.1:PORT/, runs its script, and
# the rendered page must list every entry with its coverage and show the traffic. A screenshot
# of it is written to the scratch folder (and to Docs/dashboard.png with UPDATE_SCREENSHOT=1).
# Exit 77 when Chromium is missing and cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-dashboard
chromium_binary=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium_binary" ]; then
    echo "e2e-dashboard: SKIPPED: chromium is not installed and could not be installed" >&2
    exit 77
fi

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/www/show"
head -c 400000 /dev/urandom >"$work/www/show/whole.ts"
head -c 900000 /dev/urandom >"$work/www/show/half.mp4"
head -c 200000 /dev/urandom >"$work/www/show/third.ts"
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
check "the entry count" "1–3 of 3, most recently used first"
check "a full coverage bar" 'style="width: 100%;"'
check "a half coverage bar" 'style="width: 50%;"'
check "the hit ratio" "hit ratio (requests)"
check "the upstream requests" "<td>upstream requests</td><td class=\"num\">3</td>"
check "the cache directory" "$work/cache"
check "the lanes" "<td>segment</td><td class=\"num\">32</td>"
if grep -qF "the proxy does not answer" "$work/dom.html"; then
    echo "e2e-dashboard: FAIL: the page could not read the proxy" >&2
    failed=$((failed + 1))
fi

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
