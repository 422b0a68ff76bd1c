#!/usr/bin/env bash
# End to end: the Hummingbird example (Examples/hummingbird-cache), a second caching proxy built
# on CacheStore's public API alone (issue 33). Builds the example package, which depends on this
# one by path, in its own scratch folder (Examples/hummingbird-cache/.build, gitignored) and runs
# its tests: a real origin and the proxy on 127.0.0.1, a real store in a temporary folder.
# Passes only when every test ran and passed: none may fail or be skipped, and a run that ran
# no test fails. A first build takes several minutes (Hummingbird, AsyncHTTPClient).
# Ends with "N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
example=Examples/hummingbird-cache
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

echo "== e2e-hummingbird-example: building $example" >&2
if ! swift build --package-path "$example" --build-tests; then
    echo "e2e-hummingbird-example: FAILED: the example did not build" >&2
    exit 1
fi
swift test --package-path "$example" --skip-build --xunit-output "$report/tests.xml"
status=$?
read -r passed failed skipped < <(python3 - "$report" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
passed = failed = skipped = 0
for path in glob.glob(f"{sys.argv[1]}/tests*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            print(f"e2e-hummingbird-example: failed: {case.get('classname')}.{case.get('name')}", file=sys.stderr)
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
print(passed, failed, skipped)
PY
)
echo "e2e-hummingbird-example: ${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped" >&2
# A crash shows in the exit status even when the report has no failure in it.
[ "$status" -eq 0 ] && [ "${failed:-1}" -eq 0 ] && [ "${skipped:-1}" -eq 0 ] && [ "${passed:-0}" -gt 0 ]
