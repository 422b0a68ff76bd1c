public import CodedErrors

/// A parsed `sidx` box (ISO/IEC 14496-12 section 8.16.3, Segment Index Box): what turns a
/// `SegmentBase@indexRange` into the byte ranges and times of the segments of one file.
///
/// Bounded by construction: the box must lie inside the given bytes, its size must match its
/// reference count exactly, and every offset is computed with overflow checks.
///
/// ```swift
/// // indexBytes: the bytes of SegmentBase@indexRange, fetched with a Range request.
/// let index = try DASHSegmentIndex(parsing: indexBytes, fileOffset: indexRange.first)
/// for reference in index.references { print(reference.range, reference.duration) }
/// ```
public struct DASHSegmentIndex: Hashable, Sendable {
    /// One reference of the box: a media subsegment, or (``isIndex``) another `sidx` box.
    public struct Reference: Hashable, Sendable {
        /// `reference_type` 1: the range holds another `sidx` box, not media.
        public var isIndex: Bool
        /// Where the referenced bytes are in the file.
        public var range: DASHByteRange
        /// `subsegment_duration`, in ``DASHSegmentIndex/timescale`` units.
        public var duration: UInt64
        /// Presentation time of the subsegment's start, in timescale units.
        public var time: UInt64
        /// `starts_with_SAP`.
        public var startsWithSAP: Bool
        /// `SAP_type` (0-7).
        public var sapType: UInt8
    }

    /// The box version: 0 (32-bit times and offset) or 1 (64-bit).
    public var version: UInt8
    /// `reference_ID`: the track it indexes.
    public var referenceID: UInt32
    /// `timescale` of its times and durations.
    public var timescale: UInt32
    /// `earliest_presentation_time`.
    public var earliestPresentationTime: UInt64
    /// `first_offset`: from the first byte after the box to the first referenced byte.
    public var firstOffset: UInt64
    /// The references in order, with file byte ranges.
    public var references: [Reference]
    /// Where the box itself is in the file.
    public var boxRange: DASHByteRange

    /// Finds the first `sidx` box in `bytes` (skipping other boxes, as an `indexRange` may start
    /// with a `styp`) and reads it. `fileOffset` is where `bytes` start in the media file: the
    /// first byte of `@indexRange`.
    public init(parsing bytes: [UInt8], fileOffset: UInt64 = 0) throws(DASHIndexError) {
        var reader = BoxReader(bytes: bytes[...])
        while true {
            guard reader.remaining >= 8 else {
                throw DASHIndexError(code: .notFound, message: "no sidx box in the \(bytes.count) bytes", offset: reader.offset)
            }
            let boxStart = reader.offset
            let (size, type, headerLength) = try reader.boxHeader()
            guard size <= UInt64(bytes.count - boxStart) else {
                throw DASHIndexError(code: .truncated, message: "a \(type) box of \(size) bytes runs past the end of the \(bytes.count) bytes", offset: boxStart)
            }
            let boxEnd = boxStart + Int(size)
            if type == "sidx" {
                self = try Self.parseBody(&reader, boxStart: boxStart, boxEnd: boxEnd, headerLength: headerLength,
                                          fileOffset: fileOffset)
                return
            }
            try reader.skip(to: boxEnd)
        }
    }

    private static func parseBody(_ reader: inout BoxReader, boxStart: Int, boxEnd: Int, headerLength: Int,
                                  fileOffset: UInt64) throws(DASHIndexError) -> DASHSegmentIndex {
        reader.limit = boxEnd
        let versionAndFlags = try reader.uint32()
        let version = UInt8(versionAndFlags >> 24)
        guard version <= 1 else {
            throw DASHIndexError(code: .unsupportedVersion, message: "sidx version \(version)", offset: boxStart + headerLength)
        }
        let referenceID = try reader.uint32()
        let timescale = try reader.uint32()
        guard timescale > 0 else { throw DASHIndexError(code: .malformed, message: "sidx timescale 0", offset: reader.offset - 4) }
        let earliest = version == 0 ? UInt64(try reader.uint32()) : try reader.uint64()
        let firstOffset = version == 0 ? UInt64(try reader.uint32()) : try reader.uint64()
        _ = try reader.uint16()
        let count = Int(try reader.uint16())
        guard reader.limit - reader.offset == count * 12 else {
            throw DASHIndexError(code: .malformed, message: "sidx box of \(boxEnd - boxStart) bytes does not hold exactly its \(count) references", offset: boxStart)
        }
        let overflow = DASHIndexError(code: .overflow, message: "sidx offsets or times run past 2^64-1", offset: boxStart)
        let (boxFirst, o1) = fileOffset.addingReportingOverflow(UInt64(boxStart))
        let (anchor, o2) = fileOffset.addingReportingOverflow(UInt64(boxEnd))
        var (position, o3) = anchor.addingReportingOverflow(firstOffset)
        guard !o1, !o2, !o3, let boxRange = DASHByteRange(first: boxFirst, last: anchor - 1) else { throw overflow }
        var time = earliest
        var references: [Reference] = []
        references.reserveCapacity(count)
        for _ in 0..<count {
            let typeAndSize = try reader.uint32()
            let duration = UInt64(try reader.uint32())
            let sap = try reader.uint32()
            let size = UInt64(typeAndSize & 0x7FFF_FFFF)
            guard size > 0 else {
                throw DASHIndexError(code: .malformed, message: "a sidx reference of 0 bytes", offset: reader.offset - 12)
            }
            let (next, sizeOverflow) = position.addingReportingOverflow(size)
            guard !sizeOverflow, let range = DASHByteRange(first: position, last: next - 1) else { throw overflow }
            references.append(Reference(isIndex: typeAndSize >> 31 == 1, range: range, duration: duration, time: time,
                                        startsWithSAP: sap >> 31 == 1, sapType: UInt8((sap >> 28) & 0x7)))
            let (nextTime, timeOverflow) = time.addingReportingOverflow(duration)
            guard !timeOverflow else { throw overflow }
            position = next
            time = nextTime
        }
        return DASHSegmentIndex(version: version, referenceID: referenceID, timescale: timescale,
                                earliestPresentationTime: earliest, firstOffset: firstOffset, references: references,
                                boxRange: boxRange)
    }

    private init(version: UInt8, referenceID: UInt32, timescale: UInt32, earliestPresentationTime: UInt64,
                 firstOffset: UInt64, references: [Reference], boxRange: DASHByteRange) {
        self.version = version
        self.referenceID = referenceID
        self.timescale = timescale
        self.earliestPresentationTime = earliestPresentationTime
        self.firstOffset = firstOffset
        self.references = references
        self.boxRange = boxRange
    }
}

/// Why a `sidx` box could not be read, and at which byte of the given bytes.
public struct DASHIndexError: CodedError {
    /// Why reading failed. Codes are stable strings.
    public typealias Code = ErrorCode<DASHIndexError>

    /// Why.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Offset into the given bytes.
    public var offset: Int

    /// An error at byte `offset` of the given bytes.
    public init(code: Code, message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// `byte N` of the given bytes.
    public var location: String? { "byte \(offset)" }
}

extension ErrorCode where Domain == DASHIndexError {
    /// No `sidx` box in the bytes.
    public static var notFound: Self { Self(rawValue: "not-found") }

    /// A box runs past the end of the bytes.
    public static var truncated: Self { Self(rawValue: "truncated") }

    /// A field is impossible (size below the header, timescale 0, wrong reference count).
    public static var malformed: Self { Self(rawValue: "malformed") }

    /// A `sidx` version other than 0 and 1.
    public static var unsupportedVersion: Self { Self(rawValue: "unsupported-version") }

    /// Offsets or times past 2^64-1.
    public static var overflow: Self { Self(rawValue: "overflow") }
}
