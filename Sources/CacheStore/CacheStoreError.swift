public import SparseFile

/// An error from a ``CacheStore``: a stable code, a message, and what it concerns.
public struct CacheStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// Another process holds the store open for writing.
        public static let locked = Code(name: "locked")
        /// The store was opened read-only.
        public static let readOnly = Code(name: "readOnly")
        /// Nothing could be evicted to make room under the size limit (everything left is pinned
        /// or being filled).
        public static let storeFull = Code(name: "storeFull")
        /// The store's volume has no room: a write failed with `ENOSPC` or `EDQUOT` again after
        /// evicting to make room, or the free space would fall below
        /// ``CacheStoreConfiguration/minimumFreeSpace`` with nothing left to evict. What was
        /// stored before stays valid; writes succeed again once space is free.
        public static let diskFull = Code(name: "diskFull")
        /// Some requested bytes are neither cached nor being fetched; see ``CacheStoreError/missing``.
        public static let notCached = Code(name: "notCached")
        /// The fill a reader was following failed or was cancelled; retrying may succeed.
        public static let fillFailed = Code(name: "fillFailed")
        /// The entry was replaced (its validators changed) or removed while in use.
        public static let entryReplaced = Code(name: "entryReplaced")
        /// The store has no entry for the key.
        public static let noEntry = Code(name: "noEntry")
        /// The caller passed an argument the store cannot accept.
        public static let invalidArgument = Code(name: "invalidArgument")
        /// A file or system call failed.
        public static let ioFailure = Code(name: "ioFailure")
        /// The store was closed.
        public static let closed = Code(name: "closed")
    }

    public var code: Code
    public var message: String
    /// For ``Code/notCached``: the sub-ranges that are missing.
    public var missing: [ByteRange]
    /// The underlying file error, when there is one.
    public var fileError: SparseFileError?

    public init(_ code: Code, _ message: String, missing: [ByteRange] = [], fileError: SparseFileError? = nil) {
        self.code = code
        self.message = message
        self.missing = missing
        self.fileError = fileError
    }

    public static func == (lhs: CacheStoreError, rhs: CacheStoreError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { message }

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
