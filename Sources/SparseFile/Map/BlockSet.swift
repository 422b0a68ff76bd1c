/// A growable bitset of block numbers: the blocks this process has already verified (or wrote
/// itself), so the read path hashes each block at most once per open file.
///
/// Runs of blocks are tested and changed a word (64 blocks) at a time: a hit asks whether all
/// the blocks of its bytes are verified, and a mapping of a 200 MB file asks about 51,200.
struct BlockSet {
    private var words: [UInt64] = []

    func contains(_ block: UInt64) -> Bool {
        let word = Int(block >> 6)
        guard word < words.count else { return false }
        return words[word] & (1 << (block & 63)) != 0
    }

    func containsAll(from first: UInt64, through last: UInt64) -> Bool {
        guard first <= last else { return true }
        guard let lastWord = Int(exactly: last >> 6), lastWord < words.count else { return false }
        for (word, mask) in Self.masks(from: first, through: last) where words[word] & mask != mask { return false }
        return true
    }

    mutating func insert(_ block: UInt64) {
        insert(blocksFrom: block, through: block)
    }

    mutating func insert(blocksFrom first: UInt64, through last: UInt64) {
        guard first <= last, let lastWord = Int(exactly: last >> 6) else { return }
        if lastWord >= words.count { words.append(contentsOf: repeatElement(0, count: lastWord - words.count + 1)) }
        for (word, mask) in Self.masks(from: first, through: last) { words[word] |= mask }
    }

    mutating func remove(_ block: UInt64) {
        remove(blocksFrom: block, through: block)
    }

    mutating func removeAll() { words.removeAll() }

    /// Removes blocks `first...last`.
    mutating func remove(blocksFrom first: UInt64, through last: UInt64) {
        guard first <= last, Int(exactly: first >> 6).map({ $0 < words.count }) == true else { return }
        let last = min(last, UInt64(words.count) * 64 - 1)
        for (word, mask) in Self.masks(from: first, through: last) { words[word] &= ~mask }
    }

    /// The words holding blocks `first...last` (which the caller checked `Int` can index), each
    /// with the bits of those blocks set.
    private static func masks(from first: UInt64, through last: UInt64) -> some Sequence<(Int, UInt64)> {
        let (firstWord, lastWord) = (Int(truncatingIfNeeded: first >> 6), Int(truncatingIfNeeded: last >> 6))
        return (firstWord...lastWord).lazy.map { word in
            let low = word == firstWord ? first & 63 : 0
            let high = word == lastWord ? last & 63 : 63
            return (word, (high == 63 ? UInt64.max : (1 << (high + 1)) - 1) & ~((1 << low) - 1))
        }
    }
}
