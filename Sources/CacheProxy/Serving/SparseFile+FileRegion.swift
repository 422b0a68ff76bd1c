import NIOCore
import SparseFile

extension SparseFile {
    /// A `FileRegion` that sends original bytes `bytes` from this file with `sendfile`, when all
    /// of them were verified in this process (read before, or written by its own fill) and lie in
    /// one contiguous run of the file; nil otherwise. The region owns a duplicate descriptor,
    /// which `ConnectionFileHandles` closes once the region is written; one that is never written
    /// must be closed by its owner.
    func fileRegion(for bytes: ByteRange) -> FileRegion? {
        guard let region = verifiedRegion(for: bytes) else { return nil }
        // NIO sends files only as a FileRegion over a NIOFileHandle, which takes the duplicate.
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: region.descriptor)
        guard region.spans.count == 1, let span = region.spans.first,
              let start = Int(exactly: span.fileOffset), let length = Int(exactly: span.length) else {
            try? handle.close()
            return nil
        }
        return FileRegion(fileHandle: handle, readerIndex: start, endIndex: start + length)
    }
}
