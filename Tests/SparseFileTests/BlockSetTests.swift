@testable import SparseFile
import Testing
import TestSupport

/// `BlockSet` changes and tests runs of blocks a word at a time; a set of block numbers, changed
/// one block at a time, is what it must agree with, across word edges and past its end.
@Suite("The set of verified blocks")
struct BlockSetTests {
    @Test("Runs inserted, removed and tested agree with a plain set of blocks", arguments: 0..<8)
    func agreesWithAPlainSet(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)  // a failure names a sequence that can be replayed
        var set = BlockSet()
        var model = Set<UInt64>()
        for step in 0..<2_000 {
            let first = UInt64.random(in: 0..<700, using: &generator)
            let last = first + UInt64.random(in: 0..<200, using: &generator)
            switch UInt64.random(in: 0..<4, using: &generator) {
            case 0: set.insert(blocksFrom: first, through: last); model.formUnion(first...last)
            case 1: set.remove(blocksFrom: first, through: last); model.subtract(first...last)
            case 2: set.insert(first); model.insert(first)
            default: set.remove(first); model.remove(first)
            }
            let probe = UInt64.random(in: 0..<900, using: &generator)
            let probeLast = probe + UInt64.random(in: 0..<130, using: &generator)
            #expect(set.containsAll(from: probe, through: probeLast) == (probe...probeLast).allSatisfy(model.contains),
                    "seed \(seed), step \(step), blocks \(probe)...\(probeLast)")
            #expect(set.contains(probe) == model.contains(probe), "seed \(seed), step \(step), block \(probe)")
        }
    }

    @Test("Blocks far past the end, an empty run and the whole range of block numbers are answered without trapping")
    func edges() {
        var set = BlockSet()
        #expect(set.containsAll(from: 5, through: 4), "an empty run is contained")
        #expect(!set.containsAll(from: 0, through: 0))
        set.insert(blocksFrom: 0, through: 127)
        #expect(set.containsAll(from: 0, through: 127) && set.containsAll(from: 63, through: 64))
        #expect(!set.containsAll(from: 0, through: 128), "one block past the end")
        #expect(!set.containsAll(from: 0, through: .max) && !set.contains(.max))
        set.remove(blocksFrom: 100, through: .max)
        #expect(set.containsAll(from: 0, through: 99) && !set.contains(100))
        set.remove(blocksFrom: .max - 1, through: .max)
        set.insert(blocksFrom: .max, through: 5)
        #expect(set.containsAll(from: 0, through: 99))
    }
}
