/// The range table in memory: extents sorted by original offset, never overlapping.
///
/// Lookups are binary searches (logarithmic in the number of extents); appends in origin order,
/// the common case when streaming a download, extend the last extent in place.
struct ExtentMap: Equatable {
    private(set) var extents: [Extent]
    private(set) var cachedBytes: UInt64

    init(_ extents: [Extent] = []) {
        self.extents = extents
        self.cachedBytes = extents.reduce(0) { $0 + $1.length }
    }

    var count: Int { extents.count }

    /// The index of the first extent that ends after `position`.
    func firstIndex(endingAfter position: UInt64) -> Int {
        var low = 0
        var high = extents.count
        while low < high {
            let middle = (low + high) / 2
            if extents[middle].originalEnd <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Calls `present` for each cached piece of `range` and `missing` for each gap, in order.
    func walk(
        _ range: ByteRange,
        present: (_ piece: ByteRange, _ dataOffset: UInt64) -> Void,
        missing: (_ gap: ByteRange) -> Void
    ) {
        var position = range.offset
        var index = firstIndex(endingAfter: position)
        while position < range.end {
            guard index < extents.count, extents[index].original < range.end else {
                missing(ByteRange(uncheckedFrom: position, to: range.end))
                return
            }
            let extent = extents[index]
            if extent.original > position {
                missing(ByteRange(uncheckedFrom: position, to: extent.original))
                position = extent.original
            }
            let pieceEnd = min(extent.originalEnd, range.end)
            present(ByteRange(uncheckedFrom: position, to: pieceEnd), extent.dataOffset(of: position))
            position = pieceEnd
            index += 1
        }
    }

    /// The extent that holds all of `range`, if one does (the common case, checked without
    /// allocating).
    func extent(covering range: ByteRange) -> Extent? {
        let index = firstIndex(endingAfter: range.offset)
        guard index < extents.count else { return nil }
        let extent = extents[index]
        return extent.original <= range.offset && range.end <= extent.originalEnd ? extent : nil
    }

    func missingRanges(in range: ByteRange) -> [ByteRange] {
        var gaps: [ByteRange] = []
        walk(range, present: { _, _ in }, missing: { gaps.append($0) })
        return gaps
    }

    /// The number of bytes cached contiguously from `position` on, across extents that touch.
    func contiguousLength(from position: UInt64) -> UInt64 {
        var index = firstIndex(endingAfter: position)
        guard index < extents.count, extents[index].original <= position else { return 0 }
        var end = extents[index].originalEnd
        index += 1
        while index < extents.count, extents[index].original == end {
            end = extents[index].originalEnd
            index += 1
        }
        return end - position
    }

    /// Cached ranges with touching extents merged: what a user thinks of as "what is cached".
    var mergedRanges: [ByteRange] {
        var ranges: [ByteRange] = []
        for extent in extents {
            if let last = ranges.last, last.end == extent.original {
                ranges[ranges.count - 1] = ByteRange(uncheckedFrom: last.offset, to: extent.originalEnd)
            } else {
                ranges.append(extent.originalRange)
            }
        }
        return ranges
    }

    /// Adds an extent that overlaps none already present, merging it with its neighbours when
    /// they touch it both in the original resource and in the data space.
    mutating func insert(_ extent: Extent) {
        cachedBytes += extent.length
        let index = firstIndex(endingAfter: extent.original)
        if index > 0, extents[index - 1].originalEnd == extent.original, extents[index - 1].dataEnd == extent.data {
            extents[index - 1].length += extent.length
            mergeWithNext(index - 1)
            return
        }
        extents.insert(extent, at: index)
        mergeWithNext(index)
    }

    private mutating func mergeWithNext(_ index: Int) {
        guard index + 1 < extents.count else { return }
        let current = extents[index]
        let next = extents[index + 1]
        guard current.originalEnd == next.original, current.dataEnd == next.data else { return }
        extents[index].length += next.length
        extents.remove(at: index + 1)
    }

    /// Removes every cached byte whose data lies in `dataRange` and returns the original ranges
    /// that were removed. Used to quarantine a corrupt block; linear in the number of extents
    /// because it searches by data offset, which is fine for a rare event.
    mutating func removeData(in dataRange: ByteRange) -> [ByteRange] {
        var removed: [ByteRange] = []
        var kept: [Extent] = []
        kept.reserveCapacity(extents.count + 1)
        for extent in extents {
            let extentData = ByteRange(uncheckedFrom: extent.data, to: extent.dataEnd)
            guard let hit = extentData.intersection(dataRange) else {
                kept.append(extent)
                continue
            }
            if hit.offset > extent.data {
                kept.append(Extent(original: extent.original, length: hit.offset - extent.data, data: extent.data))
            }
            let removedOriginal = extent.original + (hit.offset - extent.data)
            removed.append(ByteRange(uncheckedFrom: removedOriginal, to: removedOriginal + hit.length))
            if hit.end < extent.dataEnd {
                let keptLength = extent.dataEnd - hit.end
                kept.append(Extent(original: extent.originalEnd - keptLength, length: keptLength, data: hit.end))
            }
        }
        self = ExtentMap(kept)
        return removed
    }
}
