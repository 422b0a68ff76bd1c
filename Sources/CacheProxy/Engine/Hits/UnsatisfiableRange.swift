/// A range that lies wholly past the end of a representation of `length` bytes
/// (``ByteResponsePlan``); the routes answer it with 416 and `Content-Range: bytes */length`.
struct UnsatisfiableRange: Error, Sendable, Equatable, CustomStringConvertible {
    var length: UInt64

    var description: String { "range not satisfiable for a length of \(length)" }
}
