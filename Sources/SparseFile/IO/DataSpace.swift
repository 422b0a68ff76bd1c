/// Reads and writes the data space of a file by data offset, splitting transfers where a
/// group's checksum page interrupts the file (see ``FileLayout``).
struct DataSpace {
    let descriptor: FileDescriptor

    /// Reads `buffer.count` bytes from `dataOffset`; returns fewer only when the file ends.
    func read(into buffer: UnsafeMutableRawBufferPointer, at dataOffset: UInt64) throws(SparseFileError) -> Int {
        var done = 0
        while done < buffer.count {
            let position = dataOffset + UInt64(done)
            let run = min(UInt64(buffer.count - done), FileLayout.contiguousDataLength(from: position))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + Int(run)])
            let got = try descriptor.read(into: slice, at: FileLayout.fileOffset(ofData: position))
            done += got
            if got < Int(run) { break }
        }
        return done
    }

    func readBytes(count: Int, at dataOffset: UInt64) throws(SparseFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withMutableBytes { buffer throws(SparseFileError) in
            try read(into: buffer, at: dataOffset)
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    func write(_ buffer: UnsafeRawBufferPointer, at dataOffset: UInt64) throws(SparseFileError) {
        var done = 0
        while done < buffer.count {
            let position = dataOffset + UInt64(done)
            let run = Int(min(UInt64(buffer.count - done), FileLayout.contiguousDataLength(from: position)))
            try descriptor.write(UnsafeRawBufferPointer(rebasing: buffer[done..<done + run]),
                                 at: FileLayout.fileOffset(ofData: position))
            done += run
        }
    }

    /// The stored checksums of blocks `first..<first + count`; a block past the end of the file
    /// reads as checksum 0, which no real block hashes to in practice and so fails verification.
    func readChecksums(from first: UInt64, count: Int) throws(SparseFileError) -> [UInt64] {
        var checksums: [UInt64] = []
        checksums.reserveCapacity(count)
        var block = first
        let end = first + UInt64(count)
        while block < end {
            let inGroup = min(end - block, FileLayout.blocksPerGroup - block % FileLayout.blocksPerGroup)
            let bytes = try descriptor.readBytes(count: Int(inGroup) * 8, at: FileLayout.fileOffset(ofChecksumFor: block))
            var reader = ByteReader(bytes)
            for _ in 0..<inGroup { checksums.append(reader.readLittleEndianUInt64() ?? 0) }
            block += inGroup
        }
        return checksums
    }

    /// Writes checksum entries for consecutive blocks starting at `first`.
    func writeChecksums(_ checksums: ArraySlice<UInt64>, from first: UInt64) throws(SparseFileError) {
        var index = checksums.startIndex
        var block = first
        while index < checksums.endIndex {
            let inGroup = min(UInt64(checksums.endIndex - index), FileLayout.blocksPerGroup - block % FileLayout.blocksPerGroup)
            var writer = ByteWriter(capacity: Int(inGroup) * 8)
            for checksum in checksums[index..<index + Int(inGroup)] { writer.appendLittleEndian(checksum) }
            try descriptor.write(writer.bytes, at: FileLayout.fileOffset(ofChecksumFor: block))
            index += Int(inGroup)
            block += inGroup
        }
    }
}
