import FoundationEssentials
import SwaggerModel

/// Checks a request's values against the schemas of its operation before anything is sent, and says what a schema
/// takes in a person's words.
package struct SchemaCheck: Sendable {
    /// The index's named schemas, which a `$ref` names.
    let schemas: [String: Schema]

    /// How deep a value is checked, and how many `$ref`s are followed in a row: schemas may refer to themselves.
    package static let depthLimit = 64

    package init(schemas: [String: Schema]) {
        self.schemas = schemas
    }

    /// Where a value falls outside its schema, and how.
    package struct Problem: Sendable, Hashable {
        /// The steps to the value: members' names, and `[]` for an element.
        package var path: [String]
        /// What is wrong, as the end of a sentence that starts with the value's name: `takes an integer`.
        package var text: String

        /// The path as a field's key is written: `user[name]`, `tags[]`.
        package var key: String {
            guard let first = path.first else { return "the body" }
            return first + path.dropFirst().map { $0 == "[]" ? "[]" : "[\($0)]" }.joined()
        }
    }

    /// `schema` with its `$ref`s followed: the named schema, or one that takes anything when there is none.
    package func resolved(_ schema: Schema) -> Schema {
        var schema = schema
        for _ in 0..<Self.depthLimit {
            guard let name = schema.ref else { return schema }
            guard let named = schemas[name] else { return Schema() }
            schema = named
        }
        return Schema()
    }

    /// Whether a member only ever comes from the server: marked beside its `$ref`, or in the schema it names.
    func isReadOnly(_ schema: Schema) -> Bool {
        schema.readOnly == true || resolved(schema).readOnly == true
    }

    /// The members an object's schema defines: its own properties, each level's sorted by name, then those of its
    /// `allOf` parts, nested ones too. A name two parts define comes twice.
    package struct Members {
        package var definitions: [(name: String, schema: Schema)] = []
        /// Whether some part is a choice of shapes (`anyOf`, `oneOf`), whose members cannot be known ahead.
        package var open = false
        /// The names that any of their definitions marks read-only.
        package var readOnly: Set<String> = []

        /// No members: a body without a schema.
        package init() {}

        /// The schema of the first definition of `name`.
        package func first(_ name: String) -> Schema? {
            definitions.first { $0.name == name }?.schema
        }

        /// Each name once, in the order of its first definition.
        package var names: [String] {
            var seen: Set<String> = []
            return definitions.map(\.name).filter { seen.insert($0).inserted }
        }
    }

    package func members(of schema: Schema) -> Members {
        var members = Members()
        func collect(_ schema: Schema, depth: Int) {
            guard depth < Self.depthLimit else { return }
            let schema = resolved(schema)
            let properties = schema.properties ?? [:]
            for name in properties.keys.sorted() {
                guard let property = properties[name] else { continue }
                members.definitions.append((name, property))
                if isReadOnly(property) { members.readOnly.insert(name) }
            }
            for part in schema.allOf ?? [] { collect(part, depth: depth + 1) }
            if schema.oneOf != nil || schema.anyOf != nil { members.open = true }
        }
        collect(schema, depth: 0)
        return members
    }

    /// The first way `value` falls outside `schema`; `nil` when it fits.
    package func problem(_ value: JSONValue, _ schema: Schema, at path: [String] = [], depth: Int = 0) -> Problem? {
        problem(value, schema, at: path, depth: depth, readOnly: [])
    }

    /// `readOnly` names the members that the schemas around this one, of which it is an `allOf` part, mark
    /// read-only: a part may require a member that another part defines.
    private func problem(_ value: JSONValue, _ schema: Schema, at path: [String], depth: Int, readOnly: Set<String>)
        -> Problem?
    {
        guard depth < Self.depthLimit else { return nil }
        let named = schema.ref
        let schema = resolved(schema)
        var readOnly = readOnly
        if schema.allOf != nil, case .object = value { readOnly.formUnion(members(of: schema).readOnly) }
        for part in schema.allOf ?? [] {
            if let problem = problem(value, part, at: path, depth: depth + 1, readOnly: readOnly) { return problem }
        }
        for alternatives in [schema.anyOf, schema.oneOf].compactMap({ $0 }) where !alternatives.isEmpty {
            let problems = alternatives.map { problem(value, $0, at: path, depth: depth + 1, readOnly: readOnly) }
            guard !problems.contains(where: { $0 == nil }) else { continue }
            // Where one alternative is of the value's type, what is wrong with the value is that one's problem.
            let ofType = alternatives.indices.filter { index in
                resolved(alternatives[index]).types.map { $0.contains { Self.fits(value, type: $0) } } == true
            }
            if ofType.count == 1, let problem = problems[ofType[0]] { return problem }
            return Problem(path: path, text: "takes \(alternatives.map { describe($0) }.joined(separator: ", or "))")
        }
        if value == .null, schema.nullable == true || schema.types?.contains("null") == true || schema.types == nil {
            return schema.values.map { $0.contains(.null) } == false
                ? Problem(path: path, text: "takes \(describe(schema, named: named))") : nil
        }
        if let types = schema.types, !types.contains(where: { Self.fits(value, type: $0) }) {
            return Problem(path: path, text: "takes \(describe(schema, named: named))")
        }
        if let values = schema.values, !values.contains(where: { Self.same($0, value) }) {
            return Problem(path: path, text: "takes \(describe(schema, named: named))")
        }
        switch value {
        case .string(let text):
            return problem(text: text, schema, named: named, at: path)
        case .integer, .number:
            return problem(number: value.doubleValue ?? 0, schema, at: path)
        case .object(let members):
            return problem(members: members, schema, named: named, at: path, depth: depth, readOnly: readOnly)
        case .array(let elements):
            guard let items = schema.items?.value else { return nil }
            for element in elements {
                if let problem = problem(element, items, at: path + ["[]"], depth: depth + 1) { return problem }
            }
        case .bool, .null:
            break
        }
        return nil
    }

    /// A string against its schema's format and lengths.
    private func problem(text: String, _ schema: Schema, named: String?, at path: [String]) -> Problem? {
        if let format = schema.format, !Self.fits(text, format: format) {
            return Problem(path: path, text: "takes \(describe(schema, named: named))")
        }
        if let least = schema.minLength, text.count < least {
            return Problem(path: path, text: "takes at least \(least) character\(least == 1 ? "" : "s")")
        }
        if let most = schema.maxLength, text.count > most {
            return Problem(path: path, text: "takes at most \(most) character\(most == 1 ? "" : "s")")
        }
        return nil
    }

    /// A number against its schema's bounds.
    private func problem(number: Double, _ schema: Schema, at path: [String]) -> Problem? {
        let bounds = Self.bounds(of: schema)
        if let least = bounds.minimum, number < least {
            return Problem(path: path, text: "takes a number of at least \(Self.text(least))")
        }
        if let most = bounds.maximum, number > most {
            return Problem(path: path, text: "takes a number of at most \(Self.text(most))")
        }
        return nil
    }

    private func problem(
        members: [String: JSONValue], _ schema: Schema, named: String?, at path: [String], depth: Int,
        readOnly: Set<String>
    ) -> Problem? {
        // A read-only member is required of the server's answers only (OpenAPI 3.0's Schema Object; Swagger 2.0
        // says the same): the server makes it. Django REST framework's documents list such members as required.
        let missing = (schema.required ?? []).filter { members[$0] == nil }
        let exempt = missing.isEmpty ? [] : readOnly.union(self.members(of: schema).readOnly)
        for name in missing where !exempt.contains(name) {
            return Problem(path: path + [name], text: "is required")
        }
        for name in members.keys.sorted() {
            guard let value = members[name] else { continue }
            if let property = schema.properties?[name] {
                if let problem = problem(value, property, at: path + [name], depth: depth + 1) { return problem }
            } else if schema.additionalProperties == false {
                let known = (schema.properties ?? [:]).keys.sorted()
                return Problem(path: path + [name], text: Self.unknown(name, in: named, known: known))
            }
        }
        return nil
    }

    /// The end of the line for a member the schema does not take: the nearest names, or every one.
    static func unknown(_ name: String, in named: String?, known: [String]) -> String {
        let near = Spelling.nearest(name, among: known)
        let owner = named.map { "a member of \($0)" } ?? "taken here"
        if !near.isEmpty { return "is not \(owner); did you mean \(near.joined(separator: " or "))?" }
        let listed = known.prefix(6).joined(separator: ", ") + (known.count > 6 ? ", …" : "")
        return known.isEmpty ? "is not \(owner)" : "is not \(owner), which takes \(listed)"
    }

    /// What `schema` takes, in a few words: `an integer`, `one of cat, dog`, `a date-time such as
    /// 2026-01-31T09:00:00Z`.
    package func describe(_ schema: Schema, named: String? = nil) -> String {
        let name = named ?? schema.ref
        let schema = resolved(schema)
        if let values = schema.values {
            let shown = values.prefix(8).map { value in
                if case .string(let text) = value {
                    TerminalText.escaped(String(text.prefix(40)))
                } else {
                    value.compactJSON
                }
            }
            return values.count == 1
                ? shown[0] : "one of \(shown.joined(separator: ", "))\(values.count > 8 ? ", …" : "")"
        }
        var kinds = (schema.types ?? []).filter { $0 != "null" }.map { type in
            Self.describe(type: type, format: schema.format, name: name, items: schema.items.map { resolved($0.value) })
        }
        if kinds.isEmpty, let parts = schema.oneOf ?? schema.anyOf, !parts.isEmpty {
            kinds = parts.map { describe($0) }
        }
        if kinds.isEmpty, schema.types == ["null"] { return "null" }
        if kinds.isEmpty, let name { kinds = ["a \(name) object"] }
        if kinds.isEmpty, schema.properties != nil { kinds = ["an object"] }
        if kinds.isEmpty { return "any value" }
        let text = kinds.joined(separator: " or ")
        return schema.nullable == true || schema.types?.contains("null") == true ? text + " or null" : text
    }

    private static func describe(type: String, format: String?, name: String?, items: Schema?) -> String {
        switch (type, format) {
        case ("integer", _): "an integer"
        case ("number", _): "a number"
        case ("boolean", _): "true or false"
        case ("string", "date-time"?): "a date-time such as 2026-01-31T09:00:00Z"
        case ("string", "date"?): "a date such as 2026-01-31"
        case ("string", "uuid"?): "a UUID"
        case ("string", "email"?): "an e-mail address"
        case ("string", _): "a string"
        case ("array", _): items?.types?.count == 1 ? "an array of \(items?.types?[0] ?? "")s" : "an array"
        case ("object", _): name.map { "a \($0) object" } ?? "an object"
        case ("null", _): "null"
        default: "a \(type)"
        }
    }

    static func fits(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("integer", .integer): true
        case ("integer", .number(let number)): number.rounded() == number
        case ("number", .integer), ("number", .number): true
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("null", .null): true
        // Swagger 2's form upload, and types no version of the specification has.
        case ("file", _): true
        case ("integer", _), ("number", _), ("string", _), ("boolean", _), ("array", _), ("object", _), ("null", _):
            false
        default: true
        }
    }

    /// Equal as JSON: `1` and `1.0` are the same number.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// The formats whose mistakes a server would refuse: others are taken as any string.
    static func fits(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time": Timestamp.date(from: text) != nil
        case "date": isDate(Substring(text))
        case "uuid": isUUID(text)
        case "email": text.contains("@") && !text.hasPrefix("@") && !text.hasSuffix("@")
        default: true
        }
    }

    private static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// The range a number takes: the schema's own, within its format's (`int32`, `int64`).
    static func bounds(of schema: Schema) -> (minimum: Double?, maximum: Double?) {
        var minimum = schema.minimum
        var maximum = schema.maximum
        let range: (Double, Double)? =
            switch schema.format {
            case "int32": (Double(Int32.min), Double(Int32.max))
            // A Double holds Int64.max only rounded up to 2^63, which is the bound a Double can check.
            case "int64": (Double(Int64.min), Double(Int64.max))
            default: nil
            }
        if let range {
            minimum = max(minimum ?? range.0, range.0)
            maximum = min(maximum ?? range.1, range.1)
        }
        return (minimum, maximum)
    }

    /// A bound as it reads best: `10` rather than `10.0`.
    static func text(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e18 { return String(Int64(number)) }
        return String(number)
    }
}
