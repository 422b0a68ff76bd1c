/// The media groups the renditions of a playlist declare, each as a 64-bit key made of its
/// TYPE and GROUP-ID (no allocation per look-up; two groups whose keys collide could only hide
/// the warning about a variant naming an undeclared group).
///
/// A playlist has a few groups, each named by many renditions and variants: they are kept in a
/// small open-addressing table, at most half full, where a look-up is usually one probe.
struct DeclaredGroups {
    /// 0 marks an empty slot, so a key of 0 is kept as 1.
    private var slots = [UInt64](repeating: 0, count: 32)
    private var count = 0

    mutating func insert(_ key: UInt64) {
        let key = max(key, 1)
        let mask = slots.count &- 1
        var index = Self.home(of: key, mask)
        while slots[index] != 0 {
            if slots[index] == key { return }
            index = (index &+ 1) & mask
        }
        slots[index] = key
        count &+= 1
        if count &* 2 > slots.count { grow() }
    }

    func contains(_ key: UInt64) -> Bool {
        let key = max(key, 1)
        let mask = slots.count &- 1
        var index = Self.home(of: key, mask)
        while slots[index] != 0 {
            if slots[index] == key { return true }
            index = (index &+ 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count &* 2)
        count = 0
        for key in old where key != 0 { insert(key) }
    }

    @inline(__always)
    private static func home(of key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> 40) & mask
    }

    /// The key of the group named `group` (a GROUP-ID or a variant's reference to one) of the
    /// TYPE whose hash is `type`, read eight bytes at a time. `readableEnd` is where readable
    /// memory ends, at or after the span's end.
    static func key(type: UInt64, _ base: UnsafePointer<UInt8>, _ group: ByteSpan, readableEnd: Int) -> UInt64 {
        let end = group.upperBound
        var hash = (type ^ UInt64(truncatingIfNeeded: group.count)) &* 0xBF58_476D_1CE4_E5B9
        var index = group.lowerBound
        while index < end {
            let word: UInt64
            if index &+ 8 <= readableEnd {
                // Only the bytes of the name count: the rest of the word is masked off.
                let length = min(end &- index, 8)
                word = SWAR.load(base, index) & (UInt64.max &>> UInt64(64 &- 8 &* length))
            } else {
                word = tailWord(base, from: index, to: end)
            }
            hash = (hash ^ word) &* 0x94D0_49BB_1331_11EB
            hash ^= hash &>> 31
            index &+= 8
        }
        return hash
    }

    /// The bytes `start..<end` (fewer than eight, at the end of the input) as a word.
    private static func tailWord(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> UInt64 {
        var word: UInt64 = 0
        var index = start
        while index < end && index &- start < 8 {
            word |= UInt64(base[index]) &<< UInt64(8 &* (index &- start))
            index &+= 1
        }
        return word
    }
}
