import FoundationEssentials
import SwaggerModel

extension SavedProfile: AccountKeyed {}

/// The saved profiles, `profiles.json` in the cache folder: 0600 in a 0700 folder, replaced atomically and
/// under a lock, like the configuration files.
///
/// A profile is personal data, so it lives exactly as long as its session: `logout` and an ended session
/// delete it.
package struct ProfileCache: Sendable {
    /// The file's name inside the cache folder.
    package static let fileName = "profiles.json"

    private let file: AccountList<SavedProfile>

    package init(directory: URL) {
        file = AccountList(
            file: PrivateJSONFile(
                directory: PrivateDirectory(directory), name: Self.fileName, kind: "profile cache",
                loss: "only saved profiles are lost",
                // A saved profile can always be fetched again: no fsync is worth it.
                durability: .cache, empty: { [] }))
    }

    package var path: String { file.path }

    /// Saves `profile` for `account`, replacing the one saved before.
    package func save(_ profile: Profile, for account: Account, receivedAt: Date) throws(SwaggerError) {
        try file.replace(SavedProfile(account: account, profile: profile, receivedAt: receivedAt))
    }

    /// The profile saved for `account`, or `nil`.
    package func profile(for account: Account) throws(SwaggerError) -> SavedProfile? {
        try file.elements().first { $0.account == account }
    }

    /// Deletes the profile saved for `account`, and says whether there was one.
    @discardableResult
    package func remove(_ account: Account) throws(SwaggerError) -> Bool {
        try file.remove(account)
    }
}
