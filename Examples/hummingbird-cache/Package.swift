// swift-tools-version: 6.1
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// A caching reverse proxy on Hummingbird 2 that keeps an origin's bytes in SparseCache's
// CacheStore through the store's public API alone: the proof that the store is a backend
// other servers can be built on (Docs/STORE.md, "Embedding the store"). SparseFile, part of
// the CacheStore product, holds the store's vocabulary types (ByteRange, ReadOutcome).
let package = Package(
    name: "hummingbird-cache",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HummingbirdCache", targets: ["HummingbirdCache"]),
    ],
    dependencies: [
        .package(name: "SparseCache", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "HummingbirdCache",
            dependencies: [
                .product(name: "CacheStore", package: "SparseCache"),
                .product(name: "SparseFile", package: "SparseCache"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "HummingbirdCacheTests",
            dependencies: [
                "HummingbirdCache",
                .product(name: "CacheStore", package: "SparseCache"),
                .product(name: "SparseFile", package: "SparseCache"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
    ]
)
