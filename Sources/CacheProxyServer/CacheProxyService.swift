public import CacheProxy
public import ServiceLifecycle

/// A proxy as a swift-service-lifecycle `Service`, beside an application's other services in a
/// `ServiceGroup`: ``run()`` serves, and the group's graceful shutdown (on SIGTERM, say) becomes
/// ``CacheProxy/CacheProxy/shutdownGracefully()``.
///
/// ```swift
/// let proxy = try CacheProxy(store: store, configuration: .server)
/// let group = ServiceGroup(services: [CacheProxyService(proxy), myOtherService],
///                          gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// try store.close()
/// ```
///
/// A wrapper rather than a conformance of ``CacheProxy/CacheProxy`` itself: the graceful
/// shutdown is observed with swift-service-lifecycle's task-local handler, which the
/// `CacheProxy` product (what an app links) does not depend on.
public struct CacheProxyService: Service {
    /// The proxy this service runs.
    public let proxy: CacheProxy

    public init(_ proxy: CacheProxy) {
        self.proxy = proxy
    }

    /// Serves as ``CacheProxy/CacheProxy/run()`` does, and shuts the proxy down gracefully when
    /// the service group does.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await proxy.run()
        } onGracefulShutdown: {
            proxy.shutdownGracefully()
        }
    }
}
