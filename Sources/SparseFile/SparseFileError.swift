#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import CodedErrors

/// An error from a sparse cache file: a stable code to compare against, a message for people,
/// the file it concerns and, for I/O failures, the `errno` value.
///
/// Errors compare equal by code alone, so tests and callers can write
/// `#expect(throws: SparseFileError.notACacheFile)`-style checks against the static values.
public struct SparseFileError: CodedError {
    /// What went wrong, as a value that stays stable across releases.
    public typealias Code = ErrorCode<SparseFileError>

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

    /// The file's path, when known.
    public var location: String? { path }

    /// `path: message`, and the system's words for the `errno` of a failed call.
    public var description: String {
        let text = location.map { "\($0): \(message)" } ?? message
        return errno.map { text + " (\(String(cString: strerror($0))))" } ?? text
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

extension ErrorCode where Domain == SparseFileError {
    /// The file does not start with the SparseCache magic: it is not a cache file.
    public static var notACacheFile: Self { Self(rawValue: "notACacheFile") }

    /// The file was written by a newer format version this reader does not understand.
    public static var unsupportedVersion: Self { Self(rawValue: "unsupportedVersion") }

    /// Neither header slot holds a valid, checksummed header.
    public static var corruptHeader: Self { Self(rawValue: "corruptHeader") }

    /// The file belongs to a different key than the one the caller expected.
    public static var keyMismatch: Self { Self(rawValue: "keyMismatch") }

    /// A system call failed.
    public static var ioFailure: Self { Self(rawValue: "ioFailure") }

    /// The device is full (`ENOSPC`) or over quota (`EDQUOT`).
    public static var diskFull: Self { Self(rawValue: "diskFull") }

    /// The file was opened read-only.
    public static var readOnly: Self { Self(rawValue: "readOnly") }

    /// Another process holds the file open for writing.
    public static var lockedByAnotherWriter: Self { Self(rawValue: "lockedByAnotherWriter") }

    /// The caller passed an argument the operation cannot accept.
    public static var invalidArgument: Self { Self(rawValue: "invalidArgument") }

    /// A value conflicts with what the file already knows (e.g. bytes past the known length).
    public static var conflict: Self { Self(rawValue: "conflict") }

    /// A decoded structure is larger than the configured limits allow.
    public static var limitExceeded: Self { Self(rawValue: "limitExceeded") }

    /// The file was closed.
    public static var closed: Self { Self(rawValue: "closed") }
}
