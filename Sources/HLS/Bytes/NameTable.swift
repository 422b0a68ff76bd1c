/// Maps short ASCII names (tag names, attribute names) found in the source to the raw value of
/// a small enum. (Not generic over the enum: a generic class with a protocol requirement costs
/// a conformance search in the runtime on first use, more than a small playlist's whole parse.)
///
/// A class, so that reading the shared table costs no copy and no reference counting of its
/// array. A name is read as up to four 64-bit words: its first eight bytes and its last eight
/// (which overlap for names of 8 to 16 bytes), plus bytes 8 to 16 and 16 to 24 for longer ones.
/// A lookup hashes the first two, probes a table at most a quarter full (usually once) and
/// compares words, with no byte loop. Names are 1 to 32 bytes.
final class NameTable: Sendable {
    /// One slot of the open-addressing table: the key words, the name's length (0 marks an
    /// empty slot) and its id's raw value. Keys sit in the slots so that a probe reads one record.
    private struct Slot: Sendable {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var middle: UInt64 = 0
        var middle2: UInt64 = 0
        var length: UInt8 = 0
        var id: UInt8 = 0
    }

    /// The longest name a table holds.
    static var maximumLength: Int { 32 }

    private let slots: [Slot]
    private let mask: Int
    /// 64 less the table's size in bits: a slot is the top bits of a product, which depend on
    /// every bit of what is multiplied (the low bits of a product do not).
    private let shift: UInt64
    /// The odd multiplier of the hash, chosen when the table is built so that no two of its
    /// names share a slot: a known name is found by its first probe, and no compare fails on a
    /// collision (3 candidates are tried for the attribute names, 252 for the tag names).
    private let multiplier: UInt64

    init(_ entries: [(String, UInt8)]) {
        var size = 16
        var bits: UInt64 = 4
        while size < entries.count * 4 {
            size *= 2
            bits += 1
        }
        mask = size - 1
        shift = 64 - bits
        let keys = entries.map { text, _ in Self.key(Array(text.utf8)) }
        multiplier = Self.multiplier(for: keys, shift: shift, size: size)
        var slots = [Slot](repeating: Slot(), count: size)
        for (text, id) in entries {
            var name = Array(text.utf8)
            precondition(!name.isEmpty && name.count <= Self.maximumLength, "NameTable names are 1 to 32 bytes")
            let length = name.count
            // Padding, so that the table's own names can be read a word at a time.
            name += [UInt8](repeating: 0, count: 8)
            let slot: Slot = name.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return Slot() }
                var slot = Slot(head: Self.head(base, 0, length), tail: Self.tail(base, 0, length), length: UInt8(length),
                                id: id)
                if length > 16 {
                    slot.middle = SWAR.load(base, 8)
                    slot.middle2 = length > 24 ? SWAR.load(base, 16) : 0
                }
                return slot
            }
            var index = Self.slot(slot.head, slot.tail, shift, multiplier)
            while slots[index].length != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
        self.slots = slots
    }

    /// What ``slot(_:_:_:_:)`` multiplies for the name: its head and tail words mixed.
    private static func key(_ name: [UInt8]) -> UInt64 {
        let padded = name + [UInt8](repeating: 0, count: 8)
        return padded.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return mixed(head(base, 0, name.count), tail(base, 0, name.count))
        }
    }

    /// The first odd multiplier of a fixed sequence under which the `keys` take distinct slots;
    /// if none of 4,096 does, the first, and lookups probe past collisions.
    private static func multiplier(for keys: [UInt64], shift: UInt64, size: Int) -> UInt64 {
        let step: UInt64 = 0xBF58_476D_1CE4_E5B9
        var candidate = step
        // The try that last took each slot: one array for all tries (the tag table takes a few
        // hundred), none cleared between them.
        var takenBy = [Int](repeating: 0, count: size)
        for attempt in 1...4_096 {
            var distinct = true
            for key in keys {
                let index = Int(truncatingIfNeeded: (key &* candidate) &>> shift)
                if takenBy[index] == attempt {
                    distinct = false
                    break
                }
                takenBy[index] = attempt
            }
            if distinct { return candidate }
            // Odd plus even: still odd.
            candidate &+= step &<< 1
        }
        return step
    }

    /// The first eight bytes of the name (those there are, for a shorter one), which must be
    /// readable as a word.
    @inline(__always)
    private static func head(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
        // A shift, not a choice between two values: name lengths follow no pattern.
        SWAR.load(base, start) & (UInt64.max &>> UInt64(64 &- 8 &* min(length, 8)))
    }

    /// The last eight bytes of a name longer than eight bytes; 0 for a shorter one. The bytes
    /// from `start` to `start + max(length, 8)` must be readable.
    @inline(__always)
    private static func tail(_ base: UnsafePointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
        word(base, start, from: length &- 8, ifLongerThan: 8, length)
    }

    /// The word at `offset` of a name longer than `minimum` bytes; 0 for a shorter one. The load
    /// is made whatever the length (at the name's start when `offset` is outside it), so that
    /// choosing costs no branch.
    @inline(__always)
    private static func word(_ base: UnsafePointer<UInt8>, _ start: Int, from offset: Int, ifLongerThan minimum: Int,
                             _ length: Int) -> UInt64 {
        let word = SWAR.load(base, start &+ max(0, min(offset, length &- 8)))
        // Shifted out by 32 twice when the name is not longer than `minimum`: arithmetic on the
        // sign of the difference. (Masked with zero instead, the load became a branch again.)
        let shift = UInt64(bitPattern: Int64(length &- minimum &- 1) &>> 63) & 32
        return (word &>> shift) &>> shift
    }

    @inline(__always)
    private static func mixed(_ head: UInt64, _ tail: UInt64) -> UInt64 {
        head ^ (tail &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The top bits of a product: they depend on every bit of the words (the low bits, which
    /// an earlier version took, do not, and names sharing their first bytes shared slots).
    @inline(__always)
    private static func slot(_ head: UInt64, _ tail: UInt64, _ shift: UInt64, _ multiplier: UInt64) -> Int {
        Int(truncatingIfNeeded: (mixed(head, tail) &* multiplier) &>> shift)
    }

    /// The id of the name in `span`. `readableEnd` is where readable memory ends.
    @inline(__always)
    func lookup(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> UInt8? {
        let length = span.count
        let start = span.lowerBound
        guard length > 0, length <= Self.maximumLength else { return nil }
        guard start &+ 8 <= readableEnd else { return lookupNearEnd(base, span) }
        let head = Self.head(base, start, length)
        let tail = Self.tail(base, start, length)
        let middle = Self.word(base, start, from: 8, ifLongerThan: 16, length)
        let middle2 = Self.word(base, start, from: 16, ifLongerThan: 24, length)
        return slots.withUnsafeBufferPointer { slots in
            var index = Self.slot(head, tail, shift, multiplier)
            while true {
                let candidate = slots[index]
                // Every word compared, with one branch: which ones a name has depends on its length.
                let difference = (candidate.head ^ head) | (candidate.tail ^ tail) | (candidate.middle ^ middle)
                    | (candidate.middle2 ^ middle2) | UInt64(truncatingIfNeeded: Int(candidate.length) ^ length)
                if difference == 0 { return candidate.id }
                if candidate.length == 0 { return nil }
                index = (index &+ 1) & mask
            }
        }
    }

    /// A name that ends less than eight bytes before the end of the input (so shorter than
    /// eight bytes): copied into a word first.
    private func lookupNearEnd(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> UInt8? {
        var padded = [UInt8](repeating: 0, count: 8)
        for offset in 0..<span.count { padded[offset] = base[span.lowerBound + offset] }
        return padded.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { lookup($0, ByteSpan(0, span.count), readableEnd: 8) }
        }
    }
}
