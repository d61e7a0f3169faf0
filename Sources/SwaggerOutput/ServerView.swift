import FoundationEssentials
import SwaggerModel

/// A server's description, for people: the rows `server show` and `status` print, and `server list`'s line.
package enum ServerView {
    /// The rows that say how a server is spoken to, from its description alone, each with where it came from
    /// when `sources` says (`ServerEntry.sources`).
    package static func rows(for description: ServerDescription, sources: [String: String] = [:]) -> [DetailsViewModel]
    {
        // Where a part came from, unless it is the preset the description names.
        func from(_ part: String) -> String {
            guard let source = sources[part], source != "saved", source != description.preset.map({ "preset \($0)" })
            else { return "" }
            return " (\(source.hasPrefix("preset ") || source == "given" ? "" : "from ")\(source))"
        }
        var rows: [DetailsViewModel] = []
        if let preset = description.preset { rows.append(DetailsViewModel(key: "Preset", value: preset)) }
        return rows + stepRows(description, from: from) + clientRows(description, from: from)
    }

    /// Each step as the request it sends, every secret as its placeholder, and what the login yields.
    private static func stepRows(_ description: ServerDescription, from: (String) -> String) -> [DetailsViewModel] {
        var rows: [DetailsViewModel] = []
        rows.append(
            DetailsViewModel(
                key: "Login",
                value: (description.login.request.map { request($0, description) }
                    ?? (description.login.isNone
                        ? "none: the server takes a token you bring (login --with-token)"
                        : "nothing of its own: every request carries the account and the password"))
                    + from("login")))
        rows.append(
            DetailsViewModel(
                key: "Refresh",
                value: description.refresh.map { request($0.request, description) + from("refresh") } ?? "none"))
        rows.append(
            DetailsViewModel(
                key: "Logout",
                value: description.revocation.map { revocation in
                    revocation.requests.map { request($0.template, description) }.joined(separator: "; then ")
                        + from("revocation")
                } ?? "none: logout is local only"))
        rows.append(
            DetailsViewModel(
                key: "Profile",
                value: request(description.profile.request, description)
                    + (description.profile.unwrap.map { " (the user in \"\($0)\")" } ?? "") + from("profile")))
        rows.append(DetailsViewModel(key: "Token", value: description.token.text + from("token")))
        rows.append(DetailsViewModel(key: "Sends", value: sends(description)))
        let yields = description.login.yields
        if yields != .oauth2, !yields.isEmpty {
            let shown = yields.keys.sorted().map { "\($0) \(yields[$0].map(\.description) ?? "")" }
            rows.append(DetailsViewModel(key: "Yields", value: shown.joined(separator: ", ")))
        }
        return rows
    }

    /// The client the server knows swaggerctl as, where its pages and documents are, and the other hosts allowed.
    private static func clientRows(_ description: ServerDescription, from: (String) -> String) -> [DetailsViewModel] {
        var rows: [DetailsViewModel] = []
        if let clientID = description.clientID {
            let secret = description.usesClientSecret ? " (with a client secret, kept with the tokens)" : ""
            rows.append(DetailsViewModel(key: "Client ID", value: clientID + secret))
        }
        if let scope = description.scope { rows.append(DetailsViewModel(key: "Scope", value: scope)) }
        if let method = description.clientAuthentication {
            rows.append(DetailsViewModel(key: "Client proof", value: method.rawValue))
        }
        // Where a client proven by its certificate goes instead (RFC 8705 §5).
        let aliases = [("token", description.mtls.token), ("revocation", description.mtls.revocation)]
            .compactMap { name, url in url.map { "\(name) \($0.absoluteString)" } }
        if !aliases.isEmpty { rows.append(DetailsViewModel(key: "mTLS", value: aliases.joined(separator: ", "))) }
        if let paging = description.paging {
            let ways = [
                paging.page.map { "by \"\($0)\"" }, paging.cursor.map { "cursor in \"\($0)\"" },
                paging.offset.map { "offset in \"\($0)\"" },
            ]
            rows.append(
                DetailsViewModel(key: "Pages", value: ways.compactMap(\.self).joined(separator: ", ") + from("paging")))
        }
        if let document = description.document {
            rows.append(DetailsViewModel(key: "Found in", value: document.absoluteString))
        }
        if !description.allowedOrigins.isEmpty {
            let origins = description.allowedOrigins.map(\.string).joined(separator: ", ")
            rows.append(DetailsViewModel(key: "Other hosts", value: origins + " (allowed)"))
        }
        return rows
    }

    /// A request as `server show` prints it: its method and URL, its headers and its token, and its body, every
    /// input as its placeholder.
    static func request(_ template: RequestTemplate, _ description: ServerDescription) -> String {
        var parts = ["\(template.method) \(template.address)"]
        if !template.query.isEmpty {
            parts[0] +=
                "?"
                + template.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.shown)" }.joined(separator: "&")
        }
        if let token = template.token {
            let use = template.tokenUse ?? description.token
            parts.append("\(use.header): \(use.value(token.shown))")
        }
        for (name, value) in template.headers.sorted(by: { $0.key < $1.key }) {
            parts.append("\(name): \(value.shown)")
        }
        switch template.body {
        case .json(let json)?: parts.append(json.compactJSON)
        case .form(let fields)?:
            parts.append(RequestTemplate.formOrder(fields).map { "\($0.0)=\($0.1.shown)" }.joined(separator: "&"))
        case nil: break
        }
        if template.client { parts.append("with the client's proof") }
        return parts.joined(separator: " ")
    }

    /// How the login, the refresh and the logout carry what they carry, for people.
    static func sends(_ description: ServerDescription) -> String {
        let login = description.login
        let signIn =
            switch description.signIn {
            case .web: "login in the browser (authorization code with PKCE)"
            case .device: "login with a device code"
            case .client: "login as the client itself (client credentials)"
            case .token: "no login: a token you bring (login --with-token)"
            case .password where !description.offersPasswordGrant:
                "no password login: "
                    + (description.browserSignIns.isEmpty
                        ? "no sign-in swaggerctl can make"
                        : "sign-in "
                            + description.browserSignIns.map { $0 == .web ? "in the browser" : "with a device code" }
                            .joined(separator: " or "))
            case .password where login.sendsNothing:
                "every request signed in with HTTP Basic (the password itself is kept)"
            case .password where login.isPasswordGrant: "login as the OAuth 2 password grant"
            case .password:
                login.request.map { request in
                    request.inputs.contains("basic")
                        ? "login by HTTP Basic once, for a token"
                        : request.body == nil ? "login \(request.method)" : "login \(Self.carried(body: request))"
                } ?? "login"
            }
        let refresh: String =
            if let step = description.refresh {
                step.isGrant
                    ? "refresh as the OAuth 2 refresh grant"
                    : step.request.body == nil && step.request.token != nil
                        ? "refresh token \(Self.carried(step.request.tokenUse ?? description.token))"
                        : "refresh \(Self.carried(body: step.request))"
            } else {
                "no refresh"
            }
        let logout: String
        if let revocation = description.revocation, let first = revocation.requests.first?.template {
            if first.client, first.formValue("token_type_hint") != nil {
                logout = "logout as RFC 7009 revocation"
            } else if first.body == nil, revocation.requests.count > 1 {
                logout = "logout \(first.method) with each token \(Self.carried(description.token))"
            } else if first.body == nil {
                logout = "logout \(first.method) with the token \(Self.carried(first.tokenUse ?? description.token))"
            } else {
                logout = "logout \(Self.carried(body: first))"
            }
        } else {
            logout = "logout on this machine only"
        }
        return [signIn, refresh, logout].joined(separator: "; ")
    }

    /// A token sent as requests send it: as the bearer, or in the API key's header.
    private static func carried(_ use: TokenUse) -> String {
        use.header.lowercased() == "authorization" ? "as the bearer" : "in \(use.header)"
    }

    /// A body's kind and members, for people: `JSON {username, password}`, the credentials first, then what else
    /// it sends with its value.
    private static func carried(body request: RequestTemplate) -> String {
        var members: [String] = []
        for input in ["account", "username", "email", "password", "refresh"] {
            members += request.members(holding: input).filter { !members.contains($0) }
        }
        let fixed = request.fixedMembers
        members += fixed.keys.sorted().filter { $0 != "grant_type" }.map { "\($0)=\(fixed[$0].map(Self.text) ?? "")" }
        members += request.members(holding: "app_id")
        return "\(kind(of: request)) {\(members.joined(separator: ", "))}"
    }

    private static func kind(of request: RequestTemplate) -> String {
        if case .form? = request.body { "form" } else { "JSON" }
    }

    private static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }
}
