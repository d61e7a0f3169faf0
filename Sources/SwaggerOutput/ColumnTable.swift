import SwaggerModel

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
        let widths = widths(of: lines)
        return lines.map { line($0, widths: widths) }.joined()
    }

    /// The width of each column, as the widest of its cells is shown.
    package static func widths(of lines: [[String]]) -> [Int] {
        var widths = [Int](repeating: 0, count: lines.map(\.count).max() ?? 0)
        for line in lines {
            for (column, text) in line.enumerated() {
                widths[column] = max(widths[column], DisplayWidth.of(cell(text)))
            }
        }
        return widths
    }

    /// One line of cells, each padded to its column's width but the last; a cell wider than its column pushes the
    /// rest along.
    package static func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (column, text) in cells.enumerated() {
            let shown = cell(text)
            let width = column < widths.count ? widths[column] : 0
            let padding = column == cells.count - 1 ? 0 : max(0, width - DisplayWidth.of(shown))
            parts.append(shown + String(repeating: " ", count: padding))
        }
        return parts.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
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
