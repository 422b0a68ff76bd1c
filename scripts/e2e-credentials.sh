#!/usr/bin/env bash
# End to end: an origin behind credentials (issue 32). nginx answers 403 unless a request
# carries `Authorization: Bearer <token>` and the session cookie (one location, /vary/, needs
# only the token and answers with `Vary: Cookie`), and logs both fields of every request.
# ffmpeg plays an HLS stream from it through `sparsecache serve` with the credentials coming
# from each source in turn, and each play must equal a direct play with `-headers`:
#   1. the app: `serve --origin-header` (the token on the command line, the cookie from @FILE);
#   2. a session: `"headers"` in POST /sessions;
#   3. prefetch: POST /prefetch with per-item headers warms the stream, which then plays
#      without credentials and without one request reaching the origin (hits);
#   4. the player: `serve --forward-header Authorization --forward-header Cookie`.
# Then: without credentials the player gets 403 and nothing is stored; two cookies under
# `Vary: Cookie` make two entries; nginx's log shows the credentials on every request of the
# plays; and no log line of the proxies nor any JSON answer holds the token or the cookie.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-credentials

build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

token_value="e2e-token-7f3a9c"
cookie_value="e2e-cookie-91bd44"
authorization="Bearer $token_value"
cookie="session=$cookie_value"

echo "== making the stream" >&2
www=$work/www
mkdir -p "$www/v" "$www/vary"
ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc=duration=8:size=320x180:rate=25" -f lavfi -i "sine=frequency=440:duration=8" \
    -c:v libx264 -preset ultrafast -g 25 -pix_fmt yuv420p -c:a aac -b:a 64k -shortest \
    -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$www/v/s%d.ts" "$www/v/index.m3u8"
cp "$www/v/s0.ts" "$www/vary/s0.ts"

origin_port=$(free_port)
nginx_work=$work/nginx
nginx_prepare "$www" "$nginx_work"
cat >"$nginx_work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $nginx_work/nginx-error.log warn;
pid $nginx_work/nginx.pid;
events { worker_connections 256; }
http {
    log_format credentials '\$uri \$status auth="\$http_authorization" cookie="\$http_cookie"';
    access_log $work/origin.log credentials;
$(nginx_static_settings "$nginx_work")
    map \$http_authorization \$token_ok { "$authorization" 1; default 0; }
    map \$cookie_session \$cookie_ok { "$cookie_value" 1; default 0; }
    map "\$token_ok\$cookie_ok" \$denied { "11" 0; default 1; }
    server {
        listen 127.0.0.1:$origin_port;
        root $www;
        location /v/ { if (\$denied) { return 403; } }
        location /vary/ { add_header Vary Cookie always; if (\$token_ok = 0) { return 403; } }
    }
}
CONF
"$(nginx_binary)" -c "$nginx_work/nginx.conf" &
NGINX_PID=$!
wait_for_port "$origin_port"
origin="http://127.0.0.1:$origin_port"
stream="$origin/v/index.m3u8"

passed=0
failures=0
pass() { echo "e2e-credentials: $1" >&2; passed=$((passed + 1)); }
fail() { echo "e2e-credentials: FAIL: $1" >&2; failures=$((failures + 1)); }

# packets URL NAME [ffmpeg input options]: per-packet MD5s of a copy of every stream.
packets() {
    local url=$1 name=$2; shift 2
    ffmpeg -nostdin -loglevel error -y "$@" -i "$url" -map 0 -c copy -f framemd5 "$work/$name.md5" 2>>"$work/ffmpeg.log" || true
}
# serve NAME [serve options]: starts a proxy over a fresh cache, its log in $work/NAME.log.
serve() {
    local name=$1; shift
    PROXY_LOG_LEVEL=debug start_proxy "$binary" "$work/cache-$name" "$@" 2>"$work/$name.log"
    proxy="http://127.0.0.1:$PROXY_PORT"
}
stop_proxy() {
    stop_pids "$PROXY_PID"
    PROXY_PID=""
}
# answer NAME CURL-ARGS...: a JSON answer of the proxy, kept in $work/NAME.json for the secret check.
answer() {
    local name=$1; shift
    curl -s "$@" >"$work/$name.json" || true
    cat "$work/$name.json"
}
# compare NAME: the play NAME equals the direct one.
compare() {
    if [ -s "$work/$1.md5" ] && cmp -s "$work/direct.md5" "$work/$1.md5"; then
        pass "$1: the play equals the direct one"
    else
        fail "$1: the play differs from the direct one"
    fi
}
entries() { "$binary" ls --cache-dir "$1" 2>/dev/null | grep -c 'http' || true; }

echo "== direct" >&2
packets "$stream" direct -headers "Authorization: $authorization"$'\r\n'"Cookie: $cookie"$'\r\n'
[ -s "$work/direct.md5" ] || { echo "e2e-credentials: the direct play failed" >&2; exit 1; }
packets "$stream" denied-direct
[ -s "$work/denied-direct.md5" ] && fail "the origin plays without credentials" || pass "the origin refuses a play without credentials"

echo "== 1. the app: --origin-header" >&2
printf '# the cookie, kept off the command line\n127.0.0.1: Cookie: %s\n' "$cookie" >"$work/origin-headers"
serve app --origin-header "127.0.0.1: Authorization: $authorization" --origin-header "@$work/origin-headers"
packets "$proxy/proxy?url=$(urlencode "$stream")" app
answer app-status "$proxy/status" >/dev/null
stop_proxy
compare app

echo "== 2. a session's headers" >&2
serve session
body=$(python3 -c 'import json, sys; print(json.dumps({"url": sys.argv[1], "headers": {"Authorization": sys.argv[2], "Cookie": sys.argv[3]}}))' \
    "$stream" "$authorization" "$cookie")
playlist=$(answer session-open -X POST "$proxy/sessions" -H 'Content-Type: application/json' -d "$body" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["playlist"])')
session_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$work/session-open.json")
packets "$playlist" session
answer session-state "$proxy/sessions/$session_id" >/dev/null
answer session-list "$proxy/sessions" >/dev/null
answer session-status "$proxy/status" >/dev/null
stop_proxy
compare session

echo "== 3. prefetch with headers, then a play without them" >&2
serve prefetch
body=$(python3 -c 'import json, sys; print(json.dumps({"urls": [{"url": sys.argv[1], "headers": {"Authorization": sys.argv[2], "Cookie": sys.argv[3]}}], "segments": 100}))' \
    "$stream" "$authorization" "$cookie")
answer prefetch-start -X POST "$proxy/prefetch" -H 'Content-Type: application/json' -d "$body" >/dev/null
for _ in $(seq 1 300); do
    state=$(answer prefetch-state "$proxy/prefetch" | python3 -c 'import json, sys; print(",".join(j["state"] for j in json.load(sys.stdin)["jobs"]))' 2>/dev/null || true)
    case $state in done|failed*|cancelled*|stopped*) break ;; esac
    sleep 0.1
done
[ "$state" = done ] || fail "prefetch: the job ended $state: $(cat "$work/prefetch-state.json")"
before=$(wc -l <"$work/origin.log")
packets "$proxy/proxy?url=$(urlencode "$stream")" prefetch
after=$(wc -l <"$work/origin.log")
stop_proxy
compare prefetch
if [ "$before" = "$after" ]; then
    pass "prefetch: the play after it reached the origin 0 times (hits)"
else
    fail "prefetch: the play after it reached the origin $((after - before)) times"
fi

echo "== 4. the player's headers: --forward-header" >&2
serve player --forward-header Authorization --forward-header Cookie
packets "$proxy/proxy?url=$(urlencode "$stream")" player -headers "Authorization: $authorization"$'\r\n'"Cookie: $cookie"$'\r\n'
stop_proxy
compare player

echo "== without credentials" >&2
serve denied
status=$(curl -s -o /dev/null -w '%{http_code}' "$proxy/proxy?url=$(urlencode "$origin/v/s0.ts")")
playlist_status=$(curl -s -o /dev/null -w '%{http_code}' "$proxy/proxy?url=$(urlencode "$stream")")
stop_proxy
count=$(entries "$work/cache-denied")
if [ "$status" = 403 ] && [ "$playlist_status" = 403 ] && [ "$count" = 0 ]; then
    pass "without credentials the player gets 403 and nothing is stored"
else
    fail "without credentials: segment $status, playlist $playlist_status, $count entries stored"
fi

echo "== Vary: Cookie" >&2
serve vary --origin-header "127.0.0.1: Authorization: $authorization" --forward-header Cookie
vary_url="$proxy/proxy?url=$(urlencode "$origin/vary/s0.ts")"
for c in "user=alpha" "user=beta" "user=alpha" "user=beta"; do
    curl -s -o "$work/vary-$c.ts" -H "Cookie: $c" "$vary_url"
    cmp -s "$work/vary-$c.ts" "$www/vary/s0.ts" || fail "Vary: the bytes for $c differ from the origin's"
done
curl -s -o /dev/null "$proxy/proxy?url=$(urlencode "$origin/v/s1.ts")" -H "Cookie: $cookie"
stop_proxy
varied=$("$binary" ls --cache-dir "$work/cache-vary" | grep -c '#vary(cookie)=' || true)
plain=$("$binary" ls --cache-dir "$work/cache-vary" | grep -c '/v/s1.ts' || true)
if [ "$varied" = 2 ] && [ "$plain" = 1 ]; then
    pass "two cookies under Vary: Cookie make two entries, a resource without Vary one"
else
    fail "Vary: $varied varied entries (want 2), $plain plain (want 1)"
fi
if "$binary" ls --cache-dir "$work/cache-vary" | grep -q 'user='; then fail "an entry's key shows a cookie's value"; fi
inspected=0
while IFS= read -r file; do
    "$binary" inspect "$file" | grep -q 'http.vary=cookie' && inspected=$((inspected + 1))
done < <(find "$work/cache-vary" -name '*.scf')
if [ "$inspected" = 2 ]; then
    pass "sparsecache inspect shows the field each varied entry varies on"
else
    fail "sparsecache inspect shows http.vary=cookie on $inspected entries (want 2)"
fi

echo "== the origin saw the credentials, the proxies' outputs never show them" >&2
played=$(grep -c '^/v/' "$work/origin.log" || true)
with_credentials=$(grep '^/v/' "$work/origin.log" | grep -c "auth=\"$authorization\" cookie=\"$cookie\"" || true)
# The direct play without credentials and the refused requests are the only ones without them.
refused=$(grep '^/v/' "$work/origin.log" | grep -c ' 403 ' || true)
if [ "$played" -gt 0 ] && [ $((with_credentials + refused)) = "$played" ]; then
    pass "nginx's log shows the credentials on all $with_credentials answered requests"
else
    fail "nginx's log: $with_credentials of $played requests carried the credentials ($refused refused)"
fi
# origin.log (nginx's) and ffmpeg.log are not the proxy's.
leaks=$(cat "$work"/app.log "$work"/session.log "$work"/prefetch.log "$work"/player.log "$work"/denied.log "$work"/vary.log \
    "$work"/*.json | grep -c -e "$token_value" -e "$cookie_value" || true)
lines=$(cat "$work"/app.log "$work"/session.log "$work"/prefetch.log "$work"/player.log "$work"/denied.log "$work"/vary.log "$work"/*.json | wc -l)
if [ "$leaks" = 0 ] && [ "$lines" -gt 0 ]; then
    pass "0 secrets in $lines lines of the proxies' logs and JSON answers"
else
    fail "$leaks lines of the proxies' logs and JSON answers hold the token or the cookie"
fi

echo "e2e-credentials: $passed passed, $failures failed" >&2
[ "$failures" = 0 ]
