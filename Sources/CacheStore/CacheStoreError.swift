public import SparseFile
public import CodedErrors

/// An error from a ``CacheStore``: a stable code, a message, and what it concerns.
public struct CacheStoreError: CodedError {
    public typealias Code = ErrorCode<CacheStoreError>

    public var code: Code
    public var message: String
    /// For `Code.notCached`: the sub-ranges that are missing.
    public var missing: [ByteRange]
    /// The underlying file error, when there is one.
    public var fileError: SparseFileError?

    public init(_ code: Code, _ message: String, missing: [ByteRange] = [], fileError: SparseFileError? = nil) {
        self.code = code
        self.message = message
        self.missing = missing
        self.fileError = fileError
    }

    /// Always nil: the message names the entry or file it concerns.
    public var location: String? { nil }

    static func file(_ error: SparseFileError) -> CacheStoreError {
        guard error.code == .diskFull else { return CacheStoreError(.ioFailure, error.description, fileError: error) }
        return CacheStoreError(.diskFull, "the disk is full: \(error.description)", fileError: error)
    }
}

extension CacheStoreError {
    public static let locked = CacheStoreError(.locked, "locked")
    public static let readOnly = CacheStoreError(.readOnly, "read-only")
    public static let storeFull = CacheStoreError(.storeFull, "store full")
    public static let diskFull = CacheStoreError(.diskFull, "disk full")
    public static let notCached = CacheStoreError(.notCached, "not cached")
    public static let fillFailed = CacheStoreError(.fillFailed, "fill failed")
    public static let entryReplaced = CacheStoreError(.entryReplaced, "entry replaced")
    public static let noEntry = CacheStoreError(.noEntry, "no such entry")
    public static let invalidArgument = CacheStoreError(.invalidArgument, "invalid argument")
    public static let ioFailure = CacheStoreError(.ioFailure, "I/O failure")
    public static let closed = CacheStoreError(.closed, "closed")
}

extension ErrorCode where Domain == CacheStoreError {
    /// Another process holds the store open for writing.
    public static var locked: Self { Self(rawValue: "locked") }

    /// The store was opened read-only.
    public static var readOnly: Self { Self(rawValue: "readOnly") }

    /// Nothing could be evicted to make room under the size limit (everything left is pinned
    /// or being filled).
    public static var storeFull: Self { Self(rawValue: "storeFull") }

    /// The store's volume has no room: a write failed with `ENOSPC` or `EDQUOT` again after
    /// evicting to make room, or the free space would fall below
    /// `CacheStoreConfiguration.minimumFreeSpace` with nothing left to evict. What was
    /// stored before stays valid; writes succeed again once space is free.
    public static var diskFull: Self { Self(rawValue: "diskFull") }

    /// Some requested bytes are neither cached nor being fetched; see `CacheStoreError.missing`.
    public static var notCached: Self { Self(rawValue: "notCached") }

    /// The fill a reader was following failed or was cancelled; retrying may succeed.
    public static var fillFailed: Self { Self(rawValue: "fillFailed") }

    /// The entry was replaced (its validators changed) or removed while in use.
    public static var entryReplaced: Self { Self(rawValue: "entryReplaced") }

    /// The store has no entry for the key.
    public static var noEntry: Self { Self(rawValue: "noEntry") }

    /// The caller passed an argument the store cannot accept.
    public static var invalidArgument: Self { Self(rawValue: "invalidArgument") }

    /// A file or system call failed.
    public static var ioFailure: Self { Self(rawValue: "ioFailure") }

    /// The store was closed.
    public static var closed: Self { Self(rawValue: "closed") }
}
