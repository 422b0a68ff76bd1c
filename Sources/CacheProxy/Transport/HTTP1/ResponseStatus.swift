/// A response's status code, with the reason phrase its status line carries.
struct ResponseStatus: Sendable, Hashable {
    /// Unsigned, as the metrics and the access log count it.
    let code: UInt

    /// A code out of 0...999 is written as 500: a status line holds three digits.
    init(statusCode: Int) {
        code = (0...999).contains(statusCode) ? UInt(statusCode) : 500
    }

    static let ok = ResponseStatus(statusCode: 200)
    static let created = ResponseStatus(statusCode: 201)
    static let accepted = ResponseStatus(statusCode: 202)
    static let noContent = ResponseStatus(statusCode: 204)
    static let partialContent = ResponseStatus(statusCode: 206)
    static let badRequest = ResponseStatus(statusCode: 400)

    /// The phrase of the IANA status code registry; a code it does not name gets none, and its
    /// status line ends after the code and a space, as RFC 9112 section 4 allows.
    var reasonPhrase: String {
        Self.phrases[code] ?? ""
    }

    /// The names the registry gave these codes (RFC 9110 section 15 and the RFCs it cites),
    /// in the spelling clients have seen from this proxy since its first release.
    private static let phrases: [UInt: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked",
        424: "Failed Dependency", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
    ]
}
