import CacheProxyParsing
import Foundation
import Testing

/// One rule for every JSON body the control routes take: a member the request does not know is
/// refused and named, and a value of the wrong kind is refused saying what it must be.
@Suite("Every JSON request body follows one rule", .timeLimit(.minutes(2)))
struct RequestBodyRuleTests {
    /// The routes and the body of a valid request for each, to misspell a member of.
    static let routes: [(path: String, body: String)] = [
        ("/prefetch", #"{"urls": ["http://127.0.0.1:9/a.m3u8"], "seconds": 6, "#),
        ("/sessions", #"{"url": "http://127.0.0.1:9/a.m3u8", "#),
        ("/downloads", #"{"url": "http://127.0.0.1:9/a.m3u8", "#),
        ("/entries/pin", #"{"url": "http://127.0.0.1:9/a.ts", "#),
        ("/entries/unpin", #"{"url": "http://127.0.0.1:9/a.ts", "#),
        ("/evict", #"{"to": 0, "#),
    ]

    @Test("A misspelt member gets 400 naming it, on every route that takes a body", arguments: routes)
    func misspeltMemberIsNamed(route: (path: String, body: String)) async throws {
        try await ProxyHarness.run { harness in
            let response = try await SessionClient(harness: harness).send(.POST, route.path, body: route.body + #""varient": "lowest"}"#)
            #expect(response.status == 400)
            let json = try #require(SessionClient.object(response.body))
            #expect(json["field"] as? String == #""varient""#)
            #expect(json["error"] as? String == #"unknown field "varient""#)
            #expect(harness.origin.requests.isEmpty)
        }
    }

    @Test("A value of the wrong kind is refused saying what it must be", arguments: [
        (#"{"url": "http://x/a.m3u8", "bufferAhead": 30}"#, #""bufferAhead""#,
         #""bufferAhead" must be {"seconds": N} or {"segments": N}"#),
        (#"{"url": "http://x/a.m3u8", "startBuffer": [2]}"#, #""startBuffer""#, #""startBuffer" must be {"seconds": N} or {"segments": N}"#),
        (#"{"url": "http://x/a.m3u8", "bufferAhead": {"segments": 2.5}}"#, #""bufferAhead.segments""#,
         #""bufferAhead.segments" must be a whole number of segments"#),
        (#"{"url": "http://x/a.m3u8", "quality": true}"#, #""quality""#, #""quality" must be "lowest", "highest""#),
        (#"{"url": "http://x/a.m3u8", "headers": "Cookie: a"}"#, #""headers""#, #""headers" must be an object of header fields"#),
        (#"{"url": "http://x/a.m3u8", "headers": {"Cookie": 3}}"#, #""headers.Cookie""#, #""headers.Cookie" must be a string"#),
        (#"{"urls": ["http://x/a.m3u8", {"url": "http://x/b.m3u8"}]}"#, #""urls[1]""#, #""urls[1]" must be a URL string"#),
        (#"{"url": 7}"#, #""url""#, #""url" must be a URL string"#),
    ])
    func sessionTypeErrorsSayWhatIsExpected(body: String, field: String, message: String) {
        let error = #expect(throws: ParseError.self) { try PlaybackSessionRequest(parsing: Array(body.utf8)) }
        #expect(error?.field == field)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error?.message))")
    }

    @Test("Prefetch bodies: unknown members anywhere are named, wrong kinds say what they must be", arguments: [
        (#"{"urls": ["http://x/a.m3u8"], "seconds": 6, "varient": "lowest"}"#, #""varient""#, #"unknown field "varient""#),
        (#"{"urls": [{"url": "http://x/a.m3u8", "header": {}}], "seconds": 6}"#, #""urls[0].header""#, #"unknown field "urls[0].header""#),
        (#"{"urls": "http://x/a.m3u8", "seconds": 6}"#, #""urls""#, #""urls" must be an array of URL strings or {"url""#),
        (#"{"urls": [3], "seconds": 6}"#, #""urls[0]""#, #""urls[0]" must be a URL string or {"url""#),
        (#"{"urls": ["http://x/a.m3u8"], "seconds": "6"}"#, #""seconds""#, #""seconds" must be a number of seconds"#),
        (#"{"urls": ["http://x/a.m3u8"], "segments": 1.5}"#, #""segments""#, #""segments" must be a whole number of segments"#),
        (#"{"urls": ["http://x/a.m3u8"], "seconds": 6, "variant": true}"#, #""variant""#, #""variant" must be "lowest", "highest""#),
        (#"{"urls": ["ftp://x/a"], "seconds": 6}"#, #""urls[0]""#, #""urls[0]": "#),
        (#"{"urls": [], "seconds": 6}"#, #""urls""#, #""urls" is empty"#),
    ])
    func prefetchBodies(body: String, field: String, message: String) {
        let error = #expect(throws: ParseError.self) { try PrefetchRequest(parsing: Array(body.utf8)) }
        #expect(error?.field == field)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error?.message))")
    }

    @Test("Download bodies: wrong kinds say what they must be", arguments: [
        (#"{"url": "http://x/a.m3u8", "pin": "yes"}"#, #""pin""#, #""pin" must be true or false"#),
        (#"{"url": "http://x/a.m3u8", "variant": [1]}"#, #""variant""#, #""variant" must be "lowest", "highest""#),
        (#"{"url": "http://x/a.m3u8", "allvariants": true}"#, #""allvariants""#, #"unknown field "allvariants""#),
    ])
    func downloadBodies(body: String, field: String, message: String) {
        let error = #expect(throws: ParseError.self) { try DownloadRequest(parsing: Array(body.utf8)) }
        #expect(error?.field == field)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error?.message))")
    }

    @Test("Entry and evict bodies: wrong kinds say what they must be", arguments: [
        (#"{"url": 3}"#, #""url""#, #""url" must be an entry's URL"#),
        (#"{"url": ""}"#, #""url""#, #""url" must be an entry's URL"#),
        (#"{}"#, #""url""#, #""url" is missing"#),
        (#"{"to": "1GB"}"#, #""to""#, #""to" must be a whole number of bytes"#),
        (#"{"to": 1.5}"#, #""to""#, #""to" must be a whole number of bytes"#),
        (#"{"to": -1}"#, #""to""#, #""to" must be a whole number of bytes"#),
    ])
    func entryAndEvictBodies(body: String, field: String, message: String) {
        let error = #expect(throws: ParseError.self) {
            if body.contains("\"to\"") { _ = try EvictRequest(parsing: Array(body.utf8)) } else { _ = try EntryRequest(parsing: Array(body.utf8)) }
        }
        #expect(error?.field == field)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error?.message))")
    }

    @Test("A body that is not a JSON object is refused as such, on every parser")
    func notAnObject() {
        for body in ["[1]", "3", "{", ""] {
            let errors: [ParseError?] = [
                #expect(throws: ParseError.self) { try PrefetchRequest(parsing: Array(body.utf8)) },
                #expect(throws: ParseError.self) { try PlaybackSessionRequest(parsing: Array(body.utf8)) },
                #expect(throws: ParseError.self) { try DownloadRequest(parsing: Array(body.utf8)) },
            ]
            for error in errors {
                #expect(error?.code == .malformed)
                #expect(error?.message.hasPrefix("the body is not a JSON") == true, "\(String(describing: error?.message))")
            }
        }
    }
}
