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
        var pathEnd = index
        while pathEnd < end && source[pathEnd] != ASCII.questionMark && source[pathEnd] != ASCII.hash { pathEnd += 1 }
        path = index..<pathEnd
        index = pathEnd
        if index < end && source[index] == ASCII.questionMark {
            var queryEnd = index + 1
            while queryEnd < end && source[queryEnd] != ASCII.hash { queryEnd += 1 }
            query = (index + 1)..<queryEnd
            index = queryEnd
        }
        if index < end && source[index] == ASCII.hash {
            fragment = (index + 1)..<end
        }
    }

    /// True for `http` or `https`, in any case.
    static func isHTTP(_ scheme: some Collection<UInt8>) -> Bool {
        let lower = scheme.map { ASCII.isUpper($0) ? $0 | 0x20 : $0 }
        return lower.elementsEqual("http".utf8) || lower.elementsEqual("https".utf8)
    }
}
