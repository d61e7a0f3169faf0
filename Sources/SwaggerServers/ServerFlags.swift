import FoundationEssentials
import SwaggerModel

/// What the person says about a server with `server set`'s flags (and `login`'s hidden ones, kept for a
/// release), as changes to its description in the description language.
///
/// Every flag is one row of ``members``: its name, and the part of the description it sets. A `--server-file`
/// holds either a description (`ServerDescription.init(json:under:)`) or, as it did before, these flags by name.
package struct ServerFlags: Sendable, Hashable {
    /// The flags given, by long name without the dashes, with their text.
    package private(set) var values: [String: String] = [:]
    /// The repeatable flags given (`--login-field NAME=VALUE`, `--allow-origin`), each's texts in the order given.
    package private(set) var lists: [String: [String]] = [:]

    package init() {}

    /// Sets the flag `name` to `text`, as the command line or a file gives it.
    /// - Throws: `SwaggerError` with code `usage` naming the flag, for one swaggerctl does not know or a text it
    ///   cannot take.
    package mutating func set(_ name: String, _ text: String) throws(SwaggerError) {
        guard let member = Self.members.first(where: { $0.name == name }) else {
            throw SwaggerError(.usage, "\"\(name.prefix(60))\" is not a flag that describes a server.")
        }
        guard member.fragment(text) != nil else {
            throw SwaggerError(.usage, "--\(name) cannot be \"\(text.prefix(60))\": \(member.takes).")
        }
        if member.repeats {
            lists[name, default: []].append(text)
        } else {
            values[name] = text
        }
    }

    /// The flags given, by name, for messages.
    package var given: [String] {
        Self.members.map(\.name).filter { values[$0] != nil || lists[$0] != nil }.map { "--" + $0 }
    }

    /// Whether no flag is set.
    package var isEmpty: Bool { values.isEmpty && lists.isEmpty }

    /// The preset the flags name, if any.
    package var preset: String? { values["preset"] }

    /// The OpenAPI document to read (`--openapi`), if given.
    package var openAPI: String? { values["openapi"] }

    /// The changes the flags make, in the description language: one object, each flag's part merged in.
    package var json: JSONValue {
        var merged = JSONValue.object([:])
        for member in Self.members {
            let texts = member.repeats ? lists[member.name] ?? [] : values[member.name].map { [$0] } ?? []
            for text in texts {
                guard let fragment = member.fragment(text) else { continue }
                merged = member.repeats ? Self.appending(fragment, to: merged) : merged.merging(fragment)
            }
        }
        return merged
    }

    /// These flags, with `other`'s where these have none: the command line's over a `--server-file`'s.
    package func over(_ other: ServerFlags) -> ServerFlags {
        var merged = other
        merged.values.merge(values) { _, mine in mine }
        merged.lists.merge(lists) { theirs, mine in theirs + mine }
        return merged
    }

    /// `fragment` merged into `json`, where the arrays it holds are added to those already there rather than
    /// replace them: each `--allow-origin` adds an origin.
    private static func appending(_ fragment: JSONValue, to json: JSONValue) -> JSONValue {
        guard case .object(var members) = json, case .object(let changes) = fragment else { return fragment }
        for (name, change) in changes {
            switch (members[name], change) {
            case (.array(let old)?, .array(let new)): members[name] = .array(old + new)
            case (let old?, _): members[name] = appending(change, to: old)
            case (nil, _): members[name] = change
            }
        }
        return .object(members)
    }

    /// Reads a `--server-file` of flags: a JSON object whose members are the flags' long names without their
    /// dashes, with string values, such as `{"preset": "simplejwt", "profile-path": "/users/me/"}`.
    /// - Throws: `SwaggerError` with code `usage` for a file that is not such an object, naming what is wrong.
    package init(file members: [String: JSONValue], named path: String) throws(SwaggerError) {
        self.init()
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            guard case .string(let text) = value else {
                throw SwaggerError(
                    .usage, "\(path): \"\(name.prefix(60))\" must be a string, as the flag's value would be.")
            }
            do throws(SwaggerError) {
                // The file's name for a preset was `kind` before presets were data, and a server the flags alone
                // described was the `custom` kind.
                if name == "kind", text == "custom" { continue }
                try set(name == "kind" ? "preset" : name, text)
            } catch {
                throw SwaggerError(.usage, "\(path): \(error.message)")
            }
        }
    }

    /// One flag: its long name, what it takes, and the part of a description it sets from its text (`nil` for a
    /// text it cannot take). Every use of the flags by name goes through ``members``.
    package struct Member: Sendable {
        package var name: String
        /// What the flag takes, for its help and its usage errors.
        package var takes: String
        /// The path of the description language the flag is another name for, as `--set PATH=TEXT` would set it.
        package var alias: String?
        /// Whether the flag may be given more than once, each time adding to what it sets.
        var repeats = false
        var fragment: @Sendable (String) -> JSONValue?

        init(name: String, takes: String, repeats: Bool = false, fragment: @escaping @Sendable (String) -> JSONValue?) {
            self.name = name
            self.takes = takes
            self.repeats = repeats
            self.fragment = fragment
        }

        /// A flag that is `--set PATH=TEXT` by another name, for a text that `accepts`.
        init(
            name: String, alias path: String, takes: String,
            accepts: @escaping @Sendable (String) -> Bool = { _ in true }
        ) {
            self.name = name
            self.takes = takes
            self.alias = path
            self.fragment = { text in accepts(text) ? ServerFlags.setting(path, .string(text)) : nil }
        }
    }

    /// The flag that is another name for the description's `path`, for a message that says how to give it.
    package static func flag(for path: String) -> String? {
        members.first { $0.alias == path }.map { "--" + $0.name }
    }

    /// `{step: {member: value}}`.
    private static func set(_ step: String, _ member: String, _ value: JSONValue) -> JSONValue {
        .object([step: .object([member: value])])
    }

    package static let members: [Member] = [
        // Every part of the language, by its path: the one way to say anything, of which the flags below say some.
        Member(name: "set", takes: "PATH=VALUE, or PATH:=JSON, a path of the description language", repeats: true) {
            text in setting(text)
        },
        Member(name: "preset", takes: "one of \(ServerPresets.names.joined(separator: ", "))") { text in
            ServerPresets.named(text).map { _ in .object(["preset": .string(text)]) }
        },
        Member(name: "login-path", alias: "login.url", takes: "a path under the server, or a URL"),
        Member(name: "refresh-path", alias: "refresh.url", takes: "a path under the server, or a URL"),
        Member(name: "revoke-path", alias: "revocation.url", takes: "a path under the server, or a URL"),
        Member(name: "profile-path", alias: "profile.url", takes: "a path under the server, or a URL"),
        Member(name: "openapi", alias: "document", takes: "the OpenAPI document's URL, or a path under the server"),
        Member(name: "client-id", alias: "client.id", takes: "the OAuth 2 client's id"),
        Member(name: "scope", alias: "client.scope", takes: "the OAuth 2 scope"),
        Member(
            name: "access-token-field", alias: "login.answer.access", takes: "a member's name; dots go into objects"),
        Member(name: "refresh-token-field", alias: "login.answer.refresh", takes: "a member's name"),
        Member(name: "expires-in-field", alias: "login.answer.expiresIn", takes: "a member's name"),
        Member(name: "login-body", takes: "json:FIELD, form:FIELD or password-grant") { text in
            switch text.split(separator: ":", maxSplits: 1).map(String.init) {
            case ["password-grant"]:
                return .object([
                    "login": .object([
                        "body": .string("form"), "account": .string("username"), "email": .null,
                        "members": .object(["grant_type": .string("password")]),
                    ])
                ])
            case let parts where parts.count == 2 && ["json", "form"].contains(parts[0]) && !parts[1].isEmpty:
                // Members of another body (OAuth 2's grant_type) do not go into this one.
                return .object([
                    "login": .object([
                        "body": .string(parts[0]), "account": .string(parts[1]), "email": .null, "members": .null,
                    ])
                ])
            default:
                return nil
            }
        },
        Member(name: "login-field", takes: "NAME=VALUE, or NAME:=JSON for a number, true or false", repeats: true) {
            text in
            guard let (name, value) = loginField(text) else { return nil }
            return set("login", "members", .object([name: value]))
        },
        Member(name: "refresh-with", alias: "refresh.with", takes: "json:FIELD, grant or bearer") {
            RefreshShape(text: $0) != nil
        },
        Member(
            name: "revoke-with", alias: "revocation.with", takes: "json:FIELD, rfc7009, bearer:POST or bearer:DELETE"
        ) { RevocationShape(text: $0) != nil },
        Member(
            name: "revoke-client-auth", alias: "revocation.client",
            takes: ClientAuthentication.allCases.map(\.rawValue).joined(separator: ", ")
        ) { ClientAuthentication(rawValue: $0) != nil },
        Member(
            name: "token", alias: "token",
            takes: "a header and its scheme, such as \"Authorization: Token\" or \"X-API-Key\""
        ) { TokenUse(text: $0) != nil },
        Member(name: "allow-origin", takes: "an origin, such as https://auth.example.com, or a host", repeats: true) {
            text in
            ServerURL.allowedOrigin(text).map { .object(["allowedOrigins": .array([.string($0.string)])]) }
        },
    ]

    /// `--set`'s `PATH=VALUE` (text) or `PATH:=JSON` (any JSON value, `null` for a step the server has not) as the
    /// part of a description it sets: `login.answer.unit=ms` is `{"login": {"answer": {"unit": "ms"}}}`. The path
    /// starts with a member of the language; what it sets is checked when the description is read, and named if
    /// wrong.
    static func setting(_ text: String) -> JSONValue? {
        guard let (path, value) = loginField(text) else { return nil }
        return setting(path, value)
    }

    /// `value` at the description language's `path`, as `--set` sets it; `nil` for a path outside the language.
    static func setting(_ path: String, _ value: JSONValue) -> JSONValue? {
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = steps.first, ServerDescription.members.contains(first), !steps.contains(""), steps.count <= 8
        else { return nil }
        return steps.reversed().reduce(value) { inner, step in .object([step: inner]) }
    }

    /// `NAME=VALUE` as a string, or `NAME:=JSON` as any JSON value.
    private static func loginField(_ text: String) -> (String, JSONValue)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        var name = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        guard name.hasSuffix(":") else { return name.isEmpty ? nil : (name, .string(value)) }
        name.removeLast()
        guard !name.isEmpty, let json = JSONValue(parsing: value) else {
            return nil
        }
        return (name, json)
    }
}
