/// The members a JSON request body may have and what each must be: the one rule every control
/// route's body follows (`/prefetch`, `/sessions`, `/downloads`, `/entries`, `/evict`).
///
/// A member is named by its path: `"url"`, `"bufferAhead.seconds"` (a member of an object),
/// `"urls[]"` (any element of an array), `"urls[].headers"`. Before a body is decoded, every
/// member it has is looked up: one the schema does not list is refused, named (a misspelled
/// option must never be ignored silently). Members of ``openObjects`` (header fields) may have
/// any name. When decoding then fails on a value, the error says what the schema expects there
/// (`"bufferAhead" must be {"seconds": N} or {"segments": N}`).
struct RequestBodySchema: Sendable {
    /// What the body is, in errors: `"the body is not a JSON session request"`.
    let what: String
    /// What each member's value must be, by path.
    let members: [String: String]
    /// Paths of objects whose members may have any name.
    let openObjects: Set<String>
    /// Paths of objects whose members are listed (the root is one).
    private let objects: Set<String>
    /// Paths of arrays whose elements are listed.
    private let arrays: Set<String>

    init(what: String, members: [String: String], openObjects: Set<String> = []) {
        self.what = what
        self.members = members
        self.openObjects = openObjects
        var objects: Set<String> = [""]
        var arrays: Set<String> = []
        for path in members.keys {
            if path.hasSuffix("[]") { arrays.insert(String(path.dropLast(2))) }
            if let dot = path.lastIndex(of: ".") { objects.insert(String(path[..<dot])) }
        }
        self.objects = objects
        self.arrays = arrays
    }

    /// What the values several requests take must be, said the same way everywhere.
    enum Expected {
        static let url = "a URL string"
        static let headers = #"an object of header fields, {"Name": "value"}"#
        static let amount = #"{"seconds": N} or {"segments": N}"#
        static let quality = VariantSpelling.expected
        static let variant = VariantSpelling.expected
    }

    /// What the value at `pattern` (a path with `[]` for indices) must be, when the schema says.
    func expectation(at pattern: String) -> String? { members[pattern] }

    /// Throws for the first member of `tree` the schema does not list (in name order, so the
    /// same body always gets the same error).
    func refuseUnknownMembers(in tree: JSONTree) throws(ParseError) {
        guard case .object = tree else { throw ParseError(.malformed, "the body is not a JSON \(what)") }
        try check(tree, pattern: "", shown: "")
    }

    private func check(_ tree: JSONTree, pattern: String, shown: String) throws(ParseError) {
        switch tree {
        case .scalar:
            return
        case .object(let object):
            guard objects.contains(pattern), !openObjects.contains(pattern) else { return }
            for name in object.keys.sorted() {
                let child = pattern.isEmpty ? name : pattern + "." + name
                let childShown = shown.isEmpty ? name : shown + "." + name
                guard members[child] != nil else {
                    let named = Self.quoted(pattern.isEmpty ? String(name.prefix(40)) : shown + "." + String(name.prefix(40)))
                    throw ParseError(.unsupported, "unknown field \(named)", field: named)
                }
                if let value = object[name] { try check(value, pattern: child, shown: childShown) }
            }
        case .array(let elements):
            guard arrays.contains(pattern) else { return }
            for (index, element) in elements.enumerated() {
                try check(element, pattern: pattern + "[]", shown: shown + "[\(index)]")
            }
        }
    }

    /// `name` in double quotes, written as inside a JSON string (quotes, backslashes and control
    /// characters escaped), so that an error naming a member stays one line whatever it is.
    static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
