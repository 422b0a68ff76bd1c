#!/bin/bash -eu
# Builds every fuzz target of the package (scripts/fuzz.sh list) as ClusterFuzzLite and OSS-Fuzz
# expect: one executable per target in $OUT, with its seed corpus ($OUT/<target>_seed_corpus.zip:
# seeds and kept crashes), its dictionary ($OUT/<target>.dict) and the shared libraries it needs
# that a runner image lacks ($OUT/lib, found through the executables' rpath).
#
# Environment (set by the builder image, or by scripts/cflite-build.sh outside a container):
# SRC (the repository is $SRC/sparsecache), OUT, WORK, SANITIZER (address or coverage), and
# CFLAGS for the package's C code. `precompile_swift`, when the image has it, copies the
# symbolizer into $OUT; the Swift flags are chosen here, as scripts/fuzz.sh chooses them (one
# `--sanitize=fuzzer` and `-sanitize=fuzzer,address` to the compiler: two separate
# `--sanitize` flags have been seen to drop the coverage instrumentation).

cd "$SRC/sparsecache"
if command -v precompile_swift >/dev/null; then
    . precompile_swift
fi

case "$SANITIZER" in
    address)
        flags=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address) ;;
    coverage)
        flags=(--sanitize=fuzzer -Xswiftc -sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping) ;;
    *)
        echo "build.sh: sanitizer $SANITIZER is not supported (address, coverage)" >&2; exit 1 ;;
esac
for flag in ${CFLAGS:-}; do
    flags+=(-Xcc "$flag")
done
# The runner image has no Swift runtime: it is linked in (which also leaves out the Swift
# backtracer, which would otherwise take a crash from libFuzzer before it writes the input).
# libxxhash is copied beside the targets and found through $ORIGIN/lib.
flags+=(--static-swift-stdlib -Xlinker -rpath -Xlinker '$ORIGIN/lib')

scratch="$WORK/sparsecache-build"
mkdir -p "$OUT/lib"
for target in $(scripts/fuzz.sh list); do
    # One product at a time: the command-line tool's `main` would clash with libFuzzer's.
    SPARSECACHE_FUZZ=1 swift build -c debug --scratch-path "$scratch" --product "$target" "${flags[@]}"
    cp "$scratch/debug/$target" "$OUT/$target"
    if [ -f "Fuzz/$target/$target.dict" ]; then cp "Fuzz/$target/$target.dict" "$OUT/$target.dict"; fi
    corpus="$WORK/corpus-$target"
    rm -rf "$corpus" && mkdir -p "$corpus"
    for folder in seeds crashes; do
        if [ -d "Fuzz/$target/$folder" ]; then cp "Fuzz/$target/$folder"/* "$corpus/"; fi
    done
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$corpus" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
    printf '[libfuzzer]\nrss_limit_mb = 2560\ntimeout = 25\n' >"$OUT/$target.options"
done

# The shared libraries the targets link that a runner image does not have.
for target in $(scripts/fuzz.sh list); do
    ldd "$OUT/$target" | awk '/libxxhash/ { print $3 }'
done | sort -u | while read -r library; do
    cp -L "$library" "$OUT/lib/"
done
