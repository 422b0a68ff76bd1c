#!/usr/bin/env bash
# End to end: the proxy built without the DASH trait, as an app that plays HLS alone links it
# (`swift build --disable-default-traits`, which also leaves OptimizeForSize off). Against a
# Python origin on 127.0.0.1, `sparsecache serve` from that build must:
#   1. still serve an HLS playlist rewritten through the cache;
#   2. serve an MPD through /proxy as the origin's bytes, unrewritten, and again from its cache
#      with the origin stopped;
#   3. answer 404 for DASH's path form (/dash/...), which only the trait declares;
#   4. refuse a session on an MPD with 400, naming what it plays (an HLS playlist).
# The build lives in .build-traits (never committed) and compiles every module once more, so the
# conditional code of the trait cannot rot unbuilt. Ends with "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

echo "== building sparsecache without default traits (.build-traits)" >&2
swift build --disable-default-traits --scratch-path .build-traits --product sparsecache >&2
binary="$(swift build --disable-default-traits --scratch-path .build-traits --show-bin-path)/sparsecache"
use_scratch_directory
work=$WORK

mkdir -p "$work/www/show"
printf '#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n' >"$work/www/show/index.m3u8"
head -c 4096 /dev/urandom >"$work/www/show/seg0.ts"
cat >"$work/www/show/manifest.mpd" <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period>
    <AdaptationSet mimeType="video/mp4">
      <Representation id="v0" bandwidth="500000" codecs="avc1.42c01e" width="320" height="240">
        <BaseURL>video.mp4</BaseURL>
        <SegmentBase indexRange="0-99"/>
      </Representation>
    </AdaptationSet>
  </Period>
</MPD>
EOF

origin_port=$(free_port)
(cd "$work/www" && exec python3 -m http.server "$origin_port" --bind 127.0.0.1 >/dev/null 2>&1) &
NGINX_PID=$!
wait_for_port "$origin_port"
origin="http://127.0.0.1:$origin_port"
start_proxy "$binary" "$work/cache" 2>"$work/proxy.log"
proxy="http://127.0.0.1:$PROXY_PORT"

passed=0 failures=0
pass() { echo "e2e-without-dash: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-without-dash: FAIL: $1" >&2; failures=$((failures + 1)); }

playlist=$(curl -sf --max-time 30 "$proxy/proxy?url=$(urlencode "$origin/show/index.m3u8")" || true)
if grep -q "^http://127.0.0.1:$PROXY_PORT/proxy?url=" <<<"$playlist"; then
    pass "an HLS playlist is served rewritten"
else
    fail "the HLS playlist was not rewritten: $playlist"
fi

mpd_url="$proxy/proxy?url=$(urlencode "$origin/show/manifest.mpd")"
if cmp -s <(curl -sf --max-time 30 "$mpd_url") "$work/www/show/manifest.mpd"; then
    pass "an MPD is served as the origin's bytes"
else
    fail "the MPD through /proxy is not the origin's bytes"
fi

status=$(curl -s --max-time 30 -o /dev/null -w '%{http_code}' "$proxy/dash/$(urlencode "$origin/show/")/manifest.mpd")
if [ "$status" = 404 ]; then pass "DASH's path form is 404"; else fail "DASH's path form answered $status"; fi

answer=$(curl -s --max-time 30 -w '\n%{http_code}' -X POST "$proxy/sessions" -H 'Content-Type: application/json' \
    -d "{\"url\": \"$origin/show/manifest.mpd\"}")
if [ "$(tail -n 1 <<<"$answer")" = 400 ] && grep -q "is not an HLS playlist" <<<"$answer"; then
    pass "a session on an MPD is refused with 400"
else
    fail "a session on an MPD answered: $answer"
fi

stop_pids "$NGINX_PID"
NGINX_PID=""
if cmp -s <(curl -sf --max-time 30 "$mpd_url") "$work/www/show/manifest.mpd"; then
    pass "the MPD comes from the cache with the origin stopped"
else
    fail "the MPD is not served from the cache with the origin stopped"
fi

echo "e2e-without-dash: $passed passed, $failures failed, 0 skipped" >&2
[ "$failures" = 0 ]
