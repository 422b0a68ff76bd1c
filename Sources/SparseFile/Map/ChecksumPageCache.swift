/// Recently read 4 KiB pages of stored block checksums (512 entries, covering 2 MiB of data),
/// so that verifying scattered small reads costs one extra read per 2 MiB, not one per block.
///
/// Entries a reader looks up belong to committed blocks, which never change. A page read before
/// a commit wrote more of its entries holds zeros for them: the writer empties the cache at each
/// commit, so blocks verified again after it (``SparseFile/requireVerificationAgain(within:)``) are
/// checked against what was written.
struct ChecksumPageCache {
    static let entriesPerPage: UInt64 = 512
    static let capacity = 64

    private var pages: [UInt64: [UInt64]] = [:]
    private var order: [UInt64] = []
    /// Bumped by ``removeAll()``: a page read before it may lack entries written since.
    private(set) var generation: UInt64 = 0

    func entry(for block: UInt64) -> UInt64? {
        pages[block / Self.entriesPerPage]?[Int(block % Self.entriesPerPage)]
    }

    /// Keeps `entries`, read while the cache was at `generation`; not when it was emptied since.
    mutating func insert(page: UInt64, entries: [UInt64], readIn generation: UInt64) {
        guard generation == self.generation else { return }
        if pages.updateValue(entries, forKey: page) == nil {
            order.append(page)
            if order.count > Self.capacity { pages[order.removeFirst()] = nil }
        }
    }

    mutating func removeAll() {
        generation &+= 1
        pages.removeAll()
        order.removeAll()
    }
}
