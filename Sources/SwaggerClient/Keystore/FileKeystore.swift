import FoundationEssentials

/// Keeps tokens in `credentials.json`, a 0600 file in the 0700 configuration folder.
///
/// This is the backend for machines without a desktop keyring, and the one `SWAGGERCTL_KEYRING=file`
/// selects. Every change is a locked read-modify-write with an atomic replace, so concurrent logins from
/// separate processes keep each other's sessions.
public struct FileKeystore: Keystore {
    /// The file's name inside the configuration folder.
    public static let fileName = "credentials.json"

    private let file: AccountList<Entry>

    /// Creates a keystore in `directory`.
    /// - Parameter directory: The configuration folder.
    public init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "token store", empty: { [] }))
    }

    /// ``KeystoreKind/file``.
    public var kind: KeystoreKind { .file }

    /// The path of `credentials.json`.
    public var location: String { file.path }

    /// Stores `credentials` for `account`, replacing any stored before, in one locked atomic update.
    /// - Parameters:
    ///   - credentials: The tokens to keep.
    ///   - account: The server and e-mail they belong to.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is corrupt.
    public func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) {
        try file.replace(Entry(account: account, credentials: credentials))
    }

    /// The credentials stored for `account`.
    /// - Parameter account: The server and e-mail to look up.
    /// - Returns: The credentials, or `nil` when none are stored.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is corrupt.
    public func credentials(for account: Account) async throws(SwaggerError) -> Credentials? {
        try file.elements().first { $0.account == account }?.credentials
    }

    /// The access token stored for `account`.
    /// - Parameter account: The server and e-mail to look up.
    /// - Returns: The access token, or `nil` when none is stored.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is corrupt.
    public func accessToken(for account: Account) async throws(SwaggerError) -> String? {
        try await credentials(for: account)?.accessToken
    }

    /// Removes the credentials stored for `account`.
    /// - Parameter account: The server and e-mail whose credentials to remove.
    /// - Returns: `true` when something was removed.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is corrupt.
    public func removeCredentials(for account: Account) async throws(SwaggerError) -> Bool {
        try file.remove(account)
    }

    struct Entry: AccountKeyed {
        var server: String
        var email: String
        var accessToken: String
        var refreshToken: String?
        var clientSecret: String?

        init(account: Account, credentials: Credentials) {
            server = account.server
            email = account.email
            accessToken = credentials.accessToken
            refreshToken = credentials.refreshToken
            clientSecret = credentials.clientSecret
        }

        var account: Account { Account(server: server, email: email) }
        var credentials: Credentials {
            Credentials(accessToken: accessToken, refreshToken: refreshToken, clientSecret: clientSecret)
        }
    }
}
