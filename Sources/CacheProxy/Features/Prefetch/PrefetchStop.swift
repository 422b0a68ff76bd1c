/// Why a prefetch job ended before its budget, without it being a failure of the origin.
struct PrefetchStop: Error {
    enum Reason {
        /// The budget of bytes is spent.
        case budgetSpent
        /// The cache is close to its size limit: prefetching would evict what is being watched.
        case storeNearLimit
    }

    var reason: Reason
}
