/// A backend's failure, as the token store words it: why, and what to do about it.
protocol BackendFailure: Error {
    /// The reason in a few words, to follow a colon.
    var reason: String { get }

    /// What to do, as a sentence without its full stop. `retry` is what to run again once the backend works; when
    /// it is given, the token is already in the backend, so switching to the file is no advice.
    func advice(retry: String?) -> String
}

extension SecretServiceError: BackendFailure {
    func advice(retry: String?) -> String {
        let again = retry ?? "try again"
        let orFile = retry == nil ? ", or use --keyring file" : ", then \(again)"
        return switch self {
        case .noSessionBus, .busUnreachable: "Run it in your desktop session\(orFile)"
        case .noService: "Start gnome-keyring-daemon\(orFile)"
        case .noLibrary: "Install libsecret-1-0\(orFile)"
        case .locked: "Unlock the keyring (for example in Seahorse), then \(again)"
        case .timedOut: "Check the keyring, or allow longer with SWAGGERCTL_KEYRING_TIMEOUT"
        case .cancelled, .failed: "Check the keyring\(orFile)"
        }
    }
}

extension KernelKeyringError: BackendFailure {
    /// A refusal is said as briefly as it can be: what to allow is the container's business, and the line must
    /// still fit two lines with the account and the kernel's own words in it.
    func advice(retry: String?) -> String {
        let orFile = retry.map { ", then \($0)" } ?? ", or use --keyring file"
        return switch self {
        case .refused: retry.map { "Allow keyctl, then \($0)" } ?? "Use --keyring file"
        case .quotaExceeded: "Log out of sessions you no longer use\(orFile)"
        case .tooLarge: "Use --keyring file"
        case .notCredentials: "Remove that key with keyctl\(orFile)"
        case .failed: "Check the kernel keyring\(orFile)"
        }
    }
}
