/// The mutator's random numbers: SplitMix64 seeded with libFuzzer's seed, so that a mutation is
/// reproducible from the seed libFuzzer prints.
struct MutationRandom {
    private var state: UInt64

    init(seed: UInt32) {
        state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`; 0 when `bound` is 0 or less.
    mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound))
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    mutating func element<T>(of array: [T]) -> T? {
        array.isEmpty ? nil : array[below(array.count)]
    }

    /// An index into `weights`, each chosen in proportion to its weight.
    mutating func weighted(_ weights: [Int]) -> Int {
        var pick = below(weights.reduce(0, +))
        for (index, weight) in weights.enumerated() {
            if pick < weight { return index }
            pick -= weight
        }
        return weights.count - 1
    }
}
