/// The one-pass split of an attribute list that is plainly well-formed, which is nearly every
/// list a packager writes: `NAME=VALUE` entries joined by single commas, names without white
/// space, values either unquoted without white space at their ends or a whole quoted string.
///
/// The list is read 64 bytes at a time as bit masks of quotes and separators
/// (``AttributeListChunk``); separators inside quoted strings are masked off, and the entries
/// are the runs between the rest. Anything the masks cannot vouch for (a quote anywhere but
/// around a whole value, an entry without `=`, an empty value or name, white space outside
/// quoted strings, a trailing
/// comma, a name that is repeated or not `[A-Z0-9-]`, a name of the rare tags whose raw value is
/// 64 or more, too many attributes) gives the list back
/// to ``AttributeListScanner``, which recovers and reports as it always has: this path records
/// exactly what the scanner's would, or nothing.
extension PlaylistParser {
    /// Parses the attribute list in `span` into the attribute pool, or returns nil with the
    /// pool as it was when the list is not plainly well-formed. Reports nothing.
    @inline(__always)
    mutating func quickAttributeList(_ span: ByteSpan) -> AttributeListSummary? {
        let start = span.lowerBound
        let end = span.upperBound
        let poolStart = attributes.count
        var flaws = false
        var names: UInt64 = 0
        var quotedNames: UInt64 = 0
        var repeated: UInt64 = 0
        // The quotes seen less two for each whole quoted value: 0 at the end when every quote
        // opens or closes one. (One counter, not two: the loop is short of registers.)
        var unexplainedQuotes = 0
        var nameStart = start
        // The entry's `=`, or -1 while the name is being read.
        var equals = -1
        var chunkStart = start
        var carry: UInt64 = 0
        while chunkStart < end {
            let chunk = AttributeListChunk(base, at: chunkStart, end: end, readableEnd: count)
            unexplainedQuotes &+= chunk.quotes.nonzeroBitCount
            let inside = chunk.insideQuotes(carry: &carry)
            // White space (or a control byte) outside quoted strings: around a name or an
            // unquoted value it is the scanner's to report, and inside one rare enough to leave
            // to it too.
            if chunk.spaces & ~inside != 0 { flaws = true; break }
            var separators = chunk.separators & ~inside
            while separators != 0 {
                let position = chunkStart &+ separators.trailingZeroBitCount
                separators &= separators &- 1
                if base[position] == ASCII.equals {
                    // A second `=` before the comma belongs to an unquoted value.
                    if equals < 0 { equals = position }
                    continue
                }
                guard equals >= 0, let entry = quickEntry(name: nameStart, equals: equals, end: position) else {
                    flaws = true
                    break
                }
                record(entry, names: &names, quotedNames: &quotedNames, repeated: &repeated)
                unexplainedQuotes &-= entry.isQuoted ? 2 : 0
                nameStart = position &+ 1
                equals = -1
            }
            if flaws { break }
            chunkStart &+= 64
        }
        if !flaws {
            if equals >= 0 {
                if let entry = quickEntry(name: nameStart, equals: equals, end: end) {
                    record(entry, names: &names, quotedNames: &quotedNames, repeated: &repeated)
                    unexplainedQuotes &-= entry.isQuoted ? 2 : 0
                } else {
                    flaws = true
                }
            } else {
                // Only an empty list may end outside a value: anything else ends in a name
                // without `=` or a trailing comma.
                flaws = nameStart != start || start != end
            }
        }
        // Every quote must open or close a whole quoted value: then the quoted regions the
        // masks assumed are the scanner's. Past the attribute limit the scanner reports.
        if flaws || repeated != 0 || unexplainedQuotes != 0
            || attributes.count &- poolStart > limits.maximumAttributesPerTag {
            attributes.truncate(to: poolStart)
            return nil
        }
        let record = TagRecord(line: Int32(truncatingIfNeeded: lineIndex),
                               attributes: AttributeRange(start: Int32(truncatingIfNeeded: poolStart),
                                                          count: Int32(truncatingIfNeeded: attributes.count &- poolStart)))
        return AttributeListSummary(record: record, names: names, quotedNames: quotedNames)
    }

    /// The entry `name..<end` with its `=` at `equals`, when the scanner's short path would read
    /// it the same way; nil for anything it would not. (White space at either end of the name
    /// or the value, and the attribute limit, are the caller's to check.)
    @inline(__always)
    private func quickEntry(name nameStart: Int, equals: Int, end valueEnd: Int) -> AttributeRecord? {
        let valueStart = equals &+ 1
        guard equals > nameStart, valueEnd > valueStart else { return nil }
        let first = base[valueStart]
        let last = base[valueEnd &- 1]
        // Without short-circuits: whether a value is quoted follows no pattern a branch could learn.
        let isQuoted = (first == ASCII.quote) & (last == ASCII.quote) & (valueEnd &- valueStart >= 2)
        let span = ByteSpan(nameStart, equals)
        // The name from its id by an array, not `AttributeName(rawValue:)`: that one is not
        // inlined, and a call per attribute shows.
        let known = attributeTable.lookup(base, span, readableEnd: count).flatMap { id in
            Int(id) < attributeNames.count ? attributeNames[Int(id)] : nil
        }
        if let known {
            if known.rawValue >= 64 { return nil }
        } else if !Self.isAttributeName(base, span) {
            return nil
        }
        return AttributeRecord(name: span, value: ByteSpan(valueStart, valueEnd), knownName: known,
                               isQuoted: isQuoted, isUnterminated: false)
    }

    @inline(__always)
    private mutating func record(_ entry: AttributeRecord, names: inout UInt64, quotedNames: inout UInt64,
                                 repeated: inout UInt64) {
        if let known = entry.knownName {
            let bit = known.bit
            repeated |= names & bit
            names |= bit
            quotedNames |= entry.isQuoted ? bit : 0
            attributePositions[known.rawValue] = Int32(truncatingIfNeeded: attributes.count)
        }
        attributes.append(entry)
    }
}
