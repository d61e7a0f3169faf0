/// Turns rows into the text of a two-column key/value table.
///
/// Keys are padded to the widest key by display width, so values line up even after wide or combining
/// characters. Keys and values go through ``TerminalText/escaped(_:)``: control characters (escape
/// sequences included), line breaks and invisible format characters from the server are shown as `\u{…}`, so
/// that a profile can never move the cursor, recolour or reorder the terminal, or add a line.
public struct TableRenderer: Sendable {
    /// How keys look.
    public enum Style: Sendable, Hashable {
        /// Plain text, for pipes and `NO_COLOR`.
        case plain
        /// Keys dimmed with ANSI SGR 2, for colour terminals.
        case dimmedKeys
    }

    /// How keys look.
    public var style: Style

    /// Creates a renderer.
    /// - Parameter style: How keys look.
    public init(style: Style = .plain) {
        self.style = style
    }

    /// The table for `rows`, one line each, every line ending in a newline.
    /// - Parameter rows: The rows to show.
    /// - Returns: The table's text; empty for no rows.
    public func render(_ rows: [DetailsViewModel]) -> String {
        let keys = rows.map { TerminalText.escaped($0.key) }
        let width = keys.map(DisplayWidth.of).max() ?? 0
        var output = ""
        for (key, row) in zip(keys, rows) {
            let padding = String(repeating: " ", count: width - DisplayWidth.of(key) + 2)
            switch style {
            case .plain: output += key
            case .dimmedKeys: output += "\u{1B}[2m\(key)\u{1B}[22m"
            }
            output += padding + TerminalText.escaped(row.value) + "\n"
        }
        return output
    }
}
