/// The header fields of an HTTP message, in the order they were sent or will be written.
///
/// Names compare without regard to ASCII case, as HTTP defines them; values are kept as
/// they are. Repeated fields stay separate entries: ``subscript(_:)`` gives each value, and
/// ``first(name:)`` the first, so `Host` fields can be counted and `Set-Cookie` kept apart.
///
/// ```swift
/// var headers: HeaderFields = ["Content-Type": "video/mp2t"]
/// headers.add(name: "Range", value: "bytes=0-99")
/// headers.first(name: "range")   // "bytes=0-99"
/// ```
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (name: String, value: String)

    private struct Field: Sendable, Hashable {
        var name: String
        var value: String

        static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.value == rhs.value && HeaderFields.sameName(lhs.name, rhs.name)
        }

        func hash(into hasher: inout Hasher) {
            for byte in name.utf8 { hasher.combine(HeaderFields.lowercased(byte)) }
            hasher.combine(value)
        }
    }

    private var fields: [Field]

    public init() {
        fields = []
    }

    /// The fields in the order given.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public mutating func reserveCapacity(_ capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    /// Appends a field, after any of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`, then appends one with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// The value of the first field named `name`.
    public func first(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    public func contains(name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// The values of every field named `name`, in order.
    public subscript(name: String) -> [String] {
        fields.compactMap { Self.sameName($0.name, name) ? $0.value : nil }
    }

    /// Whether a comma-separated element of a field named `name` is `element`, in any ASCII
    /// case; read in place, as every request's `Connection` is.
    func hasElement(_ element: StaticString, inField name: String) -> Bool {
        let wanted = UnsafeBufferPointer(start: element.utf8Start, count: element.utf8CodeUnitCount)
        for field in fields where Self.sameName(field.name, name) {
            for part in field.value.utf8.split(separator: UInt8(ascii: ",")) {
                let trimmed = part.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
                if trimmed.count == wanted.count, zip(trimmed.reversed(), wanted).allSatisfy({ Self.lowercased($0) == $1 }) {
                    return true
                }
            }
        }
        return false
    }

    public func makeIterator() -> some IteratorProtocol<Element> {
        fields.lazy.map { (name: $0.name, value: $0.value) }.makeIterator()
    }

    public var description: String {
        "[" + fields.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    /// Whether two names spell the same in any ASCII case, without building lower-case copies:
    /// every request asks for a few fields by name.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        while let a = left.next(), let b = right.next() {
            guard lowercased(a) == lowercased(b) else { return false }
        }
        return true
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}
