import CZlib

/// zlib compression of spilled header bodies (see Docs/FORMAT.md, "Spilled body").
enum Zlib {
    static func compress(_ input: [UInt8]) -> [UInt8]? {
        var bound = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(bound))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                compress2(out.baseAddress, &bound, source.baseAddress, uLong(source.count), Z_BEST_SPEED)
            }
        }
        guard status == Z_OK else { return nil }
        output.removeSubrange(Int(bound)...)
        return output
    }

    /// Inflates `input`, which must decode to exactly `expectedLength` bytes with nothing after.
    static func decompress(_ input: ArraySlice<UInt8>, expectedLength: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: expectedLength)
        var outputLength = uLongf(expectedLength)
        var inputLength = uLong(input.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                uncompress2(out.baseAddress, &outputLength, source.baseAddress, &inputLength)
            }
        }
        guard status == Z_OK, Int(outputLength) == expectedLength, Int(inputLength) == input.count else {
            return nil
        }
        return output
    }

    /// The most a zlib stream can expand (deflate's 1032:1 limit), used to reject absurd
    /// uncompressed lengths before allocating.
    static let maximumExpansionRatio = 1032
}
