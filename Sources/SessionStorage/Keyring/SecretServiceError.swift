import SwaggerModel

/// Why the Secret Service could not be used. It never carries a secret.
package enum SecretServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no D-Bus session bus: `DBUS_SESSION_BUS_ADDRESS` is unset and `$XDG_RUNTIME_DIR/bus` does not
    /// exist. libsecret was not called.
    case noSessionBus
    /// The session bus's address is known, but nothing answers there, as with a stale
    /// `DBUS_SESSION_BUS_ADDRESS` carried into an SSH session or a container.
    case busUnreachable(String)
    /// The session bus is there, but nothing on it provides `org.freedesktop.secrets`.
    case noService
    /// libsecret is not installed, or cannot be loaded; dlopen's message says why.
    case noLibrary(String)
    /// The keyring holding the item is locked, and it could not be unlocked: no prompt could be shown, or it
    /// was dismissed.
    case locked
    /// The Secret Service did not answer within the timeout.
    case timedOut(Duration)
    /// The call was cancelled before it finished.
    case cancelled
    /// Anything else, with libsecret's message.
    case failed(String)

    /// The reason in a few words, to follow "because" or a colon: "the keyring is locked".
    package var reason: String {
        switch self {
        case .noSessionBus:
            "there is no D-Bus session bus"
        case .busUnreachable(let detail):
            "the D-Bus session bus cannot be reached (\(detail.count > 40 ? detail.prefix(40) + "…" : detail))"
        case .noService:
            "nothing on the session bus provides the Secret Service"
        case .noLibrary(let detail):
            "libsecret cannot be loaded (\(detail.count > 40 ? detail.prefix(40) + "…" : detail))"
        case .locked:
            "the keyring is locked and could not be unlocked"
        case .timedOut(let timeout):
            "the Secret Service did not answer within \(timeout.secondsText)"
        case .cancelled:
            "the keyring call was cancelled"
        case .failed(let detail):
            "the Secret Service failed: \(detail.count > 60 ? detail.prefix(60) + "…" : detail)"
        }
    }

    package var description: String { reason }
}
