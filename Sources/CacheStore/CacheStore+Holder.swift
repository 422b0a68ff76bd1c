#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import SparseFile

/// Who writes a store, and how to reach it: the lock file names the process that holds it, and
/// `DIR/control` beside it holds the address that process recorded. `package`: this is how
/// `sparsecache` commands reach a running reference proxy; other servers do not speak its
/// control API.
extension CacheStore {
    /// The longest control address kept.
    static let maximumControlAddressLength = 1024

    /// The process that has the store at `directory` open for writing, or nil when none does.
    /// Any process may ask; this one's own writer counts too. A held lock is tried again for
    /// up to 100 ms before it counts (a forked child holds it for an instant after its holder
    /// let go), so the answer "held" takes that long.
    package static func holder(of directory: String) -> StoreHolder? {
        let layout = StoreDirectory(root: directory, calls: .live)
        guard let lock = try? FileDescriptor.open(layout.lockPath, flags: O_RDONLY, calls: .live),
              (try? lock.isLockedForWriting()) == true else { return nil }
        let address = layout.readBytes(layout.controlPath, limit: maximumControlAddressLength + 1)
            .map { String(decoding: $0, as: UTF8.self).trimmingWhitespace() }
        return StoreHolder(processIdentifier: StoreDirectory.processIdentifier(in: (try? lock.readAll(limit: 64)) ?? []),
                           controlAddress: address?.isEmpty == false ? address : nil)
    }

    /// Records where this process can be reached, for ``holder(of:)`` to report; nil removes
    /// it. The address is removed when the store closes, and a stale one (left by a process
    /// that died) is removed when the store is next opened for writing.
    ///
    /// - Throws: `CacheStoreError.Code.readOnly`; `CacheStoreError.Code.invalidArgument` for
    ///   an address longer than 1024 bytes or of more than one line.
    package func setControlAddress(_ address: String?) throws(CacheStoreError) {
        try checkWritable()
        guard let address else {
            layout.remove(layout.controlPath)
            return
        }
        guard address.utf8.count <= Self.maximumControlAddressLength, !address.contains(where: \.isNewline) else {
            throw CacheStoreError(.invalidArgument, "a control address is one line of at most \(Self.maximumControlAddressLength) bytes")
        }
        try layout.writeAtomically(Array((address + "\n").utf8), to: layout.controlPath, synchronize: false)
    }
}
