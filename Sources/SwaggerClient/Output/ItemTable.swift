import FoundationEssentials
import SwaggerModel

/// `api -o table`: the items of a list (each page's, with `--paginate`) as rows, one column for each member of the
/// first items, in the order the server sent them. A cell is a string's text, or any other value's JSON.
package struct ItemTable: Sendable {
    /// The columns are read from this many items: enough to meet members that the first leave out.
    static let sampledItems = 20
    /// The most columns shown: a wider table is unreadable on any terminal.
    static let columnLimit = 12

    package private(set) var columns: [String] = []
    private var rows: [[String: String]] = []
    private var sampled = 0

    package init() {}

    /// Adds the items of one response: the elements of a list (as ``JSONText/items(of:)`` finds it), or the body
    /// itself when it is one object.
    /// - Throws: `SwaggerError` with code `server` for a body that is not JSON.
    package mutating func add(_ body: Data, from url: URL) throws(SwaggerError) {
        let items = JSONText.items(of: body) ?? (JSONText.isJSON(body) ? [String(decoding: body, as: UTF8.self)] : nil)
        guard let items else {
            throw SwaggerError(
                .server, "The answer from \(url.absoluteString.prefix(200)) is not JSON, which -o table needs.")
        }
        for item in items {
            let data = Data(item.utf8)
            guard let members = JSONText.orderedMembers(of: data) else {
                add(row: ["value": Self.cell(item)], keys: ["value"])
                continue
            }
            add(
                row: Dictionary(members.map { ($0.key, Self.cell($0.value)) }) { first, _ in first },
                keys: members.map(\.key))
        }
    }

    private mutating func add(row: [String: String], keys: [String]) {
        if sampled < Self.sampledItems {
            sampled += 1
            for key in keys where !columns.contains(key) && columns.count < Self.columnLimit { columns.append(key) }
        }
        rows.append(row)
    }

    /// The table: on a terminal, aligned under a header; in a pipe, tab-separated values under a header line, with
    /// tabs and line breaks in a cell shown as escapes.
    package func render(forTerminal: Bool) -> String {
        let lines = rows.map { row in columns.map { row[$0] ?? "" } }
        guard forTerminal else {
            return ([columns] + lines).map { line in line.map(TerminalText.escaped).joined(separator: "\t") + "\n" }
                .joined()
        }
        return ColumnTable.render(header: columns.map { $0.uppercased() }, rows: lines)
    }

    /// A value's text in a cell: a string's own text, anything else as the JSON sent.
    static func cell(_ json: String) -> String {
        guard json.hasPrefix("\""),
            case .string(let text)? = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        else { return json }
        return text
    }
}
