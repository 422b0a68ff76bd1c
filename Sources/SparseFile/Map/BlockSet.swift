/// A growable bitset of block numbers: the blocks this process has already verified (or wrote
/// itself), so the read path hashes each block at most once per open file.
struct BlockSet {
    private var words: [UInt64] = []

    func contains(_ block: UInt64) -> Bool {
        let word = Int(block >> 6)
        guard word < words.count else { return false }
        return words[word] & (1 << (block & 63)) != 0
    }

    func containsAll(from first: UInt64, through last: UInt64) -> Bool {
        guard first <= last else { return true }
        for block in first...last where !contains(block) { return false }
        return true
    }

    mutating func insert(_ block: UInt64) {
        let word = Int(block >> 6)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << (block & 63)
    }

    mutating func insert(blocksFrom first: UInt64, through last: UInt64) {
        guard first <= last else { return }
        for block in first...last { insert(block) }
    }

    mutating func remove(_ block: UInt64) {
        let word = Int(block >> 6)
        guard word < words.count else { return }
        words[word] &= ~(1 << (block & 63))
    }

    mutating func removeAll() { words.removeAll() }

    /// Removes blocks `first...last`.
    mutating func remove(blocksFrom first: UInt64, through last: UInt64) {
        guard first <= last, let lastWord = Int(exactly: last >> 6), let firstWord = Int(exactly: first >> 6),
              firstWord < words.count else { return }
        for word in firstWord...min(lastWord, words.count - 1) {
            let low = word == firstWord ? first & 63 : 0
            let high = word == lastWord ? last & 63 : 63
            let mask = (high == 63 ? UInt64.max : (1 << (high + 1)) - 1) & ~((1 << low) - 1)
            words[word] &= ~mask
        }
    }
}
