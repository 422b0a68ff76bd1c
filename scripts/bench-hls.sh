#!/usr/bin/env bash
# HLS benchmark: `sparsecache hls bench` (parse, lossless format, canonical format, parse +
# rewrite) against the Python `m3u8` package (PyPI) on the same generated playlists, in the
# same run, with the parser's instructions per byte from callgrind beside the rates.
#   scripts/bench-hls.sh [SHAPE...]            every shape of Benchmarks/hls/generate.py, or these
# Environment: SPARSECACHE=path measures that binary instead of building one; ROUNDS (Swift,
# default 30; a sixth of it for playlists over 10 MB) and PYTHON_ROUNDS (default 3; 1 over
# 10 MB) set the repetitions, of which the fastest counts; ROUND_SECONDS (default 2) keeps both
# sides timing rounds of each operation for at least that long, because this host's whole speed
# drops to 0.6-0.7x for a second or two at a time (another tenant on the core, Docs/BENCHMARKS.md,
# "HLS"), and thirty rounds of a fast parse fit inside one such period; CALLGRIND=0 skips the
# instruction counts.
#
# Playlists are generated into .build-bench/hls (never committed) with a manifest of what each
# holds; m3u8 is installed into a venv under .build-bench/venv on first use. Both sides' parses
# are checked against the manifest before their rates count. Exits 1 when a check fails or a
# goal of the table marked `bench-hls goals` in Docs/BENCHMARKS.md is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-30}
python_rounds=${PYTHON_ROUNDS:-3}
round_seconds=${ROUND_SECONDS:-2}
work=.build-bench
mkdir -p "$work"

if [ ! -x "$work/venv/bin/python" ] || ! "$work/venv/bin/python" -c 'import m3u8' 2>/dev/null; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet m3u8
fi
python3 Benchmarks/hls/generate.py "$work/hls"
if [ -z "${SPARSECACHE:-}" ]; then
    SPARSECACHE=$(./scripts/build-release.sh)
fi
if [ "${CALLGRIND:-1}" != 0 ] && ! command -v valgrind >/dev/null 2>&1; then
    echo "bench-hls: valgrind is missing (scripts/ensure-deps.sh bench installs it; CALLGRIND=0 skips it)" >&2
    exit 1
fi

# glibc hands large freed blocks back to the kernel, so a process that parses the same
# playlist in a loop pays a page fault per 4 KiB on every iteration; a long-running proxy's
# heap keeps them. These keep freed memory in the process, for Swift and Python alike.
export MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_MMAP_THRESHOLD_=268435456

# Goals: the rows after the marker, `| shape | operation | MB/s | x m3u8 |` ("-" for none).
goals=$(awk '/<!-- bench-hls goals/ { on = 1; next } on && /^\|/ { print; next } on { exit }' Docs/BENCHMARKS.md \
    | tr -d ' ,' | awk -F'|' '$2 != "shape" && $2 !~ /^-+$/ { print $2, $3, $4, $5 }')
if [ -z "$goals" ]; then
    echo "bench-hls: no goal table (<!-- bench-hls goals -->) in Docs/BENCHMARKS.md" >&2
    exit 1
fi

# Instructions per parsed byte: callgrind counts only inside HLSPlaylist(parsing:options:); two
# runs that differ by two parses cancel the setup and the checks around them.
# Valgrind gives up on the debug information of the whole binary (its dependencies' DWARF),
# so it runs a copy without it: the symbol table is all callgrind needs here.
parse_symbol='$s3HLS11HLSPlaylistV7parsing7optionsACSays5UInt8VG_AA16HLSParserOptionsVtAA13HLSParseErrorVYKcfC'
if [ "${CALLGRIND:-1}" != 0 ]; then
    objcopy --strip-debug "$SPARSECACHE" "$work/sparsecache-callgrind"
fi
instructions() {
    local file=$1 iterations=$2 out
    out=$(mktemp "$work/callgrind.XXXXXX")
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$parse_symbol" \
        "$work/sparsecache-callgrind" hls bench "$file" --operation parse --rounds 1 --iterations "$iterations" \
        >/dev/null 2>&1
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
    rm -f "$out"
}
instructions_per_byte() {
    local file=$1 one three
    one=$(instructions "$file" 1)
    three=$(instructions "$file" 3)
    if [ -z "$one" ] || [ -z "$three" ] || [ "$three" -le "$one" ]; then
        echo "bench-hls: callgrind counted nothing in $parse_symbol for $file" >&2
        return 1
    fi
    awk -v a="$one" -v b="$three" -v n="$(stat -c %s "$file")" 'BEGIN { printf "%.2f", (b - a) / 2 / n }'
}

shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && mapfile -t shapes < <(awk 'NR > 1 { print $1 }' "$work/hls/manifest.tsv")
failed=0
printf '%-16s %-10s %11s %10s %7s %8s  %s\n' shape operation "swift MB/s" "m3u8 MB/s" ratio "Ir/byte" goal
for shape in "${shapes[@]}"; do
    file="$work/hls/$shape.m3u8"
    expected=$(awk -v s="$shape" '$1 == s' "$work/hls/manifest.tsv")
    if [ -z "$expected" ]; then echo "bench-hls: unknown shape $shape" >&2; exit 2; fi
    size=$(stat -c %s "$file")
    # Rounds of at least ~5 MB of input, so a round is long enough to time and short enough to
    # fit between other work on a shared machine.
    iterations=$(( (5000000 + size - 1) / size ))
    shape_rounds=$rounds
    shape_python_rounds=$python_rounds
    # A 34 MB playlist takes m3u8 about ten seconds per parse: fewer rounds of it.
    if [ "$size" -gt 10000000 ]; then
        shape_rounds=$(( (rounds + 5) / 6 ))
        shape_python_rounds=1
    fi
    swift_out=$("$SPARSECACHE" hls bench "$file" --rounds "$shape_rounds" --iterations "$iterations" \
        --minimum-seconds "$round_seconds")
    python_out=$("$work/venv/bin/python" Benchmarks/hls/bench_m3u8.py "$file" "$shape_python_rounds" 1 "$round_seconds")
    # What each side parsed must be what the generator wrote.
    read -r _ _ segments variants iframes renditions parts dateranges sessiondata keys sessionkeys <<<"$expected"
    want="segments=$segments variants=$variants iframes=$iframes renditions=$renditions parts=$parts"
    want="$want dateranges=$dateranges sessiondata=$sessiondata"
    swift_counts=$(awk '$1 == "counts"' <<<"$swift_out")
    for field in $want keys=$keys sessionkeys=$sessionkeys warnings=0; do
        if ! grep -qw -- "$field" <<<"$swift_counts"; then
            echo "bench-hls: $shape: Swift parse found '$swift_counts', expected $field" >&2
            failed=1
        fi
    done
    python_counts=$(awk '$1 == "counts"' <<<"$python_out")
    for field in $want; do
        if ! grep -qw -- "$field" <<<"$python_counts"; then
            echo "bench-hls: $shape: m3u8 parse found '$python_counts', expected $field" >&2
            failed=1
        fi
    done
    ir="-"
    [ "${CALLGRIND:-1}" != 0 ] && { ir=$(instructions_per_byte "$file") || { failed=1; ir="?"; }; }
    for operation in parse format canonical rewrite; do
        swift_rate=$(awk -v op="$operation" '$1 == op { print $2 }' <<<"$swift_out")
        python_rate=$(awk -v op="$operation" '$1 == op { print $2 }' <<<"$python_out")
        ratio=-
        [ -n "$python_rate" ] && ratio=$(awk -v s="$swift_rate" -v p="$python_rate" 'BEGIN { printf "%.0fx", s / p }')
        goal=$(awk -v s="$shape" -v o="$operation" '$1 == s && $2 == o { print $3, $4 }' <<<"$goals")
        verdict=""
        if [ -n "$goal" ]; then
            read -r goal_rate goal_ratio <<<"$goal"
            verdict=$(awk -v s="$swift_rate" -v p="${python_rate:-0}" -v gr="$goal_rate" -v gx="$goal_ratio" 'BEGIN {
                ok = 1; text = ""
                if (gr != "-") { text = ">= " gr " MB/s"; if (s + 0 < gr + 0) ok = 0 }
                if (gx != "-") { text = text (text == "" ? "" : ", ") ">= " gx "x"; if (p + 0 <= 0 || s / p < gx + 0) ok = 0 }
                print text (ok ? "  PASS" : "  MISSED") }')
            [[ $verdict == *MISSED ]] && failed=1
        fi
        [ "$operation" = parse ] || ir_column="-"
        [ "$operation" = parse ] && ir_column=$ir
        printf '%-16s %-10s %11s %10s %7s %8s  %s\n' "$shape" "$operation" "$swift_rate" "${python_rate:--}" \
            "$ratio" "$ir_column" "$verdict"
    done
done
echo "binary: $SPARSECACHE; $(swift --version 2>&1 | head -1);" \
    "python m3u8 $("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("m3u8"))');" \
    "fastest of at least $rounds rounds (Swift) and $python_rounds (m3u8), each operation timed for at least ${round_seconds} s; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [ $failed -ne 0 ]; then
    echo "bench-hls: a check failed or a goal was missed" >&2
    exit 1
fi
