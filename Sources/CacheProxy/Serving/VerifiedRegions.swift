#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CacheStore
import SparseFile
import Synchronization

/// Where cached bytes that have passed their checksum lie in their cache file, so that later
/// requests for them can be sent with `sendfile` instead of being copied through the process.
///
/// A range is recorded only after `SparseFile.read` returned it complete, which verified every
/// block it touches; `SparseFile` itself never verifies a block twice in one process, so
/// sending those file bytes later gives the same guarantee as reading them again. Data bytes
/// of a cache file never move or change once written (the data space is append-only; only
/// `compact()`, which the proxy never calls, rewrites a file, and under a new inode), and the
/// descriptor kept here is opened while the file is the entry's current one, so it keeps
/// naming those bytes even after the entry is evicted or replaced.
///
/// File offsets follow `Docs/FORMAT.md`, section 1: data offset `d` lies at file offset
/// `2 MiB + g·(2^30 + 2 MiB) + 2 MiB + d mod 2^30`, `g = d / 2^30`.
final class VerifiedRegions: Sendable {
    private struct Piece {
        var range: ByteRange
        var fileOffset: UInt64
    }

    private struct Entry {
        weak var file: SparseFile?
        var descriptor: Int32
        var pieces: [Piece]
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    /// Files remembered, and verified pieces per file; past these the oldest are dropped (it
    /// only costs a copy the next time).
    private static let fileCapacity = 256
    private static let pieceCapacity = 4096

    deinit {
        entries.withLock { entries in
            for entry in entries.values { close(entry.descriptor) }
        }
    }

    /// Records that `range` of `file` was read complete (so verified) through `reader`, when
    /// `file` is still the entry's current file.
    func recordVerified(_ range: ByteRange, of file: SparseFile, reader: EntryReader) {
        let identifier = ObjectIdentifier(file)
        let (known, covered) = entries.withLock { entries -> (Bool, Bool) in
            guard let entry = entries[identifier], entry.file === file else { return (false, false) }
            return (true, entry.pieces.contains { $0.range.offset <= range.offset && range.end <= $0.range.end })
        }
        guard !covered else { return }
        var opened: Int32?
        if !known {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            // Opened while the file is current: the path still names the inode it reads.
            guard descriptor >= 0 else { return }
            guard reader.file === file else {
                close(descriptor)
                return
            }
            opened = descriptor
        }
        let pieces = Self.pieces(of: range, in: file)
        let stale = entries.withLock { entries -> [Int32] in
            var stale: [Int32] = []
            if let opened {
                if let previous = entries[identifier] { stale.append(previous.descriptor) }
                entries[identifier] = Entry(file: file, descriptor: opened, pieces: [])
                for (key, entry) in entries where entry.file == nil {
                    stale.append(entry.descriptor)
                    entries[key] = nil
                }
                if entries.count > Self.fileCapacity, let victim = entries.first(where: { $0.key != identifier }) {
                    stale.append(victim.value.descriptor)
                    entries[victim.key] = nil
                }
            }
            guard var entry = entries[identifier], entry.file === file else { return stale }
            for piece in pieces where !entry.pieces.contains(where: { $0.range.offset <= piece.range.offset && piece.range.end <= $0.range.end }) {
                // A stream records its chunks in order: extend the last piece when the new one
                // follows it in the resource and in the file.
                if let last = entry.pieces.last, last.range.end == piece.range.offset,
                   last.fileOffset + last.range.length == piece.fileOffset,
                   let joined = ByteRange(offset: last.range.offset, length: last.range.length + piece.range.length) {
                    entry.pieces[entry.pieces.count - 1].range = joined
                } else {
                    entry.pieces.append(piece)
                }
            }
            if entry.pieces.count > Self.pieceCapacity { entry.pieces.removeFirst(entry.pieces.count - Self.pieceCapacity) }
            entries[identifier] = entry
            return stale
        }
        for descriptor in stale { close(descriptor) }
    }

    /// A new descriptor (the caller closes it) and the file offset of `range` of `file`, when
    /// all of `range` was verified and lies in one recorded piece.
    func region(for range: ByteRange, of file: SparseFile) -> (descriptor: Int32, fileOffset: UInt64)? {
        entries.withLock { entries in
            guard let entry = entries[ObjectIdentifier(file)], entry.file === file,
                  let piece = entry.pieces.last(where: { $0.range.offset <= range.offset && range.end <= $0.range.end })
            else { return nil }
            let descriptor = dup(entry.descriptor)
            guard descriptor >= 0 else { return nil }
            return (descriptor, piece.fileOffset + (range.offset - piece.range.offset))
        }
    }

    /// `range` as pieces contiguous in the file: within one extent and one data group.
    private static func pieces(of range: ByteRange, in file: SparseFile) -> [Piece] {
        let groupSize: UInt64 = 1 << 30
        var pieces: [Piece] = []
        for extent in file.storedExtents {
            guard let overlap = extent.range.intersection(range), !overlap.isEmpty else { continue }
            var offset = overlap.offset
            while offset < overlap.end {
                let data = extent.dataOffset + (offset - extent.range.offset)
                let group = data / groupSize
                let inGroup = min(overlap.end - offset, groupSize - data % groupSize)
                let fileOffset = (2 << 20) + group * (groupSize + (2 << 20)) + (2 << 20) + data % groupSize
                if let piece = ByteRange(offset: offset, length: inGroup) {
                    pieces.append(Piece(range: piece, fileOffset: fileOffset))
                }
                offset += inGroup
            }
        }
        return pieces
    }
}
