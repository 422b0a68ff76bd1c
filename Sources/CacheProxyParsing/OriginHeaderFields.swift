/// Header fields the proxy adds to its requests to an origin: credentials (`Authorization`,
/// `Cookie`, a CDN's token header) and whatever else an origin wants to see (`Referer`,
/// `User-Agent`).
///
/// Every value is checked when it is made, whoever gave it (an app, a session or prefetch body,
/// the command line, a player's request): at most ``maximumCount`` fields and ``maximumBytes``
/// in all, names that are HTTP tokens, values without CR, LF or NUL (no header injection), and
/// none of the fields the proxy owns (``refusedNames``: hop-by-hop fields, `Host`, framing,
/// `Range` and the conditional fields). Errors name the field, never its value: values are
/// secrets.
///
/// Names compare case-insensitively; a name appears once.
public struct OriginHeaderFields: Sendable, Hashable, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    /// The most fields one set may hold.
    public static let maximumCount = 64
    /// The most bytes one set may hold, counted as on the wire (`Name: value` and CRLF).
    public static let maximumBytes = 8 * 1024

    /// Fields the proxy sets itself, or that belong to one connection (RFC 9110 section 7.6.1),
    /// lower-cased: given by a request they could break framing, ranges or revalidation.
    public static let refusedNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length", "expect", "range", "if-range", "if-none-match",
        "if-modified-since", "if-match", "if-unmodified-since", "accept-encoding",
    ]

    /// The fields, in the order given (sorted by name when they came from a JSON object).
    public private(set) var fields: [Field]

    /// No fields.
    public init() {
        fields = []
    }

    /// Checks `pairs` and keeps them in order.
    ///
    /// - Parameter context: how errors name where the fields came from (`"headers"`).
    /// - Throws: ``ParseError``: `ParseError.Code.tooMany` or `ParseError.Code.tooLong`
    ///   past the limits, `ParseError.Code.malformed` for a name that is not a token, a value
    ///   with CR, LF or NUL, or a name given twice, `ParseError.Code.unsupported` for a name in
    ///   ``refusedNames``. The error's ``ParseError/field`` is `context.Name`.
    public init(_ pairs: [(name: String, value: String)], context: String = "headers") throws(ParseError) {
        guard pairs.count <= Self.maximumCount else {
            throw ParseError(.tooMany, "\"\(context)\" holds more than \(Self.maximumCount) fields", field: "\"\(context)\"")
        }
        var total = 0
        var seen = Set<String>()
        var fields: [Field] = []
        for (name, value) in pairs {
            guard Self.isToken(name) else {
                throw ParseError(.malformed, "\"\(context)\" has a field name that is not an HTTP token", field: "\"\(context)\"")
            }
            let field = "\"\(context).\(name)\""
            let lowered = name.lowercased()
            guard !Self.refusedNames.contains(lowered) else {
                throw ParseError(.unsupported, "\(field) is a field the proxy sets itself or that belongs to one connection", field: field)
            }
            guard seen.insert(lowered).inserted else { throw ParseError(.malformed, "\(field) is given twice", field: field) }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw ParseError(.malformed, "\(field) has a value with CR, LF or NUL", field: field)
            }
            total += name.utf8.count + value.utf8.count + 4
            guard total <= Self.maximumBytes else {
                throw ParseError(.tooLong, "\"\(context)\" holds more than \(Self.maximumBytes) bytes", field: "\"\(context)\"")
            }
            fields.append(Field(name: name, value: value))
        }
        self.fields = fields
    }

    /// Parses `Name: value` lines (as `curl -H` takes them); blank lines and lines starting with
    /// `#` are skipped.
    public init(lines: [String], context: String = "headers") throws(ParseError) {
        var pairs: [(name: String, value: String)] = []
        for line in lines {
            let trimmed = Self.trimmed(Substring(line))
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            pairs.append(try Self.pair(parsing: trimmed, context: context))
        }
        try self.init(pairs, context: context)
    }

    /// Splits one `Name: value` line at its first colon; the value loses surrounding spaces.
    public static func pair(parsing line: Substring, context: String = "headers") throws(ParseError) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: ":") else {
            throw ParseError(.malformed, "\"\(context)\" takes \"Name: value\", a line has no colon", field: "\"\(context)\"")
        }
        return (String(line[..<colon]), String(trimmed(line[line.index(after: colon)...])))
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    /// The names, as given.
    public var names: [String] { fields.map(\.name) }

    /// The value of the field named `name` (any case), if there is one.
    public func value(named name: String) -> String? {
        let lowered = name.lowercased()
        return fields.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether a field named `name` (any case) is here.
    public func contains(_ name: String) -> Bool { value(named: name) != nil }

    /// These fields over `lower`: a field of `self` replaces `lower`'s field of the same name.
    /// The limits hold for each set, not for the merge (which only the proxy makes).
    public func merged(over lower: OriginHeaderFields) -> OriginHeaderFields {
        if lower.isEmpty { return self }
        if isEmpty { return lower }
        var merged = self
        for field in lower.fields where !contains(field.name) { merged.fields.append(field) }
        return merged
    }

    /// These fields without those named in `names` (lower-cased).
    public func removing(_ names: Set<String>) -> OriginHeaderFields {
        var kept = self
        kept.fields.removeAll { names.contains($0.name.lowercased()) }
        return kept
    }

    /// The names only: the values are secrets and never printed.
    public var description: String { "[" + names.joined(separator: ", ") + "]" }

    /// Whether the fields hold to every check of ``init(_:context:)``: what fuzz targets assert
    /// of every set a request body was accepted with.
    package var isWithinLimits: Bool {
        var names = Set<String>()
        let bytes = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        return fields.count <= Self.maximumCount && bytes <= Self.maximumBytes && fields.allSatisfy { field in
            Self.isToken(field.name) && names.insert(field.name.lowercased()).inserted
                && !Self.refusedNames.contains(field.name.lowercased())
                && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }
    }

    /// Whether `name` is an HTTP token (RFC 9110 section 5.6.2).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

extension OriginHeaderFields: Decodable {
    /// Decodes a JSON object of string values (`{"Authorization": "Bearer T"}`), sorted by name,
    /// and checks it; errors name the member's path (`"urls[1].headers.Cookie"`).
    public init(from decoder: any Decoder) throws {
        let object = try decoder.singleValueContainer().decode([String: String].self)
        let context = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        let name = context.hasPrefix(".") ? String(context.dropFirst()) : context
        try self.init(object.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }, context: name.isEmpty ? "headers" : name)
    }
}
