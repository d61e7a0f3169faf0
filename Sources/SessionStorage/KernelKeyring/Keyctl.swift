internal import CKeyctl
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel keyring's system calls, each checked, as typed Swift: serials in, serials and bytes out.
enum Keyctl {
    /// The keyring that holds swaggerctl's keys.
    enum Keyring: Sendable, Hashable {
        /// The user's persistent keyring, with its serial: it outlives the login session, and expires after
        /// `kernel.keys.persistent_keyring_expiry` seconds (three days) in which nothing asked for it.
        case persistent(Int32)
        /// The user keyring, where the kernel refuses the persistent one: it lasts while any process of the user
        /// runs.
        case user

        var serial: Int32 {
            switch self {
            case .persistent(let serial): serial
            case .user: KEY_SPEC_USER_KEYRING
            }
        }

        var name: String {
            switch self {
            case .persistent: "persistent keyring"
            case .user: "user keyring"
            }
        }
    }

    /// The largest payload of a `user` key: the kernel refuses larger ones.
    static let maximumPayload = 32_767

    /// The most that is read of a key, whatever length it claims.
    static let readLimit = 1 << 20

    /// The user's persistent keyring, linked into this process's keyring so that the process possesses it and
    /// the keys in it; else, when the kernel refuses it (no `CONFIG_PERSISTENT_KEYRINGS`, or a filter that allows
    /// some calls), the user keyring. Asking for it starts its expiry timer again, so a session in use never
    /// expires.
    static func keyring() -> Keyring {
        let serial = swaggerctl_keyctl_get_persistent(KEY_SPEC_PROCESS_KEYRING)
        return serial < 0 ? .user : .persistent(Int32(truncatingIfNeeded: serial))
    }

    /// Adds a `user` key with `description` and `payload` to `keyring`, or replaces the payload of the one there
    /// in one step, and returns its serial.
    static func add(_ description: String, _ payload: [UInt8], to keyring: Keyring) throws(KernelKeyringError)
        -> Int32
    {
        let serial = payload.withUnsafeBytes { bytes in
            swaggerctl_add_key("user", description, bytes.baseAddress, bytes.count, keyring.serial)
        }
        guard serial >= 0 else { throw KernelKeyringError(call: "add_key", code: errno) }
        return Int32(truncatingIfNeeded: serial)
    }

    /// The serial of the `user` key with `description` in `keyring`; `nil` when there is none, or it has expired
    /// or been revoked.
    static func search(_ description: String, in keyring: Keyring) throws(KernelKeyringError) -> Int32? {
        let serial = swaggerctl_keyctl_search(keyring.serial, "user", description)
        guard serial >= 0 else {
            let code = errno
            if isGone(code) { return nil }
            throw KernelKeyringError(call: "keyctl", code: code)
        }
        return Int32(truncatingIfNeeded: serial)
    }

    /// The payload of `key`; `nil` when the key went away since it was found. The kernel says the payload's
    /// length whatever the buffer's, so a payload that grew between two reads is read again, and one that claims
    /// more than ``readLimit`` is not read.
    static func read(_ key: Int32) throws(KernelKeyringError) -> [UInt8]? {
        var capacity = 4096
        while true {
            var buffer = [UInt8](repeating: 0, count: capacity)
            let length = buffer.withUnsafeMutableBytes { swaggerctl_keyctl_read(key, $0.baseAddress, $0.count) }
            guard length >= 0 else {
                let code = errno
                if isGone(code) { return nil }
                throw KernelKeyringError(call: "keyctl", code: code)
            }
            guard length > capacity else { return Array(buffer.prefix(length)) }
            guard length <= readLimit else { throw .tooLarge(bytes: length) }
            capacity = length
        }
    }

    /// Gives `key` `permissions`, a mask of `KEY_POS_*` and `KEY_USR_*` bits.
    static func setPermissions(_ permissions: UInt32, of key: Int32) throws(KernelKeyringError) {
        guard swaggerctl_keyctl_setperm(key, permissions) == 0 else {
            throw KernelKeyringError(call: "keyctl", code: errno)
        }
    }

    /// Removes `key` from every keyring at once; `false` when it was already gone.
    static func invalidate(_ key: Int32) throws(KernelKeyringError) -> Bool {
        guard swaggerctl_keyctl_invalidate(key) == 0 else {
            let code = errno
            if isGone(code) { return false }
            throw KernelKeyringError(call: "keyctl", code: code)
        }
        return true
    }

    /// Whether `code` says the key is not there: never was, expired, or revoked.
    private static func isGone(_ code: Int32) -> Bool {
        code == ENOKEY || code == EKEYEXPIRED || code == EKEYREVOKED
    }
}
