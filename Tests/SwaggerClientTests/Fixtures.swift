import Foundation
import SwaggerClient

/// Accounts, records and sessions that tests share. Dates are whole seconds, as the JSON files keep them.
enum Fixtures {
    static let server = "http://127.0.0.1:8080/api"
    static let otherServer = "https://api.example.com/v2"
    static let ana = Account(server: server, email: "ana@example.com")
    static let ivo = Account(server: server, email: "ivo@example.com")

    /// ASP.NET Core Identity's endpoints under the demo server's URL.
    static let identity = ServerDialect(
        kind: .identity, loginURL: server + "/login", refreshURL: server + "/refresh", revocationURL: nil,
        profileURL: server + "/manage/info", fields: .camelCase)

    /// 2023-11-14T22:13:20Z.
    static let savedAt = Date(timeIntervalSince1970: 1_700_000_000)

    static func record(
        _ account: Account, appId: String = "swaggerctl-demo", username: String? = nil,
        savedAt: Date = Fixtures.savedAt, expiresAt: Date? = nil
    ) -> SessionRecord {
        SessionRecord(
            account: account, appId: appId, username: username, keystore: .file, savedAt: savedAt,
            expiresAt: expiresAt)
    }

    static func session(_ account: Account, token: String = "access-token-1") -> Session {
        Session(record: record(account), credentials: Credentials(accessToken: token, refreshToken: "refresh-1"))
    }

    static func profile(_ json: String) throws -> Profile {
        try Profile(json: Data(json.utf8))
    }
}
