/// remove_dot_segments of RFC 3986 section 5.2.4.
enum DotSegments {
    /// True when the path has a `.` or `..` segment, the only case where removal changes it.
    static func contains(_ source: UnsafeBufferPointer<UInt8>, _ path: Range<Int>) -> Bool {
        guard let base = source.baseAddress else { return false }
        // Only a dot that starts a segment can start a dot segment; look at the dots alone.
        var dot = ByteSearch.first(ASCII.dot, in: base, from: path.lowerBound, to: path.upperBound)
        while dot < path.upperBound {
            if dot == path.lowerBound || base[dot - 1] == ASCII.slash {
                var after = dot + 1
                if after < path.upperBound && base[after] == ASCII.dot { after += 1 }
                if after == path.upperBound || base[after] == ASCII.slash { return true }
            }
            dot = ByteSearch.first(ASCII.dot, in: base, from: dot + 1, to: path.upperBound)
        }
        return false
    }

    /// Appends `source[path]` with its dot segments removed.
    static func appendRemoving(_ source: UnsafeBufferPointer<UInt8>, _ path: Range<Int>, to output: inout OutputBuffer) {
        guard contains(source, path) else {
            output.append(UnsafeBufferPointer(rebasing: source[path]))
            return
        }
        let outputStart = output.count
        var input = Array(UnsafeBufferPointer(rebasing: source[path]))
        var index = 0
        func hasPrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard input.count - index >= count else { return false }
            for offset in 0..<count where input[index + offset] != prefix.utf8Start[offset] { return false }
            return true
        }
        func isExactly(_ rest: StaticString) -> Bool {
            input.count - index == rest.utf8CodeUnitCount && hasPrefix(rest)
        }
        func removeLastOutputSegment() {
            let written = output.written
            var end = written.count
            while end > outputStart {
                end -= 1
                if written[end] == ASCII.slash { break }
            }
            output.truncate(to: end)
        }
        while index < input.count {
            if hasPrefix("../") {
                index += 3
            } else if hasPrefix("./") {
                index += 2
            } else if hasPrefix("/./") {
                index += 2
            } else if isExactly("/.") {
                index += 1
                input[index] = ASCII.slash
            } else if hasPrefix("/../") {
                index += 3
                removeLastOutputSegment()
            } else if isExactly("/..") {
                index += 2
                input[index] = ASCII.slash
                removeLastOutputSegment()
            } else if isExactly(".") || isExactly("..") {
                index = input.count
            } else {
                var segmentEnd = index
                if input[segmentEnd] == ASCII.slash { segmentEnd += 1 }
                while segmentEnd < input.count && input[segmentEnd] != ASCII.slash { segmentEnd += 1 }
                input.withUnsafeBufferPointer { output.append(UnsafeBufferPointer(rebasing: $0[index..<segmentEnd])) }
                index = segmentEnd
            }
        }
    }
}
