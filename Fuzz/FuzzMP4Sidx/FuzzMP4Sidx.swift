import DASH

/// Reads arbitrary bytes as the index range of a SegmentBase Representation, at three file
/// offsets. Nothing may trap; a parsed box lies inside the bytes; references are in order,
/// contiguous after `first_offset`, and their times add up.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Sidx(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    for fileOffset: UInt64 in [0, 1 << 32, UInt64.max - UInt64(count) - 8] {
        guard let index = try? DASHSegmentIndex(parsing: bytes, fileOffset: fileOffset) else { continue }
        precondition(index.boxRange.first >= fileOffset && index.boxRange.last < fileOffset + UInt64(count),
                     "the box lies outside the bytes")
        precondition(index.timescale > 0)
        var position = index.boxRange.last + 1 + index.firstOffset
        var time = index.earliestPresentationTime
        for reference in index.references {
            precondition(reference.range.first == position, "references are not contiguous")
            precondition(reference.time == time, "reference times do not add up")
            position = reference.range.last + 1
            time += reference.duration
        }
    }
    return 0
}
