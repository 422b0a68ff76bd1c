import SparseFile

/// A one-line picture of which parts of a resource are cached: `█` fully, `▒` partly, `·` not.
enum CoverageBar {
    static func render(ranges: [ByteRange], length: UInt64?, width: Int = 64) -> String {
        let total = length ?? ranges.last?.end ?? 0
        guard total > 0 else { return "[" + String(repeating: "·", count: width) + "] (empty)" }
        var cells = ""
        var index = 0
        for cell in 0..<UInt64(width) {
            let start = total * cell / UInt64(width)
            let end = max(start + 1, total * (cell + 1) / UInt64(width))
            while index < ranges.count, ranges[index].end <= start { index += 1 }
            var covered: UInt64 = 0
            var probe = index
            while probe < ranges.count, ranges[probe].offset < end {
                covered += min(end, ranges[probe].end) - max(start, ranges[probe].offset)
                probe += 1
            }
            cells += covered == 0 ? "·" : covered >= end - start ? "█" : "▒"
        }
        return "[" + cells + "]"
    }
}
