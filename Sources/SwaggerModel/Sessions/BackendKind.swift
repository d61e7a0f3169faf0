/// The backends that can hold a session's tokens: the keyring, the file or the kernel keyring. The token store
/// chooses between them.
package enum BackendKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// `credentials.json`, a private file in the configuration folder.
    case file
    /// The desktop keyring, through the Secret Service.
    case keyring = "secret-service"
    /// The Linux kernel's keyring: the user's persistent keyring, which forgets its keys at a reboot.
    case kernel

    /// Where a token kept so is, in a sentence: "the token may remain in the keyring".
    package var place: String {
        switch self {
        case .file: "credentials file"
        case .keyring: "keyring"
        case .kernel: "kernel keyring"
        }
    }
}
