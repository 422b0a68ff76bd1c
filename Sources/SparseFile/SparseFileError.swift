#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from a sparse cache file: a stable code to compare against, a message for people,
/// the file it concerns and, for I/O failures, the `errno` value.
///
/// Errors compare equal by code alone, so tests and callers can write
/// `#expect(throws: SparseFileError.notACacheFile)`-style checks against the static values.
public struct SparseFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that stays stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The file does not start with the SparseCache magic: it is not a cache file.
        public static let notACacheFile = Code(name: "notACacheFile")
        /// The file was written by a newer format version this reader does not understand.
        public static let unsupportedVersion = Code(name: "unsupportedVersion")
        /// Neither header slot holds a valid, checksummed header.
        public static let corruptHeader = Code(name: "corruptHeader")
        /// The file belongs to a different key than the one the caller expected.
        public static let keyMismatch = Code(name: "keyMismatch")
        /// A system call failed.
        public static let ioFailure = Code(name: "ioFailure")
        /// The device is full (`ENOSPC`) or over quota (`EDQUOT`).
        public static let diskFull = Code(name: "diskFull")
        /// The file was opened read-only.
        public static let readOnly = Code(name: "readOnly")
        /// Another process holds the file open for writing.
        public static let lockedByAnotherWriter = Code(name: "lockedByAnotherWriter")
        /// The caller passed an argument the operation cannot accept.
        public static let invalidArgument = Code(name: "invalidArgument")
        /// A value conflicts with what the file already knows (e.g. bytes past the known length).
        public static let conflict = Code(name: "conflict")
        /// A decoded structure is larger than the configured limits allow.
        public static let limitExceeded = Code(name: "limitExceeded")
        /// The file was closed.
        public static let closed = Code(name: "closed")
    }

    public var code: Code
    public var message: String
    /// The path of the file, when known.
    public var path: String?
    /// The `errno` of a failed system call.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, path: String? = nil, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.errno = errno
    }

    public static func == (lhs: SparseFileError, rhs: SparseFileError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = path.map { "\($0): " } ?? ""
        text += message
        if let errno { text += " (\(String(cString: strerror(errno))))" }
        return text
    }

    func at(_ path: String) -> SparseFileError {
        var copy = self
        if copy.path == nil { copy.path = path }
        return copy
    }

    static func system(_ operation: String, errno: Int32, path: String? = nil) -> SparseFileError {
        let code: Code = (errno == ENOSPC || errno == EDQUOT) ? .diskFull : .ioFailure
        return SparseFileError(code, "\(operation) failed", path: path, errno: errno)
    }

    static func corrupt(_ message: String) -> SparseFileError {
        SparseFileError(.corruptHeader, message)
    }
}

extension SparseFileError {
    public static let notACacheFile = SparseFileError(.notACacheFile, "not a SparseCache file")
    public static let unsupportedVersion = SparseFileError(.unsupportedVersion, "unsupported format version")
    public static let corruptHeader = SparseFileError(.corruptHeader, "corrupt header")
    public static let keyMismatch = SparseFileError(.keyMismatch, "key mismatch")
    public static let ioFailure = SparseFileError(.ioFailure, "I/O failure")
    public static let diskFull = SparseFileError(.diskFull, "disk full")
    public static let readOnly = SparseFileError(.readOnly, "file is open read-only")
    public static let lockedByAnotherWriter = SparseFileError(.lockedByAnotherWriter, "locked by another writer")
    public static let invalidArgument = SparseFileError(.invalidArgument, "invalid argument")
    public static let conflict = SparseFileError(.conflict, "conflict")
    public static let limitExceeded = SparseFileError(.limitExceeded, "limit exceeded")
    public static let closed = SparseFileError(.closed, "file is closed")
}
