/// The five components of a URI reference (RFC 3986 section 3), as bytes, delimiters excluded.
struct URLParts: Hashable {
    var scheme: ArraySlice<UInt8>?
    var authority: ArraySlice<UInt8>?
    var path: ArraySlice<UInt8>
    var query: ArraySlice<UInt8>?
    var fragment: ArraySlice<UInt8>?

    /// Splits a reference the way the regular expression of RFC 3986 appendix B does, with a
    /// scheme only when it is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    init(_ bytes: [UInt8]) {
        var rest = bytes[...]
        if let colon = rest.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/")
                || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
           rest[colon] == UInt8(ascii: ":"), colon > rest.startIndex, Self.isSchemeStart(rest[rest.startIndex]),
           rest[rest.startIndex..<colon].allSatisfy(Self.isSchemeCharacter) {
            scheme = rest[rest.startIndex..<colon]
            rest = rest[(colon + 1)...]
        }
        if rest.starts(with: [0x2F, 0x2F]) {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? afterSlashes.endIndex
            authority = afterSlashes[..<end]
            rest = afterSlashes[end...]
        }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = rest[(hash + 1)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[(question + 1)...]
            rest = rest[..<question]
        }
        path = rest
    }

    private static func isSchemeStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isSchemeStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// True for `http` and `https` in any case.
    var isHTTP: Bool {
        guard let scheme else { return false }
        let lowered = scheme.map { $0 | 0x20 }
        return lowered.elementsEqual("http".utf8) || lowered.elementsEqual("https".utf8)
    }

    /// RFC 3986 section 5.3: the components joined with their delimiters.
    func recomposed() -> [UInt8] {
        var output: [UInt8] = []
        if let scheme {
            output += scheme
            output.append(UInt8(ascii: ":"))
        }
        if let authority {
            output += [0x2F, 0x2F]
            output += authority
        }
        output += path
        if let query {
            output.append(UInt8(ascii: "?"))
            output += query
        }
        if let fragment {
            output.append(UInt8(ascii: "#"))
            output += fragment
        }
        return output
    }

    /// RFC 3986 section 5.2.2: `reference` resolved against this (absolute) base.
    func resolving(_ reference: URLParts) -> URLParts {
        var target = reference
        if reference.scheme != nil {
            target.path = Self.removingDotSegments(reference.path)
            return target
        }
        target.scheme = scheme
        if reference.authority != nil {
            target.path = Self.removingDotSegments(reference.path)
            return target
        }
        target.authority = authority
        if reference.path.isEmpty {
            target.path = path
            target.query = reference.query ?? query
        } else if reference.path.first == UInt8(ascii: "/") {
            target.path = Self.removingDotSegments(reference.path)
        } else {
            target.path = Self.removingDotSegments(merged(with: reference.path))
        }
        return target
    }

    /// Section 5.2.3: the base path up to its last `/`, then the reference path.
    private func merged(with referencePath: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        if authority != nil && path.isEmpty { return ([UInt8(ascii: "/")] + referencePath)[...] }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return referencePath }
        return (path[...slash] + referencePath)[...]
    }

    /// Section 5.2.4, remove_dot_segments, step by step as the RFC gives it.
    static func removingDotSegments(_ path: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        // Only a `.` that starts a segment can begin a dot segment.
        guard path.contains(UInt8(ascii: ".")) else { return path }
        var input = Array(path)[...]
        var output: [UInt8] = []
        let slash = UInt8(ascii: "/")
        func dropLastSegment() {
            if let last = output.lastIndex(of: slash) { output.removeSubrange(last...) } else { output.removeAll() }
        }
        while !input.isEmpty {
            if input.starts(with: "../".utf8) {
                input = input.dropFirst(3)
            } else if input.starts(with: "./".utf8) {
                input = input.dropFirst(2)
            } else if input.starts(with: "/./".utf8) {
                input = input.dropFirst(2)
            } else if input.elementsEqual("/.".utf8) {
                input = [slash][...]
            } else if input.starts(with: "/../".utf8) {
                input = input.dropFirst(3)
                dropLastSegment()
            } else if input.elementsEqual("/..".utf8) {
                input = [slash][...]
                dropLastSegment()
            } else if input.elementsEqual(".".utf8) || input.elementsEqual("..".utf8) {
                input = []
            } else {
                let searchFrom = input.first == slash ? input.startIndex + 1 : input.startIndex
                let end = input[searchFrom...].firstIndex(of: slash) ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output[...]
    }
}
