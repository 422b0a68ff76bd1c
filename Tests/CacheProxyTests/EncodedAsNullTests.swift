import CacheProxy
import Foundation
import Testing

/// The proxy's JSON writes every documented key, `null` for an absent value (clients read keys
/// without checking they exist), and reads a missing key as absent, as for a plain optional.
@Suite("Absent values are written as null")
struct EncodedAsNullTests {
    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test("A missing key reads as nil and is written back as null; a value goes both ways unchanged")
    func absentValuesRoundTripAsNull() throws {
        let store = try JSONDecoder().decode(ProxyStatus.Store.self, from: Data(#"{"diskFull": false, "minimumFreeBytes": 7}"#.utf8))
        #expect(store.freeBytes == nil)
        let written = try Self.object(store)
        #expect(written["freeBytes"] is NSNull, "the key is there, null: \(written)")
        let measured = try JSONDecoder().decode(ProxyStatus.Store.self, from: Data(#"{"diskFull": true, "minimumFreeBytes": 7, "freeBytes": 12}"#.utf8))
        #expect(measured.freeBytes == 12 && measured.diskFull)
        #expect(try Self.object(measured)["freeBytes"] as? Int == 12)
        let explicitNull = try JSONDecoder().decode(ProxyStatus.Store.self, from: Data(#"{"diskFull": true, "minimumFreeBytes": 7, "freeBytes": null}"#.utf8))
        #expect(explicitNull.freeBytes == nil)
    }

    @Test("A nested absent object is null too: a session that never played has no quality or position")
    func nestedObjectsAreNull() throws {
        let json = #"{"id": "s1", "state": "active", "playlist": "p", "urls": [], "bufferedSegments": 0, "bufferedAheadSeconds": 0, "activeRequests": 0, "bytesServed": 0, "bytesFromOrigin": 0, "idleSeconds": 0, "headers": [], "resumes": 0, "quality": {"bandwidth": 800000}}"#
        let status = try JSONDecoder().decode(PlaybackSessionStatus.self, from: Data(json.utf8))
        let written = try Self.object(status)
        for key in ["position", "latencyMs", "lastError"] { #expect(written[key] is NSNull, "\(key)") }
        let quality = try #require(written["quality"] as? [String: Any])
        #expect(quality["bandwidth"] as? Int == 800_000 && quality["resolution"] is NSNull)
    }
}
