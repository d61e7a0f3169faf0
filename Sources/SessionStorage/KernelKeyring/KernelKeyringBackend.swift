import FoundationEssentials
import SwaggerModel

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel keyring: keeps each session's credentials in the Linux kernel's keyring, in one `user` key, never on
/// the disk and without D-Bus.
///
/// The key is in the user's persistent keyring, or in the user keyring where the kernel refuses the persistent
/// one; its description is `swaggerctl:<server URL> <account>` (a server URL holds no space, so the first space
/// ends it), and its payload the session's ``Credentials`` as JSON, whole, so that whatever a session keeps is
/// kept. Only its possessor (a process that reached it through its own keyrings) and its user may read it; other
/// users and groups may not even see it.
///
/// The kernel forgets the key by itself: at a reboot, and when the persistent keyring expires, after three days
/// in which no process asked for it. A session whose key is gone is one that must log in again.
package struct KernelKeyringBackend: TokenBackend {
    /// What every key's description starts with.
    static let defaultPrefix = "swaggerctl:"

    /// Everything for the possessor; view and read for the user, so that a process whose keyrings do not link the
    /// user keyring still reads a key there. Nothing for the group or others. (`KEY_POS_ALL | KEY_USR_VIEW |
    /// KEY_USR_READ` in keyutils.h.)
    static let permissions: UInt32 = 0x3f03_0000

    private let prefix: String

    /// - Parameter prefix: What the keys' descriptions start with; tests give each their own.
    package init(prefix: String = defaultPrefix) {
        self.prefix = prefix
    }

    package var kind: BackendKind { .kernel }

    package var location: String { "the kernel keyring" }

    /// The description of `account`'s key: `swaggerctl:<server URL> <account>`.
    func keyDescription(for account: Account) -> String {
        "\(prefix)\(account.server) \(account.name)"
    }

    /// Where `account`'s key is, for `status`: `persistent keyring, key "swaggerctl:… me@example.com"`.
    package func place(of account: Account) -> String {
        "\(Keyctl.keyring().name), key \"\(keyDescription(for: account))\""
    }

    /// Stores `credentials` for `account`: the key is added, or its payload replaced in one step. A key whose
    /// permissions could not be narrowed is removed again.
    package func store(_ credentials: Credentials, for account: Account) throws(KernelKeyringError) {
        let payload: [UInt8]
        do {
            let encoder = JSONEncoder()
            // The same credentials make the same payload, whatever order a dictionary would give their fields.
            encoder.outputFormatting = .sortedKeys
            payload = Array(try encoder.encode(credentials))
        } catch {
            throw .failed(call: "encoding the tokens", code: EINVAL)
        }
        guard payload.count <= Keyctl.maximumPayload else { throw .tooLarge(bytes: payload.count) }
        let key = try Keyctl.add(keyDescription(for: account), payload, to: Keyctl.keyring())
        do {
            try Keyctl.setPermissions(Self.permissions, of: key)
        } catch {
            _ = try? Keyctl.invalidate(key)
            throw error
        }
    }

    package func credentials(for account: Account) throws(KernelKeyringError) -> Credentials? {
        let description = keyDescription(for: account)
        guard let key = try Keyctl.search(description, in: Keyctl.keyring()),
            let payload = try Keyctl.read(key)
        else { return nil }
        do {
            return try JSONDecoder().decode(Credentials.self, from: Data(payload))
        } catch {
            throw .notCredentials(key: description)
        }
    }

    package func accessToken(for account: Account) throws(KernelKeyringError) -> String? {
        try credentials(for: account)?.accessToken
    }

    package func removeCredentials(for account: Account) throws(KernelKeyringError) -> Bool {
        guard let key = try Keyctl.search(keyDescription(for: account), in: Keyctl.keyring()) else { return false }
        return try Keyctl.invalidate(key)
    }
}
