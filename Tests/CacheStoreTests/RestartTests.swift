import Foundation
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

@Suite("Restart, damage and locking")
struct RestartTests {
    let directory = TemporaryDirectory("store")

    @Test func reopeningAfterACrashFindsEveryEntryFromTheHeaders() throws {
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            try store.put(key: "a", offset: 0, bytes: originBytes(0, 5000))
            try store.saveIndex()
            // Written after the index was last saved, and never closed: as after a crash.
            try store.put(key: "b", offset: 0, bytes: originBytes(0, 7000))
            try store.put(key: "a", offset: 5000, bytes: originBytes(5000, 100))
        }
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(Set(store.entries.map(\.key)) == ["a", "b"])
        #expect(store.openReport.rebuiltFromHeaders == 2)
        #expect(store.cachedBytes("a", byteRange(0, 5100)) == originBytes(0, 5100))
        #expect(store.entry(for: "b")?.cachedBytes == 7000)
    }

    @Test func garbageInTheDirectoryIsReportedNotFatal() throws {
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            try store.put(key: "good", offset: 0, bytes: originBytes(0, 3000))
            try store.put(key: "broken", offset: 0, bytes: originBytes(0, 3000))
            try store.close()
        }
        let entries = directory.path + "/entries"
        let broken = try #require(try CacheStore.open(at: directory.path, configuration: testConfiguration(), readOnly: true)
            .entry(for: "broken")?.fileName)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: entries + "/" + broken)))
        for index in [200, 4096 + 200] { bytes[index] ^= 0x5A }  // both header slots damaged
        try Data(bytes).write(to: URL(fileURLWithPath: entries + "/" + broken))
        try FileManager.default.createDirectory(atPath: entries + "/zz", withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: entries + "/zz/zz-not-ours.scf"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: entries + "/README"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: entries + "/zz/zz.scf.new-1-2"))
        try Data([0xFF]).write(to: URL(fileURLWithPath: directory.path + "/index"))

        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(store.entries.map(\.key) == ["good"])
        let dropped = Dictionary(store.openReport.dropped.map { ($0.path, $0.deleted) }, uniquingKeysWith: { $1 })
        #expect(dropped[broken] == true)
        #expect(dropped["zz/zz-not-ours.scf"] == false)
        #expect(dropped["README"] == false)
        #expect(dropped["zz/zz.scf.new-1-2"] == true)
        #expect(FileManager.default.fileExists(atPath: entries + "/zz/zz-not-ours.scf"))
        #expect(!FileManager.default.fileExists(atPath: entries + "/" + broken))
        #expect(store.cachedBytes("good", byteRange(0, 3000)) == originBytes(0, 3000))
    }

    @Test func aSecondWriterGetsAClearErrorAndReadersAreWelcome() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "k", offset: 0, bytes: [1, 2, 3])
        let error = #expect(throws: CacheStoreError.self) { try CacheStore.open(at: directory.path) }
        #expect(error?.code == .locked)
        #expect(error?.message.contains("pid \(getpid())") == true)
        try store.close()
        let reader = try CacheStore.open(at: directory.path, readOnly: true)
        #expect(reader.entries.map(\.key) == ["k"])
        #expect(throws: CacheStoreError.readOnly) { try reader.put(key: "x", offset: 0, bytes: [1]) }
    }

    @Test func theLockNamesItsHolderAndTheControlAddressGoesWithIt() throws {
        #expect(CacheStore.holder(of: directory.path) == nil)
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            #expect(CacheStore.holder(of: directory.path) == StoreHolder(processIdentifier: getpid(), controlAddress: nil))
            try store.setControlAddress("http://127.0.0.1:9000")
            #expect(CacheStore.holder(of: directory.path)?.controlAddress == "http://127.0.0.1:9000")
            #expect(throws: CacheStoreError.invalidArgument) { try store.setControlAddress("a\nb") }
            let reader = try CacheStore.open(at: directory.path, readOnly: true)
            #expect(throws: CacheStoreError.readOnly) { try reader.setControlAddress("x") }
            // Dropped without closing, as by a crash: the lock goes, the address stays behind.
        }
        #expect(CacheStore.holder(of: directory.path) == nil)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/control"))
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(CacheStore.holder(of: directory.path)?.controlAddress == nil, "a stale address is removed on open")
        try store.setControlAddress("http://127.0.0.1:9001")
        try store.close()
        #expect(CacheStore.holder(of: directory.path) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/control"))
    }

    /// An app that closes its cache and opens it again, in one process (the Hummingbird
    /// example's restart test found this): the entry files' write locks went with the close,
    /// so the second store opens every entry instead of dropping the ones it could not lock.
    @Test func aClosedStoreLetsGoOfItsFilesSoItOpensAgainInTheSameProcess() throws {
        let first = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try first.put(key: "a", offset: 0, bytes: originBytes(0, 5000))
        try first.close()
        let second = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(second.cachedBytes("a", byteRange(0, 5000)) == originBytes(0, 5000))
        try second.put(key: "a", offset: 5000, bytes: originBytes(5000, 100))
        #expect(second.entry(for: "a")?.cachedBytes == 5100)
        #expect(first.cachedBytes("a", byteRange(0, 5000)) == originBytes(0, 5000))  // still readable
        try first.close()  // again: must not touch the directory the second store now writes
        #expect(FileManager.default.fileExists(atPath: directory.path + "/control") == false)
        try second.setControlAddress("http://127.0.0.1:1")
        try first.close()
        #expect(CacheStore.holder(of: directory.path)?.controlAddress == "http://127.0.0.1:1")
    }

    @Test func aFillStillRunningWhenTheStoreClosesFailsAtItsNextWrite() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        let fill = try #require(try store.claim(key: "k", range: byteRange(0, 200)).fills.first)
        try fill.start(EntryMetadata(contentLength: 200))
        try fill.write(originBytes(0, 100))
        try store.close()
        let error = #expect(throws: CacheStoreError.self) { try fill.write(originBytes(100, 100)) }
        #expect(error?.code == .closed)
        #expect(store.cachedBytes("k", byteRange(0, 100)) == originBytes(0, 100))
    }

    @Test func theSizeLimitIsKeptInTheDirectory() throws {
        try CacheStore.create(at: directory.path, maximumSize: 123_456_789)
        #expect(try CacheStore.open(at: directory.path, readOnly: true).maximumSize == 123_456_789)
    }
}

@Suite("Cache keys")
struct CacheKeyTests {
    @Test(arguments: [
        ("HTTPS://CDN.Example.COM:443/Path/Seg.ts?b=1&a=2#frag", "https://cdn.example.com/Path/Seg.ts?b=1&a=2"),
        ("http://host:80", "http://host/"),
        ("http://host:8080/x", "http://host:8080/x"),
        ("http://host?x=1", "http://host/?x=1"),
        ("file:///tmp/x", "file:///tmp/x"),
        ("not a url", "not a url"),
    ])
    func normalizationMakesEquivalentURLsEqual(url: String, key: String) {
        #expect(CacheKey.normalizedURL(url) == key)
    }

    @Test func signedURLTokensCanBeStripped() {
        let key = CacheKey.strippingQueryParameters(["token", "expires"])
        #expect(key("https://cdn/v.mp4?token=abc&quality=hd&expires=99") == "https://cdn/v.mp4?quality=hd")
        #expect(key("https://cdn/v.mp4?token=abc") == "https://cdn/v.mp4")
        #expect(key("https://cdn/v.mp4?token=1") == key("https://cdn/v.mp4?token=2"))
    }
}
