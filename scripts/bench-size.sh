#!/usr/bin/env bash
# What an app pays in size for linking the proxy: builds, in release, a minimal executable that
# depends on one product of this package (PRODUCT, default CacheProxy), starts its proxy on a
# free port and prints a proxied URL; then prints the objects of its build graph per module
# (text + data of every object file, before the linker's dead stripping: what an app's build
# compiles and can at best strip) and in total, and the stripped executable, built with the
# Swift runtime and Foundation as shared libraries (they come with the system on Apple
# platforms and are not counted).
#
#   scripts/bench-size.sh                 the CacheProxy product (origins through URLSession)
#   PRODUCT=CacheProxyServer scripts/bench-size.sh
#   OPTIMIZE=size scripts/bench-size.sh   everything built with -Osize, dependencies too (which
#                                         an app cannot ask of a package; a bound, not a choice)
#   TRAITS=OptimizeForSize scripts/bench-size.sh
#                                         SparseCache with these package traits (comma-separated)
#                                         instead of its default (DASH): OptimizeForSize builds its
#                                         own modules with -Osize, DASH keeps DASH's support, and
#                                         TRAITS=none is no trait at all
#
# The modules counted are those whose objects the linker was given (the product's link file
# list), so a module left in .build-size by an earlier build of another graph is not counted.
#
# Goals (issue 33, for the CacheProxy product only): none of the server-only modules below in
# its build graph, and its objects <= 6 MB (MAX_OBJECT_MB). Exits 1 when one is missed or when
# the executable does not print a proxied URL. The build lives in .build-size (never committed);
# the first one compiles every dependency in release and takes a long time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
product=${PRODUCT:-CacheProxy}
max_mb=${MAX_OBJECT_MB:-6}
optimize=${OPTIMIZE:-speed}
case $product in
    CacheProxy) imports="import CacheProxyURLSession"; configuration=app; products=(CacheProxy) ;;
    CacheProxyServer) imports="import CacheProxyServer"; configuration=server; products=(CacheProxy CacheProxyServer) ;;
    *) echo "bench-size: PRODUCT is CacheProxy or CacheProxyServer" >&2; exit 2 ;;
esac
case $optimize in
    speed) flags=() ;;
    size) flags=(-Xswiftc -Osize) ;;
    *) echo "bench-size: OPTIMIZE is speed or size" >&2; exit 2 ;;
esac
server_only=(AsyncHTTPClient NIOSSL NIOHTTP2 Prometheus ServiceLifecycle AsyncAlgorithms Configuration)
traits=${TRAITS:-}
trait_list=""
case $traits in
    "") ;;
    none) trait_list=", traits: []" ;;
    *) trait_list=", traits: [$(printf '"%s", ' ${traits//,/ })]" ;;
esac
work=$root/.build-size/$product$([ "$optimize" = speed ] || echo "-$optimize")$([ -z "$traits" ] || echo "-${traits//,/-}")
mkdir -p "$work/Sources/minimal"

cat >"$work/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "minimal",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SparseCache", path: "$root"$trait_list)],
    targets: [
        .executableTarget(
            name: "minimal",
            dependencies: [$(printf '.product(name: "%s", package: "SparseCache"), ' "${products[@]}")
                .product(name: "CacheStore", package: "SparseCache"),
            ]
        ),
    ]
)
EOF
cat >"$work/Sources/minimal/main.swift" <<EOF
import CacheProxy
$imports
import CacheStore

// The smallest app that uses the proxy: open a store, start the proxy, print a URL for the player.
let directory = CommandLine.arguments.dropFirst().first ?? "minimal-cache"
let store = try CacheStore.open(at: directory)
var configuration = CacheProxyConfiguration.$configuration
configuration.port = 0
let proxy = try CacheProxy(store: store, configuration: configuration)
try await proxy.start()
print(proxy.proxyURL(for: "https://example.com/video/master.m3u8"))
proxy.shutdown()
try store.close()
EOF

echo "bench-size: building the minimal executable on $product in release, optimized for $optimize, traits: ${traits:-default} (${work#"$root"/})" >&2
(cd "$work" && swift build -c release ${flags[@]+"${flags[@]}"} --product minimal >"$work/build.log" 2>&1) || {
    tail -30 "$work/build.log" >&2
    exit 1
}
binary=$work/.build/release/minimal
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
printed=$("$binary" "$cache/store")
echo "it prints: $printed"
case $printed in
    http://127.0.0.1:*/proxy\?url=*) ;;
    *) echo "bench-size: the executable did not print a proxied URL" >&2; exit 1 ;;
esac

# Objects per module: the objects the executable was linked from, by the module directory each
# is in.
link_list=$work/.build/release/minimal.product/Objects.LinkFileList
[ -f "$link_list" ] || { echo "bench-size: no link file list at $link_list" >&2; exit 1; }
printf '%-34s %12s\n' module "text+data"
total=0
declare -A modules=()
while read -r module; do
    [ "$module" = minimal ] && continue
    mapfile -t objects < <(tr -d "'\"" <"$link_list" | grep "/$module.build/")
    bytes=$(size --format=berkeley "${objects[@]}" | awk 'NR > 1 { sum += $1 + $2 } END { print sum + 0 }')
    modules[$module]=$bytes
    total=$((total + bytes))
done < <(tr -d "'\"" <"$link_list" | sed -n 's|.*/\([^/]*\)\.build/.*|\1|p' | sort -u)
for module in "${!modules[@]}"; do printf '%-34s %12d\n' "$module" "${modules[$module]}"; done | sort -k2 -n -r
printf '%-34s %12d  (%.1f MB)\n' total "$total" "$(echo "$total / 1000000" | bc -l)"
strip -o "$work/minimal.stripped" "$binary"
stripped=$(stat -c %s "$work/minimal.stripped")
printf 'stripped executable (Swift runtime and Foundation shared): %d bytes (%.1f MB)\n' "$stripped" "$(echo "$stripped / 1000000" | bc -l)"

[ "$product" = CacheProxy ] || exit 0
failed=0
for module in "${server_only[@]}"; do
    if [ -n "${modules[$module]:-}" ]; then
        echo "goal missed: $module is in the build graph of the CacheProxy product" >&2
        failed=1
    fi
done
if [ "$total" -gt $((max_mb * 1000000)) ]; then
    echo "goal missed: the objects add up to $total bytes, over $max_mb MB" >&2
    failed=1
fi
[ "$failed" = 0 ] && echo "goals met: no server-only module, objects <= $max_mb MB"
exit "$failed"
