public import Testing

extension Trait where Self == ConditionTrait {
    /// For tests that drop real pages of a file and expect the cache to find them gone: they
    /// run only where the kernel tells which pages are in memory (``PageCache/kernelReportsResidency``).
    public static var needsPageCacheResidency: Self {
        .enabled(if: PageCache.kernelReportsResidency, "the kernel does not tell which pages are in memory (cachestat: Linux 6.5+)")
    }
}
