import NIOCore
import SparseFile

extension SparseFile {
    /// A `FileRegion` that sends original bytes `bytes` from this file with `sendfile`, when all
    /// of them were verified in this process (read before, or written by its own fill) and lie in
    /// one contiguous run of the file; nil otherwise. The region owns a duplicate descriptor,
    /// which `ConnectionFileHandles` closes once the region is written; one that is never written
    /// must be closed by its owner. With it, which of the file's descriptors it duplicates (see
    /// ``SparseFile/ContiguousRun``).
    func fileRegion(for bytes: ByteRange) -> (region: FileRegion, descriptorGeneration: UInt64)? {
        // One lookup first: only bytes in one verified run become a region, so a descriptor is
        // duplicated only to be used.
        guard verifiedRun(for: bytes) != nil, let region = verifiedRegion(for: bytes), region.spans.count == 1,
              let span = region.spans.first else { return nil }
        let generation = region.descriptorGeneration
        // NIO sends files only as a FileRegion over a NIOFileHandle, which takes the duplicate.
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: region.takeDescriptor())
        guard let fileRegion = FileRegion(handle, at: span.fileOffset, length: span.length) else {
            try? handle.close()
            return nil
        }
        return (fileRegion, generation)
    }
}

extension FileRegion {
    /// `length` bytes of `handle`'s file from `offset`; nil past what `Int` holds.
    init?(_ handle: NIOFileHandle, at offset: UInt64, length: UInt64) {
        guard let start = Int(exactly: offset), let count = Int(exactly: length) else { return nil }
        self.init(fileHandle: handle, readerIndex: start, endIndex: start + count)
    }
}
