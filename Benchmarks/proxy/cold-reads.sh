#!/usr/bin/env bash
# Hits while another client's bytes come from a slow disk: does the disk hold up the hits?
#
# Two proxies in front of one nginx origin, their caches on a real slow disk: a loop device
# (ext4) whose reads a block-I/O cgroup throttles to READ_IOPS operations per second (the
# proxies run in that cgroup). One proxy reads bytes that are no longer in memory on its
# cold-read threads (`--cold-read-threads 2`, the default), the other on its event loops
# (`--cold-read-threads 0`, as every hit did before). In rounds whose order alternates, each
# proxy gets, at the same time:
# - hot traffic: wrk with CONNECTIONS connections GETting a cached 2 MB segment, every body
#   checked (verify.lua), with its latency distribution;
# - a cold client (cold_client.py): 64 KiB ranges at random offsets of a cached 200 MB file
#   whose pages were dropped from memory before the round (POSIX_FADV_DONTNEED), one after the
#   other, every body checked.
# Prints per round and as medians the hot req/s and latency (p50, p99, max) and the cold
# client's requests and latency, and the ratio of the two proxies' hot rates and p99s.
#
# Goal: the offloaded proxy's hot p99 at most GOAL_P99_RATIO (default 0.5) times the one
# reading on its loops, measured in the same rounds (it was 0.14 on 2026-11-26), and every hot
# response of the offloaded proxy right; exits 1 when missed.
#
# Needs root, losetup, mkfs.ext4, fincore (util-linux) and a blkio (cgroup v1) or io (cgroup v2) controller; exits 77
# (skipped) without them.
# Usage: Benchmarks/proxy/cold-reads.sh [SPARSECACHE_BINARY]  (default: a release build)
# Environment: ROUNDS (5), DURATION (5 s), CONNECTIONS (16), READ_IOPS (50), COLD (1; 0 runs the
#              hot traffic alone, for reference).
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/proxy/common.sh

rounds=${ROUNDS:-5}
duration=${DURATION:-5}
connections=${CONNECTIONS:-16}
read_iops=${READ_IOPS:-50}
skip() { echo "cold-reads: SKIPPED: $1" >&2; exit "$SKIPPED_STATUS"; }
[ "$(id -u)" = 0 ] || skip "needs root (a loop device and a cgroup)"
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null && command -v fincore >/dev/null || skip "needs losetup, mkfs.ext4 and fincore"
if [ -d /sys/fs/cgroup/blkio ]; then
    cgroup=/sys/fs/cgroup/blkio/sparsecache-cold-$$
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    cgroup=/sys/fs/cgroup/sparsecache-cold-$$
else
    skip "no blkio or io cgroup controller"
fi
./scripts/ensure-deps.sh bench
binary_or_release_build "${1:-}"
binary=$BINARY

use_scratch_directory
work=$WORK
loop="" proxy_pids=()
cleanup() {
    stop_pids "${proxy_pids[@]}" "$NGINX_PID"
    if mountpoint -q "$work/disk"; then umount "$work/disk"; fi
    [ -z "$loop" ] || losetup -d "$loop"
    [ ! -d "$cgroup" ] || rmdir "$cgroup"
    rm -rf "$work"
}
trap cleanup EXIT

make_media_files "$work/www"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
origin="http://127.0.0.1:$origin_port"

truncate -s 2G "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img")
mkfs.ext4 -q "$loop"
mkdir -p "$work/disk"
mount "$loop" "$work/disk"
device=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
mkdir "$cgroup"
if [ -f "$cgroup/blkio.throttle.read_iops_device" ]; then
    echo "$device $read_iops" >"$cgroup/blkio.throttle.read_iops_device"
else
    echo "$device riops=$read_iops" >"$cgroup/io.max"
fi

names=(offloaded on-loop)
threads=(2 0)
proxy_ports=()
for index in 0 1; do
    start_proxy "$binary" "$work/disk/cache-$index" --max-size 1GiB --access-log off --cold-read-threads "${threads[$index]}"
    proxy_pids+=("$PROXY_PID")
    proxy_ports+=("$PROXY_PORT")
    echo "$PROXY_PID" >"$cgroup/cgroup.procs"
done
url_of() { echo "http://127.0.0.1:${proxy_ports[$1]}/proxy?url=$(urlencode "$origin$2")"; }
for index in 0 1; do
    for path in /segment.ts /movie.mp4; do warm_and_check "$(url_of "$index" "$path")" "$work/www$path"; done
done
sync

# drop_movie INDEX: drops the pages of proxy INDEX's copy of the movie from memory. The kernel
# drops no page a process maps, and the proxy releases a mapping no hit used for a second: it
# tries again until at most a twentieth of the file is resident (fincore), and says so if not.
drop_movie() {
    local file resident=0
    file=$(find "$work/disk/cache-$1" -type f -size +100M | head -1)
    for _ in 1 2 3 4 5 6; do
        sleep 1
        python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fdatasync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$file"
        resident=$(fincore --bytes --noheadings --output RES "$file" | tr -d ' ')
        [ "$resident" -gt $((BIG_SIZE / 20)) ] || return 0
    done
    echo "cold-reads: ${names[$1]}: $resident bytes of the movie stayed in memory" >&2
}

# measure INDEX ROUND: "REQ/S P50 P99 MAX WRONG COLD_COUNT COLD_MEDIAN COLD_P90 COLD_MAX"
measure() {
    local index=$1 round=$2 port=${proxy_ports[$1]} cold_path
    drop_movie "$index"
    cold_path="/proxy?url=$(urlencode "$origin/movie.mp4")"
    local cold=""
    if [ "${COLD:-1}" = 1 ]; then
        python3 Benchmarks/proxy/cold_client.py "$port" "$cold_path" "$work/www/movie.mp4" "$duration" "$round" >"$work/cold.out" &
        cold=$!
    else
        echo "0 0 0 0" >"$work/cold.out"
    fi
    wrk -t2 -c"$connections" -d"${duration}s" --latency -s Benchmarks/proxy/verify.lua "$(url_of "$index" /segment.ts)" \
        -- "$work/www/segment.ts" whole >"$work/wrk.out"
    [ -z "$cold" ] || wait "$cold" || { echo "cold-reads: the cold client failed on ${names[$index]}" >&2; exit 1; }
    local figures
    figures=$(wrk_figures "$work/wrk.out" 0 0 "0 0")
    awk -v figures="$figures" -v cold="$(cat "$work/cold.out")" '
        function ms(value) { if (value ~ /us$/) return value / 1000; if (value ~ /ms$/) return value + 0; if (value ~ /s$/) return value * 1000; return value }
        /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) } /Latency/ && !max { max = ms($4) }
        END { split(figures, f, " "); printf "%s %.1f %.1f %.1f %s %s\n", f[1], p50, p99, max, f[4], cold }' "$work/wrk.out"
}

echo "-- hot: $connections connections on a cached 2 MB segment; cold: 64 KiB ranges of a dropped 200 MB file; reads throttled to $read_iops/s"
declare -A rate=() p99=() cold_median=()
failed=0
for round in $(seq 1 "$rounds"); do
    for step in 0 1; do
        index=$(((step + round - 1) % 2))
        read -r requests p50 p99_ms max wrong cold_count cold_p50 cold_p90 cold_max <<<"$(measure "$index" "$round")"
        # The proxy reading on its event loops may time hot requests out: that is what is measured.
        # The other must answer every one, and right.
        if [ "$wrong" -ne 0 ]; then
            echo "cold-reads: ${names[$index]}: $wrong wrong or failed hot responses" >&2
            [ "$index" -ne 0 ] || failed=1
        fi
        rate[$index]+="$requests " p99[$index]+="$p99_ms " cold_median[$index]+="$cold_p50 "
        printf "  round %d %-9s hot %6s req/s, latency p50 %6.1f ms p99 %6.1f ms max %7.1f ms; cold %4s ranges, p50 %6.1f ms p90 %6.1f ms max %7.1f ms\n" \
            "$round" "${names[$index]}" "$requests" "$p50" "$p99_ms" "$max" "$cold_count" "$cold_p50" "$cold_p90" "$cold_max"
    done
done
for index in 0 1; do
    # shellcheck disable=SC2086
    printf "%-9s median hot %6s req/s, p99 %6s ms; cold p50 %6s ms\n" "${names[$index]}" "$(median ${rate[$index]})" \
        "$(median ${p99[$index]})" "$(median ${cold_median[$index]})"
done
# shellcheck disable=SC2086
awk -v a="$(median ${rate[0]})" -v b="$(median ${rate[1]})" -v pa="$(median ${p99[0]})" -v pb="$(median ${p99[1]})" \
    'BEGIN { printf "hot rate: offloaded / on-loop %.2fx; hot p99: on-loop / offloaded %.1fx\n", a / b, pb / pa }'
# shellcheck disable=SC2086
if ! awk -v pa="$(median ${p99[0]})" -v pb="$(median ${p99[1]})" -v goal="${GOAL_P99_RATIO:-0.5}" \
    'BEGIN { ratio = pa / pb; printf "hot p99: offloaded / on-loop %.2fx (goal <= %s)\n", ratio, goal; exit !(ratio <= goal) }'; then
    echo "cold-reads: goal missed: the offloaded proxy's hot p99 is not under ${GOAL_P99_RATIO:-0.5}x the on-loop one's" >&2
    failed=1
fi
exit "$failed"
