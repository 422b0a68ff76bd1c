/// Maps short ASCII names (tag names, attribute names) found in the source to the raw value of
/// a small enum. (Not generic over the enum: a generic class with a protocol requirement costs
/// a conformance search in the runtime on first use, more than a small playlist's whole parse.)
///
/// A class, so that reading the shared table costs no copy and no reference counting of its
/// arrays. A name is read as two 16-byte vectors (its 32 bytes from the start, the bytes past
/// its length masked to zero by a table indexed by the length); a lookup hashes the vectors'
/// four words, probes a table at most a quarter full (usually once) and compares both vectors
/// at once, with no byte loop and no branch on the name's length (which follows no pattern
/// from one attribute to the next). Names are 1 to 32 bytes.
final class NameTable: Sendable {
    /// The longest name a table holds.
    static var maximumLength: Int { 32 }

    /// Slots of the open-addressing table: enough for 128 names at most a quarter full. One
    /// size for every table, so that the mask is a constant.
    private static let slotCount = 512
    /// Where the slots start in ``vectors``, after the length masks.
    private static let firstSlot = 2 * (maximumLength + 1)

    /// One array, so that a lookup reads a single base address: first, for each length from 0
    /// to 32, two vectors whose first `length` bytes are 0xFF and the rest 0 (what is kept of
    /// the 32 bytes read at a name's start); then the slots, three vectors each: the name's
    /// bytes (zero past its length) in two, and its length (0 marks an empty slot) and id in
    /// the first two bytes of the third. Keys sit in the slots so that a probe reads one record.
    private let vectors: [SIMD16<UInt8>]

    init(_ entries: [(String, UInt8)]) {
        precondition(entries.count * 4 <= Self.slotCount, "a NameTable holds 128 names at most")
        var vectors = (0...Self.maximumLength).flatMap { length in
            let bytes = (0..<Self.maximumLength).map { $0 < length ? UInt8.max : 0 }
            return [SIMD16(bytes[0..<16]), SIMD16(bytes[16..<32])]
        }
        vectors += [SIMD16<UInt8>](repeating: SIMD16(), count: 3 * Self.slotCount)
        for (text, id) in entries {
            let name = Array(text.utf8)
            precondition(!name.isEmpty && name.count <= Self.maximumLength, "NameTable names are 1 to 32 bytes")
            let padded = name + [UInt8](repeating: 0, count: Self.maximumLength - name.count)
            let low = SIMD16(padded[0..<16])
            let high = SIMD16(padded[16..<32])
            var index = Self.slot(low, high)
            while vectors[Self.firstSlot + 3 * index + 2][0] != 0 { index = (index + 1) % Self.slotCount }
            var meta = SIMD16<UInt8>()
            meta[0] = UInt8(name.count)
            meta[1] = id
            vectors.replaceSubrange((Self.firstSlot + 3 * index)..<(Self.firstSlot + 3 * index + 3), with: [low, high, meta])
        }
        self.vectors = vectors
    }

    @inline(__always)
    private static func slot(_ low: SIMD16<UInt8>, _ high: SIMD16<UInt8>) -> Int {
        let low = unsafeBitCast(low, to: SIMD2<UInt64>.self)
        let high = unsafeBitCast(high, to: SIMD2<UInt64>.self)
        let mixed = ((low[0] ^ high[1]) ^ ((low[1] ^ high[0]) &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 40) & (slotCount &- 1)
    }

    /// The id of the name in `span`. `readableEnd` is where readable memory ends.
    @inline(__always)
    func lookup(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> UInt8? {
        let length = span.count
        let start = span.lowerBound
        guard length > 0, length <= Self.maximumLength else { return nil }
        guard start &+ Self.maximumLength <= readableEnd else { return lookupNearEnd(base, span) }
        let name = UnsafeRawPointer(base + start)
        return vectors.withUnsafeBufferPointer { vectors in
            let low = name.loadUnaligned(as: SIMD16<UInt8>.self) & vectors[length &* 2]
            let high = name.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self) & vectors[length &* 2 &+ 1]
            var index = Self.slot(low, high)
            while true {
                let slot = Self.firstSlot &+ 3 &* index
                let equal = VectorMask.bits((vectors[slot] .== low) .& (vectors[slot &+ 1] .== high))
                let meta = vectors[slot &+ 2]
                // The length too: a name that ends in zero bytes masks like a shorter one.
                if equal == 0xFFFF && Int(meta[0]) == length { return meta[1] }
                if meta[0] == 0 { return nil }
                index = (index &+ 1) & (Self.slotCount &- 1)
            }
        }
    }

    /// A name that starts less than 32 bytes before the end of the input: copied into a buffer
    /// of 32 bytes first.
    private func lookupNearEnd(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> UInt8? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumLength) { buffer in
            guard let padded = buffer.baseAddress else { return nil }
            padded.initialize(repeating: 0, count: Self.maximumLength)
            padded.update(from: base + span.lowerBound, count: span.count)
            return lookup(UnsafePointer(padded), ByteSpan(0, span.count), readableEnd: Self.maximumLength)
        }
    }
}
