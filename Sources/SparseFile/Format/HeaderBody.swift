/// The variable part of a header: resource metadata and the range table (Docs/FORMAT.md,
/// "Header body"). Stored inline in its slot when it fits, otherwise zlib-compressed in a
/// spill area.
struct HeaderBody: Equatable {
    var metadata: ResourceMetadata
    var extents: [Extent]

    /// Field tags. Even tags must be understood by a reader; odd tags are ancillary and skipped
    /// when unknown, so later versions can add optional fields without a version bump.
    enum Tag: UInt64 {
        case key = 2
        case entityTag = 4
        case lastModified = 6
        case contentType = 8
        case attribute = 10
        case extents = 12
    }

    /// Limits a decoder enforces on untrusted bodies.
    static let maximumStringLength = 64 * 1024
    static let maximumAttributeCount = 4096

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + metadata.key.utf8.count + extents.count * 8)
        func field(_ tag: Tag, _ value: String?) {
            guard let value else { return }
            writer.appendVarint(tag.rawValue)
            writer.appendLengthPrefixed(Array(value.utf8))
        }
        field(.key, metadata.key)
        field(.entityTag, metadata.entityTag)
        field(.lastModified, metadata.lastModified)
        field(.contentType, metadata.contentType)
        for name in metadata.attributes.keys.sorted() {
            var pair = ByteWriter()
            pair.appendLengthPrefixed(Array(name.utf8))
            pair.appendLengthPrefixed(Array((metadata.attributes[name] ?? "").utf8))
            writer.appendVarint(Tag.attribute.rawValue)
            writer.appendLengthPrefixed(pair.bytes)
        }
        var table = ByteWriter(capacity: extents.count * 8 + 8)
        table.appendVarint(UInt64(extents.count))
        var previousOriginalEnd: UInt64 = 0
        var previousDataEnd: UInt64 = 0
        for extent in extents {
            table.appendVarint(extent.original - previousOriginalEnd)
            table.appendVarint(extent.length)
            table.appendVarint(Self.zigzag(extent.data, from: previousDataEnd))
            previousOriginalEnd = extent.originalEnd
            previousDataEnd = extent.dataEnd
        }
        writer.appendVarint(Tag.extents.rawValue)
        writer.appendLengthPrefixed(table.bytes)
        return writer.bytes
    }

    /// Decodes and validates a body. `extentCount` comes from the slot's fixed fields and bounds
    /// the allocation before any extent is read.
    static func decode(_ bytes: [UInt8], extentCount: UInt64) throws(SparseFileError) -> HeaderBody {
        var reader = ByteReader(bytes)
        var key: String?
        var metadata = ResourceMetadata(key: "")
        var extents: [Extent]?
        while !reader.isAtEnd {
            guard let rawTag = reader.readVarint() else { throw .corrupt("truncated field tag in header body") }
            guard let tag = Tag(rawValue: rawTag) else {
                if rawTag % 2 == 1 {
                    guard reader.readLengthPrefixed(limit: Int.max) != nil else {
                        throw .corrupt("truncated ancillary field \(rawTag) in header body")
                    }
                    continue
                }
                throw SparseFileError(.unsupportedVersion, "header body has required field \(rawTag) this version does not know")
            }
            switch tag {
            case .key:
                guard key == nil else { throw .corrupt("header body has two keys") }
                key = try readString(&reader, "key")
            case .entityTag: try readOnce(&metadata.entityTag, &reader, "entity tag")
            case .lastModified: try readOnce(&metadata.lastModified, &reader, "last-modified")
            case .contentType: try readOnce(&metadata.contentType, &reader, "content type")
            case .attribute:
                guard metadata.attributes.count < maximumAttributeCount else {
                    throw SparseFileError(.limitExceeded, "header body has more than \(maximumAttributeCount) attributes")
                }
                guard let pair = reader.readLengthPrefixed(limit: 2 * maximumStringLength + 20) else {
                    throw .corrupt("truncated attribute in header body")
                }
                var pairReader = ByteReader(Array(pair))
                let name = try readString(&pairReader, "attribute name")
                let value = try readString(&pairReader, "attribute value")
                guard pairReader.isAtEnd else { throw .corrupt("trailing bytes in attribute \(name)") }
                metadata.attributes[name] = value
            case .extents:
                guard extents == nil else { throw .corrupt("header body has two range tables") }
                guard let table = reader.readLengthPrefixed(limit: Int.max) else {
                    throw .corrupt("truncated range table")
                }
                extents = try decodeExtents(Array(table), expectedCount: extentCount)
            }
        }
        guard let key else { throw .corrupt("header body has no key") }
        guard let extents else { throw .corrupt("header body has no range table") }
        metadata.key = key
        return HeaderBody(metadata: metadata, extents: extents)
    }

    /// Reads a field that may appear at most once into `value`.
    private static func readOnce(_ value: inout String?, _ reader: inout ByteReader, _ what: String) throws(SparseFileError) {
        guard value == nil else { throw .corrupt("header body has two \(what) fields") }
        value = try readString(&reader, what)
    }

    private static func readString(_ reader: inout ByteReader, _ what: String) throws(SparseFileError) -> String {
        guard let bytes = reader.readLengthPrefixed(limit: maximumStringLength) else {
            throw .corrupt("\(what) is truncated or longer than \(maximumStringLength) bytes")
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw .corrupt("\(what) is not valid UTF-8")
        }
        return string
    }

    private static func decodeExtents(_ table: [UInt8], expectedCount: UInt64) throws(SparseFileError) -> [Extent] {
        var reader = ByteReader(table)
        guard let count = reader.readVarint(), count == expectedCount else {
            throw .corrupt("range table count does not match the header's extent count")
        }
        // Each extent takes at least three bytes, so a count the table cannot hold is rejected
        // before reserving memory for it.
        guard let capacity = Int(exactly: count), capacity <= reader.remaining / 3 else {
            throw .corrupt("range table claims \(count) extents but holds \(reader.remaining) bytes")
        }
        var extents: [Extent] = []
        extents.reserveCapacity(capacity)
        var previousOriginalEnd: UInt64 = 0
        var previousDataEnd: UInt64 = 0
        for index in 0..<capacity {
            guard let gap = reader.readVarint(), let length = reader.readVarint(),
                  let zigzagged = reader.readVarint() else {
                throw .corrupt("range table entry \(index) is truncated")
            }
            let (original, overflow1) = previousOriginalEnd.addingReportingOverflow(gap)
            guard !overflow1, length > 0, !original.addingReportingOverflow(length).overflow else {
                throw .corrupt("range table entry \(index) has an empty or overflowing range")
            }
            guard let data = unzigzag(zigzagged, from: previousDataEnd),
                  !data.addingReportingOverflow(length).overflow else {
                throw .corrupt("range table entry \(index) has an overflowing data offset")
            }
            let extent = Extent(original: original, length: length, data: data)
            extents.append(extent)
            previousOriginalEnd = extent.originalEnd
            previousDataEnd = extent.dataEnd
        }
        guard reader.isAtEnd else { throw .corrupt("trailing bytes after the range table") }
        return extents
    }

    /// Data offsets are stored relative to the previous extent's data end: zero for data
    /// written in origin order, small either way.
    static func zigzag(_ value: UInt64, from base: UInt64) -> UInt64 {
        if value >= base { return (value - base) << 1 }
        return ((base - value) << 1) - 1
    }

    static func unzigzag(_ encoded: UInt64, from base: UInt64) -> UInt64? {
        if encoded & 1 == 0 {
            let (value, overflow) = base.addingReportingOverflow(encoded >> 1)
            return overflow ? nil : value
        }
        let distance = (encoded >> 1) + 1
        return base >= distance ? base - distance : nil
    }
}
