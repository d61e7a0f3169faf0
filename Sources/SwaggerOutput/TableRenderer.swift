import SwaggerModel

/// Turns rows into the text of a two-column key/value table.
///
/// Keys are padded to the widest key by display width, so values line up even after wide or combining
/// characters. Keys and values go through ``TerminalText/escaped(_:)``: control characters (escape
/// sequences included), line breaks and invisible format characters from the server are shown as `\u{…}`, so
/// that a profile can never move the cursor, recolour or reorder the terminal, or add a line.
package struct TableRenderer: Sendable {
    /// How keys look.
    package enum Style: Sendable, Hashable {
        /// Plain text, for pipes and `NO_COLOR`.
        case plain
        /// Keys dimmed with ANSI SGR 2, for colour terminals.
        case dimmedKeys
    }

    /// What becomes of a value too long for its line on a terminal.
    package enum Overflow: Sendable, Hashable {
        /// Wrapped under itself, so that it never runs back into the key column: `details`' profile.
        case wrap
        /// Cut with `…`, each row on one line: `api -o table`'s object, whose whole text a pipe gets.
        case cut
    }

    package var style: Style
    /// The terminal's width in columns, when the table goes to one, which a value too long for its line is
    /// fitted to as ``overflow`` says. `nil` for a pipe, which gets one line per row whatever its length.
    package var columns: Int?
    package var overflow: Overflow

    /// The narrowest value column worth aligning; on a terminal narrower than that beside the keys, each value
    /// goes on lines of its own under its key.
    static let narrowestValues = 16

    package init(style: Style = .plain, columns: Int? = nil, overflow: Overflow = .wrap) {
        self.style = style
        self.columns = columns
        self.overflow = overflow
    }

    /// The table for `rows`, every line ending in a newline.
    package func render(_ rows: [DetailsViewModel]) -> String {
        let keys = rows.map { TerminalText.escaped($0.key) }
        let width = keys.map(DisplayWidth.of).max() ?? 0
        let valueColumn = width + 2
        var output = ""
        for (key, row) in zip(keys, rows) {
            switch style {
            case .plain: output += key
            case .dimmedKeys: output += "\u{1B}[2m\(key)\u{1B}[22m"
            }
            let value = TerminalText.escaped(row.value)
            guard let columns, DisplayWidth.of(value) > columns - valueColumn else {
                output += String(repeating: " ", count: valueColumn - DisplayWidth.of(key)) + value + "\n"
                continue
            }
            if overflow == .cut {
                output += String(repeating: " ", count: valueColumn - DisplayWidth.of(key))
                output += DisplayWidth.cut(value, to: max(columns - valueColumn, 1)) + "\n"
            } else if columns - valueColumn >= Self.narrowestValues {
                let lines = Self.wrap(value, width: columns - valueColumn)
                let indent = String(repeating: " ", count: valueColumn)
                output += String(repeating: " ", count: valueColumn - DisplayWidth.of(key))
                output += lines.joined(separator: "\n" + indent) + "\n"
            } else {
                let lines = Self.wrap(value, width: max(columns - 2, 1))
                output += "\n" + lines.map { "  " + $0 + "\n" }.joined()
            }
        }
        return output
    }

    /// `text` in lines of at most `width` columns, broken after a space where there is one, else anywhere.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var lastSpace: String.Index?
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if lineWidth + characterWidth > width, !line.isEmpty {
                if let space = lastSpace, space < line.endIndex, line.index(after: space) < line.endIndex {
                    let rest = String(line[line.index(after: space)...])
                    lines.append(String(line[...space]).trimmingTrailingSpaces())
                    line = rest
                } else {
                    lines.append(line)
                    line = ""
                }
                lineWidth = DisplayWidth.of(line)
                lastSpace = nil
            }
            line.append(character)
            lineWidth += characterWidth
            if character == " " { lastSpace = line.index(before: line.endIndex) }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
