#!/usr/bin/env bash
# Builds the release `sparsecache` and prints its path. Every script that wants a release
# build uses this, so that they all share one build (a change of flags rebuilds everything).
#
# On Linux the executable is linked to be small in memory (Docs/BENCHMARKS.md, "Resident
# memory"), each step measured on the proxy's resident set (the first with 64 clients, the
# others idle):
# - the Swift runtime and Foundation linked in (--static-swift-stdlib): 2.4 MiB less than with
#   them loaded as shared libraries, and the binary runs without the toolchain;
# - linked by lld with relative relocations packed (DT_RELR, glibc 2.36 and later): the
#   loader no longer reads 2.8 MiB of relocation records at start, 4 MiB less;
# - no symbol exported to the dynamic symbol table (the runtime's link arguments export all
#   of them, for libraries loaded at run time, which this executable never loads): 1.5 MiB less.
#
# Swift's run-time exclusivity checks are left out of the release build, as the server
# frameworks' own benchmark builds leave them out: most of them are SwiftNIO's (its channel's
# lifecycle, selector and pending writes, a dozen per request), and they were 16 % of the
# instructions a cache hit costs in user space (callgrind: 29,534 -> 24,811 per 64 KiB range).
# Debug builds, which every test and fuzz run uses, keep them, and the compiler's static checks
# stay in force everywhere.
#
# TRAITS=OptimizeForSize (package traits, comma-separated) builds with them, to measure what a
# trait costs in speed; it rebuilds everything, like any change of flags.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product sparsecache -Xswiftc -enforce-exclusivity=unchecked)
[ -n "${TRAITS:-}" ] && flags+=(--traits "$TRAITS")
if [ "$(uname -s)" = Linux ]; then
    flags+=(--static-swift-stdlib)
    # Toolchains since Swift 5.9 ship lld beside swift; without it the default linker does.
    toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
    if [ -x "$toolchain/ld.lld" ] || command -v ld.lld >/dev/null 2>&1; then
        flags+=(-Xswiftc -use-ld=lld -Xlinker --no-export-dynamic)
        # getconf prints "glibc 2.36"; older loaders refuse an executable with packed relocations.
        glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
        if [ -n "$glibc" ] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
            flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
        fi
    fi
fi
swift build "${flags[@]}" >&2
echo "$(swift build -c release --show-bin-path)/sparsecache"
