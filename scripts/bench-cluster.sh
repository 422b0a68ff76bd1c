#!/usr/bin/env bash
# Cache hits through the cluster's nginx front against one instance directly, in one run: a
# release build runs three instances behind the front of Docs/SCALING.md (Benchmarks/proxy/
# cluster.sh); COUNT 20 MB files are cached on their instances through the front, and all of
# them on instance 1 directly as well. wrk then GETs 64 KiB ranges of the files, spread over
# all of them, in alternating rounds: through the front, and from instance 1 directly. Prints
# requests/s per round, the medians and their ratio (expected below 1: the front is one more
# hop, an nginx that copies every byte between two sockets, on the same two cores), and the
# throughput in Gbit/s that SCALING.md sizes a cluster from. Exits 1 when a response is not a
# 206 of the right length, or when the front reaches less than half of the direct figure.
# Environment: DURATION (3), ROUNDS (3), COUNT (12), CONNECTIONS (16).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh
source Benchmarks/proxy/cluster.sh

duration=${DURATION:-3}
rounds=${ROUNDS:-3}
count=${COUNT:-12}
connections=${CONNECTIONS:-16}
./scripts/ensure-deps.sh bench
build_sparsecache release
binary=$BINARY
use_scratch_directory
work=$WORK

mkdir -p "$work/www"
file_size=$((20 * 1000 * 1000))
for index in $(seq 1 "$count"); do head -c "$file_size" /dev/urandom >"$work/www/f$index.mp4"; done
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/origin"
origin_pid=$NGINX_PID
INSTANCE_PIDS=() FRONT_PID=""
trap 'stop_pids "$FRONT_PID" "${INSTANCE_PIDS[@]}" "$origin_pid"; rm -rf "$work"' EXIT
start_cluster "$binary" "$work" 3 --access-log off --max-size 2GiB
front="http://127.0.0.1:$FRONT_PORT"
direct="http://127.0.0.1:${INSTANCE_PORTS[0]}"

: >"$work/paths"
for index in $(seq 1 "$count"); do
    path="/proxy?url=$(urlencode "http://127.0.0.1:$origin_port/f$index.mp4")"
    echo "$path" >>"$work/paths"
    # Twice each way: the first GET fills the cache, the second verifies every block.
    for base in "$front" "$front" "$direct" "$direct"; do curl -sf -o /dev/null "$base$path"; done
done
cat >"$work/spread.lua" <<LUA
-- GETs 64 KiB ranges, cycling over the files and 16 offsets in each; counts wrong answers.
local paths, ranges, index, wrong = {}, {}, 0, 0
for line in io.lines("$work/paths") do paths[#paths + 1] = line end
for i = 0, 15 do local offset = math.floor(i * ($file_size - 65536) / 15); ranges[#ranges + 1] = string.format("bytes=%d-%d", offset, offset + 65535) end
function request()
    index = index + 1
    return wrk.format("GET", paths[index % #paths + 1], { ["Range"] = ranges[math.floor(index / #paths) % #ranges + 1] })
end
function response(status, headers, body)
    if status ~= 206 or #body ~= 65536 then wrong = wrong + 1 end
end
function done(summary, latency, requests)
    io.write(string.format("wrong %d\n", wrong))
end
LUA
# wrk counts per thread in response(); one thread keeps the count whole.
measure() {
    wrk -t1 -c"$connections" -d"${duration}s" -s "$work/spread.lua" "$1" |
        awk '/^Requests\/sec:/ { rate = $2 } /^wrong/ { wrong = $2 } END { print rate, wrong }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "req/s of 64 KiB range hits over $count cached files, $connections connections, ${duration}s per run"
printf "%-6s %14s %14s\n" round front direct
front_rates="" direct_rates="" wrong_total=0
for round in $(seq 1 "$rounds"); do
    read -r front_rate front_wrong <<<"$(measure "$front")"
    read -r direct_rate direct_wrong <<<"$(measure "$direct")"
    wrong_total=$((wrong_total + front_wrong + direct_wrong))
    front_rates+="$front_rate " direct_rates+="$direct_rate "
    printf "%-6s %14s %14s\n" "$round" "$front_rate" "$direct_rate"
done
front_median=$(tr ' ' '\n' <<<"$front_rates" | grep . | median)
direct_median=$(tr ' ' '\n' <<<"$direct_rates" | grep . | median)
ratio=$(awk -v a="$front_median" -v b="$direct_median" 'BEGIN { printf "%.3f", a / b }')
echo "front median $front_median req/s = $ratio x one instance directly ($direct_median req/s)"
awk -v f="$front_median" -v d="$direct_median" 'BEGIN { printf "that is %.2f Gbit/s through the front, %.2f Gbit/s from one instance\n", f * 65536 * 8 / 1e9, d * 65536 * 8 / 1e9 }'
echo "wrong answers: $wrong_total"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$wrong_total" -eq 0 ] && awk -v r="$ratio" 'BEGIN { exit !(r >= 0.5) }'
