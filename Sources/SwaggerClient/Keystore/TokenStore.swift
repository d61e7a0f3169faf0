/// Where session tokens go and where they are looked for: the one place that applies `--keyring`.
///
/// - ``KeystoreChoice/auto`` stores in the Secret Service when it answers in time. When it does not, the
///   token goes to the private file, and a warning says which file and why.
/// - ``KeystoreChoice/secretService`` never falls back: when the keyring cannot be used, the command fails
///   with the reason.
/// - ``KeystoreChoice/file`` uses the file and never touches D-Bus.
///
/// Reading tries the backend that the session's record names first, then the other, so a session saved to
/// the file while the keyring was down is still found. Removing clears every backend the choice allows, and
/// never reports success for a token that is still in a locked keyring.
public struct TokenStore: Sendable {
    /// The backend choice in force.
    public let choice: KeystoreChoice
    /// The private file.
    public let file: FileKeystore
    /// The Secret Service, or `nil` with ``KeystoreChoice/file``.
    public let secretService: SecretServiceKeystore?
    private let warn: @Sendable (String) -> Void

    /// Creates the token store that `configuration` asks for.
    /// - Parameters:
    ///   - configuration: The settings in force: the choice, the keyring timeout and the session bus.
    ///   - warn: Receives one line for each fallback or skipped check, without the "warning:" prefix.
    public init(configuration: Configuration, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        choice = configuration.keystore
        file = FileKeystore(directory: configuration.directory)
        secretService =
            choice == .file
            ? nil
            : SecretServiceKeystore(timeout: configuration.keyringTimeout, busAddress: configuration.sessionBusAddress)
        self.warn = warn
    }

    /// Stores `credentials` for `account` in the chosen backend.
    /// - Parameters:
    ///   - credentials: The tokens to keep.
    ///   - account: The server and e-mail they belong to.
    /// - Returns: The backend that now holds them, for the session's record.
    /// - Throws: ``SwaggerError`` when no allowed backend could store them.
    public func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) -> KeystoreKind {
        guard let secretService else {
            try await file.store(credentials, for: account)
            return .file
        }
        do {
            try await secretService.store(credentials, for: account)
        } catch {
            guard choice == .auto else {
                throw unusable(error, "Could not store the token for \(account.email) in the Secret Service")
            }
            warn("\(error.reason); the token is stored in \(file.location) instead.")
            try await file.store(credentials, for: account)
            return .file
        }
        // The keyring holds the token now, so an older copy in the file must not outlive it.
        do {
            _ = try await file.removeCredentials(for: account)
        } catch {
            warn("could not remove an older copy of the token from \(file.location): \(error.message)")
        }
        return .secretService
    }

    /// The tokens of the session that `record` describes.
    /// - Parameter record: The session's record, which names the backend it was stored in.
    /// - Returns: The credentials, or `nil` when no allowed backend holds any.
    /// - Throws: ``SwaggerError`` when the backend that holds the token cannot be read.
    public func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.credentials(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.credentials(for: record.account)
        }
    }

    /// The access token of the session that `record` describes, without its refresh token: one keyring
    /// round trip instead of two.
    /// - Parameter record: The session's record, which names the backend it was stored in.
    /// - Returns: The access token, or `nil` when no allowed backend holds one.
    /// - Throws: ``SwaggerError`` when the backend that holds the token cannot be read.
    public func accessToken(for record: SessionRecord) async throws(SwaggerError) -> String? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.accessToken(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.accessToken(for: record.account)
        }
    }

    /// Replaces the tokens of `session` in the backend its record names, and nowhere else: rotated tokens
    /// must land where the next reader looks first. Keyring items are replaced, never duplicated.
    /// - Parameter session: The session with its new tokens.
    /// - Throws: ``SwaggerError`` when that backend cannot be written.
    public func replace(_ session: Session) async throws(SwaggerError) {
        let account = session.account
        switch session.record.keystore {
        case .file:
            try await file.store(session.credentials, for: account)
        case .secretService:
            guard let secretService else { throw keyringNotInUse(account, "so the new tokens could not be stored") }
            do {
                try await secretService.store(session.credentials, for: account)
            } catch {
                throw unusable(error, "Could not store the new tokens for \(account.email) in the Secret Service")
            }
        }
    }

    /// Reads from the backend that `record` names first, then the other, so a session saved to the file while
    /// the keyring was down is still found.
    private func read<Value>(
        _ record: SessionRecord,
        file readFile: (FileKeystore) async throws(SwaggerError) -> Value?,
        keyring readKeyring: (SecretServiceKeystore) async throws(SecretServiceError) -> Value?
    ) async throws(SwaggerError) -> Value? {
        let account = record.account
        var keyringFailure: SecretServiceError?
        for kind in [record.keystore] + KeystoreKind.allCases.filter({ $0 != record.keystore }) {
            switch kind {
            case .file:
                if let value = try await readFile(file) { return value }
            case .secretService:
                guard let secretService else { continue }
                do {
                    if let value = try await readKeyring(secretService) { return value }
                } catch {
                    keyringFailure = error
                }
            }
        }
        guard record.keystore == .secretService else { return nil }
        if let keyringFailure {
            throw unusable(
                keyringFailure,
                "Could not read the token for \(account.email) on \(account.server) from the Secret Service",
                retry: "try again")
        }
        guard secretService != nil else { throw keyringNotInUse(account, "") }
        return nil
    }

    private func keyringNotInUse(_ account: Account, _ consequence: String) -> SwaggerError {
        let detail = consequence.isEmpty ? "" : ", \(consequence)"
        return SwaggerError(
            .failure,
            "The token for \(account.email) on \(account.server) is in the Secret Service, which --keyring file "
                + "does not use\(detail). Use --keyring auto or secret-service.")
    }

    /// Removes `account`'s tokens from every backend the choice allows: the keyring first, then the file.
    /// - Parameters:
    ///   - account: The server and e-mail whose tokens to remove.
    ///   - recorded: The backend the session's record names, if there is a record.
    /// - Returns: Whether any backend held a token.
    /// - Throws: ``SwaggerError`` when a token could not be removed, for example from a locked keyring. Nothing
    ///   has been removed from the file then, so the session is still whole and the person can try again.
    public func remove(_ account: Account, recordedIn recorded: KeystoreKind?) async throws(SwaggerError) -> Bool {
        var removed = false
        guard let secretService else {
            // Forgetting the session would leave its token in the keyring with nothing to show it is there.
            if recorded == .secretService { throw keyringNotInUse(account, "so nothing was logged out") }
            return try await file.removeCredentials(for: account)
        }
        do {
            removed = try await secretService.removeCredentials(for: account)
        } catch {
            if choice == .secretService || recorded == .secretService {
                throw unusable(
                    error,
                    "Could not remove the token for \(account.email) on \(account.server) from the Secret Service, "
                        + "so nothing was logged out",
                    retry: "run `swaggerctl logout` again")
            }
            // With no bus or no service there is no keyring to ask; one that did not cooperate is worth a word.
            switch error {
            case .noSessionBus, .busUnreachable, .noService: break
            default:
                warn("\(error.reason); an older copy of the token for \(account.email) may remain in the keyring.")
            }
        }
        return try await file.removeCredentials(for: account) || removed
    }

    /// Where `kind` keeps `account`'s token, for `swaggerctl status`.
    /// - Parameters:
    ///   - kind: The backend.
    ///   - account: The server and e-mail.
    /// - Returns: The file's path, or the keyring item's attributes.
    public func location(of kind: KeystoreKind, for account: Account) -> String {
        switch kind {
        case .file: file.location
        case .secretService:
            SecretServiceKeystore.attributes(for: account).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " ")
        }
    }

    /// The error for a keyring that cannot be used: what failed, why, and what to do. `retry` is what to run
    /// again once the keyring works; when it is given, the token is already in the keyring, so switching to
    /// the file is no advice.
    private func unusable(_ error: SecretServiceError, _ what: String, retry: String? = nil) -> SwaggerError {
        let again = retry ?? "try again"
        let orFile = retry == nil ? ", or use --keyring file" : ", then \(again)"
        let advice =
            switch error {
            case .noSessionBus, .busUnreachable: "Run it in the desktop session that holds the keyring\(orFile)"
            case .noService: "Start a Secret Service such as gnome-keyring-daemon\(orFile)"
            case .noLibrary: "Install libsecret (apt install libsecret-1-0)\(orFile)"
            case .locked: "Unlock the keyring (for example in Seahorse), then \(again)"
            case .timedOut: "Check the keyring, or allow longer with SWAGGERCTL_KEYRING_TIMEOUT"
            case .cancelled, .failed: "Check the keyring\(orFile)"
            }
        return SwaggerError(.failure, "\(what): \(error.reason). \(advice).")
    }
}
