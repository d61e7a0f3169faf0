import FoundationEssentials
import SwaggerModel
import SwaggerOutput

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
        rows.append(DetailsViewModel(key: "Login URL", value: description.login.url.absoluteString + from("login")))
        if let refresh = description.refresh?.url, refresh != description.login.url {
            rows.append(DetailsViewModel(key: "Refresh URL", value: refresh.absoluteString + from("refresh")))
        }
        rows += [
            DetailsViewModel(
                key: "Revoke URL",
                value: description.revocation.map { $0.url.absoluteString + from("revocation") }
                    ?? "none: logout is local only"),
            DetailsViewModel(
                key: "Profile URL",
                value: description.profile.url.absoluteString
                    + (description.profile.unwrap.map { " (the user in \"\($0)\")" } ?? "") + from("profile")),
        ]
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
        rows.append(DetailsViewModel(key: "Sends", value: sends(description)))
        if description.token != .bearer {
            rows.append(DetailsViewModel(key: "Token", value: description.token.text + from("token")))
        }
        if let paging = description.paging {
            let ways = [paging.page.map { "by \"\($0)\"" }, paging.cursor.map { "cursor in \"\($0)\"" }]
            rows.append(
                DetailsViewModel(key: "Pages", value: ways.compactMap(\.self).joined(separator: ", ") + from("paging")))
        }
        let fields = description.login.answer
        if fields != .oauth2 {
            rows.append(
                DetailsViewModel(
                    key: "Token fields", value: "\(fields.accessToken), \(fields.refreshToken), \(fields.expiresIn)"))
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

    /// How the login, the refresh and the logout carry what they carry, for people.
    static func sends(_ description: ServerDescription) -> String {
        let login = description.login
        var members = [login.account]
        if let email = login.email { members.append(email) }
        members.append(login.password)
        for name in login.members.keys.sorted() where name != "grant_type" {
            members.append("\(name)=\(login.members[name].map(Self.text) ?? "")")
        }
        if let appID = login.appID { members.append(appID) }
        let signIn =
            switch description.signIn {
            case .web: "login in the browser (authorization code with PKCE)"
            case .device: "login with a device code"
            case .client: "login as the client itself (client credentials)"
            case .password where !description.offersPasswordGrant:
                "no password login: "
                    + (description.browserSignIns.isEmpty
                        ? "no sign-in swaggerctl can make"
                        : "sign-in "
                            + description.browserSignIns.map { $0 == .web ? "in the browser" : "with a device code" }
                            .joined(separator: " or "))
            case .password where login.shape == .basic:
                "every request signed in with HTTP Basic (the password itself is kept)"
            case .password where login.isPasswordGrant: "login as the OAuth 2 password grant"
            case .password:
                "login \(login.encoding == .json ? "JSON" : "form") {\(members.joined(separator: ", "))}"
            }
        // A token sent as requests send it: as the bearer, or in the API key's header.
        func carried(_ use: TokenUse) -> String {
            use.header.lowercased() == "authorization" ? "as the bearer" : "in \(use.header)"
        }
        let refresh =
            switch description.refresh?.shape {
            case nil: "no refresh"
            case .json(let field)?: "refresh JSON {\(field)}"
            case .grant?: "refresh as the OAuth 2 refresh grant"
            case .bearer?: "refresh token \(carried(description.refresh?.token ?? description.token))"
            }
        let logout =
            switch description.revocation?.shape {
            case nil: "logout on this machine only"
            case .json(let field)?: "logout JSON {\(field)}"
            case .rfc7009?: "logout as RFC 7009 revocation"
            case .bearer(let method)?: "logout \(method) with each token \(carried(description.token))"
            }
        return [signIn, refresh, logout].joined(separator: "; ")
    }

    private static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { text } else { value.compactJSON }
    }
}
