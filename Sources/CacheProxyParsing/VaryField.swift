/// An origin response's `Vary` (RFC 9110 section 12.5.5): the request header fields the
/// response was chosen by. A cache may reuse the response only for requests that send the same
/// values of those fields; `*` means it may reuse it for none.
///
/// Parsed from untrusted bytes: at most ``maximumNames`` names are kept (more, or a name that is
/// not a token, count as `*`: the response is not reused), compared case-insensitively.
public struct VaryField: Sendable, Hashable {
    /// The most names a response may vary on and still be stored.
    public static let maximumNames = 16

    /// The names, lower-cased, sorted, each once.
    public private(set) var names: [String]
    /// `Vary: *`, or a field that could not be understood: the response is never reused.
    public private(set) var isAny: Bool

    /// No `Vary`.
    public init() {
        names = []
        isAny = false
    }

    /// Parses every `Vary` field line of a response.
    public init(parsing values: [String]) {
        self.init()
        var seen = Set<String>()
        for value in values {
            for item in value.split(separator: ",") {
                let name = String(item.filter { $0 != " " && $0 != "\t" }).lowercased()
                if name.isEmpty { continue }
                guard name != "*", OriginHeaderFields.isToken(name) else {
                    isAny = true
                    continue
                }
                seen.insert(name)
            }
        }
        if seen.count > Self.maximumNames { isAny = true }
        names = isAny ? [] : seen.sorted()
    }

    /// Whether the response varies on nothing.
    public var isEmpty: Bool { names.isEmpty && !isAny }
}
