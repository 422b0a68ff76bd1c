/// Maps short ASCII names (tag names, attribute names) found in the source to a small enum.
///
/// A name is looked up by its length and its first and last eight bytes packed in two words, so
/// most lookups are two integer comparisons; names longer than 16 bytes also compare the middle.
struct NameTable<ID: Sendable>: Sendable {
    private struct Entry: Sendable {
        var bytes: [UInt8]
        var head: UInt64
        var tail: UInt64
        var id: ID
    }

    /// Entries grouped by name length: `entries[bucketStart[n]..<bucketStart[n + 1]]` have length n.
    private let entries: [Entry]
    private let bucketStart: [Int]

    init(_ names: [(String, ID)]) {
        let maximumLength = names.map { $0.0.utf8.count }.max() ?? 0
        var sorted = names.map { name, id -> Entry in
            let bytes = Array(name.utf8)
            return Entry(bytes: bytes, head: Self.head(bytes), tail: Self.tail(bytes), id: id)
        }
        sorted.sort { $0.bytes.count < $1.bytes.count }
        var starts = [Int](repeating: 0, count: maximumLength + 2)
        for entry in sorted {
            starts[entry.bytes.count + 1] += 1
        }
        for length in 1..<starts.count {
            starts[length] += starts[length - 1]
        }
        entries = sorted
        bucketStart = starts
    }

    func lookup(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> ID? {
        let length = span.count
        guard length > 0, length + 1 < bucketStart.count else { return nil }
        let lower = bucketStart[length]
        let upper = bucketStart[length + 1]
        guard lower < upper else { return nil }
        let start = base + span.lowerBound
        let head = Self.head(start, length)
        let tail = Self.tail(start, length)
        for index in lower..<upper {
            let entry = entries[index]
            guard entry.head == head, entry.tail == tail else { continue }
            if length <= 16 { return entry.id }
            var matches = true
            for offset in 8..<(length - 8) where entry.bytes[offset] != start[offset] {
                matches = false
                break
            }
            if matches { return entry.id }
        }
        return nil
    }

    private static func head(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { head($0, buffer.count) } ?? 0
        }
    }

    private static func tail(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { tail($0, buffer.count) } ?? 0
        }
    }

    @inline(__always)
    private static func head(_ start: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        if length >= 8 {
            return UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
        }
        var word: UInt64 = 0
        for index in 0..<length {
            word |= UInt64(start[index]) << (UInt64(index) &* 8)
        }
        return word
    }

    @inline(__always)
    private static func tail(_ start: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        if length >= 8 {
            return UnsafeRawPointer(start + (length - 8)).loadUnaligned(as: UInt64.self)
        }
        return head(start, length)
    }
}
