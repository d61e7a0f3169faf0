import FoundationEssentials
import SwaggerDocuments
import SwaggerModel

/// What the shell's completion offers from one server's document, kept as lines that are read without decoding
/// anything: the whole index of a large document takes longer to decode than a completion may take.
///
/// `version` first; then `O`, the operation's id (or `-`), its method and its path, tab-separated, for each
/// operation; after it, `F`, the name and the values its schema lists, for each field it takes (its parameters, then
/// the members of its body that a request sends). A name or value with a tab or a line break is left out: it could not
/// be offered on a line anyway.
package enum CompletionNames {
    /// The first line. Lines kept by a version that chose fields otherwise are made again from the index.
    static let version = "V\t3"

    /// Whether `text` was made as ``text(of:)`` makes it now.
    static func isCurrent(_ text: String) -> Bool {
        text.hasPrefix(version + "\n")
    }

    /// The lines for `index`.
    package static func text(of index: OperationIndex) -> String {
        let check = SchemaCheck(schemas: index.schemas)
        var lines = [version]
        for operation in index.operations {
            lines.append(line(["O", operation.id ?? "-", operation.method, operation.path]))
            let members = operation.body?.schema.map(check.members) ?? SchemaCheck.Members()
            var seen: Set<String> = []
            // A read-only member is one the server fills in, such as the id it assigns: a request does not send it.
            let fields =
                operation.parameters.map { ($0.name, $0.schema) }
                + members.names.filter { !members.readOnly.contains($0) }.map { ($0, members.first($0)) }
            for (name, schema) in fields where seen.insert(name).inserted {
                lines.append(line(["F", name] + values(schema, check)))
            }
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }

    /// The values a schema lists, as text: an enum's, or that of the `anyOf` or `oneOf` part that has one (FastAPI's
    /// optional enum is `anyOf` the enum and `null`).
    static func values(_ schema: Schema?, _ check: SchemaCheck) -> [String] {
        guard let schema else { return [] }
        var resolved = check.resolved(schema)
        if resolved.values == nil,
            let part = (resolved.anyOf ?? resolved.oneOf)?.first(where: { check.resolved($0).values != nil })
        {
            resolved = check.resolved(part)
        }
        return (resolved.values ?? []).compactMap { value in
            switch value {
            case .string(let text): text
            case .null: nil
            default: value.compactJSON
            }
        }
    }

    /// The cells as one line; a name that cannot be on a line leaves the line out, and a value, only itself.
    private static func line(_ cells: [String]) -> String {
        func fits(_ cell: String) -> Bool { !cell.contains(where: { $0.isNewline || $0 == "\t" }) && !cell.isEmpty }
        guard cells.prefix(cells[0] == "O" ? 4 : 2).allSatisfy(fits) else { return "" }
        return cells.filter(fits).joined(separator: "\t")
    }

    /// The operation ids that start with `prefix`, or, for a prefix that starts with `/`, the path templates.
    package static func operations(in text: String, prefix: String) -> [String] {
        var found: [String] = []
        var seen: Set<Substring> = []
        let column = prefix.hasPrefix("/") ? 3 : 1
        for line in text.split(separator: "\n") where line.hasPrefix("O\t") {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard cells.count == 4, cells[column] != "-", cells[column].hasPrefix(prefix),
                seen.insert(cells[column]).inserted
            else { continue }
            found.append(String(cells[column]))
        }
        return found
    }

    /// For the operation `name` (its id, `METHOD /path`, or its id in another case): the names it takes, each with
    /// its `=`, that start with `prefix`; after `name=`, the values listed for that field. `nil` when no operation
    /// has that name.
    package static func fields(in text: String, operation name: String, prefix: String) -> [String]? {
        var lines = text.split(separator: "\n")[...]
        let exact = lines.firstIndex { matches($0, name, ignoringCase: false) }
        guard let start = exact ?? lines.firstIndex(where: { matches($0, name, ignoringCase: true) }) else {
            return nil
        }
        lines = lines[(start + 1)...]
        let fields = lines.prefix { $0.hasPrefix("F\t") }.map { $0.split(separator: "\t").dropFirst().map(String.init) }
        if let equals = prefix.firstIndex(of: "=") {
            let key = String(prefix[..<equals])
            guard let field = fields.first(where: { $0.first == key }) else { return [] }
            return field.dropFirst().map { key + "=" + $0 }.filter { $0.hasPrefix(prefix) }
        }
        return fields.compactMap(\.first).map { $0 + "=" }.filter { $0.hasPrefix(prefix) }
    }

    private static func matches(_ line: Substring, _ name: String, ignoringCase: Bool) -> Bool {
        guard line.hasPrefix("O\t") else { return false }
        let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard cells.count == 4 else { return false }
        if ignoringCase { return cells[1].lowercased() == name.lowercased() }
        return cells[1] == name || "\(cells[2]) \(cells[3])" == name
    }
}
