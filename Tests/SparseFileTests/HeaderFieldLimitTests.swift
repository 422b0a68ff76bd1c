import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// The header body rules of Docs/FORMAT.md that bound what a file may hold and what a writer
/// keeps: strings of at most 64 KiB, at most 4,096 attributes, and unknown odd (ancillary)
/// fields dropped when a writer rewrites the header.
@Suite("Header field limits and ancillary fields")
struct HeaderFieldLimitTests {
    let directory = TemporaryDirectory()
    /// An empty range table: tag 12, payload length 1, count 0.
    static let emptyTable: [UInt8] = [12, 1, 0]

    /// A varint, as the body writes lengths and tags.
    static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// A field: tag, payload length, payload.
    static func field(_ tag: Int, _ payload: [UInt8]) -> [UInt8] {
        varint(tag) + varint(payload.count) + payload
    }

    static func attribute(_ name: String, _ value: String) -> [UInt8] {
        field(10, varint(name.utf8.count) + Array(name.utf8) + varint(value.utf8.count) + Array(value.utf8))
    }

    /// A file with no data whose slot 0 holds `body` verbatim; returns its path.
    func fileWithBody(_ body: [UInt8]) -> String {
        let slot = HeaderSlot(
            slotIndex: 0, generation: 1, dataEnd: 0, contentLength: nil, cachedBytes: 0, extentCount: 0,
            tailChecksum: 0, storage: .inline, storedBodyLength: UInt64(body.count), bodyLength: UInt64(body.count),
            bodyChecksum: Checksum.of(body), createdAt: 0, inlineBody: body)
        let bytes = slot.encoded() + [UInt8](repeating: 0, count: FileLayout.slotSize)
        let path = directory.file(UUID().uuidString)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test("A writer drops an unknown odd field when it rewrites the header; readers before that skip it")
    func unknownOddFieldsAreDroppedOnRewrite() throws {
        let odd = Self.field(15, [9, 9, 9])
        let path = fileWithBody(Self.field(2, Array("k".utf8)) + odd + Self.emptyTable)
        #expect(try SparseFile.open(at: path).key == "k", "a reader skips the odd field")
        let file = try SparseFile.open(at: path, mode: .readWrite)
        _ = try file.write([1, 2, 3], at: 0)
        try file.commit()
        try file.close()
        // The commit wrote slot 1 (generation 2): its body holds the key and table only.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let rewritten = try HeaderSlot.decode(Array(bytes[FileLayout.slotSize..<2 * FileLayout.slotSize]), expectedIndex: 1)
        #expect(rewritten.generation == 2)
        let body = rewritten.inlineBody
        #expect(!body.isEmpty)
        #expect(!body.indices.contains { body[$0...].starts(with: odd) }, "the odd field is gone: \(body)")
        #expect(try HeaderBody.decode(body, extentCount: 1).metadata.key == "k")
        #expect(try SparseFile.open(at: path).read(try #require(ByteRange(offset: 0, length: 3))) == .bytes([1, 2, 3]))
    }

    @Test("Strings of the header body are limited to 64 KiB: a key of 65,536 bytes opens, one byte more is corrupt")
    func stringsAreLimitedTo64KiB() throws {
        let limit = 64 * 1024
        #expect(HeaderBody.maximumStringLength == limit)
        let longest = String(repeating: "k", count: limit)
        #expect(try HeaderBody.decode(Self.field(2, Array(longest.utf8)) + Self.emptyTable, extentCount: 0).metadata.key == longest)
        #expect(throws: SparseFileError.corruptHeader) {
            try HeaderBody.decode(Self.field(2, Array((longest + "k").utf8)) + Self.emptyTable, extentCount: 0)
        }
        // An attribute value too: the limit holds for every string.
        let key = Self.field(2, Array("k".utf8))
        #expect(throws: SparseFileError.corruptHeader) {
            try HeaderBody.decode(key + Self.attribute("a", longest + "v") + Self.emptyTable, extentCount: 0)
        }
        // A writer refuses to make such a file in the first place.
        #expect(throws: SparseFileError.invalidArgument) {
            try SparseFile.create(at: directory.file("long"), metadata: ResourceMetadata(key: longest + "k"))
        }
    }

    @Test("A header body holds at most 4,096 attributes: 4,096 decode, 4,097 exceed the limit")
    func attributesAreLimitedTo4096() throws {
        let key = Self.field(2, Array("k".utf8))
        let attributes = (0..<4096).flatMap { Self.attribute("a\($0)", "") }
        let decoded = try HeaderBody.decode(key + attributes + Self.emptyTable, extentCount: 0)
        #expect(decoded.metadata.attributes.count == 4096)
        #expect(throws: SparseFileError.limitExceeded) {
            try HeaderBody.decode(key + attributes + Self.attribute("a4096", "") + Self.emptyTable, extentCount: 0)
        }
        var metadata = ResourceMetadata(key: "k")
        metadata.attributes = Dictionary(uniqueKeysWithValues: (0...4096).map { ("a\($0)", "") })
        #expect(throws: SparseFileError.invalidArgument) { try SparseFile.create(at: directory.file("many"), metadata: metadata) }
    }
}
