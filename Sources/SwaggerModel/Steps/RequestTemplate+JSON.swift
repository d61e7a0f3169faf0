import FoundationEssentials

extension RequestTemplate {
    /// The members of a request in the description language.
    package static let members: Set<String> = [
        "method", "url", "headers", "query", "json", "form", "client", "token", "tokenUse",
    ]

    /// Reads a request as the description language writes it, its URL under `server`.
    /// - Parameter method: The method when the request names none: `POST` for a login, `GET` for a profile.
    /// - Throws: ``JSONPointer/Invalid`` naming what is wrong, `at` the step's path (`login.request`).
    package init(json: JSONValue, under server: ServerURL, method: String, at path: String) throws(JSONPointer.Invalid)
    {
        guard case .object(let members) = json else { throw JSONPointer.Invalid("\(path) must be an object") }
        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw JSONPointer.Invalid("\(path).\(unknown.prefix(60)) is not part of a request")
        }
        var chosen = method
        switch members["method"] {
        case nil, .null?: break
        case .string(let name)? where name.utf8.count <= 32 && name.utf8.allSatisfy(RuntimeExpression.isTokenCharacter):
            chosen = name.uppercased()
        default: throw JSONPointer.Invalid("\(path).method must be an HTTP method, such as POST")
        }
        guard case .string(let text)? = members["url"] else {
            throw JSONPointer.Invalid("\(path).url is missing: where the request is sent")
        }
        self.init(method: chosen, url: try Self.address(text, under: server, at: "\(path).url"))
        headers = try Self.templates(members["headers"], at: "\(path).headers", names: .header)
        query = try Self.templates(members["query"], at: "\(path).query", names: .any)
        switch (members["json"], members["form"]) {
        case (let json?, nil) where json != .null:
            try Self.checkTemplates(in: json, at: "\(path).json")
            // A member set to null is none: what a layer writes for a member it takes away.
            body = .json(Self.withoutNulls(json))
        case (nil, let form?) where form != .null, (.null?, let form?) where form != .null:
            body = .form(try Self.templates(form, at: "\(path).form", names: .any))
        case (nil, nil), (.null?, nil), (nil, .null?), (.null?, .null?):
            body = nil
        default:
            throw JSONPointer.Invalid("\(path) has a json body or a form, not both")
        }
        switch members["token"] {
        case nil, .null?: break
        case .string(let text)?: token = try Template(text)
        default: throw JSONPointer.Invalid("\(path).token must be a template, such as \"{access}\"")
        }
        switch members["tokenUse"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let use = TokenUse(text: text) else {
                throw JSONPointer.Invalid(
                    "\(path).tokenUse must be a header and its scheme, such as \"Authorization: Bearer\"")
            }
            tokenUse = use
        default: throw JSONPointer.Invalid("\(path).tokenUse must be a header and its scheme")
        }
        switch members["client"] {
        case nil, .null?, .bool(false)?: client = false
        case .bool(true)?:
            guard case .form? = body else { throw JSONPointer.Invalid("\(path).client goes with a form") }
            client = true
        default: throw JSONPointer.Invalid("\(path).client must be true or false")
        }
    }

    /// The request in the description language, its URL as a path where it is under `server`.
    package func json(relativeTo server: ServerURL?) -> JSONValue {
        var members: [String: JSONValue] = [
            "method": .string(method), "url": .string(Self.relative(url.description, to: server)),
        ]
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues { .string($0.description) }) }
        if !query.isEmpty { members["query"] = .object(query.mapValues { .string($0.description) }) }
        switch body {
        case .json(let json)?: members["json"] = json
        case .form(let fields)?: members["form"] = .object(fields.mapValues { .string($0.description) })
        case nil: break
        }
        if client { members["client"] = .bool(true) }
        if let token { members["token"] = .string(token.description) }
        if let tokenUse { members["tokenUse"] = .string(tokenUse.text) }
        return .object(members)
    }

    /// `text`, resolved under `server` as every path or URL of a description is, with its placeholders kept: they
    /// may stand only after the origin, so that no input can send the request to another host.
    /// - Throws: ``JSONPointer/Invalid`` for a URL that is not one, or a placeholder in its scheme, host or port.
    package static func address(_ text: String, under server: ServerURL, at path: String) throws(JSONPointer.Invalid)
        -> Template
    {
        let template = try Template(text.trimmingWhitespace())
        if case .input? = template.parts.first {
            throw JSONPointer.Invalid("\(path): a URL starts with / or a scheme, not with a placeholder")
        }
        // A path under the server (not `//host`) keeps the server's origin whatever its inputs are, which go into it
        // percent-encoded: it needs only to be a URL.
        let written = template.description
        if written.hasPrefix("/"), !written.hasPrefix("//") {
            guard let filled = template.expanded({ _ in "x" }).text, URL(string: server.joining(filled)) != nil else {
                throw JSONPointer.Invalid("\(path): \(text.prefix(60)) is not a path or a URL")
            }
            return try Template(server.joining(written))
        }
        let lowered = written.lowercased()
        let absolute = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        // Two different values for every placeholder: where either changes the origin, a placeholder is in it.
        var origins: [ServerURL?] = []
        for stand in ["x", "y"] {
            guard let filled = template.expanded({ _ in stand }).text else {
                throw JSONPointer.Invalid("\(path): \(text.prefix(60)) is not a path or a URL")
            }
            if absolute, URLComponents(string: filled)?.host == nil {
                throw JSONPointer.Invalid("\(path): a placeholder may stand in a path or a query, not in the host")
            }
            do throws(SwaggerError) {
                origins.append(ServerURL(originOf: try server.resolve(filled)))
            } catch {
                throw JSONPointer.Invalid("\(path): \(error.message)")
            }
        }
        guard origins[0] != nil, origins[0] == origins[1] else {
            throw JSONPointer.Invalid("\(path): a placeholder may stand in a path or a query, not in the host")
        }
        if absolute { return template }
        return try Template(server.joining(written))
    }

    /// `address` as a path where it is under `server`, as a description writes it.
    package static func relative(_ address: String, to server: ServerURL?) -> String {
        guard let base = server?.string, address.hasPrefix(base + "/") else { return address }
        let path = String(address.dropFirst(base.count))
        // A path that begins with two slashes would be read back as a host.
        return path.hasPrefix("//") ? address : path
    }

    private enum Names { case header, any }

    private static func templates(_ value: JSONValue?, at path: String, names: Names) throws(JSONPointer.Invalid)
        -> [String: Template]
    {
        switch value {
        case nil, .null?: return [:]
        case .object(let members)? where members.count <= 64:
            var templates: [String: Template] = [:]
            for (name, member) in members where member != .null {
                if names == .header {
                    guard !name.isEmpty, name.utf8.allSatisfy(RuntimeExpression.isTokenCharacter) else {
                        throw JSONPointer.Invalid("\(path): \(name.prefix(60)) is not a header's name")
                    }
                }
                switch member {
                case .string(let text): templates[name] = try Template(text)
                case .integer, .number, .bool: templates[name] = try Template(member.compactJSON)
                default: throw JSONPointer.Invalid("\(path).\(name.prefix(60)) must be text")
                }
            }
            return templates
        default:
            throw JSONPointer.Invalid("\(path) must be an object of names and their values")
        }
    }

    /// `json` without its objects' members that are `null`.
    private static func withoutNulls(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(withoutNulls))
        case .array(let items): .array(items.map(withoutNulls))
        default: json
        }
    }

    /// Reads every string of a JSON body as a template, so that a wrong one is named when the description is read.
    private static func checkTemplates(in json: JSONValue, at path: String) throws(JSONPointer.Invalid) {
        switch json {
        case .string(let text): _ = try Template(text)
        case .array(let items): for item in items { try checkTemplates(in: item, at: path) }
        case .object(let members):
            for (name, member) in members { try checkTemplates(in: member, at: "\(path).\(name)") }
        default: break
        }
    }
}

extension Template.Expansion {
    /// The expansion's text, where there is one.
    var text: String? { if case .text(let text) = self { text } else { nil } }
}
