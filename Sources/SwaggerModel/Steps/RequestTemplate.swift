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
        var names = Set(url.inputs)
        for template in headers.values { names.formUnion(template.inputs) }
        for template in query.values { names.formUnion(template.inputs) }
        switch body {
        case .json(let json)?: Self.walk(json) { names.formUnion($0.inputs) }
        case .form(let fields)?: for template in fields.values { names.formUnion(template.inputs) }
        case nil: break
        }
        return names
    }

    /// The URL with no input's value, for the origin rules and for what `server show` prints: each placeholder
    /// stands as itself.
    package var address: String { url.shown }

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
    }

    /// The request with `inputs`' values: placeholders in the URL percent-encoded, a header, field or member that is
    /// nothing but an absent `{name?}` left out.
    /// - Returns: The request; or, when an input it needs has no value, that input's name.
    package func expanded(_ inputs: (String) -> String?) -> Result<Expanded, MissingInput> {
        func text(_ template: Template, encode: (String) -> String = { $0 }) -> Result<String?, MissingInput> {
            switch template.expanded(inputs, encode: encode) {
            case .text(let value): .success(value)
            case .omitted: .success(nil)
            case .missing(let name): .failure(MissingInput(name: name))
            }
        }
        var address: String
        switch text(url, encode: { PercentEncoding.encode($0) }) {
        case .success(let value?): address = value
        case .success(nil): return .failure(MissingInput(name: url.lonePlaceholder ?? "url"))
        case .failure(let missing): return .failure(missing)
        }
        var queryFields: [(String, String)] = []
        for (name, template) in query.sorted(by: { $0.key < $1.key }) {
            switch text(template) {
            case .success(let value?): queryFields.append((name, value))
            case .success(nil): continue
            case .failure(let missing): return .failure(missing)
            }
        }
        if !queryFields.isEmpty {
            let encoded = queryFields.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }
            address += (address.contains("?") ? "&" : "?") + encoded.joined(separator: "&")
        }
        guard let url = URL(string: address) else { return .failure(MissingInput(name: "url")) }
        var fields: [HeaderField] = []
        for (name, template) in headers.sorted(by: { $0.key < $1.key }) {
            switch text(template) {
            case .success(let value?): fields.append(HeaderField(name: name, value: value))
            case .success(nil): continue
            case .failure(let missing): return .failure(missing)
            }
        }
        var request = Expanded(method: method, url: url, headers: fields)
        switch body {
        case .json(let json)?:
            switch Self.expand(json, inputs) {
            case .success(let value):
                let filled = value ?? .object([:])
                request.json = filled
                request.body = Data(filled.compactJSON.utf8)
            case .failure(let missing): return .failure(missing)
            }
        case .form(let templates)?:
            var form: [(String, String)] = []
            for (name, template) in Self.formOrder(templates) {
                switch text(template) {
                case .success(let value?): form.append((name, value))
                case .success(nil): continue
                case .failure(let missing): return .failure(missing)
                }
            }
            request.form = form
            request.body = Data(FormEncoding.encode(form).utf8)
        case nil: break
        }
        return .success(request)
    }

    /// A form's fields in the order they are sent: OAuth 2's `grant_type` first, as RFC 6749's examples write it,
    /// then by name.
    package static func formOrder<Value>(_ fields: [String: Value]) -> [(String, Value)] {
        fields.sorted { ($0.key == "grant_type" ? 0 : 1, $0.key) < ($1.key == "grant_type" ? 0 : 1, $1.key) }
            .map { ($0.key, $0.value) }
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
