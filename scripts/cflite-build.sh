#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh outside a container, with the environment ClusterFuzzLite's
# builder image gives it (SRC, OUT, WORK, SANITIZER, FUZZING_ENGINE, FUZZING_LANGUAGE,
# ARCHITECTURE, CC, CXX, CFLAGS, CXXFLAGS), then checks what it left in $OUT the way
# ClusterFuzzLite's build check does: every target runs its seed corpus without a crash and
# is instrumented for coverage, links no Swift runtime library (the runner image has none) and
# finds every library it needs.
#   scripts/cflite-build.sh [address|coverage]     (default address)
# Everything goes to .build-cflite/ (gitignored); WORK is kept, so a second run is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD
sanitizer=${1:-address}
root=$repository/.build-cflite
toolchain_bin=$(dirname "$(readlink -f "$(command -v swift)")")

export SRC=$root/src OUT=$root/out-$sanitizer WORK=$root/work-$sanitizer
export SANITIZER=$sanitizer FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=swift ARCHITECTURE=x86_64
export CC=$toolchain_bin/clang CXX=$toolchain_bin/clang++
# The C flags OSS-Fuzz's base-builder sets for each sanitizer with libFuzzer.
case $sanitizer in
    address) CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" ;;
    coverage) CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fprofile-instr-generate -fcoverage-mapping" ;;
    *) echo "cflite-build: address or coverage" >&2; exit 2 ;;
esac
export CFLAGS CXXFLAGS=$CFLAGS

mkdir -p "$SRC" "$WORK"
rm -rf "$OUT" && mkdir -p "$OUT"
# The builder image has the repository at $SRC/sparsecache and build.sh at $SRC/build.sh.
ln -sfn "$repository" "$SRC/sparsecache"
cp .clusterfuzzlite/build.sh "$SRC/build.sh"
echo "cflite-build: SRC=$SRC OUT=$OUT WORK=$WORK SANITIZER=$SANITIZER" >&2
(cd "$SRC/sparsecache" && bash -eu "$SRC/build.sh")

failed=0
targets=$(scripts/fuzz.sh list)
for target in $targets; do
    binary=$OUT/$target
    [ -x "$binary" ] || { echo "cflite-build: $target: not in \$OUT" >&2; failed=1; continue; }
    if ldd "$binary" | grep -Eq 'libswift|not found'; then
        ldd "$binary" | grep -E 'libswift|not found' >&2
        echo "cflite-build: $target needs libraries the runner image does not have" >&2; failed=1
    fi
    corpus=$WORK/check-$target
    rm -rf "$corpus" && mkdir -p "$corpus"
    unzip -q -o "$OUT/${target}_seed_corpus.zip" -d "$corpus"
    log=$WORK/check-$target.log
    # As the runner runs it: from $OUT, with its options; -runs=0 replays the seeds only.
    if ! (cd "$OUT" && "./$target" -runs=0 -rss_limit_mb=2560 -timeout=25 "$corpus" >"$log" 2>&1); then
        tail -20 "$log" >&2; echo "cflite-build: $target failed on its seed corpus" >&2; failed=1; continue
    fi
    if grep -q "Is the code instrumented for coverage" "$log"; then
        echo "cflite-build: $target is not instrumented for coverage" >&2; failed=1; continue
    fi
    echo "cflite-build: $target: $(grep -E 'INITED|DONE' "$log" | tail -1)"
done
echo "cflite-build: $(echo "$targets" | wc -w) targets in $OUT, with $(ls "$OUT"/*.dict | wc -l) dictionaries," \
    "$(ls "$OUT"/*_seed_corpus.zip | wc -l) seed corpora and $(ls "$OUT/lib" | tr '\n' ' ')in $OUT/lib"
exit $failed
