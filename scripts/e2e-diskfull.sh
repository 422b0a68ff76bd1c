#!/usr/bin/env bash
# End to end: a full disk never costs the player a byte. ffmpeg makes a 36 s HLS stream (about
# 5 MB), nginx serves it, and `sparsecache serve` runs with its cache on an 8 MiB tmpfs (and a
# size limit far above it) that another program has filled to 100 KiB from full, below the free
# space the store keeps; ffmpeg plays the stream through the proxy twice. Every play must equal a
# direct one (per-packet MD5s), the proxy must still answer, and /status must say the disk is
# full and that bytes passed through uncached. Then the other program's file goes, and the
# stream is cached again. Mounting a tmpfs needs root: elsewhere the script says it skipped (it
# is optional by design only there).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

require_media_tools e2e-diskfull
build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/cache"
if ! mount -t tmpfs -o size=8m tmpfs "$work/cache" 2>/dev/null; then
    echo "e2e-diskfull: SKIPPED: mounting a tmpfs needs root" >&2
    exit 77
fi
trap 'stop_pids "$PROXY_PID" "$NGINX_PID"; umount -l "$work/cache" 2>/dev/null; rm -rf "$work"' EXIT

echo "== making the stream" >&2
mkdir -p "$work/www"
ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc=duration=36:size=640x360:rate=25 -f lavfi -i sine=frequency=440:duration=36 \
    -c:v libx264 -preset ultrafast -g 25 -b:v 1800k -pix_fmt yuv420p -c:a aac -b:a 64k -shortest \
    -f hls -hls_time 4 -hls_playlist_type vod -hls_segment_filename "$work/www/s%d.ts" "$work/www/index.m3u8"
stream_bytes=$(du -cb "$work/www"/*.ts | tail -1 | cut -f1)

# Another program fills the disk, up to 100 KiB.
python3 - "$work/cache/other-program.bin" <<'PY'
import os, sys
stats = os.statvfs(os.path.dirname(sys.argv[1]))
with open(sys.argv[1], "wb") as file:
    file.write(b"\0" * (stats.f_bavail * stats.f_frsize - 100 * 1024))
PY

origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache/store" --max-size 1GiB
origin="http://127.0.0.1:$origin_port"
through_proxy="http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "$origin/index.m3u8")"

md5s() { ffmpeg -nostdin -loglevel error -y -i "$1" -map 0 -c copy -f framemd5 "$work/$2.md5"; }
md5s "$origin/index.m3u8" direct
failures=0
for round in 1 2; do
    md5s "$through_proxy" "proxy-$round"
    if cmp -s "$work/direct.md5" "$work/proxy-$round.md5"; then
        echo "e2e-diskfull: play $round through the proxy equals the direct play ($(grep -vc '^#' "$work/direct.md5") packets)" >&2
    else
        echo "e2e-diskfull: FAIL: play $round differs from the direct play" >&2
        failures=$((failures + 1))
    fi
done
curl -sf "http://127.0.0.1:$PROXY_PORT/status" | STREAM_BYTES=$stream_bytes python3 -c '
import json, os, sys
status = json.load(sys.stdin)
traffic = status["traffic"]
store = status.get("store", {})
print("e2e-diskfull: stream %s bytes on a full disk; %d bytes passed through uncached, %d broken responses, diskFull=%s, freeBytes=%s" % (
    os.environ["STREAM_BYTES"], traffic["bytesPassedThrough"], traffic["brokenResponses"], store.get("diskFull"), store.get("freeBytes")), file=sys.stderr)
assert traffic["bytesPassedThrough"] > 0, "nothing passed through: the disk never filled"
assert traffic["brokenResponses"] == 0, "a response was broken"
assert store["diskFull"] is True, "/status does not say the disk was full"
' || failures=$((failures + 1))

# Space comes back: the stream is cached again (the store measures free space again within a
# second; a response that finds no room makes idle connections let go of removed files).
rm -f "$work/cache/other-program.bin"
for _ in 1 2 3; do
    md5s "$through_proxy" proxy-after
    cached=$(curl -sf "http://127.0.0.1:$PROXY_PORT/status" | python3 -c 'import json, sys; print(json.load(sys.stdin)["cache"]["sizeBytes"])')
    [ "$cached" -ge "$stream_bytes" ] && break
    sleep 1
done
if cmp -s "$work/direct.md5" "$work/proxy-after.md5" && [ "$cached" -ge "$stream_bytes" ]; then
    echo "e2e-diskfull: with space back the stream is cached again ($cached bytes) and plays identically" >&2
else
    echo "e2e-diskfull: FAIL: with space back, $cached bytes cached of $stream_bytes" >&2
    failures=$((failures + 1))
fi
echo "e2e-diskfull: $((4 - failures)) passed, $failures failed" >&2
[ "$failures" -eq 0 ]
