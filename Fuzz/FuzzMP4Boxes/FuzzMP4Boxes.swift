import CacheProxyParsing

/// Scans arbitrary bytes as the start of an MP4 file and as a `moov` box. Nothing may trap;
/// every box found lies inside the file and after the one before it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMP4Boxes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    for fileLength: UInt64? in [nil, UInt64(count), UInt64(count) * 3] {
        let layout = MP4BoxLayout(scanning: bytes, at: 0, fileLength: fileLength)
        var end: UInt64 = 0
        for box in layout.boxes {
            precondition(box.offset >= end, "boxes overlap")
            if let size = box.size {
                precondition(size >= 8)
                end = box.offset + size
                if let fileLength { precondition(end <= fileLength, "a box past the end of the file") }
            }
        }
    }
    if let duration = MP4BoxLayout.duration(inMovieBox: bytes) {
        precondition(duration > 0 && duration.isFinite)
    }
    return 0
}
