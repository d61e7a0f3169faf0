import Foundation
import SwaggerModel

/// Accounts, records and sessions that tests share. Dates are whole seconds, as the JSON files keep them.
package enum Fixtures {
    package static let server = serverURL("http://127.0.0.1:8080/api")
    package static let otherServer = serverURL("https://api.example.com/v2")
    package static let ana = Account(server: server, name: "ana@example.com")
    package static let ivo = Account(server: server, name: "ivo@example.com")

    /// ASP.NET Core Identity's endpoints under the demo server's URL.
    package static let identity = described(["preset": "identity"])

    /// The `original` preset's description (the demo server's API), under `server`.
    package static func original(_ server: ServerURL = server) -> ServerDescription {
        described(["preset": "original"], under: server)
    }

    /// The description `json` gives, in the description language, under `server`: a test spells it out, so it is
    /// known to be whole.
    package static func described(_ json: JSONValue, under server: ServerURL = server) -> ServerDescription {
        do {
            return try ServerDescription(json: json, under: server)
        } catch {
            preconditionFailure("\(json.compactJSON): \(error.reason)")
        }
    }

    /// 2023-11-14T22:13:20Z.
    package static let savedAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// A session on the demo server's API (the `original` preset) unless `description` says otherwise; `nil` for
    /// a server that nothing describes.
    package static func record(
        _ account: Account, appID: String = "swaggerctl-demo", username: String? = nil,
        savedAt: Date = Fixtures.savedAt, expiresAt: Date? = nil, backend: BackendKind = .file,
        description: ServerDescription?? = .none
    ) -> SessionRecord {
        SessionRecord(
            account: account, appID: appID, username: username, backend: backend, savedAt: savedAt,
            expiresAt: expiresAt, serverDescription: description ?? original(account.server))
    }

    /// The description a test's record was made with.
    package static func description(of record: SessionRecord) -> ServerDescription {
        guard let description = record.serverDescription else { preconditionFailure("an undescribed record") }
        return description
    }

    package static func profile(_ json: String) throws -> Profile {
        try Profile(json: Data(json.utf8))
    }

    /// A server URL that a test spells out, so it is known to parse.
    package static func serverURL(_ text: String) -> ServerURL {
        do {
            return try ServerURL(text)
        } catch {
            preconditionFailure("\(text): \(error)")
        }
    }

    /// An unsigned JWT whose only claim is `exp`.
    package static func jwt(exp: Int) -> String {
        jwt(claims: #"{"exp":\#(exp)}"#)
    }

    /// An unsigned JWT whose payload is `claims`, as given: swaggerctl reads a JWT's claims but never verifies
    /// its signature.
    package static func jwt(claims: String) -> String {
        func base64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return base64url(#"{"alg":"none"}"#) + "." + base64url(claims) + ".sig"
    }
}

extension Account {
    /// The account `name` on the server at `url`, which a test spells out.
    package init(server url: String, name: String) {
        self.init(server: Fixtures.serverURL(url), name: name)
    }
}
