/// remove_dot_segments of RFC 3986 section 5.2.4.
enum DotSegments {
    /// True when the path has a `.` or `..` segment, the only case where removal changes it.
    static func contains(_ source: UnsafeBufferPointer<UInt8>, _ path: Range<Int>) -> Bool {
        var segmentStart = path.lowerBound
        var index = path.lowerBound
        while index <= path.upperBound {
            if index == path.upperBound || source[index] == ASCII.slash {
                let length = index - segmentStart
                if length == 1 && source[segmentStart] == ASCII.dot { return true }
                if length == 2 && source[segmentStart] == ASCII.dot && source[segmentStart + 1] == ASCII.dot {
                    return true
                }
                segmentStart = index + 1
            }
            index += 1
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
