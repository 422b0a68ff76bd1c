#!/usr/bin/env bash
# HLS benchmark: `sparsecache hls bench` (parse, lossless format, canonical format, rewrite)
# against the Python `m3u8` package (PyPI) on the same generated playlists, in the same run.
#   scripts/bench-hls.sh [ITERATIONS] [PYTHON_ITERATIONS]
# Playlists are generated into .build-bench/hls (never committed): a 10,000-segment media
# playlist (~780 KB), a 100,000-segment one, a 10,000-segment byte-range fMP4 one and a
# multivariant playlist with 2,000 variants and 200 renditions. m3u8 is installed into a
# venv under .build-bench/venv on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-50}
python_iterations=${2:-3}
work=.build-bench
mkdir -p "$work"

if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet m3u8
fi
python3 Benchmarks/hls/generate.py "$work/hls"
swift build -c release --product sparsecache >&2
sparsecache=$(swift build -c release --show-bin-path)/sparsecache

# glibc hands large freed blocks back to the kernel, so a process that parses the same
# playlist in a loop pays a page fault per 4 KiB on every iteration; a long-running proxy's
# heap keeps them. These keep freed memory in the process, for Swift and Python alike.
export MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_MMAP_THRESHOLD_=268435456

m3u8_version=$("$work/venv/bin/python" -c 'import m3u8, importlib.metadata as m; print(m.version("m3u8"))')
printf '%-20s %-10s %12s %12s %9s\n' file operation "swift MB/s" "m3u8 MB/s" ratio
for name in media-10k media-100k byterange-10k master-2000; do
    file="$work/hls/$name.m3u8"
    count=$iterations
    [ "$name" = media-100k ] && count=$(( (iterations + 9) / 10 ))
    swift_out=$("$sparsecache" hls bench "$file" --iterations "$count")
    python_out=$("$work/venv/bin/python" Benchmarks/hls/bench_m3u8.py "$file" "$python_iterations")
    for operation in parse format canonical rewrite; do
        swift_rate=$(awk -v op="$operation" '$1 == op {print $2}' <<<"$swift_out")
        python_operation=$operation
        [ "$operation" = canonical ] && python_operation=format
        python_rate=$(awk -v op="$python_operation" '$1 == op {print $2}' <<<"$python_out")
        ratio=$(awk -v s="$swift_rate" -v p="$python_rate" 'BEGIN { printf "%.0fx", s / p }')
        printf '%-20s %-10s %12s %12s %9s\n' "$name" "$operation" "$swift_rate" "$python_rate" "$ratio"
    done
done
echo "swift: $("$sparsecache" --version 2>/dev/null || swift --version 2>&1 | head -1); python m3u8 $m3u8_version" >&2
