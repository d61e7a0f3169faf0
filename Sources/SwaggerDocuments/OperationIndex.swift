import FoundationEssentials
import SwaggerModel

/// The operations of a server's OpenAPI document, read once from the document (OpenAPI 3.0, 3.1 or Swagger 2.0, JSON
/// or YAML) and kept beside its copy, so that `api`, `operations` and the shell's completion read a small file
/// rather than parse the whole document each time.
package struct OperationIndex: Sendable, Hashable, Codable {
    /// The version of this file's shape: an index of another version is read again from the document.
    package static let currentFormat = 2

    package var format: Int
    /// The path the operations' paths are under: the path of the document's first server, or Swagger 2's
    /// `basePath`. Only the path: the token goes to the session's own origin, whatever host a document names.
    package var basePath: String
    package var operations: [APIOperation]
    /// The document's named schemas (`components.schemas`, Swagger 2's `definitions`), which a `$ref` names.
    package var schemas: [String: Schema]

    package init(basePath: String, operations: [APIOperation], schemas: [String: Schema]) {
        format = Self.currentFormat
        self.basePath = basePath
        self.operations = operations
        self.schemas = schemas
    }

    /// The operation that `name` names: an `operationId`, else `METHOD /path/template` as the document writes it.
    /// - Throws: `SwaggerError` with code `usage` when the document gives one id to several operations, as
    ///   FastAPI does for a route with several methods.
    package func operation(named name: String) throws(SwaggerError) -> APIOperation? {
        var found = operations.filter { $0.id == name }
        if found.isEmpty {
            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                let method = parts[0].uppercased()
                found = operations.filter { $0.method == method && $0.path == parts[1] }
            }
        }
        if found.isEmpty { found = operations.filter { $0.id?.lowercased() == name.lowercased() } }
        guard found.count > 1 else { return found.first }
        throw SwaggerError(
            .usage,
            "\(TerminalText.escaped(String(name.prefix(60)))) names \(found.count) operations; call one as "
                + "'\(found[0].method) \(found[0].path)'.")
    }

    /// The operations a word picks out: in its id, path or summary, ignoring case; every one for none.
    package func operations(matching word: String?) -> [APIOperation] {
        guard let word = word?.lowercased(), !word.isEmpty else { return operations }
        return operations.filter { operation in
            [operation.id, operation.path, operation.summary, operation.method].contains {
                $0?.lowercased().contains(word) == true
            }
        }
    }

    /// The names nearest to `name`, for the line that says there is no such operation.
    package func suggestions(for name: String) -> [String] {
        Spelling.nearest(name, among: operations.compactMap(\.id))
    }
}

/// One operation of a document.
package struct APIOperation: Sendable, Hashable, Codable {
    package var id: String?
    /// Upper-cased.
    package var method: String
    /// The path template, as the document writes it: `/pets/{petId}`.
    package var path: String
    package var summary: String?
    package var parameters: [Parameter]
    package var body: RequestBody?

    package init(
        id: String?, method: String, path: String, summary: String? = nil, parameters: [Parameter] = [],
        body: RequestBody? = nil
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.summary = summary
        self.parameters = parameters
        self.body = body
    }

    /// How a person names it: its id, else its method and path.
    package var name: String { id ?? "\(method) \(path)" }

    /// `getPet (GET /pets/{petId})`, for messages.
    package var label: String { id.map { "\($0) (\(method) \(path))" } ?? "\(method) \(path)" }

    /// Whether its requests stay on the session's origin, whatever fills its path: the path under `base` (the
    /// document's) must be a path there (`ServerURL.isPathOnOrigin(_:)`), as OpenAPI says a path starts with `/`.
    /// A parameter's value cannot move it, as it is percent-encoded whole. `api` refuses any other, and
    /// `operations` marks it.
    package func staysOnOrigin(under base: String) -> Bool {
        ServerURL.isPathOnOrigin(path) && ServerURL.isPathOnOrigin(base + path)
    }

    /// Why it is not sent: its path would take the token elsewhere.
    package func leavesOrigin(_ server: ServerURL) -> SwaggerError {
        let origin = ServerURL(originOf: server.url)?.string ?? server.string
        return SwaggerError(
            .usage,
            "\(TerminalText.escaped(String(name.prefix(80)))) is not sent: its path in the document would leave "
                + "\(origin), and the token goes nowhere else.")
    }
}

/// A parameter of an operation: where it goes, whether it must be given, and what it takes.
package struct Parameter: Sendable, Hashable, Codable {
    package enum Location: String, Sendable, Hashable, Codable {
        case path, query, header, cookie
    }

    package var name: String
    package var location: Location
    package var required: Bool
    package var schema: Schema?

    package init(name: String, location: Location, required: Bool, schema: Schema?) {
        self.name = name
        self.location = location
        self.required = required
        self.schema = schema
    }
}

/// An operation's request body: its media type, and the schema of the first JSON or form type the document lists.
package struct RequestBody: Sendable, Hashable, Codable {
    package var contentType: String
    package var required: Bool
    package var schema: Schema?

    package init(contentType: String, required: Bool, schema: Schema?) {
        self.contentType = contentType
        self.required = required
        self.schema = schema
    }

    /// Whether the fields go as `application/x-www-form-urlencoded` rather than JSON.
    package var isForm: Bool { contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") }
    package var isJSON: Bool {
        let type = contentType.lowercased()
        return type.hasPrefix("application/json") || type.hasSuffix("+json")
    }
}

/// The part of a JSON Schema that decides what a request may hold: its types, values, members and elements, with
/// `$ref` kept as the name of a schema of the index, since schemas may refer to themselves.
package struct Schema: Sendable, Hashable, Codable {
    /// The name of one of the index's schemas this one is.
    package var ref: String?
    /// JSON Schema's type names; `nil` for any.
    package var types: [String]?
    package var format: String?
    /// The values it takes, when it lists them (`enum`, or `const`).
    package var values: [JSONValue]?
    /// OpenAPI 3.0's `nullable` and Swagger 2's `x-nullable`: `null` is taken too.
    var nullable: Bool?
    /// A member that only responses hold, such as an id the server assigns: a request does not send it.
    package var readOnly: Bool?
    package var properties: [String: Schema]?
    package var required: [String]?
    package var items: Boxed<Schema>?
    /// `false` when the document says no member beyond ``properties`` is taken.
    package var additionalProperties: Bool?
    package var allOf: [Schema]?
    package var anyOf: [Schema]?
    package var oneOf: [Schema]?
    var minimum: Double?
    var maximum: Double?
    var minLength: Int?
    var maxLength: Int?

    package init() {}
}

/// A value behind a reference, so that a value type may hold another of its kind.
package final class Boxed<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package required init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    package static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs.value == rhs.value }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// The names closest to a mistyped one.
package enum Spelling {
    /// At most three of `candidates`, nearest first, within a third of `name`'s length in edits (and at least two).
    package static func nearest(_ name: String, among candidates: [String]) -> [String] {
        let wanted = Array(name.lowercased())
        // Longer names are not compared: the distance is quadratic in their lengths.
        guard wanted.count <= 200 else { return [] }
        let limit = max(2, wanted.count / 3)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let other = Array(candidate.lowercased())
            guard other.count <= 200, abs(other.count - wanted.count) <= limit else { return nil }
            let distance = distance(wanted, other)
            return distance <= limit ? (candidate, distance) : nil
        }
        return Array(scored.sorted { $0.1 < $1.1 || $0.1 == $1.1 && $0.0 < $1.0 }.prefix(3).map(\.0))
    }

    /// Levenshtein's distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
