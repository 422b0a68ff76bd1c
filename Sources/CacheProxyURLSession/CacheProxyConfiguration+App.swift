public import CacheProxy

extension CacheProxyConfiguration {
    /// Every default of ``CacheProxy/CacheProxyConfiguration/init()``, with origins fetched by
    /// Foundation's `URLSession` (``CacheProxy/OriginClientKind/urlSession``): what an app that
    /// links the `CacheProxy` product starts from. No metrics are kept (the `CacheProxyServer`
    /// product adds Prometheus: its `CacheProxyConfiguration.server` keeps them).
    public static var app: CacheProxyConfiguration {
        var configuration = CacheProxyConfiguration()
        configuration.originClient = .urlSession
        return configuration
    }
}
