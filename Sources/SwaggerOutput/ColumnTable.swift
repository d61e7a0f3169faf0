import SwaggerModel

/// Rows of several columns, aligned by display width: `operations`' list, and `api -o table`'s items. Each cell goes
/// through ``TerminalText/escaped(_:)``, as `details` shows a value, so that nothing from a server moves the cursor or
/// adds a line.
package enum ColumnTable {
    /// The widest a cell is shown: a longer one is cut with `…`, so that one long value does not push every other
    /// column off the screen.
    static let cellLimit = 60

    /// The table, every line ending in a newline; `header` first when given. The last column is not padded.
    /// - Parameter columns: The terminal's width, which each line is cut to with `…`, as each cell is to
    ///   ``cellLimit``; `nil` for a pipe, which gets every cell whole.
    package static func render(header: [String]? = nil, rows: [[String]], columns: Int?) -> String {
        let lines = (header.map { [$0] } ?? []) + rows
        let limit = columns == nil ? Int.max : cellLimit
        let widths = widths(of: lines, limit: limit)
        return lines.map { cells in
            let text = line(cells, widths: widths, limit: limit)
            guard let columns else { return text }
            return DisplayWidth.cut(String(text.dropLast()), to: columns) + "\n"
        }.joined()
    }

    /// The width of each column, as the widest of its cells is shown.
    static func widths(of lines: [[String]], limit: Int = cellLimit) -> [Int] {
        var widths = [Int](repeating: 0, count: lines.map(\.count).max() ?? 0)
        for line in lines {
            for (column, text) in line.enumerated() {
                widths[column] = max(widths[column], DisplayWidth.of(cell(text, limit: limit)))
            }
        }
        return widths
    }

    /// One line of cells, each padded to its column's width but the last; a cell wider than its column pushes the
    /// rest along.
    package static func line(_ cells: [String], widths: [Int], limit: Int = cellLimit) -> String {
        var parts: [String] = []
        for (column, text) in cells.enumerated() {
            let shown = cell(text, limit: limit)
            let width = column < widths.count ? widths[column] : 0
            let padding = column == cells.count - 1 ? 0 : max(0, width - DisplayWidth.of(shown))
            parts.append(shown + String(repeating: " ", count: padding))
        }
        return parts.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
    }

    /// A cell as shown: escaped, on one line, and no wider than `limit`.
    static func cell(_ text: String, limit: Int = cellLimit) -> String {
        DisplayWidth.cut(TerminalText.escaped(text), to: limit)
    }
}
