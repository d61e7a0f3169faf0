#if canImport(Glibc)
    import Glibc
#endif

/// Why the kernel keyring could not be used. It never carries a secret.
package enum KernelKeyringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kernel refused a call outright (`EPERM`, `EACCES`, `ENOSYS`, `EOPNOTSUPP`): a container's seccomp
    /// profile (Docker's default forbids `add_key` and `keyctl`), or a kernel built without keys.
    case refused(call: String, code: Int32)
    /// The user's key quota (`kernel.keys.maxkeys`, `kernel.keys.maxbytes`) is used up.
    case quotaExceeded
    /// The credentials, as JSON, are larger than a `user` key can hold.
    case tooLarge(bytes: Int)
    /// A key with the session's description holds something that is not credentials.
    case notCredentials(key: String)
    /// Any other failure of `call`, with its `errno`.
    case failed(call: String, code: Int32)

    /// The error for `call` that failed with `code`.
    init(call: String, code: Int32) {
        switch code {
        case EPERM, EACCES, ENOSYS, EOPNOTSUPP: self = .refused(call: call, code: code)
        case EDQUOT: self = .quotaExceeded
        default: self = .failed(call: call, code: code)
        }
    }

    /// The reason in a few words, to follow a colon: "the kernel refused add_key (EPERM)". A refusal names its
    /// `errno` as the manuals and seccomp profiles do, which is shorter than its text and what a search finds.
    package var reason: String {
        switch self {
        case .refused(let call, let code):
            "the kernel refused \(call) (\(Self.name(of: code)))"
        case .quotaExceeded:
            "this user's kernel key quota is full"
        case .tooLarge(let bytes):
            "the tokens take \(bytes) bytes, more than a kernel key holds"
        case .notCredentials(let key):
            "the key \"\(key.count > 40 ? key.prefix(40) + "…" : key)\" holds something else"
        case .failed(let call, let code):
            "\(call) failed (\(DescriptorIO.Failure(code: code)))"
        }
    }

    package var description: String { reason }

    /// The symbol of one of the refusals' `errno` values.
    private static func name(of code: Int32) -> String {
        switch code {
        case EPERM: "EPERM"
        case EACCES: "EACCES"
        case ENOSYS: "ENOSYS"
        case EOPNOTSUPP: "EOPNOTSUPP"
        default: "\(DescriptorIO.Failure(code: code))"
        }
    }
}
