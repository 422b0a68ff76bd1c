#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(CustomByteBufferAllocator) import NIOCore
import SparseFile
import Synchronization

/// A cache file mapped read-only by ``MappedCacheFiles``.
///
/// `lastUse` and `touched` are read and written only under `MappedCacheFiles`' lock,
/// `references` and `isRetired` only under ``MappedBufferLedger``'s; the rest never changes.
final class Mapping: @unchecked Sendable {
    let file: SparseFile
    /// The store key of the file, to tell when the store no longer holds it.
    let key: String
    let descriptorGeneration: UInt64
    let address: UnsafeMutableRawPointer
    /// Where in the file the mapping starts, and how many bytes it covers.
    let fileOffset: Int
    let length: Int
    var lastUse: UInt64 = 0
    /// The 64 KiB pieces of the mapping written from so far: a fault maps the pages around
    /// it up to that size, so these bound the pages the mapping brought into the process's
    /// resident set.
    private(set) var touched: [UInt64]
    private(set) var resident = 0
    static let pieceSize = 64 * 1024
    /// The live buffers over it.
    var references = 0
    /// Dropped from its cache: unmapped once no buffer is over it; no new buffer is made.
    var isRetired = false

    init(file: SparseFile, key: String, descriptorGeneration: UInt64, address: UnsafeMutableRawPointer, fileOffset: Int, length: Int) {
        self.file = file
        self.key = key
        self.descriptorGeneration = descriptorGeneration
        self.address = address
        self.fileOffset = fileOffset
        self.length = length
        touched = Array(repeating: 0, count: (length / Self.pieceSize + 64) / 64)
    }

    /// Marks `count` bytes from `offset` (in the mapping) as written from; returns how many
    /// bytes that adds to ``resident``.
    func touch(_ count: Int, at offset: Int) -> Int {
        guard count > 0 else { return 0 }
        var added = 0
        for piece in offset / Self.pieceSize...(offset + count - 1) / Self.pieceSize {
            let (word, bit) = (piece / 64, UInt64(1) << UInt64(piece % 64))
            guard touched[word] & bit == 0 else { continue }
            touched[word] |= bit
            added += min(Self.pieceSize, length - piece * Self.pieceSize)
        }
        resident += added
        return added
    }
}

/// Which mapping each `ByteBuffer` made over one points into, so that a mapping is unmapped
/// only when it is retired and the last buffer over it is gone.
///
/// SwiftNIO lets a `ByteBuffer` own foreign memory through an allocator whose functions are C
/// functions, told only a pointer: they cannot reach an instance, so the ledger is global (one
/// per process, shared by every proxy in it).
enum MappedBufferLedger {
    private struct State {
        /// The buffers alive per start address: the mapping they point into and how many.
        var buffers: [UInt: (mapping: Mapping, count: Int)] = [:]
    }

    private static let state = Mutex(State())

    /// The buffer's functions: memory it did not get from the ledger (a copy made on a write,
    /// which the proxy never does) is the C heap's.
    private static let allocator = ByteBufferAllocator(
        allocate: { malloc($0) },
        reallocate: { pointer, oldSize, newSize in
            guard let pointer, MappedBufferLedger.isOverMapping(pointer) else { return realloc(pointer, newSize) }
            let copy = malloc(newSize)
            if let copy { copy.copyMemory(from: pointer, byteCount: min(oldSize, newSize)) }
            _ = MappedBufferLedger.release(pointer)
            return copy
        },
        deallocate: { pointer in
            if !MappedBufferLedger.release(pointer) { free(pointer) }
        },
        copy: { $0.copyMemory(from: $1, byteCount: $2) })

    /// `count` bytes of `mapping` from `offset`, in a read-only buffer that keeps the mapping;
    /// nil when the mapping was retired meanwhile (it may be unmapped already).
    static func buffer(over mapping: Mapping, offset: Int, count: Int) -> ByteBuffer? {
        let start = mapping.address + offset
        let taken = state.withLock { state -> Bool in
            guard !mapping.isRetired else { return false }
            state.buffers[UInt(bitPattern: start), default: (mapping, 0)].count += 1
            mapping.references += 1
            return true
        }
        guard taken else { return nil }
        return ByteBuffer(takingOwnershipOf: UnsafeMutableRawBufferPointer(start: start, count: count), allocator: allocator)
    }

    /// Unmaps `mapping` now if no buffer points into it, or when the last one goes.
    static func retire(_ mapping: Mapping) {
        let unused = state.withLock { _ -> Bool in
            guard !mapping.isRetired else { return false }
            mapping.isRetired = true
            return mapping.references == 0
        }
        if unused { munmap(mapping.address, mapping.length) }
    }

    private static func isOverMapping(_ pointer: UnsafeMutableRawPointer) -> Bool {
        state.withLock { $0.buffers[UInt(bitPattern: pointer)] != nil }
    }

    /// Forgets a buffer over a mapping that starts at `pointer`, unmapping the mapping when it
    /// was retired and this was its last buffer; false when no such buffer is alive (the memory
    /// is the C heap's). One lock, as a buffer goes with every response written from a mapping.
    private static func release(_ pointer: UnsafeMutableRawPointer) -> Bool {
        let (known, unmapped) = state.withLock { state -> (Bool, Mapping?) in
            let key = UInt(bitPattern: pointer)
            guard let entry = state.buffers[key] else { return (false, nil) }
            state.buffers[key] = entry.count > 1 ? (entry.mapping, entry.count - 1) : nil
            entry.mapping.references -= 1
            return (true, entry.mapping.references == 0 && entry.mapping.isRetired ? entry.mapping : nil)
        }
        if let unmapped { munmap(unmapped.address, unmapped.length) }
        return known
    }
}
