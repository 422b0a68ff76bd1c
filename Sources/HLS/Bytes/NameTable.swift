/// Maps short ASCII names (tag names, attribute names) found in the source to a small enum.
///
/// A class, so that reading the shared table costs no copy and no reference counting of its
/// arrays. A name is read as up to four 64-bit words (its first eight bytes, bytes 8 to 16 and
/// 16 to 24, and its last eight), so a lookup is a hash of two words, one probe and at most four
/// word comparisons, with no byte loop. Names are at most 32 bytes.
final class NameTable<ID: Sendable>: Sendable {
    /// One slot of the open-addressing table: the key words, and the entry's index (length 0
    /// marks an empty slot). Keys sit in the slots so that a probe reads one contiguous record.
    private struct Slot: Sendable {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var middle: UInt64 = 0
        var middle2: UInt64 = 0
        var length: Int32 = 0
        var entry: Int32 = 0
    }

    /// The longest name a table holds.
    static var maximumLength: Int { 32 }

    /// At most a quarter full: a lookup is usually one probe.
    private let slots: [Slot]
    private let ids: [ID]
    private let mask: Int

    init(_ entries: [(String, ID)]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        mask = size - 1
        ids = entries.map(\.1)
        var slots = [Slot](repeating: Slot(), count: size)
        for (index, entry) in entries.enumerated() {
            let name = Array(entry.0.utf8)
            precondition(!name.isEmpty && name.count <= Self.maximumLength, "NameTable names are 1 to 32 bytes")
            let key = name.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { Self.key($0, 0, name.count, readableEnd: 0) } ?? Key(head: 0, tail: 0, middle: 0, middle2: 0)
            }
            var slot = Self.slot(key.head, key.tail, name.count, mask)
            while slots[slot].length != 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(head: key.head, tail: key.tail, middle: key.middle, middle2: key.middle2,
                               length: Int32(name.count), entry: Int32(index))
        }
        self.slots = slots
    }

    @inline(__always)
    private static func slot(_ head: UInt64, _ tail: UInt64, _ length: Int, _ mask: Int) -> Int {
        let mixed = (head ^ (tail &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 40) & mask
    }

    /// The words of the name at `start..<start + length` (1...32 bytes). A name shorter than
    /// eight bytes is read in one load when eight bytes from `start` are below `readableEnd`.
    private struct Key {
        var head: UInt64
        var tail: UInt64
        var middle: UInt64
        var middle2: UInt64
    }

    @inline(__always)
    private static func key(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int, readableEnd: Int) -> Key {
        if length >= 8 {
            let head = SWAR.load(base, start)
            let tail = SWAR.load(base, start &+ length &- 8)
            let middle = length > 16 ? SWAR.load(base, start &+ 8) : 0
            let middle2 = length > 24 ? SWAR.load(base, start &+ 16) : 0
            return Key(head: head, tail: tail, middle: middle, middle2: middle2)
        }
        var head: UInt64 = 0
        if start &+ 8 <= readableEnd {
            head = SWAR.load(base, start) & ((1 << (UInt64(length) &* 8)) &- 1)
        } else {
            for index in 0..<length { head |= UInt64(base[start &+ index]) << (UInt64(index) &* 8) }
        }
        return Key(head: head, tail: head, middle: 0, middle2: 0)
    }

    /// The id of the name in `span`. `readableEnd` is where readable memory ends.
    @inline(__always)
    func lookup(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> ID? {
        let length = span.count
        guard length > 0, length <= Self.maximumLength else { return nil }
        let key = Self.key(base, span.lowerBound, length, readableEnd: readableEnd)
        let found: Int? = slots.withUnsafeBufferPointer { slots in
            var slot = Self.slot(key.head, key.tail, length, mask)
            while true {
                let candidate = slots[slot]
                if candidate.length == 0 { return nil }
                if candidate.head == key.head && candidate.tail == key.tail && Int(candidate.length) == length
                    && candidate.middle == key.middle && candidate.middle2 == key.middle2 {
                    return Int(candidate.entry)
                }
                slot = (slot + 1) & mask
            }
        }
        guard let found else { return nil }
        return ids.withUnsafeBufferPointer { $0[found] }
    }
}
