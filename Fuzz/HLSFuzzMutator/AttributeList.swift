/// A tag line split into its name and attribute list (`#EXT-X-KEY:METHOD=AES-128,URI="k"`),
/// quoted values kept whole (they may hold commas), so that one attribute can be changed,
/// dropped, repeated or added and the line written back.
struct AttributeList {
    var tag: [UInt8]
    var attributes: [(name: [UInt8], value: [UInt8])]

    /// Nil for a line that is not `#TAG:` followed by at least one `NAME=value`.
    init?(line: [UInt8]) {
        guard let colon = line.firstIndex(of: 0x3A) else { return nil }
        tag = Array(line[..<colon])
        attributes = []
        var index = colon + 1
        while index < line.count {
            guard let equals = line[index...].firstIndex(of: 0x3D) else { break }
            let name = Array(line[index..<equals])
            var end = equals + 1
            if end < line.count && line[end] == 0x22 {
                end = line[(end + 1)...].firstIndex(of: 0x22).map { $0 + 1 } ?? line.count
            }
            end = line[end...].firstIndex(of: 0x2C) ?? line.count
            attributes.append((name, Array(line[(equals + 1)..<end])))
            index = end + 1
        }
        if attributes.isEmpty { return nil }
    }

    var line: [UInt8] {
        var output = tag + [0x3A]
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { output.append(0x2C) }
            output += attribute.name + [0x3D] + attribute.value
        }
        return output
    }
}
