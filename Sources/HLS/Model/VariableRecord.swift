/// A variable from EXT-X-DEFINE (or imported, or taken from the playlist URL's query).
struct VariableRecord: Sendable {
    var name: [UInt8]
    var value: [UInt8]
    /// Byte offset of the defining tag: only references after it are substituted.
    var definedAt: Int32
    var tag: TagRecord
}

/// The variables of a playlist, found by name through a hash of it, so that a playlist with
/// many variables and many references costs one probe per reference, not a scan.
/// Lookup and substitution are shared by the parser (which checks and counts references) and
/// the model (which substitutes when it decodes a string).
struct VariableTable: Sendable, RandomAccessCollection {
    private var records: [VariableRecord] = []
    /// FNV-1a of the name to the record's index. Names are unique; two names with the same
    /// hash are told apart by comparing bytes, and the rare loser is found by a scan.
    private var byHash: [UInt64: Int] = [:]

    var startIndex: Int { records.startIndex }
    var endIndex: Int { records.endIndex }
    subscript(position: Int) -> VariableRecord { records[position] }

    mutating func append(_ record: VariableRecord) {
        let hash = FNV1a.hash(record.name)
        if byHash[hash] == nil { byHash[hash] = records.count }
        records.append(record)
    }

    /// The variable called `name` (bytes of `base`) and defined before byte offset `position`.
    func index(named name: ByteSpan, before position: Int32, in base: UnsafePointer<UInt8>) -> Int? {
        let matches = { (index: Int) -> Bool in
            let variable = records[index]
            return variable.name.count == name.count
                && variable.name.withUnsafeBufferPointer { stored in
                    (0..<name.count).allSatisfy { stored[$0] == base[name.lowerBound + $0] }
                }
        }
        let found: Int?
        if let candidate = byHash[FNV1a.hash(base, name)] {
            found = matches(candidate) ? candidate : records.indices.first(where: matches)
        } else {
            found = nil
        }
        guard let found, records[found].definedAt < position else { return nil }
        return found
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
                    output.append(contentsOf: records[index].value)
                } else {
                    output.append(contentsOf: UnsafeBufferPointer(start: base + whole.lowerBound, count: whole.count))
                }
            }
        }
        return output
    }
}
