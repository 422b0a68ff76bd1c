import SparseFile

/// The index as saved in `DIR/index`: every record plus the counters, checksummed. It is only
/// a shortcut for opening quickly; a missing, stale or damaged snapshot costs a re-read of the
/// entry headers, never data.
struct IndexSnapshot: Equatable {
    var records: [EntryRecord]
    var statistics: StoreStatistics
    var accessSequence: UInt64

    static let magic: [UInt8] = Array("SCINDEX1".utf8)

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + records.count * 96)
        writer.append(contentsOf: Self.magic)
        writer.appendVarint(UInt64(records.count))
        for record in records {
            writer.appendLengthPrefixed(Array(record.key.utf8))
            writer.appendLengthPrefixed(Array(record.fileName.utf8))
            for value in [
                record.diskBytes, record.cachedBytes, Self.optional(record.contentLength), record.lastAccess,
                record.accessSequence, record.pinned ? 1 : 0, Self.optional(record.expires),
                Self.optional(record.headLimit), record.fileSize, record.modified,
            ] {
                writer.appendVarint(value)
            }
        }
        for value in statistics.counters { writer.appendVarint(value) }
        writer.appendVarint(accessSequence)
        writer.appendLittleEndian(Checksum.of(writer.bytes, seed: 0x5343_494E_4458))
        return writer.bytes
    }

    /// Decodes a snapshot, or returns nil for anything damaged or foreign.
    static func decode(_ bytes: [UInt8]) -> IndexSnapshot? {
        guard bytes.count >= magic.count + 8, Array(bytes.prefix(magic.count)) == magic else { return nil }
        let body = Array(bytes.dropLast(8))
        var trailer = ByteReader(Array(bytes.suffix(8)))
        guard trailer.readLittleEndianUInt64() == Checksum.of(body, seed: 0x5343_494E_4458) else { return nil }
        var reader = ByteReader(body, position: magic.count)
        guard let count = reader.readVarint(), let capacity = Int(exactly: count), capacity <= reader.remaining / 12 else {
            return nil
        }
        var records: [EntryRecord] = []
        records.reserveCapacity(capacity)
        for _ in 0..<capacity {
            guard let keyBytes = reader.readLengthPrefixed(limit: 64 * 1024),
                  let key = String(validating: keyBytes, as: UTF8.self),
                  let nameBytes = reader.readLengthPrefixed(limit: 1024),
                  let fileName = String(validating: nameBytes, as: UTF8.self) else { return nil }
            var values: [UInt64] = []
            for _ in 0..<10 {
                guard let value = reader.readVarint() else { return nil }
                values.append(value)
            }
            records.append(EntryRecord(
                key: key, fileName: fileName, diskBytes: values[0], cachedBytes: values[1],
                contentLength: fromOptional(values[2]), lastAccess: values[3], accessSequence: values[4],
                pinned: values[5] != 0, expires: fromOptional(values[6]), headLimit: fromOptional(values[7]),
                fileSize: values[8], modified: values[9]))
        }
        var counters: [UInt64] = []
        for _ in 0..<StoreStatistics.counterCount {
            guard let value = reader.readVarint() else { return nil }
            counters.append(value)
        }
        guard let sequence = reader.readVarint(), reader.isAtEnd else { return nil }
        return IndexSnapshot(records: records, statistics: StoreStatistics(counters: counters), accessSequence: sequence)
    }

    private static func optional(_ value: UInt64?) -> UInt64 {
        guard let value, value < UInt64.max else { return 0 }
        return value + 1
    }

    private static func fromOptional(_ value: UInt64) -> UInt64? { value == 0 ? nil : value - 1 }
}
