/// A variable from EXT-X-DEFINE (or imported, or taken from the playlist URL's query).
struct VariableRecord: Sendable {
    var name: [UInt8]
    var value: [UInt8]
    /// Byte offset of the defining tag: only references after it are substituted.
    var definedAt: Int32
    var tag: TagRecord
}

/// Lookup and substitution, shared by the parser (which checks and counts references) and the
/// model (which substitutes when it decodes a string).
extension [VariableRecord] {
    /// The variable called `name` (bytes of `base`) and defined before byte offset `position`.
    func index(named name: ByteSpan, before position: Int32, in base: UnsafePointer<UInt8>) -> Int? {
        firstIndex { variable in
            variable.definedAt < position && variable.name.count == name.count
                && variable.name.withUnsafeBufferPointer { stored in
                    (0..<name.count).allSatisfy { stored[$0] == base[name.lowerBound + $0] }
                }
        }
    }

    /// The bytes of `span` with each reference to a variable defined before it replaced by its
    /// value; other references stay as written.
    func substituting(_ span: ByteSpan, in base: UnsafePointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        VariableReferences.forEach(in: base, span) { piece in
            switch piece {
            case .literal(let literal):
                output.append(contentsOf: UnsafeBufferPointer(start: base + literal.lowerBound, count: literal.count))
            case .reference(let name, let whole):
                if let index = index(named: name, before: span.start, in: base) {
                    output.append(contentsOf: self[index].value)
                } else {
                    output.append(contentsOf: UnsafeBufferPointer(start: base + whole.lowerBound, count: whole.count))
                }
            }
        }
        return output
    }
}
