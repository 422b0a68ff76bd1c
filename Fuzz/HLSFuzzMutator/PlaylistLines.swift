/// A playlist as lines, each with its own line ending (LF, CRLF, CR or none at the end), so
/// that a mutation moves whole lines and keeps the input's endings.
struct PlaylistLines {
    struct Line {
        var content: [UInt8]
        var ending: [UInt8]
    }

    var lines: [Line]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        lines = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                var end = index + 1
                if byte == 0x0D && end < bytes.count && bytes[end] == 0x0A { end += 1 }
                lines.append(Line(content: Array(bytes[start..<index]), ending: Array(bytes[index..<end])))
                start = end
                index = end
            } else {
                index += 1
            }
        }
        if start < bytes.count { lines.append(Line(content: Array(bytes[start...]), ending: [])) }
    }

    /// The ending a new line gets: the first line's, or LF.
    var newline: [UInt8] {
        lines.first(where: { !$0.ending.isEmpty })?.ending ?? [0x0A]
    }

    /// The lines of tags with an attribute list (`#EXT-X-...:NAME=...`).
    var attributeLines: [Int] {
        lines.indices.filter { index in
            let content = lines[index].content
            return content.starts(with: Array("#EXT".utf8)) && content.contains(0x3D)
        }
    }

    mutating func insert(_ content: [UInt8], at index: Int) {
        lines.insert(Line(content: content, ending: newline), at: min(index, lines.count))
        // A line inserted after the last one, which had no ending, would join it.
        for position in lines.indices.dropLast() where lines[position].ending.isEmpty { lines[position].ending = newline }
    }

    var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(lines.reduce(0) { $0 + $1.content.count + $1.ending.count })
        for line in lines {
            output += line.content
            output += line.ending
        }
        return output
    }
}
