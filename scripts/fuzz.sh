#!/usr/bin/env bash
# Builds the libFuzzer targets with -sanitize=fuzzer,address and runs them.
#   scripts/fuzz.sh list                    names of all targets
#   scripts/fuzz.sh smoke [SECONDS]         every target for SECONDS (default 5) over its seeds
#                                           and kept crashes; fails on a crash or missing coverage
#   scripts/fuzz.sh run TARGET SECONDS [libFuzzer flags...]
#                                           a campaign; new inputs go to Fuzz/corpus-work/TARGET
#                                           (or FUZZ_WORK_ROOT/TARGET), which later runs read
#   scripts/fuzz.sh campaign [--minutes N] [--jobs N] [TARGET...]
#                                           the targets (all by default) for N minutes (default 60)
#                                           on N cores (default 1): the core-minutes are split
#                                           evenly over the targets, N run at a time. Each starts
#                                           from its minimal corpus Fuzz/corpus/TARGET (gitignored,
#                                           kept between campaigns), which the campaign's new
#                                           inputs are then merged into (-merge=1); prints per
#                                           target executions, exec/s, cov, ft, corpus, crashes
#                                           (FUZZ_TIMEOUT=SECONDS: libFuzzer's -timeout, default 10)
#   scripts/fuzz.sh minimize CRASH [TARGET] the smallest input that still crashes
#                                           (-minimize_crash=1), written to CRASH.min
#   scripts/fuzz.sh keep CRASH TARGET [NAME]
#                                           minimizes CRASH into Fuzz/TARGET/crashes/NAME, which
#                                           every smoke run and the unit tests then replay
#   scripts/fuzz.sh mutators TARGET SECONDS the HLS target twice from its seeds, with libFuzzer's byte
#                                           mutator and with the structure-aware one
#                                           (Fuzz/HLSFuzzMutator): new coverage per million runs
#   scripts/fuzz.sh coverage [TARGET...]    replays each target's corpus in a build instrumented
#                                           for source coverage (scratch path .build-coverage);
#                                           prints llvm-cov's summary of the module each target
#                                           fuzzes and writes HTML to Fuzz/coverage/MODULE/
# Targets live in Fuzz/<name>/: <name>.swift, seeds/, optional <name>.dict and crashes/.
# The HLS targets also read the shared real-world playlist corpus, ../shared/corpus/hls, when it
# exists (read in place, never copied; new inputs go to the first folder only).
# CRASH files are the ones libFuzzer writes, Fuzz/artifacts/TARGET-crash-<sha1> and the like.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
coverage_scratch=.build-coverage
# llvm-profdata and llvm-cov must read the profile format of the compiler that wrote it.
toolchain_bin=$(dirname "$(readlink -f "$(command -v swift)")")

targets() {
    for dir in Fuzz/*/; do
        name=$(basename "$dir")
        # Folders without <name>.swift (the mutator's module, corpora, artifacts) are no targets.
        if [ -f "$dir/$name.swift" ]; then echo "$name"; fi
    done
}

build() {
    SPARSECACHE_FUZZ=1 swift build -c debug --scratch-path "$scratch" \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address "$@" >&2
}

# The module a target fuzzes, from the fuzzTargets list in Package.swift.
module_of() {
    sed -n "s/^ *(\"$1\", \"\([A-Za-z]*\)\"),.*/\1/p" Package.swift | head -1
}

# The source folder of a module: Sources/MODULE, or the `path:` Package.swift gives it.
sources_of() {
    local module=$1
    if [ -d "Sources/$module" ]; then echo "Sources/$module"; return; fi
    awk -v name="name: \"$module\"," 'index($0, name) { found = 1; next }
        found && /path:/ { sub(/.*path: "/, ""); sub(/".*/, ""); print; exit }' Package.swift
}

# The folders a target reads: its working corpus first (where libFuzzer writes new inputs), then
# the rest it only reads.
corpus_dirs() {
    local name=$1 first=$2
    local dirs=("$first")
    [ -d "Fuzz/corpus/$name" ] && [ "$first" != "Fuzz/corpus/$name" ] && dirs+=("Fuzz/corpus/$name")
    dirs+=("Fuzz/$name/seeds")
    [ -d "Fuzz/$name/crashes" ] && dirs+=("Fuzz/$name/crashes")
    [[ $name == FuzzHLS* ]] && [ -d ../shared/corpus/hls ] && dirs+=(../shared/corpus/hls)
    printf '%s\n' "${dirs[@]}"
}

dict_flag() {
    [ -f "Fuzz/$1/$1.dict" ] && echo "-dict=Fuzz/$1/$1.dict"
    return 0
}

# SWIFT_BACKTRACE=enable=no: the Swift backtracer would swallow the crash, and no crash file
# would be written. Leak detection is off: the Swift runtime's caches look like leaks.
fuzzer() {
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$@"
}

run_target() {
    local name=$1 seconds=$2; shift 2
    # A smoke run's new inputs go to a folder of its own (FUZZ_WORK_ROOT), so that it reads what
    # is committed, as on a clean clone: read from Fuzz/corpus-work, they would grow with every
    # run until loading them took the whole time.
    local work=${FUZZ_WORK_ROOT:-Fuzz/corpus-work}/$name
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

# One target's share of a campaign: fuzz from its minimal corpus, new inputs into a fresh folder.
campaign_target() {
    local name=$1 seconds=$2 new=$3 log=$4
    mkdir -p "$new"
    local dirs
    mapfile -t dirs < <(corpus_dirs "$name" "$new")
    [ -d "Fuzz/corpus-work/$name" ] && dirs+=("Fuzz/corpus-work/$name")
    local dict
    dict=$(dict_flag "$name")
    set +e
    # libFuzzer's -timeout is wall-clock time: under `nice -n 19` on a busy machine a 30 ms input
    # can wait 10 s for a core (seen: a 2.6 KB MPD "timed out" at 13 s and replays in 0.3 s), so a
    # niced campaign may ask for more with FUZZ_TIMEOUT=SECONDS (inputs over 10 s are still
    # written as slow units, listed below the table).
    fuzzer "$scratch/debug/$name" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="${FUZZ_TIMEOUT:-10}" \
        -print_final_stats=1 -artifact_prefix=Fuzz/artifacts/"$name"- ${dict:+"$dict"} "${dirs[@]}" >"$log" 2>&1
    echo $? >"$log.status"
    set -e
}

# Merges the corpus, the campaign's new inputs, earlier `run` inputs, seeds and kept crashes into
# a fresh minimal corpus that replaces Fuzz/corpus/TARGET (the shared corpus is never copied).
merge_corpus() {
    local name=$1 new=$2 log=$3
    local next=Fuzz/corpus/$name.next
    # libFuzzer resumes a merge from an existing control file: a stale one, left by the last
    # campaign, would count files of this merge as processed with that merge's results.
    local control=Fuzz/artifacts/$name.merge-control
    rm -rf "$next" "$control"; mkdir -p "$next" "Fuzz/corpus/$name"
    local inputs=("Fuzz/corpus/$name" "$new" "Fuzz/$name/seeds")
    [ -d "Fuzz/$name/crashes" ] && inputs+=("Fuzz/$name/crashes")
    [ -d "Fuzz/corpus-work/$name" ] && inputs+=("Fuzz/corpus-work/$name")
    if fuzzer "$scratch/debug/$name" -merge=1 -rss_limit_mb=2048 -timeout=10 \
            -merge_control_file="$control" "$next" "${inputs[@]}" >"$log" 2>&1; then
        rm -rf "Fuzz/corpus/$name" "$control"; mv "$next" "Fuzz/corpus/$name"
    else
        rm -rf "$next"; echo "fuzz: merging $name's corpus failed, kept the old one (see $log)" >&2
        return 1
    fi
}

# The figures of one target's campaign, from its log: executions, exec/s, cov, ft.
summary_line() {
    local name=$1 log=$2 corpus=$3 crashes=$4
    local runs rate cov ft
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    local last
    last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    printf '%-24s %12s %8s %7s %8s %7s %8s\n' "$name" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
}

campaign() {
    local minutes=60 jobs=1 names=()
    while [ $# -gt 0 ]; do
        case $1 in
            --minutes) minutes=${2:?--minutes N}; shift 2 ;;
            --jobs) jobs=${2:?--jobs N}; shift 2 ;;
            -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
            *) names+=("$1"); shift ;;
        esac
    done
    [ ${#names[@]} -eq 0 ] && mapfile -t names < <(targets)
    [[ $minutes =~ ^[0-9]+$ && $minutes -ge 1 && $jobs =~ ^[0-9]+$ && $jobs -ge 1 ]] ||
        { echo "fuzz: --minutes and --jobs are whole numbers from 1" >&2; exit 2; }
    for name in "${names[@]}"; do
        [ -f "Fuzz/$name/$name.swift" ] || { echo "fuzz: no target $name" >&2; exit 2; }
    done
    # Each target gets an even share of minutes x jobs core-minutes, never more than the
    # wall-clock budget (one target uses one core).
    local count=${#names[@]}
    local seconds=$(( minutes * 60 * jobs / count ))
    (( seconds > minutes * 60 )) && seconds=$(( minutes * 60 ))
    (( seconds < 1 )) && seconds=1
    for name in "${names[@]}"; do build --product "$name"; done

    local stamp
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    local root=Fuzz/artifacts/campaign-$stamp
    mkdir -p "$root" Fuzz/corpus
    touch "$root/started"
    echo "fuzz: campaign $stamp: ${count} targets, ${seconds} s each, ${jobs} at a time; logs in $root" >&2
    local running=0
    for name in "${names[@]}"; do
        if (( running >= jobs )); then wait -n || true; running=$((running - 1)); fi
        echo "fuzz: $(date -u +%H:%M:%S) $name for $seconds s" >&2
        campaign_target "$name" "$seconds" "$root/$name.new" "$root/$name.log" &
        running=$((running + 1))
    done
    wait

    local failed=0 summary=$root/summary.txt
    printf '%-24s %12s %8s %7s %8s %7s %8s\n' target executions exec/s cov ft corpus crashes >"$summary"
    for name in "${names[@]}"; do
        merge_corpus "$name" "$root/$name.new" "$root/$name.merge.log" || failed=1
        local crashes corpus
        crashes=$(find Fuzz/artifacts -maxdepth 1 -newer "$root/started" \
            \( -name "$name-crash-*" -o -name "$name-leak-*" -o -name "$name-timeout-*" -o -name "$name-oom-*" \) | wc -l)
        corpus=$(find "Fuzz/corpus/$name" -type f | wc -l)
        summary_line "$name" "$root/$name.log" "$corpus" "$crashes" >>"$summary"
        if grep -q "Is the code instrumented for coverage" "$root/$name.log"; then
            echo "fuzz: $name is not instrumented for coverage" >&2; failed=1
        fi
        if [ "$crashes" -gt 0 ] || [ "$(cat "$root/$name.log.status")" != 0 ]; then
            find Fuzz/artifacts -maxdepth 1 -newer "$root/started" -name "$name-*-*" | sed 's/^/    /' >>"$summary"
            failed=1
        else
            find Fuzz/artifacts -maxdepth 1 -newer "$root/started" -name "$name-slow-unit-*" | sed 's/^/    slow (replay it alone): /' >>"$summary"
        fi
    done
    cat "$summary"
    [ $failed = 0 ] || {
        echo "fuzz: campaign found crashes or failed; keep each with: $0 keep CRASH TARGET" >&2; return 1; }
}

# The target a crash file belongs to, from libFuzzer's name for it (TARGET-crash-<sha1>).
target_of_crash() {
    local base
    base=$(basename "$1")
    for name in $(targets); do
        [[ $base == "$name"-* ]] && { echo "$name"; return; }
    done
    return 1
}

minimize() {
    local crash=${1:?crash file} name=${2:-}
    [ -f "$crash" ] || { echo "fuzz: no file $crash" >&2; exit 2; }
    [ -n "$name" ] || name=$(target_of_crash "$crash") ||
        { echo "fuzz: name the target: $0 minimize CRASH TARGET" >&2; exit 2; }
    build --product "$name"
    local log=Fuzz/artifacts/$name.minimize.log
    mkdir -p Fuzz/artifacts
    rm -f "$crash.min"
    # One run first: libFuzzer's minimizer runs an input that does not crash (a crash already
    # fixed) 100,000 times before it gives up, a quarter of an hour for the HLS session target.
    if fuzzer "$scratch/debug/$name" -runs=1 "$crash" >"$log" 2>&1; then
        echo "fuzz: $crash did not crash $name (already fixed?), nothing minimized; see $log" >&2
        return 1
    fi
    fuzzer "$scratch/debug/$name" -minimize_crash=1 -max_total_time=120 -runs=100000 -timeout=10 \
        -rss_limit_mb=2048 -exact_artifact_path="$crash.min" "$crash" >"$log" 2>&1 || true
    if [ ! -s "$crash.min" ]; then
        tail -20 "$log" >&2
        echo "fuzz: $crash did not crash $name (already fixed?), nothing minimized; see $log" >&2
        return 1
    fi
    echo "fuzz: $crash ($(wc -c <"$crash") bytes) minimized to $crash.min ($(wc -c <"$crash.min") bytes)" >&2
}

keep() {
    local crash=${1:?crash file} name=${2:?target} kept=${3:-}
    [ -f "Fuzz/$name/$name.swift" ] || { echo "fuzz: no target $name" >&2; exit 2; }
    [ -n "$kept" ] || kept=$(basename "$crash" | sed "s/^$name-//")
    mkdir -p "Fuzz/$name/crashes"
    local source=$crash
    # A crash that no longer crashes (fixed before it was kept) is kept as it is.
    if minimize "$crash" "$name"; then source=$crash.min; fi
    cp "$source" "Fuzz/$name/crashes/$kept"
    echo "fuzz: kept Fuzz/$name/crashes/$kept; every smoke run replays it, as does the unit test of" \
        "its target's property (Docs/FUZZING.md); commit it with the fix" >&2
}

coverage() {
    local names=("$@")
    [ ${#names[@]} -eq 0 ] && mapfile -t names < <(targets)
    local profiles=Fuzz/artifacts/coverage
    rm -rf "$profiles"; mkdir -p "$profiles"
    # Modules in the order first named, each with the binaries of its targets.
    local modules=() module
    declare -A objects=()
    for name in "${names[@]}"; do
        [ -f "Fuzz/$name/$name.swift" ] || { echo "fuzz: no target $name" >&2; exit 2; }
        module=$(module_of "$name")
        [ -n "$module" ] || { echo "fuzz: $name is not in Package.swift's fuzzTargets" >&2; exit 2; }
        # libFuzzer's main is still needed (the targets have none); the profile comes from
        # -profile-generate, without ASan, whose checks change no line covered.
        SPARSECACHE_FUZZ=1 swift build -c debug --scratch-path "$coverage_scratch" --product "$name" \
            --sanitize=fuzzer -Xswiftc -sanitize=fuzzer \
            -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping >&2
        local dirs=()
        mapfile -t dirs < <(corpus_dirs "$name" "Fuzz/corpus/$name")
        [ -d "Fuzz/corpus/$name" ] || dirs=("${dirs[@]:1}")
        [ -d "Fuzz/corpus-work/$name" ] && dirs+=("Fuzz/corpus-work/$name")
        # -runs=0: every input of the corpus once, nothing new.
        SWIFT_BACKTRACE=enable=no LLVM_PROFILE_FILE="$profiles/$module-$name-%p.profraw" \
            "$coverage_scratch/debug/$name" -runs=0 -rss_limit_mb=2048 -timeout=30 "${dirs[@]}" \
            >"$profiles/$name.log" 2>&1 || { tail -20 "$profiles/$name.log" >&2; echo "fuzz: replaying $name's corpus failed" >&2; exit 1; }
        echo "fuzz: $name: $(grep -E 'INITED|DONE' "$profiles/$name.log" | tail -1)" >&2
        [[ " ${modules[*]} " == *" $module "* ]] || modules+=("$module")
        objects[$module]+=" $coverage_scratch/debug/$name"
    done
    for module in "${modules[@]}"; do
        local profile=$profiles/$module.profdata sources bins first
        sources=$(sources_of "$module")
        "$toolchain_bin/llvm-profdata" merge -sparse "$profiles/$module"-*.profraw -o "$profile"
        read -ra bins <<<"${objects[$module]}"
        first=${bins[0]}
        local extra=()
        for bin in "${bins[@]:1}"; do extra+=(-object "$bin"); done
        echo "== $module ($sources) over ${bins[*]##*/}"
        "$toolchain_bin/llvm-cov" report "$first" "${extra[@]}" -instr-profile="$profile" "$sources" \
            | tee "$profiles/$module.report.txt"
        folder_summary "$profiles/$module.report.txt" "$sources"
        rm -rf "Fuzz/coverage/$module"
        "$toolchain_bin/llvm-cov" show "$first" "${extra[@]}" -instr-profile="$profile" -format=html \
            -show-line-counts-or-regions -output-dir="Fuzz/coverage/$module" "$sources"
        echo "HTML: Fuzz/coverage/$module/index.html"
    done
}

# The same target from the same seeds for the same time, once with libFuzzer's byte mutations
# only (SPARSECACHE_FUZZ_MUTATOR=bytes) and once with the structure-aware mutator: the features
# (`ft`) and edges (`cov`) each added to what the seeds reach, and per million executions.
mutators() {
    local name=${1:?target} seconds=${2:?seconds}
    [[ $name == FuzzHLS* ]] || { echo "fuzz: the structure-aware mutator is linked into the HLS targets only" >&2; exit 2; }
    build --product "$name"
    local root=Fuzz/artifacts/mutators-$name-$(date -u +%Y%m%dT%H%M%SZ)
    local dict
    dict=$(dict_flag "$name")
    mkdir -p "$root"
    printf '%-10s %12s %8s %14s %14s %18s\n' mutator executions exec/s "cov (new)" "ft (new)" "new ft / M runs"
    for mode in bytes structure; do
        mkdir -p "$root/$mode"
        SPARSECACHE_FUZZ_MUTATOR=$mode fuzzer "$scratch/debug/$name" -max_total_time="$seconds" -rss_limit_mb=2048 \
            -timeout=10 -print_final_stats=1 -artifact_prefix="$root/$mode-" ${dict:+"$dict"} \
            "$root/$mode" "Fuzz/$name/seeds" >"$root/$mode.log" 2>&1 || echo "fuzz: the $mode run ended early, see $root/$mode.log" >&2
        awk -v mode="$mode" '
            /INITED/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") cov0 = $(i + 1); if ($i == "ft:") ft0 = $(i + 1) } }
            /^#[0-9]+[ \t]/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1) } }
            /^stat::number_of_executed_units:/ { runs = $2 }
            /^stat::average_exec_per_sec:/ { rate = $2 }
            END {
                printf "%-10s %12d %8d %7d (+%d) %7d (+%d) %18.0f\n", mode, runs, rate, cov, cov - cov0, ft, ft - ft0,
                    runs ? (ft - ft0) * 1e6 / runs : 0
            }' "$root/$mode.log"
    done | tee "$root/summary.txt"
}

# Line and region coverage per folder, summed from llvm-cov's per-file report.
folder_summary() {
    local report=$1 sources=$2
    echo "-- by folder"
    printf '%-28s %16s %16s\n' folder lines regions
    awk -v root="$(pwd)/" -v sources="$sources/" '
        $1 ~ /\.swift$/ && NF >= 13 {
            file = $1; sub(root, "", file); sub("^" sources, "", file)
            folder = file; if (!sub(/\/[^\/]*$/, "", folder)) folder = "."
            regions[folder] += $2; missedRegions[folder] += $3
            lines[folder] += $8; missedLines[folder] += $9
        }
        END {
            for (f in lines) {
                printf "%-28s %6.2f%% %9s %6.2f%% %9s\n", sources f,
                    lines[f] ? 100 * (lines[f] - missedLines[f]) / lines[f] : 100, (lines[f] - missedLines[f]) "/" lines[f],
                    regions[f] ? 100 * (regions[f] - missedRegions[f]) / regions[f] : 100, (regions[f] - missedRegions[f]) "/" regions[f]
            }
        }' "$report" | sort
}

case "${1:-smoke}" in
    list) targets ;;
    smoke)
        seconds=${2:-5}
        # One build for all: a fuzz build's package holds the fuzz targets and what they fuzz.
        build
        FUZZ_WORK_ROOT=$(mktemp -d)
        export FUZZ_WORK_ROOT
        trap 'rm -rf "$FUZZ_WORK_ROOT"' EXIT
        for name in $(targets); do run_target "$name" "$seconds"; done
        ;;
    run)
        name=${2:?target}; seconds=${3:?seconds}; shift 3
        build --product "$name"
        run_target "$name" "$seconds" -print_final_stats=1 "$@"
        ;;
    campaign) shift; campaign "$@" ;;
    minimize) shift; minimize "$@" ;;
    keep) shift; keep "$@" ;;
    coverage) shift; coverage "$@" ;;
    mutators) shift; mutators "$@" ;;
    *) echo "usage: $0 list | smoke [SECONDS] | run TARGET SECONDS [flags] | campaign [--minutes N] [--jobs N] [TARGET...]" \
            "| minimize CRASH [TARGET] | keep CRASH TARGET [NAME] | coverage [TARGET...] | mutators TARGET SECONDS" >&2; exit 2 ;;
esac
