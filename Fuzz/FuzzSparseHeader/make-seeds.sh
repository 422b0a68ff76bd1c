#!/usr/bin/env bash
# Regenerates seeds/ for FuzzSparseHeader: real cache files made with the CLI, cut down to
# the compact image the target expects (header slots, first checksum page, data space).
# Usage: Fuzz/FuzzSparseHeader/make-seeds.sh [path/to/sparsecache]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tool=${1:-$here/../../.build/debug/sparsecache}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 3000 /dev/urandom > "$work/small"
head -c 70000 /dev/urandom > "$work/large"
"$tool" file write "$work/empty" --offset 0 --key "https://example.com/empty" < /dev/null
"$tool" file write "$work/one-range" --offset 0 --key k --total-length 3000 < "$work/small"
"$tool" file write "$work/two-ranges" --offset 100 --key "https://cdn.example/v/seg.ts" < "$work/small"
"$tool" file write "$work/two-ranges" --offset 9000 < "$work/small"
"$tool" file write "$work/full-blocks" --offset 0 --key big --commit-interval 30000 < "$work/large"
long_key="https://o.example/$(head -c 3960 /dev/zero | tr '\0' q)"
for i in $(seq 0 30); do
    head -c 17 "$work/small" | "$tool" file write "$work/spilled" --offset $((i * 1000)) --key "$long_key"
done
rm -rf "$here/seeds" && mkdir "$here/seeds"
for file in empty one-range two-ranges full-blocks spilled; do
    python3 - "$work/$file" "$here/seeds/$file" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
image = data[:8192].ljust(8192, b'\0') + data[2 << 20:(2 << 20) + 4096].ljust(4096, b'\0') + data[4 << 20:]
open(sys.argv[2], 'wb').write(image)
PY
done
ls -l "$here/seeds"
