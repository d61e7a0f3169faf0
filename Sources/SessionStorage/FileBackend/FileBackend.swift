import FoundationEssentials
import SwaggerModel

/// The file: keeps tokens in `credentials.json`, a 0600 file in the 0700 configuration folder.
///
/// This is the backend for machines without a desktop keyring, and the one `SWAGGERCTL_KEYRING=file`
/// selects. Every change is a locked read-modify-write with an atomic replace, so concurrent logins from
/// separate processes keep each other's sessions.
package struct FileBackend: TokenBackend {
    /// The file's name inside the configuration folder.
    package static let fileName = "credentials.json"

    private let file: AccountList<Entry>

    /// The file in the configuration folder `directory`.
    package init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "credentials file", empty: { [] }))
    }

    package var kind: BackendKind { .file }

    /// The path of `credentials.json`.
    package var location: String { file.path }

    /// Stores `credentials` for `account`, replacing any stored before, in one locked atomic update.
    package func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) {
        try file.replace(Entry(account: account, credentials: credentials))
    }

    /// Fails as ``store(_:for:)`` would fail to write the file, and changes nothing.
    package func checkWritable() throws(SwaggerError) {
        try file.checkWritable()
    }

    package func credentials(for account: Account) async throws(SwaggerError) -> Credentials? {
        try file.elements().first { $0.account == account }?.credentials
    }

    package func accessToken(for account: Account) async throws(SwaggerError) -> String? {
        try await credentials(for: account)?.accessToken
    }

    package func removeCredentials(for account: Account) async throws(SwaggerError) -> Bool {
        try file.remove(account)
    }

    struct Entry: AccountKeyed {
        var server: ServerURL
        var email: String
        var accessToken: String?
        var refreshToken: String?
        var clientSecret: String?
        var clientKey: ClientKey?
        var proofKey: String?

        init(account: Account, credentials: Credentials) {
            server = account.server
            email = account.name
            accessToken = credentials.accessToken
            refreshToken = credentials.refreshToken
            clientSecret = credentials.clientSecret
            clientKey = credentials.clientKey
            proofKey = credentials.proofKey
        }

        var account: Account { Account(server: server, name: email) }
        var credentials: Credentials {
            Credentials(
                accessToken: accessToken, refreshToken: refreshToken, clientSecret: clientSecret, clientKey: clientKey,
                proofKey: proofKey)
        }
    }
}
