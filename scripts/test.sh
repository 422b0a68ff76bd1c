#!/usr/bin/env bash
# Runs every test: unit and integration tests, a libFuzzer smoke run of every fuzz target over
# its committed seeds, and the end-to-end scripts. Installs what the tests need first.
#
# Skips: a script that cannot run here (a tool it drives is missing) exits 77, the automake and
# meson convention for "skipped" (Benchmarks/proxy/common.sh: SKIPPED_STATUS); a Swift test that
# is disabled reports itself skipped. A skip fails the run, as a failure would, unless the test
# is optional by design or ALLOW_SKIPS=1 is set (a machine known to lack the tools): a run that
# says "passed" ran everything it could. Optional by design: the scripts listed in `optional`
# below (none is), and the Swift tests that read the shared playlist corpus
# (`../shared/corpus/hls`), which comes from other projects and is never part of the repository:
# they skip, saying "shared corpus not found", where a checkout has no such folder beside it. The last line counts the
# passed, failed and skipped tests (Swift tests, fuzz smoke targets, end-to-end scripts).
#
# Environment: FUZZ_SECONDS (per fuzz target, default 5), ALLOW_SKIPS.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh test || { echo "== test: could not install what the tests need" >&2; exit 1; }

# End-to-end scripts allowed to skip (by name, e.g. e2e-proxy.sh).
optional=()
skipped_status=77

passed=0
failed=0
skipped=0
# What makes the run fail: failed tests, and skipped ones that are not optional.
failures=()
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# skip_fails NAME: whether a skip of NAME fails the run.
skip_fails() {
    [ "${ALLOW_SKIPS:-0}" != 1 ] && [[ " ${optional[*]} " != *" $1 "* ]]
}

# record NAME STATUS: counts one test that ran outside Swift's runner (0 passed, 77 skipped).
record() {
    case "$2" in
        0) passed=$((passed + 1)) ;;
        "$skipped_status")
            skipped=$((skipped + 1))
            if skip_fails "$1"; then failures+=("$1 (skipped, not optional)"); fi
            ;;
        *) failed=$((failed + 1)); failures+=("$1") ;;
    esac
}

# swift_tests NAME ARGS...: runs `swift test ARGS` and counts its tests from the xUnit report.
swift_tests() {
    local name=$1; shift
    local report="$results/$name.xml"
    swift test --skip-build --xunit-output "$report" "$@"
    local status=$?
    local counts
    counts=$(python3 - "$results" "$name" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
passed = failed = skipped = optional = 0
for path in glob.glob(f"{sys.argv[1]}/{sys.argv[2]}*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        skip = case.find("skipped")
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            failed += 1
            # The names and why they failed reach the last lines, which are all a truncated CI
            # log keeps.
            why = " ".join((problem.get("message") or problem.text or "").split())[:300]
            with open(f"{sys.argv[1]}/{sys.argv[2]}.failed", "a") as names:
                names.write(f"{case.get('classname')}.{case.get('name')}: {why}\n")
        elif skip is not None:
            skipped += 1
            optional += (skip.text or "").startswith("shared corpus not found")
        else:
            passed += 1
print(passed, failed, skipped, optional)
PY
)
    read -r p f s o <<<"${counts:-0 0 0 0}"
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    if [ $((s - o)) -gt 0 ] && skip_fails "swift"; then failures+=("$((s - o)) Swift test(s) skipped in $name"); fi
    # A crash or a failed run that the report does not show still fails the group.
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); failures+=("swift test $name (exit $status)"); fi
    if [ "$f" -gt 0 ]; then
        failures+=("$f Swift test(s) in $name:")
        while IFS= read -r line; do failures+=("  $line"); done < <(sort -u "$results/$name.failed" 2>/dev/null)
    fi
    if [ $((p + f + s)) -eq 0 ]; then failed=$((failed + 1)); failures+=("swift test $name ran no test"); fi
}

# How long each part took, printed at the end: the suite's budget is minutes, and a part that
# grows shows there first.
durations=()
part_name=""
part_started=$SECONDS
part() {
    [ -n "$part_name" ] && durations+=("$part_name $((SECONDS - part_started)) s")
    part_name=$1
    part_started=$SECONDS
    [ -n "$part_name" ] && echo "== $part_name" >&2
}

part build
swift build --build-tests || { echo "== test: the build failed" >&2; exit 1; }
# The command-line tests run the executable this build made, wherever its scratch path is.
SPARSECACHE_BINARY="$(swift build --show-bin-path)/sparsecache"
export SPARSECACHE_BINARY

part "swift test"
# The proxy's tests wait on the cooperative thread pool, which the file-level crash tests keep
# busy with blocking work (killing hundreds of writer processes); on two cores they would starve
# each other, so the two groups run one after the other.
# The origin-client contract runs its origin in the test process, as the proxy's tests do: beside
# the crash tests its heads came after 15 and 30 s timeouts, so it has its own group too.
# Swift Testing starts every test of a group at once unless told otherwise: 442 proxy tests, each
# with its own origin, proxy and deadlines, on two cores. Under a second load (a CI neighbour; two
# busy loops here) 12 of them missed their deadlines in one run; 8 at a time, none did (110 s;
# 4 at a time, none in 121 s), and on a quiet machine the group took 61 s against 68.
# The option is Swift Testing's (Swift 6.3, which the README names); a toolchain without it runs
# the groups unbounded, and says so.
width=(--experimental-maximum-parallelization-width 8)
if ! swift test --skip-build --filter '^$' "${width[@]}" >/dev/null 2>&1; then
    echo "== this toolchain cannot bound how many tests run at once: the proxy tests run all at once" >&2
    width=()
fi
swift_tests others --skip CacheProxyTests --skip OriginClientTests
swift_tests proxy --filter CacheProxyTests ${width[@]+"${width[@]}"}
swift_tests origin-clients --filter OriginClientTests ${width[@]+"${width[@]}"}

part "fuzz smoke"
# Over what is committed, as on a clean clone: new inputs go to a folder removed afterwards
# (inside the results folder, which the exit trap removes however the run ends).
FUZZ_WORK_ROOT=$results/fuzz-work
mkdir -p "$FUZZ_WORK_ROOT"
export FUZZ_WORK_ROOT
for target in $(./scripts/fuzz.sh list); do
    ./scripts/fuzz.sh run "$target" "${FUZZ_SECONDS:-5}" >/dev/null
    status=$?
    # libFuzzer's verdict line reaches the last lines, which are all a truncated CI log keeps.
    why=""
    [ $status -ne 0 ] && why=$(grep -m1 -E '^(==[0-9]+== ?ERROR|SUMMARY|Fatal error|.*deadly signal|.*-timeout)' "Fuzz/artifacts/$target.log" 2>/dev/null)
    record "$target${why:+ ($why)}" $status
done
rm -rf "$FUZZ_WORK_ROOT"
unset FUZZ_WORK_ROOT

for e2e in scripts/e2e-*.sh; do
    [ -e "$e2e" ] || continue
    part "$e2e"
    "$e2e"
    # Taken before any other expansion: a command substitution in the same command line (the
    # script's name) would reset $? to its own status, and every e2e script would count as passed.
    status=$?
    record "$(basename "$e2e")" "$status"
done

part ""
echo "== time: $SECONDS s in all; $(IFS=,; echo "${durations[*]}" | sed 's/,/, /g')" >&2
if [ ${#failures[@]} -gt 0 ]; then
    printf '== failed: %s\n' "${failures[@]}" >&2
    [ "$skipped" -gt 0 ] && echo "== (ALLOW_SKIPS=1 lets skips pass on a machine known to lack the tools)" >&2
fi
if [ ${#failures[@]} -eq 0 ]; then verdict="all tests passed"; else verdict="TESTS FAILED"; fi
echo "== $verdict: $passed passed, $failed failed, $skipped skipped" >&2
[ ${#failures[@]} -eq 0 ]
