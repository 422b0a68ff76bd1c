/// Maps short ASCII names (tag names, attribute names) found in the source to a small enum.
///
/// A class, so that reading the shared table costs no copy and no reference counting of its
/// arrays. A name is looked up by its length and its first and last eight bytes packed in two words, so
/// most lookups are two integer comparisons; names longer than 16 bytes also compare the middle.
final class NameTable<ID: Sendable>: Sendable {
    /// One slot of the open-addressing table: the key, and the entry's index (length 0 marks an
    /// empty slot). Keys sit in the slots so that a probe reads one contiguous record.
    private struct Slot: Sendable {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var length: Int32 = 0
        var entry: Int32 = 0
    }

    /// At most a quarter full, keyed by length and the first and last eight bytes of the name:
    /// a lookup is usually one probe.
    private let slots: [Slot]
    private let names: [[UInt8]]
    private let ids: [ID]
    private let mask: Int

    init(_ entries: [(String, ID)]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        mask = size - 1
        names = entries.map { Array($0.0.utf8) }
        ids = entries.map(\.1)
        var slots = [Slot](repeating: Slot(), count: size)
        for (index, name) in names.enumerated() {
            let head = Self.head(name)
            let tail = Self.tail(name)
            var slot = Self.slot(head, tail, name.count, mask)
            while slots[slot].length != 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(head: head, tail: tail, length: Int32(name.count), entry: Int32(index))
        }
        self.slots = slots
    }

    @inline(__always)
    private static func slot(_ head: UInt64, _ tail: UInt64, _ length: Int, _ mask: Int) -> Int {
        let mixed = (head ^ (tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 40) & mask
    }

    /// The id of the name in `span`. `readableEnd` is where readable memory ends: a name
    /// shorter than eight bytes with eight readable bytes from its start is read in one load.
    func lookup(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> ID? {
        let length = span.count
        guard length > 0, length <= Int(Int32.max) else { return nil }
        let start = base + span.lowerBound
        let head: UInt64
        let tail: UInt64
        if length >= 8 {
            head = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            tail = UnsafeRawPointer(start + (length - 8)).loadUnaligned(as: UInt64.self)
        } else {
            if span.lowerBound + 8 <= readableEnd {
                let word = UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
                head = word & ((1 << (UInt64(length) &* 8)) &- 1)
            } else {
                head = Self.head(start, length)
            }
            tail = head
        }
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            var slot = Self.slot(head, tail, length, mask)
            while true {
                let candidate = slots[slot]
                if candidate.length == 0 { return nil }
                if candidate.head == head && candidate.tail == tail && Int(candidate.length) == length {
                    return Int(candidate.entry)
                }
                slot = (slot + 1) & mask
            }
        }
        guard let found, length <= 16 || middleMatches(found, start, length) else { return nil }
        return ids[found]
    }

    private func middleMatches(_ index: Int, _ start: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        names[index].withUnsafeBufferPointer { name in
            for offset in 8..<(length - 8) where name[offset] != start[offset] { return false }
            return true
        }
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
