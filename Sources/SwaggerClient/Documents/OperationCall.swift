import FoundationEssentials
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput

extension APIRequest {
    /// Builds the request for one operation of the server's document: each field goes where the document puts its
    /// parameter (the path, the query, a header, a cookie) or, when it names none, into the body, as the body's media
    /// type writes it. Everything is checked against the document first, and nothing is sent that it refuses.
    ///
    /// - Parameters:
    ///   - operation: The operation, from `index`.
    ///   - index: The document's operations, whose schemas check the fields.
    ///   - server: The session's server: the request goes to its origin, under the document's base path.
    ///   - method: `-X`, which may only repeat the operation's.
    ///   - headers: `-H`, each `Name: value`.
    ///   - fields: `-f` and `-F`, with their files read.
    ///   - raw: The keys that `-f` gave, whose values are text.
    ///   - input: `--input`'s bytes, the whole body.
    /// - Throws: `SwaggerError` with code `usage`, naming the field and what it takes, for a required parameter
    ///   that is missing, a name the operation does not take, or a value outside its schema.
    package init(
        _ operation: APIOperation, in index: OperationIndex, on server: ServerURL, method: String? = nil,
        headers: [String] = [], fields: [RequestField] = [], raw: Set<String> = [], input: Data? = nil
    ) throws(SwaggerError) {
        let call = OperationCall(operation: operation, check: SchemaCheck(schemas: index.schemas), raw: raw)
        if let method, method.uppercased() != operation.method {
            throw SwaggerError(
                .usage, "-X \(TerminalText.escaped(method)): \(operation.name) is a \(operation.method).")
        }
        var parameterFields: [(Parameter, RequestField)] = []
        var bodyFields: [RequestField] = []
        for field in fields {
            if let parameter = call.parameter(for: field.key) {
                parameterFields.append((parameter, field))
            } else {
                try call.checkMember(field.key, hasInput: input != nil)
                bodyFields.append(field)
            }
        }
        for parameter in operation.parameters where parameter.required {
            guard parameterFields.contains(where: { $0.0 == parameter }) else {
                throw call.missing(parameter.name, takes: parameter.schema.map { call.check.describe($0) })
            }
        }
        var path = operation.path
        var query: [URLQueryItem] = []
        var cookies: [String] = []
        var headerArguments = headers
        for (parameter, field) in parameterFields {
            let text = try call.text(of: field, for: parameter)
            switch parameter.location {
            case .path:
                path = path.replacing("{\(parameter.name)}", with: PercentEncoding.encode(text))
            case .query:
                query.append(
                    URLQueryItem(name: PercentEncoding.encode(parameter.name), value: PercentEncoding.encode(text)))
            case .header:
                headerArguments.append("\(parameter.name): \(text)")
            case .cookie:
                cookies.append("\(PercentEncoding.encode(parameter.name))=\(PercentEncoding.encode(text))")
            }
        }
        if !cookies.isEmpty { headerArguments.append("Cookie: \(cookies.joined(separator: "; "))") }
        let body = try call.body(bodyFields, input: input)
        var base = index.basePath
        while base.hasSuffix("/") { base.removeLast() }
        var target = base + path
        if !query.isEmpty {
            target += "?" + query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        // The token goes with it, so the path may only name a place on the session's origin, whatever the
        // document (or a value put into its path) says.
        guard operation.staysOnOrigin(under: index.basePath), let url = server.onOrigin(target) else {
            throw operation.leavesOrigin(server)
        }
        try self.init(
            method: operation.method, url: url,
            headers: headerArguments.map { (text) throws(SwaggerError) in try HeaderField(argument: text) },
            body: body?.data, contentType: body?.type)
    }
}

/// The checks and placements of one operation's fields.
struct OperationCall {
    let operation: APIOperation
    let check: SchemaCheck
    /// The keys `-f` gave: their values are text, whatever the document says, as `gh api -f` sends them.
    let raw: Set<String>

    /// The parameter a field's key names: its name exactly, or a header's in any case.
    func parameter(for key: String) -> Parameter? {
        operation.parameters.first { $0.name == key }
            ?? operation.parameters.first { $0.location == .header && $0.name.lowercased() == key.lowercased() }
    }

    /// The schema of the body's member at `path`, through objects (and their `allOf` parts) and arrays.
    func schema(at path: [String]) -> Schema? {
        var current = operation.body?.schema
        for step in path {
            guard let schema = current.map(check.resolved) else { return nil }
            current = step == "[]" ? schema.items?.value : check.members(of: schema).first(step)
        }
        return current
    }

    /// Refuses a key that names no parameter and no member of the body: the body takes anything only when its schema
    /// names no members.
    func checkMember(_ key: String, hasInput: Bool) throws(SwaggerError) {
        let name =
            (try? RequestField.path(of: key)).flatMap { steps -> String? in
                if case .member(let name)? = steps.first { name } else { nil }
            } ?? key
        let parameters = operation.parameters.map(\.name)
        guard let body = operation.body, !hasInput else {
            let near = Spelling.nearest(name, among: parameters)
            let hint =
                near.isEmpty
                ? (parameters.isEmpty ? "it takes no fields." : "it takes \(Self.list(parameters)).")
                : "did you mean \(near.joined(separator: " or "))?"
            let place = hasInput && operation.body != nil ? " beside --input" : ""
            throw SwaggerError(
                .usage, "\(operation.name) has no parameter \(TerminalText.escaped(name))\(place); \(hint)")
        }
        let members = memberNames(of: body.schema)
        guard let members, !members.contains(name) else { return }
        let near = Spelling.nearest(name, among: parameters + members)
        let hint =
            near.isEmpty
            ? "it takes \(Self.list(parameters + members))" : "did you mean \(near.joined(separator: " or "))?"
        throw SwaggerError(.usage, "\(operation.name) takes no field \(TerminalText.escaped(name)); \(hint)")
    }

    /// The members a body's schema names, with those of its `allOf` parts; `nil` when it takes members of any name:
    /// a choice of shapes, or no members listed.
    private func memberNames(of schema: Schema?) -> [String]? {
        guard let members = schema.map(check.members), !members.open, !members.definitions.isEmpty else { return nil }
        return members.names
    }

    /// A parameter's value as the text it is sent as, checked against its schema.
    func text(of field: RequestField, for parameter: Parameter) throws(SwaggerError) -> String {
        let text: String =
            switch field.value {
            case .string(let string)?: string
            case let other?: other.compactJSON
            case nil: ""
            }
        guard let schema = parameter.schema else { return text }
        let resolved = check.resolved(schema)
        // A parameter travels as text: its value is read as the schema's type would be written.
        let items = resolved.types?.contains("array") == true ? resolved.items?.value : nil
        let value = Self.value(text, as: types(of: items ?? resolved))
        if let problem = check.problem(value, items ?? schema) {
            throw SwaggerError(
                .usage, "\(operation.name): \(parameter.name) \(problem.text), not \(Self.quoted(text)).")
        }
        return text
    }

    /// The types a schema's value may have, its `anyOf` and `oneOf` parts' among them.
    func types(of schema: Schema) -> [String] {
        let schema = check.resolved(schema)
        let parts = (schema.anyOf ?? []) + (schema.oneOf ?? [])
        return (schema.types ?? []) + parts.flatMap { check.resolved($0).types ?? [] }
    }

    /// Text read as the first of `types` it can be.
    static func value(_ text: String, as types: [String]) -> JSONValue {
        for type in types {
            switch type {
            case "integer": if let integer = Int64(text) { return .integer(integer) }
            case "number": if let number = Double(text), number.isFinite { return .number(number) }
            case "boolean": if text == "true" || text == "false" { return .bool(text == "true") }
            default: continue
            }
        }
        return .string(text)
    }

    /// The body: `--input`'s bytes, or the fields as the operation's media type writes them, checked against its
    /// schema.
    func body(_ fields: [RequestField], input: Data?) throws(SwaggerError) -> (data: Data, type: String?)? {
        let body = operation.body
        if let input {
            if let body, body.isJSON, let schema = body.schema,
                let value = JSONValue(parsing: input),
                let problem = check.problem(value, schema)
            {
                throw SwaggerError(.usage, "--input: \(problem.key) \(problem.text).")
            }
            return (input, body?.contentType)
        }
        guard let body, !fields.isEmpty || body.required else { return nil }
        let object = try RequestField.value(of: fields)
        if let schema = body.schema, let problem = check.problem(object, schema) {
            throw problemError(problem, fields: fields)
        }
        if body.isForm {
            guard case .object(let members) = object else { return nil }
            let pairs = members.keys.sorted().map { key in
                let text: String =
                    if case .string(let string)? = members[key] { string } else { members[key]?.compactJSON ?? "" }
                return PercentEncoding.encode(key, spaceAsPlus: true) + "="
                    + PercentEncoding.encode(text, spaceAsPlus: true)
            }
            return (Data(pairs.joined(separator: "&").utf8), body.contentType)
        }
        guard body.isJSON else {
            throw SwaggerError(
                .usage, "\(operation.name) takes \(body.contentType), which fields cannot make; send it with --input.")
        }
        return (Data(object.compactJSON.utf8), "application/json")
    }

    private func problemError(_ problem: SchemaCheck.Problem, fields: [RequestField]) -> SwaggerError {
        if problem.text == "is required" {
            return missing(problem.key, takes: schema(at: problem.path).map { check.describe($0) })
        }
        // A number or a truth value given as text with -f: -F would have sent it typed.
        var hint = ""
        if raw.contains(problem.key), let field = fields.first(where: { $0.key == problem.key }),
            case .string(let text)? = field.value, RequestField.typed(text) != .string(text)
        {
            hint = "; -f sends text, -F \(problem.key)=\(text) types it"
        }
        return SwaggerError(.usage, "\(operation.name): \(problem.key) \(problem.text)\(hint).")
    }

    func missing(_ name: String, takes: String?) -> SwaggerError {
        SwaggerError(.usage, "\(operation.name) needs -f \(name)\(takes.map { " (\($0))" } ?? "").")
    }

    static func list(_ names: [String]) -> String {
        names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
    }

    static func quoted(_ text: String) -> String {
        "\"\(TerminalText.escaped(String(text.prefix(40))))\""
    }
}
