extension SparseFile {
    /// Where some verified bytes of the file lie, for sending them without copying them through
    /// the process (`sendfile`, SwiftNIO's `FileRegion`).
    ///
    /// The region owns a duplicate of the file's descriptor and closes it when it goes away,
    /// unless ``takeDescriptor()`` hands it on. The duplicate names the same file the bytes were
    /// verified in, even if the file is later evicted, replaced or compacted (its bytes never
    /// move or change while it is open).
    public struct VerifiedRegion: ~Copyable, Sendable {
        private let descriptor: OwnedDescriptor
        /// The file offset and length of each contiguous run of the requested bytes, in order.
        public let spans: [(fileOffset: UInt64, length: UInt64)]
        /// Which of the file's descriptors this region's duplicates; see ``verifiedRun(for:)``.
        public let descriptorGeneration: UInt64

        init(descriptor: Int32, spans: [(fileOffset: UInt64, length: UInt64)], descriptorGeneration: UInt64) {
            self.descriptor = OwnedDescriptor(rawValue: descriptor)
            self.spans = spans
            self.descriptorGeneration = descriptorGeneration
        }

        /// The descriptor, for reading the spans while the region is kept.
        public var rawDescriptor: Int32 { descriptor.rawValue }

        /// Hands the descriptor to the caller, who then owns it and must close it.
        public consuming func takeDescriptor() -> Int32 {
            descriptor.take()
        }
    }

    /// A descriptor closed when it goes away unless taken.
    struct OwnedDescriptor: ~Copyable, Sendable {
        let rawValue: Int32

        deinit { _ = SystemCalls.live.close(rawValue) }

        consuming func take() -> Int32 {
            let rawValue = rawValue
            discard self
            return rawValue
        }
    }

    /// Where original bytes lie in one contiguous run of the file, without duplicating a
    /// descriptor: for a caller that keeps the descriptor of an earlier ``verifiedRegion(for:)``
    /// and sends many ranges from it, or maps the file.
    public struct ContiguousRun: Sendable, Hashable {
        /// The offset in the file of the first byte.
        public let fileOffset: UInt64
        /// The run's offset is valid for a descriptor duplicated by a ``VerifiedRegion`` of the
        /// same generation only: compaction moves bytes and gives the file a new descriptor.
        public let descriptorGeneration: UInt64
    }

    /// The run holding original bytes `range`, when they are cached, verified in this process
    /// and contiguous in the file; nil otherwise (``verifiedRegion(for:)`` then tells more).
    /// Costs one lookup: no descriptor, no allocation.
    public func verifiedRun(for range: ByteRange) -> ContiguousRun? {
        guard !range.isEmpty else { return nil }
        return state.withLock { state in
            guard state.descriptor != nil, let offset = Self.singleVerifiedRun(range, in: state) else { return nil }
            return ContiguousRun(fileOffset: offset, descriptorGeneration: state.descriptorGeneration)
        }
    }

    /// The run holding original bytes `range`, when they are cached and contiguous in the file,
    /// verified or not: where a mapping of them lies. Only bytes ``verifiedRun(for:)`` gives
    /// out may be served from it; a mapping of a large file must not wait until every byte of
    /// it was read in this process, nor stop being made when some of its blocks must be
    /// verified again (``requireVerificationAgain(within:)``).
    public func cachedRun(for range: ByteRange) -> ContiguousRun? {
        guard !range.isEmpty else { return nil }
        return state.withLock { state in
            guard state.descriptor != nil, let extent = state.map.extent(covering: range) else { return nil }
            let data = extent.dataOffset(of: range.offset)
            guard FileLayout.contiguousDataLength(from: data) >= range.length else { return nil }
            return ContiguousRun(fileOffset: FileLayout.fileOffset(ofData: data), descriptorGeneration: state.descriptorGeneration)
        }
    }

    /// The file offset of `range` when it lies in one verified extent and in one contiguous run
    /// of the file (the common case of a hit).
    private static func singleVerifiedRun(_ range: ByteRange, in state: State) -> UInt64? {
        guard let data = state.verifiedDataOffset(of: range), FileLayout.contiguousDataLength(from: data) >= range.length
        else { return nil }
        return FileLayout.fileOffset(ofData: data)
    }

    /// The file regions that hold original bytes `range`, when every one of them is cached and
    /// every block they lie in has already passed its checksum in this process; nil otherwise
    /// (read the bytes instead: reading verifies them, and a later call then succeeds).
    ///
    /// Sending these regions gives the same guarantee as ``read(into:at:)``: no byte that failed
    /// or skipped verification is ever served. Costs a lookup and a `dup`, no I/O.
    public func verifiedRegion(for range: ByteRange) -> VerifiedRegion? {
        guard !range.isEmpty else { return nil }
        let found = state.withLock { state -> (FileDescriptor, UInt64, [(UInt64, UInt64)])? in
            guard let descriptor = state.descriptor else { return nil }
            let generation = state.descriptorGeneration
            if let offset = Self.singleVerifiedRun(range, in: state) { return (descriptor, generation, [(offset, range.length)]) }
            var spans: [(UInt64, UInt64)] = []
            var complete = true
            state.map.walk(range, present: { piece, data in
                guard complete else { return }
                guard state.verified.containsAll(
                    from: FileLayout.block(containing: data), through: FileLayout.block(containing: data + piece.length - 1))
                else {
                    complete = false
                    return
                }
                Self.appendFileSpans(ofData: data, length: piece.length, to: &spans)
            }, missing: { _ in complete = false })
            return complete ? (descriptor, generation, spans) : nil
        }
        // The descriptor object stays open while `found` holds it, so the duplicate names it.
        guard let (descriptor, generation, spans) = found, let duplicate = descriptor.duplicate() else { return nil }
        return VerifiedRegion(descriptor: duplicate, spans: spans.map { (fileOffset: $0.0, length: $0.1) },
                              descriptorGeneration: generation)
    }

    /// Appends the file offsets and lengths of data bytes `data..<data + length` to `spans`,
    /// joining a run that continues the last span (checksum pages interrupt the data space).
    static func appendFileSpans(ofData data: UInt64, length: UInt64, to spans: inout [(UInt64, UInt64)]) {
        var position = data
        let end = data + length
        while position < end {
            let run = min(end - position, FileLayout.contiguousDataLength(from: position))
            let fileOffset = FileLayout.fileOffset(ofData: position)
            if let previous = spans.last, previous.0 + previous.1 == fileOffset {
                spans[spans.count - 1].1 += run
            } else {
                spans.append((fileOffset, run))
            }
            position += run
        }
    }
}
