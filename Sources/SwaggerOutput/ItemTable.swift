import FoundationEssentials
import SwaggerModel

/// `api -o table`: the items of a list (each page's, with `--paginate`) as rows, one column for each member of the
/// first items, in the order the server sent them. A cell is a string's text, or any other value's JSON. An object
/// that holds no list is shown as `details` shows a profile: a row for each member, its name beside its value.
///
/// The rows are not all held: the columns are fixed by the first items, their widths by the first
/// ``alignedRows`` rows, and from then on each row is printed as it comes, so that a list of a million items takes
/// no more memory than a page. A later cell wider than its column pushes the rest of its line along.
package struct ItemTable: Sendable {
    /// The columns are read from this many items: enough to meet members that the first leave out.
    static let sampledItems = 20
    /// The most columns shown: a wider table is unreadable on any terminal.
    static let columnLimit = 12
    /// The rows whose cells set the columns' widths.
    static let alignedRows = 1000

    package private(set) var columns: [String] = []
    /// Rows not printed yet: before the columns, or their widths, are known.
    private var held: [[String: String]] = []
    private var sampled = 0
    /// The columns' widths, once set; on a terminal only, where the columns are aligned.
    private var widths: [Int]?
    private var headerPrinted = false
    private let forTerminal: Bool
    private let columnsWide: Int?

    /// - Parameters:
    ///   - forTerminal: Whether the table goes to a terminal, aligned under a header; in a pipe, it is
    ///     tab-separated values under a header line, with tabs and line breaks in a cell shown as escapes.
    ///   - columns: The terminal's width, which an object's rows are cut to; `nil` shows them whole.
    package init(forTerminal: Bool, columns: Int? = nil) {
        self.forTerminal = forTerminal
        self.columnsWide = forTerminal ? columns : nil
    }

    /// Adds the items of one response: the elements of a list (as ``JSONText/items(of:)`` finds it), or the body
    /// itself when it is one object.
    /// - Returns: What can be printed now.
    /// - Throws: `SwaggerError` with code `server` for a body that is not JSON.
    package mutating func add(_ body: Data, from url: URL) throws(SwaggerError) -> String {
        let list = JSONText.items(of: body)
        if list == nil, let members = JSONText.orderedMembers(of: body) {
            return object(members)
        }
        let items = list ?? (JSONText.isJSON(body) ? [String(decoding: body, as: UTF8.self)] : nil)
        guard let items else {
            throw SwaggerError(
                .server, "The answer from \(url.absoluteString.prefix(200)) is not JSON, which -o table needs.")
        }
        var output = ""
        for item in items {
            if let members = JSONText.orderedMembers(of: Data(item.utf8)) {
                output += add(
                    row: Dictionary(members.map { ($0.key, Self.cell($0.value)) }) { first, _ in first },
                    keys: members.map(\.key))
            } else {
                output += add(row: ["value": Self.cell(item)], keys: ["value"])
            }
        }
        return output
    }

    private mutating func add(row: [String: String], keys: [String]) -> String {
        if sampled < Self.sampledItems {
            sampled += 1
            for key in keys where !columns.contains(key) && columns.count < Self.columnLimit { columns.append(key) }
        }
        held.append(row)
        let ready = forTerminal ? held.count >= Self.alignedRows : sampled >= Self.sampledItems
        return ready ? flush() : ""
    }

    /// What is left to print, once the last page is in.
    package mutating func finish() -> String {
        flush()
    }

    /// The rows held, and the header before the first, as text.
    private mutating func flush() -> String {
        // An object's rows, or an empty list, leave no columns: no header, not even an empty line.
        guard !columns.isEmpty else { return "" }
        let rows = held.map { row in columns.map { row[$0] ?? "" } }
        held.removeAll()
        let header = columns.map { forTerminal ? $0.uppercased() : $0 }
        var text = ""
        guard forTerminal else {
            if !headerPrinted { text += header.map(TerminalText.escaped).joined(separator: "\t") + "\n" }
            headerPrinted = true
            return text + rows.map { $0.map(TerminalText.escaped).joined(separator: "\t") + "\n" }.joined()
        }
        let widths = self.widths ?? ColumnTable.widths(of: [header] + rows)
        self.widths = widths
        if !headerPrinted { text += ColumnTable.line(header, widths: widths) }
        headerPrinted = true
        return text + rows.map { ColumnTable.line($0, widths: widths) }.joined()
    }

    /// An object's members as key/value rows, each value on one line: a string's text, anything else compact JSON.
    private func object(_ members: [(key: String, value: String)]) -> String {
        let rows = members.map { member in
            let value =
                member.value.hasPrefix("\"")
                ? Self.cell(member.value)
                : (JSONValue(parsing: member.value))?.compactJSON
                    ?? member.value
            return DetailsViewModel(key: member.key, value: value)
        }
        return TableRenderer(columns: columnsWide, overflow: .cut).render(rows)
    }

    /// A value's text in a cell: a string's own text, anything else as the JSON sent.
    static func cell(_ json: String) -> String {
        guard json.hasPrefix("\""),
            case .string(let text)? = JSONValue(parsing: json)
        else { return json }
        return text
    }
}
