/// A table for people: each column as wide as its widest cell, two spaces apart, numbers
/// aligned right; the last column (a key, a URL) is never padded, so long values do not push
/// white space onto every line.
struct TextTable {
    enum Alignment {
        case left
        case right
    }

    struct Column {
        var title: String
        var alignment: Alignment
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        self.columns = columns.map { Column(title: $0.0, alignment: $0.1) }
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The header and the rows, one line each, every line ending in a newline.
    func rendered() -> String {
        let widths = columns.indices.map { index in
            ([columns[index].title] + rows.map { index < $0.count ? $0[index] : "" }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, column) in columns.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let isLast = index == columns.count - 1
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
                switch (column.alignment, isLast) {
                case (.right, _): text += padding + cell
                case (.left, true): text += cell
                case (.left, false): text += cell + padding
                }
                if !isLast { text += "  " }
            }
            return text + "\n"
        }
        return ([columns.map(\.title)] + rows).map(line).joined()
    }
}
