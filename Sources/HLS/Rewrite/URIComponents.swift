/// The five components of a URI reference (RFC 3986 section 3), as ranges of its bytes.
/// Delimiters are excluded: `scheme` has no `:`, `authority` no `//`, `query` no `?`.
struct URIComponents: Hashable, Sendable {
    var scheme: Range<Int>?
    var authority: Range<Int>?
    var path: Range<Int>
    var query: Range<Int>?
    var fragment: Range<Int>?

    /// Splits `source[range]` per RFC 3986 appendix B, with a scheme only when it is
    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` before the first `:`.
    init(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var index = range.lowerBound
        let end = range.upperBound
        scheme = nil
        authority = nil
        query = nil
        fragment = nil
        var cursor = index
        if cursor < end, ASCII.isAlpha(source[cursor]) {
            cursor += 1
            while cursor < end {
                let byte = source[cursor]
                guard ASCII.isAlpha(byte) || ASCII.isDigit(byte) || byte == ASCII.plus || byte == ASCII.minus
                        || byte == ASCII.dot else { break }
                cursor += 1
            }
            if cursor < end && source[cursor] == ASCII.colon {
                scheme = index..<cursor
                index = cursor + 1
            }
        }
        if end - index >= 2 && source[index] == ASCII.slash && source[index + 1] == ASCII.slash {
            var authorityEnd = index + 2
            while authorityEnd < end {
                let byte = source[authorityEnd]
                if byte == ASCII.slash || byte == ASCII.questionMark || byte == ASCII.hash { break }
                authorityEnd += 1
            }
            authority = (index + 2)..<authorityEnd
            index = authorityEnd
        }
        guard let base = source.baseAddress else {
            path = index..<index
            return
        }
        let pathEnd = ByteSearch.first(ASCII.questionMark, or: ASCII.hash, in: base, from: index, to: end)
        path = index..<pathEnd
        index = pathEnd
        if index < end && source[index] == ASCII.questionMark {
            let queryEnd = ByteSearch.first(ASCII.hash, in: base, from: index + 1, to: end)
            query = (index + 1)..<queryEnd
            index = queryEnd
        }
        if index < end && source[index] == ASCII.hash {
            fragment = (index + 1)..<end
        }
    }

    /// True for `http` or `https`, in any case.
    static func isHTTP(_ scheme: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        let count = scheme.count
        guard count == 4 || count == 5 else { return false }
        let start = scheme.startIndex
        guard scheme[start] | 0x20 == UInt8(ascii: "h"), scheme[start + 1] | 0x20 == UInt8(ascii: "t"),
              scheme[start + 2] | 0x20 == UInt8(ascii: "t"), scheme[start + 3] | 0x20 == UInt8(ascii: "p")
        else { return false }
        return count == 4 || scheme[start + 4] | 0x20 == UInt8(ascii: "s")
    }
}
