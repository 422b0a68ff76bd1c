#!/usr/bin/env bash
# DASH parse benchmark: `sparsecache dash bench` against the Python `mpegdash` package (PyPI) on the
# same generated MPDs of 1k, 10k and 100k SegmentTimeline entries (Benchmarks/dash/generate.py),
# in the same run.
#   scripts/bench-dash.sh [SHAPE...]        every shape, or these (timeline-1k, timeline-10k, timeline-100k)
# Environment: SPARSECACHE=path measures that binary instead of building one; ROUNDS (Swift,
# default 30) and PYTHON_ROUNDS (default 3) set the repetitions, of which the fastest counts;
# PASSES (default 3) splits the Swift rounds into that many processes per shape.
#
# The Swift rounds of the shapes are taken in passes, the shapes in turn (1k, 10k, 100k, 1k, ...),
# each pass a process of ROUNDS/PASSES rounds: on the shared machine this runs on, the processor
# time the host gives alternates between full speed and about half of it in periods of a third
# of a second to several seconds (measured per round in processor time, within one process whose
# memory stays as it was: Docs/BENCHMARKS.md, "DASH"), so the 30 rounds of one process, a second
# of work, could all fall in one slow period. Spread over the run's whole length, the fastest
# round is again the code's own speed; it is the same statistic, taken over a longer window.
#
# MPDs are generated into .build-bench/dash (never committed) with a manifest of what each holds;
# mpegdash is installed into the venv .build-bench/venv on first use. Both sides' parses are
# checked against the manifest before their rates count. Goals (issue 36): parse >= 200 MB/s and
# >= 50x mpegdash on every shape; prints the ratio and exits 1 when a goal is missed or a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-30}
python_rounds=${PYTHON_ROUNDS:-3}
passes=${PASSES:-3}
pass_rounds=$(( (rounds + passes - 1) / passes ))
goal_rate=200
goal_ratio=50
work=.build-bench
mkdir -p "$work"

if [ ! -x "$work/venv/bin/python" ] || ! "$work/venv/bin/python" -c 'import mpegdash' 2>/dev/null; then
    [ -x "$work/venv/bin/python" ] || python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet mpegdash
fi
python3 Benchmarks/dash/generate.py "$work/dash"
if [ -z "${SPARSECACHE:-}" ]; then
    SPARSECACHE=$(./scripts/build-release.sh)
fi
# glibc hands large freed blocks back to the kernel, so a process parsing the same MPD in a loop
# pays a page fault per 4 KiB on every iteration; a long-running proxy's heap keeps them.
export MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_MMAP_THRESHOLD_=268435456

shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && mapfile -t shapes < <(awk 'NR > 1 { print $1 }' "$work/dash/manifest.tsv")
for shape in "${shapes[@]}"; do
    awk -v s="$shape" '$1 == s { found = 1 } END { exit !found }' "$work/dash/manifest.tsv" \
        || { echo "bench-dash: unknown shape $shape" >&2; exit 2; }
done
# The Swift passes first, the shapes in turn; each pass's output is kept for the table below.
passes_dir=$(mktemp -d "$work/dash-passes.XXXXXX")
trap 'rm -rf "$passes_dir"' EXIT
for pass in $(seq 1 "$passes"); do
    for shape in "${shapes[@]}"; do
        file="$work/dash/$shape.mpd"
        size=$(stat -c %s "$file")
        # Rounds of at least ~10 MB of input: long enough to time, short enough to fit between other work.
        iterations=$(( (10000000 + size - 1) / size ))
        "$SPARSECACHE" dash bench "$file" --rounds "$pass_rounds" --iterations "$iterations" >"$passes_dir/$shape.$pass"
    done
done
failed=0
printf '%-15s %10s %11s %12s %8s  %s\n' shape bytes "swift MB/s" "mpegdash MB/s" ratio goal
for shape in "${shapes[@]}"; do
    file="$work/dash/$shape.mpd"
    expected=$(awk -v s="$shape" '$1 == s' "$work/dash/manifest.tsv")
    if [ -z "$expected" ]; then echo "bench-dash: unknown shape $shape" >&2; exit 2; fi
    read -r _ entries representations <<<"$expected"
    size=$(stat -c %s "$file")
    # The fastest pass's rate, with the first pass's counts (every pass checks its parses alike).
    swift_out=$(awk '$1 == "counts" && !counted { print; counted = 1 }
        $1 == "parse" && $2 + 0 > best { best = $2 + 0 } END { printf "parse %.1f MB/s\n", best }' "$passes_dir/$shape".*)
    python_out=$("$work/venv/bin/python" Benchmarks/dash/bench_mpegdash.py "$file" "$python_rounds")
    for side in swift python; do
        out=swift_out
        [ $side = python ] && out=python_out
        counts=$(awk '$1 == "counts"' <<<"${!out}")
        for field in "representations=$representations" "entries=$entries"; do
            if ! grep -qw -- "$field" <<<"$counts"; then
                echo "bench-dash: $shape: the $side parse found '$counts', expected $field" >&2
                failed=1
            fi
        done
    done
    swift_rate=$(awk '$1 == "parse" { print $2 }' <<<"$swift_out")
    python_rate=$(awk '$1 == "parse" { print $2 }' <<<"$python_out")
    read -r ratio verdict < <(awk -v s="$swift_rate" -v p="$python_rate" -v gr="$goal_rate" -v gx="$goal_ratio" 'BEGIN {
        ratio = p > 0 ? s / p : 0
        ok = s + 0 >= gr + 0 && ratio >= gx + 0
        printf "%.0fx %s\n", ratio, ok ? "PASS" : "MISSED" }')
    [ "$verdict" = PASS ] || failed=1
    printf '%-15s %10s %11s %12s %8s  %s\n' "$shape" "$size" "$swift_rate" "$python_rate" "$ratio" \
        ">= $goal_rate MB/s, >= ${goal_ratio}x: $verdict"
done
echo "binary: $SPARSECACHE; $(swift --version 2>&1 | head -1);" \
    "python mpegdash $("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mpegdash"))');" \
    "fastest of $passes passes of $pass_rounds rounds (Swift) and of $python_rounds rounds (mpegdash);" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ $failed -ne 0 ]; then
    echo "bench-dash: a check failed or a goal was missed" >&2
    exit 1
fi
