/// A place in the MPD's bytes: the byte offset and the 1-based line and column it is at.
///
/// Columns count bytes, not characters, so that they are exact for any input (a tab is one
/// column, and so is each byte of a multi-byte UTF-8 character).
public struct DASHPosition: Hashable, Sendable, CustomStringConvertible {
    /// Offset of the first byte, from the start of the input.
    public var offset: Int
    /// 1-based line; lines end at LF, CR LF or a lone CR. 0 for "the input as a whole".
    public var line: Int
    /// 1-based byte column within the line. 0 for "the input as a whole".
    public var column: Int

    /// A position given as its three coordinates.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The position for errors about the input as a whole.
    public static let whole = DASHPosition(offset: 0, line: 0, column: 0)

    /// The position of `offset` in `bytes`, counting lines from the start. Linear in `offset`:
    /// it is computed only when an error or a diagnostic is reported, never while parsing.
    static func of(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> DASHPosition {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            } else if byte == 0x0D {
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return DASHPosition(offset: end, line: line, column: end - lineStart + 1)
    }

    static func of(_ offset: Int, in bytes: [UInt8]) -> DASHPosition {
        bytes.withUnsafeBufferPointer { of(offset, in: $0) }
    }

    public var description: String { "line \(line), column \(column)" }
}
