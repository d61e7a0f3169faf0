import FoundationEssentials

/// A profile as it last arrived from the server, kept for when the server cannot be reached.
public struct SavedProfile: Sendable, Hashable, Codable {
    /// The API's base URL.
    public var server: String
    /// The account's e-mail.
    public var email: String
    /// When the profile arrived.
    public var receivedAt: Date
    /// The profile's members, exactly as received.
    public var fields: [String: JSONValue]

    /// The profile.
    public var profile: Profile { Profile(fields: fields) }

    /// Creates a saved profile.
    /// - Parameters:
    ///   - account: Whose profile it is.
    ///   - profile: The profile as received.
    ///   - receivedAt: When it arrived.
    public init(account: Account, profile: Profile, receivedAt: Date) {
        server = account.server
        email = account.email
        self.receivedAt = receivedAt
        fields = profile.fields
    }
}

extension SavedProfile: AccountKeyed {
    var account: Account { Account(server: server, email: email) }
}

/// The saved profiles, `profiles.json` in the cache folder: 0600 in a 0700 folder, replaced atomically and
/// under a lock, like the configuration files.
///
/// A profile is personal data, so it lives exactly as long as its session: `logout` and an ended session
/// delete it.
public struct ProfileCache: Sendable {
    /// The file's name inside the cache folder.
    public static let fileName = "profiles.json"

    private let file: AccountList<SavedProfile>

    /// Creates a cache in `directory`.
    /// - Parameter directory: The cache folder.
    public init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "profile cache",
                loss: "only saved profiles are lost",
                // A saved profile can always be fetched again; it needs to be whole, not durable.
                durable: false, empty: { [] }))
    }

    /// The file's path.
    public var path: String { file.path }

    /// Saves `profile` for `account`, replacing the one saved before.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is not a profile cache.
    public func save(_ profile: Profile, for account: Account, receivedAt: Date) throws(SwaggerError) {
        try file.replace(SavedProfile(account: account, profile: profile, receivedAt: receivedAt))
    }

    /// The profile saved for `account`, or `nil`.
    /// - Throws: ``SwaggerError`` when the file cannot be read or is not a profile cache.
    public func profile(for account: Account) throws(SwaggerError) -> SavedProfile? {
        try file.elements().first { $0.account == account }
    }

    /// Deletes the profile saved for `account`.
    /// - Returns: Whether there was one.
    /// - Throws: ``SwaggerError`` when the file cannot be written or is not a profile cache.
    @discardableResult
    public func remove(_ account: Account) throws(SwaggerError) -> Bool {
        try file.remove(account)
    }
}
