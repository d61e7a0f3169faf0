/// Rows of several columns, aligned by display width: `operations`' list, and `api -o table`'s items. Each cell goes
/// through ``TerminalText/escaped(_:)``, as `details` shows a value, so that nothing from a server moves the cursor or
/// adds a line.
package enum ColumnTable {
    /// The widest a cell is shown: a longer one is cut with `…`, so that one long value does not push every other
    /// column off the screen.
    package static let cellLimit = 60

    /// The table, every line ending in a newline; `header` first when given. The last column is not padded.
    package static func render(header: [String]? = nil, rows: [[String]]) -> String {
        let lines = (header.map { [$0] } ?? []) + rows
        let cells = lines.map { line in line.map(cell) }
        let count = cells.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: count)
        for line in cells {
            for (column, text) in line.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(text)) }
        }
        var text = ""
        for line in cells {
            var parts: [String] = []
            for (column, cell) in line.enumerated() {
                let isLast = column == line.count - 1
                let padding = isLast ? 0 : widths[column] - DisplayWidth.of(cell)
                parts.append(cell + String(repeating: " ", count: padding))
            }
            text += parts.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        return text
    }

    /// A cell as shown: escaped, on one line, and no wider than ``cellLimit``.
    static func cell(_ text: String) -> String {
        let escaped = TerminalText.escaped(text)
        guard DisplayWidth.of(escaped) > cellLimit else { return escaped }
        var cut = ""
        var width = 0
        for character in escaped {
            let next = DisplayWidth.of(character)
            guard width + next <= cellLimit - 1 else { break }
            cut.append(character)
            width += next
        }
        return cut + "…"
    }
}
