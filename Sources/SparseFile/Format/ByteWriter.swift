/// Appends little-endian integers, LEB128 varints and length-prefixed bytes to a buffer.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func append(_ value: UInt8) { bytes.append(value) }

    package mutating func appendLittleEndian(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    package mutating func appendLittleEndian(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    package mutating func appendVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    package mutating func appendLengthPrefixed(_ value: some Collection<UInt8>) {
        appendVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func append(contentsOf other: some Collection<UInt8>) { bytes.append(contentsOf: other) }
}
