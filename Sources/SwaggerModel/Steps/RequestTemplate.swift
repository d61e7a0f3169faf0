import FoundationEssentials

/// A request as a description writes it, whose values may name the step's inputs: its method, its URL, its headers,
/// query and body. In the description language:
///
/// ```json
/// {"method": "POST", "url": "/v3/auth/tokens",
///  "headers": {"Accept": "application/json"},
///  "json": {"auth": {"identity": {"methods": ["password"],
///           "password": {"user": {"name": "{account}", "domain": {"id": "default"}, "password": "{password}"}}}}}}
/// ```
///
/// A body is `json` (any JSON, whose strings are templates) or `form` (fields, each a template); `client: true` adds
/// the OAuth 2 client's proof to a form (RFC 6749 §2.3), as the description's client says.
package struct RequestTemplate: Sendable, Hashable {
    package var method: String
    /// The URL, absolute, its placeholders after the origin: `https://host/api/v3/users/{user_id}`.
    package var url: Template
    package var headers: [String: Template] = [:]
    package var query: [String: Template] = [:]
    package var body: Body?
    /// Whether the OAuth 2 client proves itself in the form.
    package var client = false
    /// What the request carries as the session's token goes (the description's `token`, or ``tokenUse``):
    /// `{access}`, or the refresh token of a refresh sent as the bearer.
    package var token: Template?
    /// How ``token`` goes where it is not as the description's token goes: a refresh token's header of its own.
    package var tokenUse: TokenUse?

    package enum Body: Sendable, Hashable {
        /// JSON whose strings are templates.
        case json(JSONValue)
        /// `application/x-www-form-urlencoded` fields.
        case form([String: Template])
    }

    package init(
        method: String, url: Template, headers: [String: Template] = [:], query: [String: Template] = [:],
        body: Body? = nil, client: Bool = false
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.query = query
        self.body = body
        self.client = client
    }

    /// Every input it names, its body's included.
    package var inputs: Set<String> {
        var names = namedInputs.union(token?.inputs ?? [])
        for template in headers.values { names.formUnion(template.inputs) }
        return names
    }

    /// The inputs it names in its URL, query and body: what it is about, as against the credentials in its headers
    /// that prove who asks.
    var namedInputs: Set<String> {
        var names = Set(url.inputs)
        for template in query.values { names.formUnion(template.inputs) }
        switch body {
        case .json(let json)?: Self.walk(json) { names.formUnion($0.inputs) }
        case .form(let fields)?: for template in fields.values { names.formUnion(template.inputs) }
        case nil: break
        }
        return names
    }

    /// The URL with no input's value, for what `server show` prints: each placeholder stands as itself.
    package var address: String { url.shown }

    /// The URL, where it names no input.
    package var fixedURL: URL? { url.inputs.isEmpty ? URL(string: url.description) : nil }

    /// The URL with a stand-in for each placeholder, for the origin rules: its origin is the request's, whatever
    /// the inputs are (``address(_:under:at:)`` made sure of it).
    package var originURL: URL? { url.expanded({ _ in "x" }).text.flatMap { URL(string: $0) } }

    /// Every input the request needs, its ``token``'s among them.
    package var required: Set<String> {
        var names = Set(url.required + (token?.required ?? []))
        for template in headers.values { names.formUnion(template.required) }
        for template in query.values { names.formUnion(template.required) }
        switch body {
        case .json(let json)?: Self.walk(json) { names.formUnion($0.required) }
        case .form(let fields)?: for template in fields.values { names.formUnion(template.required) }
        case nil: break
        }
        return names
    }

    /// The members of the body (named with dots in a JSON body) whose value is nothing but the input `name`.
    package func members(holding name: String) -> [String] {
        var found: [String] = []
        func visit(_ value: JSONValue, _ path: String) {
            switch value {
            case .string(let text): if (try? Template(text))?.lonePlaceholder == name { found.append(path) }
            case .object(let members):
                for (member, inner) in members { visit(inner, path.isEmpty ? member : "\(path).\(member)") }
            default: break
            }
        }
        switch body {
        case .json(let json)?: visit(json, "")
        case .form(let fields)?: found = fields.filter { $0.value.lonePlaceholder == name }.map(\.key)
        case nil: break
        }
        return found.sorted()
    }

    /// The body's members (named with dots in a JSON body) whose value names no input: what a login sends beside the
    /// credentials, such as `provider=db`.
    package var fixedMembers: [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        func visit(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members) where !members.isEmpty:
                for (member, inner) in members { visit(inner, path.isEmpty ? member : "\(path).\(member)") }
            case .string(let text) where !((try? Template(text))?.inputs.isEmpty ?? true): break
            default: found[path] = value
            }
        }
        switch body {
        case .json(let json)?: visit(json, "")
        case .form(let fields)?:
            for (name, field) in fields where field.inputs.isEmpty { found[name] = .string(field.description) }
        case nil: break
        }
        return found
    }

    /// A form field's value, where it names no input: `grant_type`'s.
    package func formValue(_ name: String) -> String? {
        guard case .form(let fields)? = body, let field = fields[name], field.inputs.isEmpty else { return nil }
        return field.description
    }

    /// The request with the inputs' values.
    package struct Expanded: Sendable {
        package var method: String
        package var url: URL
        /// The template's headers, in the order of their names.
        package var headers: [HeaderField]
        package var body: Data?
        /// The body as JSON, for `$request.body` expressions; `nil` for a form or no body.
        package var json: JSONValue?
        /// The form's fields, in the order they are sent, for a client's proof to be added to.
        package var form: [(String, String)]?
        /// The value that goes as the session's token goes.
        package var token: String?
    }

    /// The request with `inputs`' values: placeholders in the URL percent-encoded, a header, field or member that is
    /// nothing but an absent `{name?}` left out.
    /// - Returns: The request; or, when an input it needs has no value, that input's name.
    package func expanded(_ inputs: (String) -> String?) -> Result<Expanded, MissingInput> {
        do throws(MissingInput) {
            return .success(try expanding(inputs))
        } catch {
            return .failure(error)
        }
    }

    private func expanding(_ inputs: (String) -> String?) throws(MissingInput) -> Expanded {
        func text(_ template: Template, encode: (String) -> String = { $0 }) throws(MissingInput) -> String? {
            switch template.expanded(inputs, encode: encode) {
            case .text(let value): return value
            case .omitted: return nil
            case .missing(let name): throw MissingInput(name: name)
            }
        }
        // The fields that have a value, in order: one that is nothing but an absent `{name?}` is left out.
        func filled(_ templates: [(String, Template)]) throws(MissingInput) -> [(String, String)] {
            var fields: [(String, String)] = []
            for (name, template) in templates {
                if let value = try text(template) { fields.append((name, value)) }
            }
            return fields
        }
        guard var address = try text(url, encode: { PercentEncoding.encode($0) }) else {
            throw MissingInput(name: url.lonePlaceholder ?? "url")
        }
        let queryFields = try filled(query.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) })
        if !queryFields.isEmpty {
            let encoded = queryFields.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }
            address += (address.contains("?") ? "&" : "?") + encoded.joined(separator: "&")
        }
        guard let url = URL(string: address) else { throw MissingInput(name: "url") }
        let fields = try filled(headers.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) })
        var request = Expanded(method: method, url: url, headers: fields.map { HeaderField(name: $0.0, value: $0.1) })
        if let token { request.token = try text(token) }
        switch body {
        case .json(let json)?:
            switch Self.expand(json, inputs) {
            case .success(let value):
                let filled = value ?? .object([:])
                request.json = filled
                request.body = Data(filled.compactJSON.utf8)
            case .failure(let missing): throw missing
            }
        case .form(let templates)?:
            let form = try filled(Self.formOrder(templates))
            request.form = form
            request.body = Data(FormEncoding.encode(form).utf8)
        case nil: break
        }
        return request
    }

    /// A form's fields in the order they are sent: OAuth 2's `grant_type` first and its `scope` last, as RFC
    /// 6749's examples write them, the others by name.
    package static func formOrder<Value>(_ fields: [String: Value]) -> [(String, Value)] {
        func rank(_ name: String) -> Int { name == "grant_type" ? 0 : name == "scope" ? 2 : 1 }
        return fields.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }.map { ($0.key, $0.value) }
    }

    /// An input a request needs and has not got.
    package struct MissingInput: Error, Sendable, Hashable {
        package var name: String
    }

    /// `json` with each string's template expanded; a member or an element that is an absent `{name?}` is left out,
    /// and so `nil` comes back for a value that is one.
    private static func expand(_ json: JSONValue, _ inputs: (String) -> String?) -> Result<JSONValue?, MissingInput> {
        switch json {
        case .string(let text):
            guard let template = try? Template(text) else { return .success(json) }
            switch template.expanded(inputs) {
            case .text(let value): return .success(.string(value))
            case .omitted: return .success(nil)
            case .missing(let name): return .failure(MissingInput(name: name))
            }
        case .array(let items):
            var expanded: [JSONValue] = []
            for item in items {
                switch expand(item, inputs) {
                case .success(let value?): expanded.append(value)
                case .success(nil): continue
                case .failure(let missing): return .failure(missing)
                }
            }
            return .success(.array(expanded))
        case .object(let members):
            var expanded: [String: JSONValue] = [:]
            for (name, member) in members {
                switch expand(member, inputs) {
                case .success(let value?): expanded[name] = value
                case .success(nil): continue
                case .failure(let missing): return .failure(missing)
                }
            }
            return .success(.object(expanded))
        default:
            return .success(json)
        }
    }

    /// Calls `visit` with each template among `json`'s strings.
    static func walk(_ json: JSONValue, _ visit: (Template) -> Void) {
        switch json {
        case .string(let text): if let template = try? Template(text) { visit(template) }
        case .array(let items): for item in items { walk(item, visit) }
        case .object(let members): for member in members.values { walk(member, visit) }
        default: break
        }
    }
}

/// `application/x-www-form-urlencoded`, as the WHATWG URL standard writes it: what OAuth 2 token and revocation
/// requests are (RFC 6749 Appendix B).
package enum FormEncoding {
    private static let unescaped = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._".utf8)

    package static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    package static func escape(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: unescaped.contains, spaceAsPlus: true)
    }
}
