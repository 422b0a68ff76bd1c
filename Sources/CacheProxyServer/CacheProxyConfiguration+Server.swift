public import CacheProxy

extension CacheProxyConfiguration {
    /// Every default of ``CacheProxy/CacheProxyConfiguration/init()``, with the origin client and
    /// the metrics of a server: AsyncHTTPClient (``CacheProxy/OriginClientKind/asyncHTTPClient``,
    /// which checks where every connection leads) and Prometheus `/metrics`. What
    /// `sparsecache serve` starts from before its flags.
    public static var server: CacheProxyConfiguration {
        var configuration = CacheProxyConfiguration()
        configuration.originClient = .asyncHTTPClient
        configuration.metricsFormat = .prometheus
        return configuration
    }
}
