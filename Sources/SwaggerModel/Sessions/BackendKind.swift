/// The backends that can hold a session's tokens: the keyring or the file. The token store chooses between them.
package enum BackendKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// `credentials.json`, a private file in the configuration folder.
    case file
    /// The desktop keyring, through the Secret Service.
    case keyring = "secret-service"
}
