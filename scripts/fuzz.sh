#!/usr/bin/env bash
# Builds the libFuzzer targets with -sanitize=fuzzer,address and runs them.
#   scripts/fuzz.sh list                    names of all targets
#   scripts/fuzz.sh smoke [SECONDS]         every target for SECONDS (default 5) over its seeds
#                                           and kept crashes; fails on a crash or missing coverage
#   scripts/fuzz.sh run TARGET SECONDS [libFuzzer flags...]
#                                           a campaign; new inputs go to Fuzz/corpus-work/TARGET
# Targets live in Fuzz/<name>/: <name>.swift, seeds/, optional <name>.dict and crashes/.
# The HLS targets also read the shared real-world playlist corpus, ../shared/corpus/hls, when it
# exists (read in place, never copied; new inputs go to the first folder only).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz

targets() {
    for dir in Fuzz/*/; do
        name=$(basename "$dir")
        [ -f "$dir/$name.swift" ] && echo "$name"
    done
}

build() {
    SPARSECACHE_FUZZ=1 swift build -c debug --scratch-path "$scratch" \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address "$@" >&2
}

run_target() {
    local name=$1 seconds=$2; shift 2
    local work=Fuzz/corpus-work/$name
    mkdir -p "$work" Fuzz/artifacts
    local dirs=("$work" "Fuzz/$name/seeds")
    [ -d "Fuzz/$name/crashes" ] && dirs+=("Fuzz/$name/crashes")
    [[ $name == FuzzHLS* ]] && [ -d ../shared/corpus/hls ] && dirs+=(../shared/corpus/hls)
    local dict=()
    [ -f "Fuzz/$name/$name.dict" ] && dict=("-dict=Fuzz/$name/$name.dict")
    # The whole log is kept (gitignored) for a campaign's figures: cov, ft, exec/s.
    local log=Fuzz/artifacts/$name.log
    set +e
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$scratch/debug/$name" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=Fuzz/artifacts/"$name"- "${dict[@]}" "$@" "${dirs[@]}" >"$log" 2>&1
    local status=$?
    set -e
    if grep -q "Is the code instrumented for coverage" "$log"; then
        cat "$log" >&2; echo "fuzz: $name is not instrumented for coverage" >&2; return 1
    fi
    grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)' "$log" | tail -1 | sed "s/^/fuzz: $name: /" >&2 || true
    if [ $status -ne 0 ]; then
        tail -60 "$log" >&2; echo "fuzz: $name failed (exit $status); inputs in Fuzz/artifacts/" >&2
        return 1
    fi
}

case "${1:-smoke}" in
    list) targets ;;
    smoke)
        seconds=${2:-5}
        # One product at a time: a plain build would also link the CLI, whose main clashes
        # with libFuzzer's.
        for name in $(targets); do build --product "$name"; done
        for name in $(targets); do run_target "$name" "$seconds"; done
        ;;
    run)
        name=${2:?target}; seconds=${3:?seconds}; shift 3
        build --product "$name"
        run_target "$name" "$seconds" -print_final_stats=1 "$@"
        ;;
    *) echo "usage: $0 list | smoke [SECONDS] | run TARGET SECONDS [flags]" >&2; exit 2 ;;
esac
