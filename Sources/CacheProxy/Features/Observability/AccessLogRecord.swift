
/// One request as the access log tells it: what was asked, what was answered and how long it
/// took. Made where the response is written, formatted later, off the event loop.
struct AccessLogRecord: Sendable {
    var method: RequestMethod
    /// The request target as it was received.
    var target: String
    /// The origin URL the target names, as fetched; nil for routes that name none.
    var url: String?
    /// The response's status; nil when no response head went out (the client left first).
    var status: UInt?
    /// The bytes of the response's body that were written.
    var bodyBytes: UInt64
    /// How the response used the cache; nil for routes that serve no origin resource.
    var cache: CacheOutcome.Kind?
    var started: ContinuousClock.Instant
    /// When the response head was handed to the connection.
    var firstByte: ContinuousClock.Instant?
    var ended: ContinuousClock.Instant
    /// Why the request was refused or failed (the message its error response carried, or why a
    /// response was cut short); nil for a request served.
    var error: String? = nil

    /// The line, in a format that stays stable (fields are only ever added at the end):
    ///
    ///     method=GET url=https://cdn.example/a/seg1.ts status=206 bytes=65536 cache=hit ttfb_ms=0.041 total_ms=0.230
    ///
    /// `url` is the origin URL the request names, as fetched (with its delivery directives), or
    /// the request target for routes that name none (`/status`); `cache` is `hit`, `partial`,
    /// `miss`, `pass`, or `-` for those routes. A value with a space, a quote or a backslash is
    /// written in double quotes with `\"` and `\\`; bytes outside visible ASCII as `\xNN`. A
    /// missing status or time is `-`. A refused or failed request ends with
    /// `error="..."`, the reason its error response gave, always quoted.
    func line() -> String {
        var line = "method="
        // One allocation for a typical line (the URL is most of it).
        line.reserveCapacity(112 + (url ?? target).utf8.count)
        Self.append(method.rawValue, to: &line)
        line += " url="
        Self.append(url ?? target, to: &line)
        line += " status=" + (status.map { String($0) } ?? "-")
        line += " bytes=" + String(bodyBytes)
        line += " cache=" + (cache?.rawValue ?? "-")
        line += " ttfb_ms=" + (firstByte.map { Self.milliseconds($0 - started) } ?? "-")
        line += " total_ms=" + Self.milliseconds(ended - started)
        if let error {
            line += " error="
            Self.append(error, to: &line, alwaysQuoted: true)
        }
        return line
    }

    /// Milliseconds with three decimals (microseconds), never negative.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return "0.000" }
        let microseconds = seconds.multipliedReportingOverflow(by: 1_000_000).overflow ? Int64.max : seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return String(microseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `value` as it is when it is visible ASCII without quotes or backslashes (and not
    /// `alwaysQuoted`); quoted and escaped otherwise.
    static func append(_ value: String, to line: inout String, alwaysQuoted: Bool = false) {
        let isPlain = !alwaysQuoted && !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard !isPlain else {
            line += value
            return
        }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                quoted += [UInt8(ascii: "\\"), byte]
            case 0x20..<0x7F:
                quoted.append(byte)
            default:
                let hex = Array("0123456789abcdef".utf8)
                quoted += [UInt8(ascii: "\\"), UInt8(ascii: "x"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        quoted.append(UInt8(ascii: "\""))
        line += String(decoding: quoted, as: UTF8.self)
    }
}
