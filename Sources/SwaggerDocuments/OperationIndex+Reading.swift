import FoundationEssentials
import SwaggerModel

extension OperationIndex {
    /// The methods an OpenAPI path item may hold, in the order they are listed.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Reads every operation of an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one, JSON or YAML, that came from
    /// `url`.
    /// - Returns: `nil` when `data` is not such a document.
    package static func read(_ data: Data, at url: URL) -> OperationIndex? {
        guard case .object(let root)? = DocumentText.value(of: data), case .object(let paths)? = root["paths"],
            root["openapi"] != nil || root["swagger"] != nil
        else { return nil }
        let reader = Reader(document: APIDocument(root: root, url: url))
        var operations: [APIOperation] = []
        for path in paths.keys.sorted() {
            guard case .object(let item)? = reader.document.resolved(paths[path]) else { continue }
            let shared = reader.parameters(item["parameters"])
            for method in methods {
                guard case .object(let object)? = item[method] else { continue }
                operations.append(reader.operation(object, method: method, path: path, shared: shared))
            }
        }
        var basePath = reader.document.base.path(percentEncoded: true)
        while basePath.hasSuffix("/") { basePath.removeLast() }
        return OperationIndex(
            basePath: basePath, operations: operations,
            schemas: reader.namedSchemas())
    }

    /// Turns a document's objects into the index's, following its `$ref`s to parameters and bodies, and keeping those
    /// to schemas as names.
    struct Reader {
        let document: APIDocument
        /// Where a `$ref` names a schema: OpenAPI 3's and Swagger 2's.
        static let schemaPrefixes = ["#/components/schemas/", "#/definitions/"]
        /// How deep a schema is read: the document's own nesting is bounded, and a named schema is read once.
        package static let depthLimit = 64

        var isSwagger2: Bool { document.root["swagger"] != nil }

        func operation(_ object: [String: JSONValue], method: String, path: String, shared: [Parameter])
            -> APIOperation
        {
            var parameters = shared
            var formMembers: [(Parameter, Schema?)] = []
            var body: RequestBody?
            if case .array(let list)? = object["parameters"] {
                for case .object(let parameter)? in list.map(document.resolved) {
                    guard case .string(let name)? = parameter["name"], case .string(let place)? = parameter["in"]
                    else { continue }
                    switch place {
                    case "body":
                        body = RequestBody(
                            contentType: consumes(object, form: false),
                            required: parameter["required"] == .bool(true), schema: schema(parameter["schema"]))
                    case "formData":
                        let given = Parameter(
                            name: name, location: .query, required: parameter["required"] == .bool(true),
                            schema: nil)
                        formMembers.append((given, schema(.object(parameter))))
                    default:
                        guard let read = self.parameter(parameter) else { continue }
                        // An operation's own parameter replaces the path's of the same name and place.
                        parameters.removeAll { $0.name == read.name && $0.location == read.location }
                        parameters.append(read)
                    }
                }
            }
            if !formMembers.isEmpty {
                // Swagger 2's form fields are one body, an object of them, as OpenAPI 3 writes it.
                var members = Schema()
                members.types = ["object"]
                members.properties = Dictionary(formMembers.map { ($0.0.name, $0.1 ?? Schema()) }) { first, _ in first }
                let required = formMembers.filter(\.0.required).map(\.0.name)
                members.required = required
                body = RequestBody(
                    contentType: consumes(object, form: true), required: !required.isEmpty, schema: members)
            }
            if body == nil, case .object(let requestBody)? = document.resolved(object["requestBody"]) {
                body = self.body(requestBody)
            }
            var summary: String?
            if case .string(let text)? = object["summary"] ?? object["description"] {
                // The first line, at most a line's length: it is shown in a column.
                summary = text.split(separator: "\n").first.map { String($0.prefix(200)) }
            }
            var id: String?
            if case .string(let text)? = object["operationId"], !text.isEmpty { id = text }
            return APIOperation(
                id: id, method: method.uppercased(), path: path, summary: summary, parameters: parameters, body: body)
        }

        func parameters(_ value: JSONValue?) -> [Parameter] {
            guard case .array(let list)? = value else { return [] }
            return list.compactMap { item in
                guard case .object(let object)? = document.resolved(item) else { return nil }
                return parameter(object)
            }
        }

        /// A path, query, header or cookie parameter; its schema is OpenAPI 3's `schema`, or Swagger 2's own
        /// members.
        func parameter(_ object: [String: JSONValue]) -> Parameter? {
            guard case .string(let name)? = object["name"], case .string(let place)? = object["in"],
                let location = Parameter.Location(rawValue: place)
            else { return nil }
            let required = location == .path || object["required"] == .bool(true)
            var read = schema(object["schema"] ?? (isSwagger2 ? .object(object) : nil))
            if object["schema"] == nil, case .object(let content)? = object["content"],
                let first = content.keys.sorted().first, case .object(let media)? = content[first]
            {
                read = schema(media["schema"])
            }
            return Parameter(name: name, location: location, required: required, schema: read)
        }

        /// OpenAPI 3's request body: the schema of its JSON media type, else its form's, else its first.
        func body(_ object: [String: JSONValue]) -> RequestBody? {
            guard case .object(let content)? = object["content"], !content.isEmpty else { return nil }
            let types = content.keys.sorted()
            let chosen =
                types.first { RequestBody(contentType: $0, required: false, schema: nil).isJSON }
                ?? types.first { $0.lowercased().hasPrefix("application/x-www-form-urlencoded") } ?? types[0]
            var read: Schema?
            if case .object(let media)? = content[chosen] { read = schema(media["schema"]) }
            return RequestBody(contentType: chosen, required: object["required"] == .bool(true), schema: read)
        }

        /// The media type a Swagger 2 operation's body goes as: its own `consumes`, else the document's.
        private func consumes(_ object: [String: JSONValue], form: Bool) -> String {
            var listed: [String] = []
            for value in [object["consumes"], document.root["consumes"]] {
                if case .array(let types)? = value {
                    listed = types.compactMap { if case .string(let type) = $0 { type } else { nil } }
                    if !listed.isEmpty { break }
                }
            }
            if form {
                return listed.first { $0.hasPrefix("application/x-www-form-urlencoded") || $0.hasPrefix("multipart/") }
                    ?? "application/x-www-form-urlencoded"
            }
            return listed.first { RequestBody(contentType: $0, required: false, schema: nil).isJSON }
                ?? listed.first ?? "application/json"
        }

        /// Every schema the document names, read once each.
        func namedSchemas() -> [String: Schema] {
            let named: JSONValue? =
                if case .object(let components)? = document.root["components"] { components["schemas"] } else {
                    document.root["definitions"]
                }
            guard case .object(let members)? = named else { return [:] }
            var schemas: [String: Schema] = [:]
            for (name, value) in members {
                if let read = schema(value) { schemas[name] = read }
            }
            return schemas
        }

        /// A schema object as the index keeps it; `nil` for none, or one that is not an object.
        func schema(_ value: JSONValue?, depth: Int = 0) -> Schema? {
            // The budget bounds a document whose `$ref`s to places other than a named schema fan out.
            guard depth < Self.depthLimit, document.budget.spend(), case .object(var object)? = value else {
                return nil
            }
            var read = Schema()
            // OpenAPI 3.1 lets `readOnly` stand beside a `$ref`, which marks the member, whatever the schema it names.
            if object["readOnly"] == .bool(true) { read.readOnly = true }
            if case .string(let reference)? = object["$ref"] {
                if let prefix = Self.schemaPrefixes.first(where: reference.hasPrefix) {
                    let name = String(reference.dropFirst(prefix.count))
                    if !name.contains("/") {
                        read.ref = name.replacing("~1", with: "/").replacing("~0", with: "~")
                        return read
                    }
                }
                // Elsewhere in the document: read in place. Another file: anything is taken.
                guard case .object(let target)? = document.resolved(value) else { return read }
                object = target
            }
            switch object["type"] {
            case .string(let type)?: read.types = [type]
            case .array(let types)?:
                read.types = types.compactMap { if case .string(let type) = $0 { type } else { nil } }
            default: break
            }
            if case .string(let format)? = object["format"] { read.format = format }
            if case .array(let values)? = object["enum"] { read.values = values }
            if let constant = object["const"] { read.values = [constant] }
            if object["nullable"] == .bool(true) || object["x-nullable"] == .bool(true) { read.nullable = true }
            if object["readOnly"] == .bool(true) { read.readOnly = true }
            if case .object(let properties)? = object["properties"] {
                var members: [String: Schema] = [:]
                for (name, property) in properties {
                    members[name] = schema(property, depth: depth + 1) ?? Schema()
                }
                read.properties = members
            }
            if case .array(let names)? = object["required"] {
                read.required = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
            if let items = schema(object["items"], depth: depth + 1) { read.items = Boxed(items) }
            if object["additionalProperties"] == .bool(false) { read.additionalProperties = false }
            func parts(_ key: String) -> [Schema]? {
                guard case .array(let list)? = object[key] else { return nil }
                return list.map { schema($0, depth: depth + 1) ?? Schema() }
            }
            read.allOf = parts("allOf")
            read.anyOf = parts("anyOf")
            read.oneOf = parts("oneOf")
            read.minimum = object["minimum"]?.doubleValue
            read.maximum = object["maximum"]?.doubleValue
            read.minLength = object["minLength"]?.doubleValue.map(Self.length)
            read.maxLength = object["maxLength"]?.doubleValue.map(Self.length)
            return read
        }

        /// A length from the document, within what a request body can be.
        private static func length(_ value: Double) -> Int {
            Int(max(0, min(value, Double(1 << 30))))
        }
    }
}

extension JSONValue {
    /// A number as a `Double`; `nil` for anything else.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}
