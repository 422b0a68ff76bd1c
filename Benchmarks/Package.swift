// swift-tools-version: 6.1
// Benchmarks live in their own package so the main package's users never build them.
// Run them with the scripts in ../scripts (bench-*.sh), which build in release mode.
import Foundation
import PackageDescription

// A path dependency's identity is its folder name, which depends on where the repository was
// cloned; read it from this file's location instead of hard-coding it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

let package = Package(
    name: "SparseCacheBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: root.path),
        // Only for OriginClientProxy's log level; the root package resolves the same one.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "SparseFileBenchmark",
            dependencies: ["BenchmarkSupport", .product(name: "SparseFile", package: rootIdentity)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "CacheStoreBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "SparseFile", package: rootIdentity),
                .product(name: "CacheStore", package: rootIdentity),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A proxy with either origin client, for Benchmarks/proxy/origin-clients.sh.
        .executableTarget(
            name: "OriginClientProxy",
            dependencies: [
                .product(name: "CacheProxy", package: rootIdentity),
                .product(name: "CacheProxyServer", package: rootIdentity),
                .product(name: "CacheStore", package: rootIdentity),
                .product(name: "SparseFile", package: rootIdentity),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
