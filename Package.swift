// swift-tools-version: 6.2
import Foundation
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The modules an app links through the CacheProxy product. With the `OptimizeForSize` trait
/// they are built for size in release. A package cannot set its dependencies' flags, so this
/// trait is the only way an app can choose size for them. Tools 6.2 lets a versioned dependency
/// carry the flag.
let appModuleSwift: [SwiftSetting] = strictSwift + [
    .unsafeFlags(["-Osize"], .when(configuration: .release, traits: ["OptimizeForSize"])),
]

let package = Package(
    name: "SparseCache",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SparseFile", targets: ["SparseFile"]),
        .library(name: "CacheStore", targets: ["CacheStore"]),
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "DASH", targets: ["DASH"]),
        // What an app links: the proxy on SwiftNIO's core, POSIX and HTTP/1 modules, with origins
        // fetched by Foundation's URLSession (the system's HTTP and TLS on Apple platforms).
        .library(name: "CacheProxy", targets: ["CacheProxy", "CacheProxyURLSession"]),
        // What a server adds: the AsyncHTTPClient origin client with its own TLS, Prometheus
        // `/metrics`, swift-service-lifecycle, and the clients of a running proxy the CLI uses.
        .library(name: "CacheProxyServer", targets: ["CacheProxyServer"]),
        .executable(name: "sparsecache", targets: ["sparsecache"]),
    ],
    traits: [
        .default(enabledTraits: ["DASH"]),
        .trait(
            name: "DASH",
            description: "Serves, sessions, prefetches and downloads DASH presentations (MPDs) as it does HLS. Without it, MPDs and what they name pass through the cache as bytes: an app whose player plays HLS alone (AVPlayer) saves the DASH parser and its proxy code (Docs/BENCHMARKS.md, What an app links)."
        ),
        .trait(
            name: "OptimizeForSize",
            description: "Builds SparseCache's own modules with -Osize in release: less code in an app that links the CacheProxy product, for some speed (Docs/BENCHMARKS.md, What an app links)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already resolved through async-http-client; named for the origin client tests' TLS origin.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "CChecksum",
            dependencies: ["CXXHash"]
        ),
        // cachestat(2), which Swift cannot reach through the variadic syscall(2).
        .target(name: "CPageCache"),
        // The one shape of every error in the package (a stable code, a message, where), at the
        // bottom of the graph so that every module can share it.
        .target(
            name: "CodedErrors",
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "SparseFile",
            dependencies: ["CodedErrors", "CChecksum", "CPageCache", "CZlib"],
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "CacheStore",
            dependencies: ["CodedErrors", "SparseFile"],
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "HLS",
            dependencies: ["CodedErrors"],
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "DASH",
            dependencies: ["CodedErrors"],
            swiftSettings: appModuleSwift
        ),
        // The parsers of untrusted request and origin header bytes, a module of their own so that
        // their fuzz targets build without SwiftNIO.
        .target(
            name: "CacheProxyParsing",
            dependencies: ["CodedErrors", "HLS", .target(name: "DASH", condition: .when(traits: ["DASH"]))],
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "CacheProxy",
            dependencies: [
                "CodedErrors",
                "CacheProxyParsing",
                "CacheStore",
                "SparseFile",
                "HLS",
                .target(name: "DASH", condition: .when(traits: ["DASH"])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: appModuleSwift
        ),
        .target(
            name: "CacheProxyServer",
            dependencies: [
                "CacheProxy",
                "CacheProxyParsing",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The origin client on Foundation's URLSession. A module of its own: on Linux, a static
        // build of anything that links FoundationNetworking needs libcurl's development package,
        // and the CLI does not link it.
        .target(
            name: "CacheProxyURLSession",
            dependencies: [
                "CacheProxy",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: appModuleSwift
        ),
        .executableTarget(
            name: "sparsecache",
            dependencies: [
                "SparseFile",
                "CacheStore",
                "HLS",
                "DASH",
                "CacheProxy",
                "CacheProxyServer",
                "CacheProxyParsing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "TestSupport",
            dependencies: ["SparseFile"],
            path: "Tests/TestSupport",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "HLSTests",
            dependencies: ["HLS", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "DASHTests",
            dependencies: ["DASH", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "SparseFileTests",
            dependencies: ["SparseFile", "TestSupport", "sparsecache"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CacheStoreTests",
            dependencies: ["CacheStore", "SparseFile", "TestSupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CacheProxyTests",
            dependencies: [
                "CacheProxy",
                "CacheProxyServer",
                "sparsecache",
                "CacheProxyParsing",
                "CacheStore",
                "SparseFile",
                "HLS",
                "DASH",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "OriginClientTests",
            dependencies: [
                "CacheProxy",
                "CacheProxyServer",
                "CacheProxyURLSession",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["SparseFile", "CacheStore", "TestSupport", "sparsecache"],
            swiftSettings: strictSwift
        ),
    ]
)

// libFuzzer targets exist only in fuzz builds (scripts/fuzz.sh sets SPARSECACHE_FUZZ=1 and
// builds with -sanitize=fuzzer): without libFuzzer's `main` they cannot link. Each target
// is Fuzz/<name>/<name>.swift beside its seed corpus, dictionary and kept crash inputs.
let fuzzTargets: [(name: String, module: String)] = [
    ("FuzzSparseHeader", "SparseFile"),
    ("FuzzStoreIndex", "CacheStore"),
    ("FuzzStoreFiles", "CacheStore"),
    ("FuzzHLSParse", "HLS"),
    ("FuzzHLSRewrite", "HLS"),
    ("FuzzHLSRoundTrip", "HLS"),
    ("FuzzDASHParse", "DASH"),
    ("FuzzDASHRewrite", "DASH"),
    ("FuzzMP4Sidx", "DASH"),
    ("FuzzHLSSession", "HLS"),
    ("FuzzHTTPRange", "CacheProxyParsing"),
    ("FuzzRedirect", "CacheProxyParsing"),
    ("FuzzProxyRequestTarget", "CacheProxyParsing"),
    ("FuzzPrefetchRequest", "CacheProxyParsing"),
    ("FuzzMP4Boxes", "CacheProxyParsing"),
    ("FuzzRawRequestHead", "CacheProxyParsing"),
    ("FuzzHTTP1Request", "CacheProxyParsing"),
    ("FuzzSessionRequest", "CacheProxyParsing"),
    ("FuzzDownloadRequest", "CacheProxyParsing"),
    ("FuzzOriginResponse", "CacheProxyParsing"),
    ("FuzzOriginGuard", "CacheProxyParsing"),
]
if Context.environment["SPARSECACHE_FUZZ"] != nil {
    // A fuzz build holds the fuzz targets and the modules they fuzz, nothing else: no executable
    // whose `main` clashes with libFuzzer's, and no package to resolve, so one `swift build`
    // builds every target, and a build with nothing to do is quick (scripts/fuzz.sh runs one
    // before each target).
    let fuzzed = Set(fuzzTargets.map(\.module))
    let needed = fuzzed.union(["CodedErrors", "CChecksum", "CXXHash", "CPageCache", "CZlib", "SparseFile"])
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll()
    package.dependencies.removeAll()
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    // The structure-aware mutator every HLS target links (LLVMFuzzerCustomMutator), and the C
    // declaration of libFuzzer's byte mutator it falls back on.
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(.target(name: "HLSFuzzMutator", dependencies: ["CLibFuzzer"], path: "Fuzz/HLSFuzzMutator",
                                   swiftSettings: strictSwift))
    for target in fuzzTargets {
        let folder = root.appendingPathComponent("Fuzz/\(target.name)").path
        let source = "\(target.name).swift"
        // A branch may list a target whose folder another branch adds; only existing ones build.
        guard FileManager.default.fileExists(atPath: folder + "/" + source) else { continue }
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != source }
        package.targets.append(
            .executableTarget(
                name: target.name,
                dependencies: [.target(name: target.module)] + (target.module == "HLS" ? [.target(name: "HLSFuzzMutator")] : []),
                path: "Fuzz/\(target.name)",
                exclude: others,
                sources: [source],
                swiftSettings: strictSwift
            )
        )
    }
}
