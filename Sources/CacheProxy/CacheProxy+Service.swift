public import ServiceLifecycle

/// A proxy runs in a swift-service-lifecycle `ServiceGroup` beside an application's other
/// services: ``CacheProxy/run()`` serves, and the group's graceful shutdown (on SIGTERM, say)
/// becomes ``CacheProxy/shutdownGracefully()``.
///
/// ```swift
/// let proxy = try CacheProxy(store: store, configuration: configuration)
/// let group = ServiceGroup(services: [proxy, myOtherService], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// try store.close()
/// ```
extension CacheProxy: Service {}
