#!/usr/bin/env bash
# Prefetching against a throttled origin, in one run (Docs/BENCHMARKS.md, "Prefetch"):
#  1. A player's playlist request while nothing else happens, then while the heads of 10 videos
#     are being prefetched: the prefetching may add at most 10 ms (medians compared). The busy
#     sample counts only if prefetching ran all through it (segment fetches at its start and
#     end, and segment bytes fetched during it).
#  2. The heads of 10 videos with a bytes budget each: bytes fetched per video (what the proxy
#     reports and what nginx's access log says it sent) against the budget; every job must end
#     `done`.
# Exits 1 when a goal is missed or a check fails.
# Usage: scripts/bench-prefetch.sh      (REQUESTS=40 BUDGET=600000 RATE=100k)
# (nginx lets the first RATE bytes of a response through at once, so RATE must be below a
# segment's 200 KB for the origin to be slow at all.)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh
./scripts/ensure-deps.sh bench

requests=${REQUESTS:-40}
budget=${BUDGET:-600000}
rate=${RATE:-100k}
build_sparsecache release
binary=$BINARY
use_scratch_directory
work=$WORK

echo "== 20 videos of 30 one-second segments of 200 KB (v0-v9 load the origin, w0-w9 have budgets), a live playlist" >&2
python3 - "$work/www" <<'PY'
import os, sys
root = sys.argv[1]
for video in [f"v{index}" for index in range(10)] + [f"w{index}" for index in range(10)]:
    folder = f"{root}/{video}"
    os.makedirs(folder)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-PLAYLIST-TYPE:VOD"]
    for segment in range(30):
        with open(f"{folder}/s{segment}.ts", "wb") as out:
            out.write(os.urandom(200_000))
        lines += ["#EXTINF:1.0,", f"s{segment}.ts"]
    lines.append("#EXT-X-ENDLIST")
    open(f"{folder}/index.m3u8", "w").write("\n".join(lines) + "\n")
live = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:100"]
for segment in range(100, 106):
    live += ["#EXTINF:2.0,", f"live{segment}.ts"]
open(f"{root}/live.m3u8", "w").write("\n".join(live) + "\n")
PY

origin_port=$(free_port)
NGINX_ACCESS_LOG="$work/access.log" NGINX_LIMIT_RATE=$rate start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache" --max-size 2GiB
origin="http://127.0.0.1:$origin_port"

python3 - "$PROXY_PORT" "$origin" "$requests" "$budget" "$work/access.log" <<'PY'
import json, statistics, sys, threading, time, urllib.parse, urllib.request
port, origin, requests, budget, access_log = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
proxy = f"http://127.0.0.1:{port}"

playlist_bytes = []

def playlist_times():
    # A live playlist is fetched fresh from the origin on every request: the express lane's path.
    url = f"{proxy}/proxy?url=" + urllib.parse.quote(f"{origin}/live.m3u8", safe="")
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        body = urllib.request.urlopen(url).read()
        times.append((time.perf_counter() - start) * 1000)
        assert body.startswith(b"#EXTM3U")
        playlist_bytes.append(len(body))
        time.sleep(0.02)
    return times

def post(body):
    request = urllib.request.Request(f"{proxy}/prefetch", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))

def queue():
    return json.load(urllib.request.urlopen(f"{proxy}/prefetch"))

def status():
    return json.load(urllib.request.urlopen(f"{proxy}/status"))

def wait_for(read, condition, what, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = read()
        if condition(state):
            return state
        time.sleep(0.05)
    sys.exit(f"bench-prefetch: timed out waiting until {what}")

def settle():
    return wait_for(queue, lambda state: state["queued"] == 0 and state["running"] == 0, "prefetching settles")

def fetched(state):
    return sum(job["bytesFetched"] for job in state["jobs"])

urls = [f"{origin}/v{video}/index.m3u8" for video in range(10)]
idle = playlist_times()
# Whole videos, so that prefetching is still busy on the segment lane while the player asks.
started = post({"urls": urls, "seconds": 30})
# The busy sample starts once segments are being fetched (the segment lane is busy).
first = wait_for(status, lambda state: state["segment"]["active"] > 0, "prefetching fetches segments")
playlist_bytes.clear()
busy = playlist_times()
last = status()
during = queue()
print("queue during:", [(job["state"], job["bytesFetched"], job.get("detail")) for job in during["jobs"]][:4], file=sys.stderr)
urllib.request.urlopen(urllib.request.Request(f"{proxy}/prefetch", method="DELETE")).read()
settle()
idle_median, busy_median = statistics.median(idle), statistics.median(busy)
print(f"playlist request, idle: median {idle_median:.2f} ms, p90 {sorted(idle)[int(len(idle) * 0.9)]:.2f} ms")
print(f"playlist request while 10 videos prefetch ({during['running']} running, {during['queued']} queued): "
      f"median {busy_median:.2f} ms, p90 {sorted(busy)[int(len(busy) * 0.9)]:.2f} ms")
# The busy sample means something only if prefetching ran all through it: segment fetches at
# its start and at its end, and segment bytes (everything fetched but the player's playlists)
# coming in during it.
segment_bytes = last["traffic"]["bytesFetched"] - first["traffic"]["bytesFetched"] - sum(playlist_bytes)
ran = first["segment"]["active"] > 0 and last["segment"]["active"] > 0 and segment_bytes > 10_000
print(f"prefetching during the busy sample: {segment_bytes} segment bytes fetched, segment fetches at its start and end: "
      f"{first['segment']['active']} and {last['segment']['active']}  {'PASS' if ran else 'FAIL'}")
verdict = ran and busy_median <= idle_median + 10
print(f"prefetching adds {busy_median - idle_median:+.2f} ms to a playlist request   goal <= +10 ms  {'PASS' if verdict else 'FAIL'}")

# Budgets: other videos (a new list replaces the old), with a byte budget each.
urls = [f"{origin}/w{video}/index.m3u8" for video in range(10)]
log_start = len(open(access_log).read().splitlines())
post({"urls": urls, "bytes": budget})
final = settle()
sent = {}
for line in open(access_log).read().splitlines()[log_start:]:
    path, _, status, count = line.rsplit(" ", 3)
    video = path.split("/")[1]
    sent[video] = sent.get(video, 0) + int(count)
within = True
print(f"\nheads of 10 videos, budget {budget} bytes each:")
print("video   state   proxy bytes   origin sent   budget")
for index, job in enumerate(final["jobs"]):
    origin_sent = sent.get(f"w{index}", 0)
    ok = job["state"] == "done" and job["bytesFetched"] <= budget and origin_sent <= budget
    within = within and ok
    print(f"w{index:<6} {job['state']:<7} {job['bytesFetched']:>11}   {origin_sent:>11}   {budget}  {'PASS' if ok else 'FAIL'}")
within = within and len(final["jobs"]) == 10
total = fetched(final)
print(f"total {total} bytes fetched for a budget of {budget * 10}   goal: every video done, within its budget  {'PASS' if within else 'FAIL'}")
sys.exit(0 if verdict and within else 1)
PY
