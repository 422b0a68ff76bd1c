import ArgumentParser
import SparseFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache file write FILE --offset N [--total-length L] [--key K]`: stores standard input
/// at original offset N, creating FILE when needed, and exits 0 once the bytes are committed.
struct FileWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Store standard input's bytes at an original offset of a cache file."
    )

    @Argument(help: "The cache file (created when missing).")
    var file: String

    @Option(help: "The original offset of the first byte read from standard input.")
    var offset: UInt64

    @Option(help: "The total length of the resource, when known.")
    var totalLength: UInt64?

    @Option(help: "The cache key (default: FILE as given). Must match an existing file's key.")
    var key: String?

    @Option(help: "Commit after every this many bytes (default 2097152).")
    var commitInterval: UInt64 = 2 << 20

    @Option(help: "When to fdatasync: none, ordered or full.")
    var durability: DurabilityArgument = .init(.ordered)

    func run() throws(CommandFailure) {
        let options = SparseFileOptions(durability: durability.value, autoCommitInterval: commitInterval)
        let metadata = ResourceMetadata(key: key ?? file, contentLength: totalLength)
        try failingWithExitCode { () throws(SparseFileError) in
            let cacheFile: SparseFile
            if let key {
                cacheFile = try SparseFile.openOrCreate(at: file, metadata: ResourceMetadata(key: key, contentLength: totalLength), options: options)
            } else {
                cacheFile = try Self.openAnyKeyOrCreate(at: file, metadata: metadata, options: options)
            }
            if let totalLength, cacheFile.contentLength != totalLength {
                if let known = cacheFile.contentLength {
                    throw SparseFileError(.conflict, "total length \(totalLength) differs from the file's \(known)", path: file)
                }
                try cacheFile.updateMetadata { $0.contentLength = totalLength }
            }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            var position = offset
            while true {
                let count = buffer.withUnsafeMutableBytes { StandardInput.read(into: $0) }
                guard count > 0 else {
                    if count < 0 { throw SparseFileError(.ioFailure, "reading standard input failed", errno: errno) }
                    break
                }
                let stored: Result<UInt64, SparseFileError> = buffer.withUnsafeBytes { bytes in
                    Result { () throws(SparseFileError) in
                        try cacheFile.write(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: position)
                    }
                }
                _ = try stored.get()
                position += UInt64(count)
            }
            try cacheFile.close()
        }
    }

    private static func openAnyKeyOrCreate(at path: String, metadata: ResourceMetadata, options: SparseFileOptions) throws(SparseFileError) -> SparseFile {
        do {
            return try SparseFile.open(at: path, mode: .readWrite, options: options)
        } catch where error.errno == ENOENT {
            return try SparseFile.create(at: path, metadata: metadata, options: options)
        }
    }
}
