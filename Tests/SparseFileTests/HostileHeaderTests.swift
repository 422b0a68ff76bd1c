import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// Hand-crafted headers: every lie a file can tell about itself ends in a clear error.
@Suite("Hostile headers")
struct HostileHeaderTests {
    let directory = TemporaryDirectory()

    /// Writes a file whose slot 0 holds `body` and the given fixed fields, with `dataBytes`
    /// bytes of data space, and returns its path.
    func craft(
        extents: [Extent], dataEnd: UInt64, cachedBytes: UInt64? = nil, contentLength: UInt64? = nil,
        mutateSlot: (inout [UInt8]) -> Void = { _ in }
    ) throws -> String {
        let body = HeaderBody(metadata: ResourceMetadata(key: "k"), extents: extents).encoded()
        let slot = HeaderSlot(
            slotIndex: 0, generation: 1, dataEnd: dataEnd, contentLength: contentLength,
            cachedBytes: cachedBytes ?? extents.reduce(0) { $0 + $1.length }, extentCount: UInt64(extents.count),
            tailChecksum: 0, storage: .inline, storedBodyLength: UInt64(body.count), bodyLength: UInt64(body.count),
            bodyChecksum: Checksum.of(body), createdAt: 0, inlineBody: body)
        var bytes = slot.encoded()
        mutateSlot(&bytes)
        bytes += [UInt8](repeating: 0, count: FileLayout.slotSize)
        let path = directory.file(UUID().uuidString)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func openError(_ path: String) -> SparseFileError? {
        do {
            _ = try SparseFile.open(at: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileWithoutTheMagicIsNotACacheFile() throws {
        let path = directory.file("text")
        _ = FileManager.default.createFile(atPath: path, contents: Data("#EXTM3U\nhello\n".utf8))
        #expect(openError(path)?.code == .notACacheFile)
        let empty = directory.file("empty")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(openError(empty)?.code == .notACacheFile)
    }

    @Test func aNewerFormatVersionIsNamedAsSuch() throws {
        let path = try craft(extents: [], dataEnd: 0) { $0[8] = 2 }
        let error = try #require(openError(path))
        #expect(error.code == .unsupportedVersion)
        #expect(error.description.contains("version 2"))
    }

    @Test func aSlotWithABadChecksumIsCorrupt() throws {
        let path = try craft(extents: [], dataEnd: 0) { $0[200] ^= 1 }
        #expect(openError(path)?.code == .corruptHeader)
    }

    @Test func reservedFlagsAreRefused() throws {
        let path = try craft(extents: [], dataEnd: 0) { bytes in
            bytes[14] = 0x80
            Self.reseal(&bytes)
        }
        #expect(openError(path)?.code == .unsupportedVersion)
    }

    @Test func anExtentPastTheDataSpaceIsRefused() throws {
        let path = try craft(extents: [Extent(original: 0, length: 100, data: 0)], dataEnd: 50)
        let error = try #require(openError(path))
        #expect(error.code == .corruptHeader)
        #expect(error.description.contains("past the end of the data space"))
    }

    @Test func extentsSharingStoredBytesAreRefused() throws {
        let path = try craft(
            extents: [Extent(original: 0, length: 100, data: 0), Extent(original: 200, length: 100, data: 50)],
            dataEnd: 4096)
        let error = try #require(openError(path))
        #expect(error.description.contains("share stored bytes"))
    }

    @Test func aByteCountThatDisagreesWithTheTableIsRefused() throws {
        let path = try craft(extents: [Extent(original: 0, length: 100, data: 0)], dataEnd: 4096, cachedBytes: 99)
        #expect(openError(path)?.code == .corruptHeader)
    }

    @Test func anExtentPastTheContentLengthIsRefused() throws {
        let path = try craft(extents: [Extent(original: 0, length: 100, data: 0)], dataEnd: 4096, contentLength: 10)
        #expect(openError(path)?.description.contains("past the content length") == true)
    }

    @Test func anAbsurdDataEndIsRefused() throws {
        let path = try craft(extents: [], dataEnd: UInt64.max - 5)
        #expect(openError(path)?.description.contains("absurd data end") == true)
    }

    @Test func aSpillAreaOutsideTheFileIsRefused() throws {
        let path = try craft(extents: [], dataEnd: 0) { bytes in
            bytes[14] = 1  // spilled
            Self.store(UInt64.max - 4095, at: 64, in: &bytes)
            Self.store(8192, at: 72, in: &bytes)
            Self.reseal(&bytes)
        }
        #expect(openError(path)?.code == .corruptHeader)
    }

    @Test func anAbsurdSpilledBodyLengthIsRefusedBeforeAllocating() throws {
        let path = try craft(extents: [], dataEnd: 8192) { bytes in
            bytes[14] = 1
            Self.store(0, at: 64, in: &bytes)
            Self.store(8192, at: 72, in: &bytes)
            Self.store(10, at: 80, in: &bytes)  // stored length
            Self.store(1 << 40, at: 88, in: &bytes)  // claimed inflated length
            Self.reseal(&bytes)
        }
        #expect(openError(path)?.code == .corruptHeader)
    }

    @Test(arguments: [
        ([UInt8]([12, 5, 200, 1, 1, 1, 1]), UInt64(200), "claims 200 extents"),
        ([UInt8]([12, 5, 200, 1, 1, 1, 1]), UInt64(1), "count does not match"),
        ([UInt8]([2, 1, 0xFF]), UInt64(0), "not valid UTF-8"),
        ([UInt8]([2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), UInt64(0), "truncated"),
        ([UInt8]([2, 1, 65, 2, 1, 65]), UInt64(0), "two keys"),
        ([UInt8]([2, 1, 65, 12, 4, 1, 0, 0, 0]), UInt64(1), "empty or overflowing"),
        ([UInt8]([2, 1, 65, 12, 4, 1, 0, 5, 3]), UInt64(1), "overflowing data offset"),
        ([UInt8]([2, 1, 65]), UInt64(0), "no range table"),
        ([UInt8]([2, 1, 65, 12, 1, 0, 99]), UInt64(0), "truncated ancillary field"),
        ([UInt8]([2, 1, 65, 12, 1, 0, 12, 1, 0]), UInt64(0), "two range tables"),
        ([UInt8]([2, 1, 65, 12, 2, 0, 7]), UInt64(0), "trailing bytes after the range table"),
        ([UInt8]([2, 1, 65, 4, 1, 66, 4, 1, 67, 12, 1, 0]), UInt64(0), "two entity tag fields"),
    ])
    func malformedBodiesFailWithAReason(body: [UInt8], extentCount: UInt64, reason: String) {
        do {
            _ = try HeaderBody.decode(body, extentCount: extentCount)
            Issue.record("decoded a malformed body")
        } catch {
            #expect(error.code == .corruptHeader)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func anUnknownRequiredFieldMeansANewerVersionAndAnUnknownOptionalOneIsSkipped() throws {
        let table: [UInt8] = [12, 1, 0]
        #expect(throws: SparseFileError.unsupportedVersion) { try HeaderBody.decode([2, 1, 65, 14, 0] + table, extentCount: 0) }
        let body = try HeaderBody.decode([2, 1, 65, 15, 2, 9, 9] + table, extentCount: 0)
        #expect(body.metadata.key == "A")
    }

    @Test func fieldsMayComeInAnyOrderAndVarintsMayBeOverlong() throws {
        #expect(try HeaderBody.decode([12, 1, 0, 2, 1, 65], extentCount: 0).metadata.key == "A")
        #expect(try HeaderBody.decode([0x82, 0x00, 0x81, 0x80, 0x00, 65, 12, 1, 0], extentCount: 0).metadata.key == "A")
    }

    @Test func slotZeroWinsWhenBothSlotsClaimTheSameGeneration() throws {
        let path = try craft(extents: [], dataEnd: 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func slot1(generation: UInt64) -> [UInt8] {
            let body = HeaderBody(metadata: ResourceMetadata(key: "one"), extents: []).encoded()
            return HeaderSlot(
                slotIndex: 1, generation: generation, dataEnd: 0, contentLength: nil, cachedBytes: 0, extentCount: 0,
                tailChecksum: 0, storage: .inline, storedBodyLength: UInt64(body.count), bodyLength: UInt64(body.count),
                bodyChecksum: Checksum.of(body), createdAt: 0, inlineBody: body).encoded()
        }
        bytes.replaceSubrange(FileLayout.slotSize..<2 * FileLayout.slotSize, with: slot1(generation: 1))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try SparseFile.open(at: path).key == "k")
        bytes.replaceSubrange(FileLayout.slotSize..<2 * FileLayout.slotSize, with: slot1(generation: 2))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try SparseFile.open(at: path).key == "one")
    }

    @Test func slotAndBodyEncodingsRoundTrip() throws {
        let extents = [Extent(original: 10, length: 5, data: 100), Extent(original: 100, length: 7, data: 0)]
        var metadata = ResourceMetadata(key: "https://x/y?z", entityTag: "\"e\"", contentType: "video/mp2t")
        metadata.attributes = ["a": "b", "pin": ""]
        let body = HeaderBody(metadata: metadata, extents: extents)
        #expect(try HeaderBody.decode(body.encoded(), extentCount: 2) == body)
        let slot = HeaderSlot(
            slotIndex: 1, generation: 9, dataEnd: 4096, contentLength: nil, cachedBytes: 12, extentCount: 2,
            tailChecksum: 0, storage: .inline, storedBodyLength: UInt64(body.encoded().count),
            bodyLength: UInt64(body.encoded().count), bodyChecksum: Checksum.of(body.encoded()), createdAt: 5,
            inlineBody: body.encoded())
        #expect(try HeaderSlot.decode(slot.encoded(), expectedIndex: 1) == slot)
        #expect(throws: SparseFileError.corruptHeader) { try HeaderSlot.decode(slot.encoded(), expectedIndex: 0) }
    }

    static func store(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index)) }
    }

    /// Recomputes the slot checksum so that only the field under test is wrong.
    static func reseal(_ bytes: inout [UInt8]) {
        store(HeaderSlot.checksum(of: bytes), at: HeaderSlot.checksumOffset, in: &bytes)
    }
}
