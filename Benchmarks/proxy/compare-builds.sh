#!/usr/bin/env bash
# Compares two builds of `sparsecache serve`, and nginx, on GETs of cached 64 KiB ranges of a
# 200 MB file, in alternating rounds: what a change costs per request, measured side by side
# (the machine is shared, so only figures taken in the same minutes compare). Prints requests/s
# and each server's CPU time per request, which moves less with the load of the machine.
# Usage: Benchmarks/proxy/compare-builds.sh OLD_BINARY NEW_BINARY [CONNECTIONS (16)] [ROUNDS (3)]
# DROP_PAGES=1 drops the cache files' pages from memory before the rounds, as a kernel reclaiming
# idle pages does (this machine's DAMON pageout), so that the first ranges are cold reads.
# FIELD="Name: value" adds a header field to every request: `FIELD="Connection: keep-alive, x-codec"`
# makes each one not plain, so that it is answered behind the HTTP/1 codec (CacheHitHandler), not
# from the raw bytes (RawHitHandler).
# Goal: NEW's median CPU time per request at most GOAL_CPU_RATIO (default 1.05) times OLD's, and
# no request refused or failed; exits 1 when it is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh
old_binary=$1
new_binary=$2
connections=${3:-16}
rounds=${4:-3}

./scripts/ensure-deps.sh bench
use_scratch_directory
work=$WORK
mkdir -p "$work/www"
head -c $((200 * 1024 * 1024)) /dev/urandom >"$work/www/movie.mp4"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"
start_proxy "$old_binary" "$work/cache-old" --max-size 1GiB
old_pid=$PROXY_PID
old_port=$PROXY_PORT
trap 'stop_pids "$old_pid" "$PROXY_PID" "$NGINX_PID"; rm -rf "$work"' EXIT
start_proxy "$new_binary" "$work/cache-new" --max-size 1GiB
encoded=$(urlencode "$origin/movie.mp4")
old="http://127.0.0.1:$old_port/proxy?url=$encoded"
new="http://127.0.0.1:$PROXY_PORT/proxy?url=$encoded"
# Twice each: the first GET fills the cache, the second proves it is served from it.
for url in "$old" "$new"; do curl -sf -o /dev/null "$url"; curl -sf -o /dev/null "$url"; done
if [ "${DROP_PAGES:-0}" = 1 ]; then
    find "$work/cache-old/entries" "$work/cache-new/entries" -type f -exec python3 -c '
import os, sys
for path in sys.argv[1:]:
    descriptor = os.open(path, os.O_RDONLY)
    os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(descriptor)' {} +
fi

# "REQ/S CPU_US_PER_REQUEST" of one wrk run against $1, the CPU being that of processes $2...
measure() {
    local url=$1; shift
    local before after output
    before=$(cpu_ticks "$@")
    local field=()
    [ -n "${FIELD:-}" ] && field=(-H "$FIELD")
    output=$(wrk -t"$((connections < 2 ? 1 : 2))" -c"$connections" -d3s "${field[@]}" -s Benchmarks/proxy/ranges.lua "$url" -- $((200 * 1024 * 1024))) || true
    # A refused or failed request is cheap and would flatter a build: none may be counted; and
    # a round that measured nothing (wrk missing or failing) is no round.
    if ! grep -q "^Requests/sec:" <<<"$output"; then
        echo "    $url: wrk measured nothing" >&2
        : >"$work/errors"
    elif grep -q -E "Non-2xx|Socket errors" <<<"$output"; then
        grep -E "Non-2xx|Socket errors" <<<"$output" | sed "s#^#    $url: #" >&2
        : >"$work/errors"
    fi
    after=$(cpu_ticks "$@")
    awk -v before="$before" -v after="$after" -v hz="$(getconf CLK_TCK)" '
        /requests in/ { requests = $1 } /^Requests\/sec:/ { rate = $2 }
        END { printf "%s %.1f", rate, (after - before) / hz * 1e6 / requests }' <<<"$output"
}

nginx_workers=$(pgrep -P "$NGINX_PID" | tr '\n' ' ')
echo "req/s, and in brackets the server's CPU per request in µs (user + system, from /proc)"
printf "%-6s %20s %20s %20s\n" round nginx old new
for round in $(seq 1 "$rounds"); do
    # shellcheck disable=SC2086
    for row in "$(measure "$origin/movie.mp4" $nginx_workers)" "$(measure "$old" "$old_pid")" "$(measure "$new" "$PROXY_PID")"; do
        read -r rate cpu <<<"$row"
        printf " %12s (%5s)" "$rate" "$cpu"
    done | { printf "%-6s" "$round"; cat; echo; } | tee -a "$work/rounds"
done
# The medians of the rounds, new against old.
summary=$(awk '
    function median(values, count,    i, j, t) {
        for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] < values[i]) { t = values[i]; values[i] = values[j]; values[j] = t }
        return count % 2 ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
    }
    { gsub(/[()]/, ""); n++; oldRate[n] = $4; oldCPU[n] = $5; newRate[n] = $6; newCPU[n] = $7 }
    END { printf "%.3f %.3f", median(newRate, n) / median(oldRate, n), median(newCPU, n) / median(oldCPU, n) }' "$work/rounds")
read -r rate_ratio cpu_ratio <<<"$summary"
echo "new / old, medians of $rounds rounds: req/s ${rate_ratio}x, CPU per request ${cpu_ratio}x (goal <= ${GOAL_CPU_RATIO:-1.05})"
# How each build answered: hits from the raw request bytes among its requests.
for port in "$old_port" "$PROXY_PORT"; do
    curl -sf "http://127.0.0.1:$port/status" | python3 -c '
import json, sys
traffic = json.load(sys.stdin)["traffic"]
print("port %s: %d of %d requests answered from the raw request bytes, %s written from a mapping, %d read cold" % (
    sys.argv[1], traffic.get("hitsFromRawRequests", 0), traffic["requests"], traffic.get("mappedHits", "(not counted)"),
    traffic.get("coldReads", 0)))
' "$port"
done
if [ -e "$work/errors" ]; then
    echo "compare-builds: goal missed: requests were refused or failed" >&2
    exit 1
fi
if ! awk -v ratio="$cpu_ratio" -v goal="${GOAL_CPU_RATIO:-1.05}" 'BEGIN { exit !(ratio ~ /^[0-9.]+$/ && ratio + 0 > 0 && ratio + 0 <= goal + 0) }'; then
    echo "compare-builds: goal missed: the new build's CPU per request is ${cpu_ratio}x the old one's" >&2
    exit 1
fi
echo "compare-builds: goal met"
