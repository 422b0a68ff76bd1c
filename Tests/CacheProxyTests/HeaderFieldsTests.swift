@testable import CacheProxy
import Testing

/// The proxy's own HTTP/1 values: header fields looked up as HTTP names them, keep-alive as
/// RFC 9112 reads `Connection`, and status lines.
@Suite("HTTP/1 header fields and heads")
struct HeaderFieldsTests {
    @Test("A field is found by its name in any case; repeated fields stay apart, in order")
    func namesIgnoreCase() {
        var headers: HeaderFields = ["Host": "a.example", "X-Tag": "1"]
        headers.add(name: "x-tag", value: "2")
        #expect(headers.first(name: "HOST") == "a.example")
        #expect(headers["X-TAG"] == ["1", "2"])
        #expect(headers.contains(name: "x-Tag") && !headers.contains(name: "x-tags"))
        #expect(headers.first(name: "range") == nil)
        #expect(headers.map(\.name) == ["Host", "X-Tag", "x-tag"])
    }

    @Test("replaceOrAdd removes every field of the name and appends one at the end; remove removes them all")
    func replaceAndRemove() {
        var headers: HeaderFields = ["Connection": "keep-alive", "Range": "bytes=0-1", "connection": "x"]
        headers.replaceOrAdd(name: "CONNECTION", value: "close")
        #expect(headers.map(\.name) == ["Range", "CONNECTION"])
        #expect(headers["connection"] == ["close"])
        headers.remove(name: "range")
        #expect(headers.count == 1 && headers.first(name: "Connection") == "close")
    }

    @Test("Two field lists are equal when only the case of their names differs, and hash alike")
    func equalityIgnoresNameCase() {
        let lower: HeaderFields = ["content-type": "text/plain"]
        let upper: HeaderFields = ["Content-Type": "text/plain"]
        #expect(lower == upper && lower.hashValue == upper.hashValue)
        #expect(lower != ["Content-Type": "Text/Plain"], "values keep their case")
    }

    @Test("A Connection element is found among others, with white space and in any case")
    func connectionElements() {
        let headers: HeaderFields = ["Connection": "Upgrade ,\tHTTP2-Settings", "connection": "Keep-Alive"]
        #expect(headers.hasElement("upgrade", inField: "connection"))
        #expect(headers.hasElement("http2-settings", inField: "connection"))
        #expect(headers.hasElement("keep-alive", inField: "Connection"))
        #expect(!headers.hasElement("close", inField: "connection"))
        #expect(!headers.hasElement("upgrad", inField: "connection"), "a prefix of an element is not the element")
    }

    @Test("Keep-alive as RFC 9112 reads it: HTTP/1.1 unless close, HTTP/1.0 only with keep-alive", arguments: [
        (1, [String](), true), (1, ["close"], false), (1, ["keep-alive, close"], false), (1, ["Keep-Alive"], true),
        (0, [], false), (0, ["keep-alive"], true), (0, ["close"], false), (0, ["x, KEEP-ALIVE"], true),
    ])
    func keepAlive(minor: Int, connection: [String], expected: Bool) {
        let headers = HeaderFields(connection.map { ("Connection", $0) })
        let request = RequestHead(method: .GET, uri: "/", version: ProtocolVersion(major: 1, minor: minor), headers: headers)
        #expect(request.isKeepAlive == expected)
        #expect(ResponseHead(version: request.version, status: .ok, headers: headers).isKeepAlive == expected)
    }

    @Test("A method is read by its exact spelling: methods are case-sensitive")
    func methods() {
        #expect(RequestMethod(rawValue: "GET") == .GET)
        #expect(RequestMethod(rawValue: "get") == .other("get"))
        #expect(RequestMethod(rawValue: "PROPFIND").rawValue == "PROPFIND")
        #expect(RequestMethod.OPTIONS.rawValue == "OPTIONS")
    }

    @Test("A status carries its registered reason phrase; an unregistered code none, a code past three digits is 500")
    func statuses() {
        #expect(ResponseStatus(statusCode: 206).reasonPhrase == "Partial Content")
        #expect(ResponseStatus(statusCode: 413).reasonPhrase == "Payload Too Large")
        #expect(ResponseStatus(statusCode: 499).reasonPhrase == "")
        #expect(ResponseStatus(statusCode: 1_000).code == 500)
        #expect(ResponseStatus(statusCode: -1).code == 500)
    }
}
