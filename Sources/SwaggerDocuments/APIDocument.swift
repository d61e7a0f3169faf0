import FoundationEssentials
import SwaggerModel

/// An OpenAPI document's parts that discovery reads, with its `$ref`s followed.
package struct APIDocument {
    package let root: [String: JSONValue]
    /// What relative paths are read against.
    package let base: URL
    /// The paths that the document's OAuth 2 password flows name as their `tokenUrl`.
    package let tokenPaths: Set<String>
    /// The security schemes, by name.
    package let schemes: [String: JSONValue]
    /// The security the document requires of every operation unless one says otherwise.
    package let defaultSecurity: [JSONValue]?
    /// What is left of the work any walk of the document's schemas may do.
    package let budget = WorkBudget(Self.schemaBudget)

    /// The most schemas all the walks of one document read together: thousands more than any real document needs,
    /// and a bound on one built of cycles or of a fan-out that grows without end.
    static let schemaBudget = 50_000

    package init(root: [String: JSONValue], url: URL) {
        self.root = root
        // Without servers, OpenAPI 3's paths are under "/" of the document's host, as Swagger 2's are without a
        // basePath.
        var base = URL(string: "/", relativeTo: url)?.absoluteURL ?? url
        if case .array(let servers)? = root["servers"], case .object(let first)? = servers.first,
            case .string(let server)? = first["url"], let resolved = Self.resolve(server, against: url)
        {
            base = resolved
        } else if case .string(let basePath)? = root["basePath"],
            let resolved = Self.resolve(basePath, against: url)
        {
            base = resolved
        }
        // A server URL names a folder: "token" under "https://host/api" is "https://host/api/token".
        self.base = base.absoluteString.hasSuffix("/") ? base : base.appending(path: "")
        let schemes: JSONValue? =
            if case .object(let components)? = root["components"] { components["securitySchemes"] } else {
                root["securityDefinitions"]
            }
        var tokenPaths: Set<String> = []
        var named: [String: JSONValue] = [:]
        if case .object(let found)? = schemes {
            named = found
            for case .object(let scheme) in found.values {
                let flow: JSONValue? =
                    if case .object(let flows)? = scheme["flows"] { flows["password"] } else { .object(scheme) }
                if case .object(let flow)? = flow, case .string(let token)? = flow["tokenUrl"],
                    let url = Self.resolve(token, against: self.base)
                {
                    tokenPaths.insert(url.path(percentEncoded: false))
                }
            }
        }
        self.schemes = named
        self.tokenPaths = tokenPaths
        if case .array(let security)? = root["security"] { defaultSecurity = security } else { defaultSecurity = nil }
    }

    /// An http or https URL from `text`, read against `base` when relative.
    package static func resolve(_ text: String, against base: URL) -> URL? {
        guard let url = URL(string: text, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    package struct Operation {
        package var path: String
        package var method: String
        package var url: URL
        package var object: [String: JSONValue]
        /// `POST /api/token/`.
        package var label: String { "\(method.uppercased()) \(path)" }
        /// The path's words and the operationId's, lowercased, for matching names.
        package var words: [String]
        /// The summary's words and the tags', lowercased: what the document says the operation is for.
        package var labels: [String] = []
        /// Whether its path template is filled: one that is not cannot be sent, so it is no step of a description.
        package var isSendable = true
    }

    /// Every `GET`, `POST` and `DELETE` of the document. An operation's `url` has its path template filled where
    /// each parameter in it has one value the document gives (its only `enum` value, or its `default`); one whose
    /// template cannot be filled so keeps it, and ``isSendable`` says it cannot be sent. Its `words` are its path's,
    /// its operationId's, its summary's and its tags'.
    package func operations(_ paths: [String: JSONValue]) -> [Operation] {
        var found: [Operation] = []
        for (path, item) in paths {
            guard case .object(let item)? = resolved(item) else { continue }
            for method in ["get", "post", "delete"] {
                guard case .object(let operation)? = item[method] else { continue }
                let filled = filled(path, operation, shared: item["parameters"])
                // Relative to the server URL: "/token/" under "https://host/api" is under /api.
                let target = filled ?? path
                let relative = target.hasPrefix("/") ? String(target.dropFirst()) : target
                guard let url = URL(string: relative, relativeTo: base)?.absoluteURL else { continue }
                var words = Self.words(path)
                if case .string(let id)? = operation["operationId"] { words += Self.words(id) }
                var labels: [String] = []
                if case .string(let summary)? = operation["summary"] { labels += Self.words(summary) }
                if case .array(let tags)? = operation["tags"] {
                    for case .string(let tag) in tags { labels += Self.words(tag) }
                }
                found.append(
                    Operation(
                        path: path, method: method, url: url, object: operation, words: words, labels: labels,
                        isSendable: filled != nil))
            }
        }
        return found
    }

    /// `path` with each `{name}` replaced by the one value the document gives its parameter: its only `enum`
    /// value, or its `default`; `nil` when one has none, or several to choose from.
    private func filled(_ path: String, _ operation: [String: JSONValue], shared: JSONValue?) -> String? {
        guard path.contains("{") else { return path }
        var lists: [JSONValue] = []
        if case .array(let own)? = operation["parameters"] { lists += own }
        if case .array(let common)? = shared { lists += common }
        var result = path
        while let open = result.firstIndex(of: "{"), let close = result[open...].firstIndex(of: "}") {
            let name = String(result[result.index(after: open)..<close])
            var value: String?
            for case .object(let parameter)? in lists.map(resolved) {
                guard parameter["in"] == .string("path"), parameter["name"] == .string(name) else { continue }
                let schema: [String: JSONValue]? =
                    if case .object(let schema)? = resolved(parameter["schema"]) { schema } else { parameter }
                if case .array(let values)? = schema?["enum"], values.count == 1, case .string(let only) = values[0] {
                    value = only
                } else if case .string(let fallback)? = schema?["default"] {
                    value = fallback
                }
                break
            }
            guard let value, !value.isEmpty else { return nil }
            result.replaceSubrange(open...close, with: PercentEncoding.encode(value))
        }
        return result
    }

    /// `value` with its local `$ref` followed, a few times at most: a document may refer in a loop.
    package func resolved(_ value: JSONValue?) -> JSONValue? {
        var value = value
        for _ in 0..<8 {
            guard case .object(let object)? = value, case .string(let reference)? = object["$ref"] else { return value }
            guard reference.hasPrefix("#/") else { return nil }
            var target: JSONValue? = .object(root)
            for part in reference.dropFirst(2).split(separator: "/") {
                let key = String(part).replacing("~1", with: "/").replacing("~0", with: "~")
                guard case .object(let members)? = target else { return nil }
                target = members[key]
            }
            value = target
        }
        return nil
    }

    /// The words of a path or an operationId, lowercased: `/api/token/refresh/` and `token_refresh_create` give
    /// `token` and `refresh`; `getCurrentUser` gives `get`, `current` and `user`.
    package static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character = " "
        for character in text {
            if character.isLetter || character.isNumber {
                if character.isUppercase, previous.isLowercase, !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                word.append(contentsOf: character.lowercased())
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        // A collection's name is its item's: `/users/me` is about a user.
        return words.map { $0 == "users" ? "user" : $0 }
    }
}

/// A count of work left, shared by the walks of one document: each step spends one, and once none is left every
/// walk stops where it is.
package final class WorkBudget {
    private var left: Int

    package init(_ limit: Int) {
        left = limit
    }

    /// Spends one step; `false` once the budget is spent.
    package func spend() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }

    package var isSpent: Bool { left <= 0 }
}
