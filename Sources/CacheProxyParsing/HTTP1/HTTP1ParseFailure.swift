/// Why bytes are not an HTTP/1.1 request (RFC 9112 read strictly), and where that was found.
///
/// Every reason gets the same answer on the wire (`400 Bad Request`, then the connection
/// closes); the reason and the offset are for logs and tests.
public struct HTTP1ParseFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable {
        /// A line ends with LF alone, or a CR stands without its LF.
        case bareLineEnd
        case badRequestLine
        /// A method that is not uppercase or not registered (`get`, `FOO`).
        case unknownMethod
        /// A request target with a byte outside visible ASCII.
        case badTarget
        /// Not `HTTP/1.0` or `HTTP/1.1`.
        case unsupportedVersion
        case badFieldName
        /// A control byte (NUL, DEL, a bare CR...) in a field value.
        case badFieldValue
        /// A field line starting with white space (obs-fold, RFC 9112 section 5.2).
        case obsoleteLineFolding
        /// The target or a field longer than the per-field limit.
        case fieldTooLarge
        /// Target, names and values together longer than the head limit.
        case headTooLarge
        case tooManyFields
        /// A `Content-Length` beside a `Transfer-Encoding`: two parsers could frame it differently.
        case lengthWithTransferEncoding
        /// A `Content-Length` that is not one decimal number (a list, a sign, white space inside).
        case badContentLength
        case repeatedContentLength
        /// Transfer codings that do not end with `chunked`, or name it twice.
        case unsupportedTransferEncoding
        /// Chunked framing that is not `size [extensions] CRLF data CRLF`.
        case badChunk
    }

    public let reason: Reason
    /// The offset of the byte where the failure was found, from the start of the bytes parsed.
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}
