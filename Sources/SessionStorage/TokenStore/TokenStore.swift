import FoundationEssentials
import SwaggerModel

/// The token store: where session tokens go and where they are looked for, the one place that applies
/// `--keyring` and chooses between the keyring and the file.
///
/// - ``BackendChoice/auto`` stores in the keyring when it answers in time. When it does not, the token goes to
///   the file, and a warning says which file and why.
/// - ``BackendChoice/keyring`` never falls back: when the keyring cannot be used, the command fails with the
///   reason.
/// - ``BackendChoice/file`` uses the file and never touches D-Bus.
///
/// Reading tries the backend that the session's record names first, then the other, so a session saved to
/// the file while the keyring was down is still found. Removing clears every backend the choice allows, and
/// never reports success for a token that is still in a locked keyring.
package struct TokenStore: TokenStoring {
    package let choice: BackendChoice
    package let file: FileBackend
    /// The keyring, or `nil` with ``BackendChoice/file``.
    package let keyring: KeyringBackend?
    private let warn: @Sendable (String) -> Void

    /// The token store for `choice`, with its file in the configuration folder `directory`.
    /// - Parameters:
    ///   - busAddress: The session bus, from ``SessionBus/address(in:)``.
    ///   - warn: Receives one line for each fallback or skipped check, without the "warning:" prefix.
    ///   - sleep: How the keyring's calls wait for their deadline.
    package init(
        choice: BackendChoice, directory: URL, keyringTimeout: Duration, busAddress: String?,
        warn: @escaping @Sendable (String) -> Void = { _ in },
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.choice = choice
        file = FileBackend(directory: directory)
        keyring =
            choice == .file
            ? nil : KeyringBackend(timeout: keyringTimeout, busAddress: busAddress, sleep: sleep)
        self.warn = warn
    }

    /// Stores `credentials` for `account` in the chosen backend: the keyring, else under `auto` the file.
    package func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) -> BackendKind {
        guard let keyring else {
            try await file.store(credentials, for: account)
            return .file
        }
        do {
            try await keyring.store(credentials, for: account)
        } catch {
            guard choice == .auto else {
                throw unusable(error, "Could not store the token for \(account.name) in the Secret Service")
            }
            warn("\(error.reason); the token is in \(file.location). SWAGGERCTL_KEYRING=file silences this.")
            try await file.store(credentials, for: account)
            return .file
        }
        // The keyring holds the token now, so an older copy in the file must not outlive it.
        do {
            _ = try await file.removeCredentials(for: account)
        } catch {
            warn("could not remove an older copy of the token from \(file.location): \(error.message)")
        }
        return .keyring
    }

    /// Reads the backend the record names first, then the other.
    package func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.credentials(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.credentials(for: record.account)
        }
    }

    /// One keyring round trip instead of two: the refresh token is not read.
    package func accessToken(for record: SessionRecord) async throws(SwaggerError) -> String? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.accessToken(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.accessToken(for: record.account)
        }
    }

    /// Replaces the tokens of `session` in the backend its record names, and nowhere else: rotated tokens
    /// must land where the next reader looks first. Keyring items are replaced, never duplicated.
    package func replace(_ session: Session) async throws(SwaggerError) {
        let account = session.account
        switch session.record.backend {
        case .file:
            try await file.store(session.credentials, for: account)
        case .keyring:
            guard let keyring else { throw keyringNotInUse(account, "so the new tokens could not be stored") }
            do {
                try await keyring.store(session.credentials, for: account)
            } catch {
                throw unusable(error, "Could not store the new tokens for \(account.name) in the Secret Service")
            }
        }
    }

    /// The file is tried with a temporary file that is removed at once. The keyring has no such trial: its item
    /// is written again as it is, which a crash cannot harm, since the Secret Service replaces it whole.
    package func checkReplaceable(_ session: Session) async throws(SwaggerError) {
        switch session.record.backend {
        case .file: try file.checkWritable()
        case .keyring: try await replace(session)
        }
    }

    /// Reads from the backend that `record` names first, then the other, so a session saved to the file while
    /// the keyring was down is still found.
    private func read<Value>(
        _ record: SessionRecord,
        file readFile: (FileBackend) async throws(SwaggerError) -> Value?,
        keyring readKeyring: (KeyringBackend) async throws(SecretServiceError) -> Value?
    ) async throws(SwaggerError) -> Value? {
        let account = record.account
        var keyringFailure: SecretServiceError?
        for kind in [record.backend] + BackendKind.allCases.filter({ $0 != record.backend }) {
            switch kind {
            case .file:
                if let value = try await readFile(file) { return value }
            case .keyring:
                guard let keyring else { continue }
                do {
                    if let value = try await readKeyring(keyring) { return value }
                } catch {
                    keyringFailure = error
                }
            }
        }
        guard record.backend == .keyring else { return nil }
        if let keyringFailure {
            throw unusable(
                keyringFailure,
                "Could not read the token for \(account.name) on \(account.server) from the Secret Service",
                retry: "try again")
        }
        guard keyring != nil else { throw keyringNotInUse(account, "") }
        return nil
    }

    private func keyringNotInUse(_ account: Account, _ consequence: String) -> SwaggerError {
        let detail = consequence.isEmpty ? "" : ", \(consequence)"
        return SwaggerError(
            .failure,
            "The token of \(account.name) is in the Secret Service, not used with --keyring file\(detail). Use "
                + "--keyring auto.")
    }

    /// Removes `account`'s tokens from every backend the choice allows: the keyring first, then the file.
    /// - Parameter recorded: The backend the session's record names, if there is a record.
    /// - Returns: Whether any backend held a token.
    /// - Throws: ``SwaggerError`` when a token could not be removed, for example from a locked keyring. Nothing
    ///   has been removed from the file then, so the session is still whole and the person can try again.
    package func remove(_ account: Account, recordedIn recorded: BackendKind?) async throws(SwaggerError) -> Bool {
        var removed = false
        guard let keyring else {
            // Forgetting the session would leave its token in the keyring with nothing to show it is there.
            if recorded == .keyring { throw keyringNotInUse(account, "so nothing was logged out") }
            return try await file.removeCredentials(for: account)
        }
        do {
            removed = try await keyring.removeCredentials(for: account)
        } catch {
            if choice == .keyring || recorded == .keyring {
                throw unusable(
                    error,
                    "Could not remove the token for \(account.name) on \(account.server) from the Secret Service, "
                        + "so nothing was logged out",
                    retry: "run `swaggerctl logout` again")
            }
            // With no bus or no service there is no keyring to ask; one that did not cooperate is worth a word.
            switch error {
            case .noSessionBus, .busUnreachable, .noService: break
            default:
                warn("\(error.reason); an older copy of the token may remain in the keyring.")
            }
        }
        return try await file.removeCredentials(for: account) || removed
    }

    /// `--keyring secret-service` with a keyring that does not answer fails here, naming why; `auto` has the file
    /// to fall back on, and the file needs only its folder, which the login checks with the session list's.
    package func checkReady(on server: ServerURL) async throws(SwaggerError) {
        guard choice == .keyring, let keyring else { return }
        do {
            // A lookup that matches nothing: one round trip that needs the bus and the service, and reads no secret.
            _ = try await keyring.accessToken(for: Account(server: server, name: ""))
        } catch {
            throw unusable(error, "Nothing was sent to \(server)")
        }
    }

    /// Where `kind` keeps `account`'s token, for `swaggerctl status`: the file's path, or the keyring item's
    /// attributes.
    package func location(of kind: BackendKind, for account: Account) -> String {
        switch kind {
        case .file: file.location
        case .keyring:
            KeyringBackend.lookupAttributes(for: account).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
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
            case .noSessionBus, .busUnreachable: "Run it in your desktop session\(orFile)"
            case .noService: "Start gnome-keyring-daemon\(orFile)"
            case .noLibrary: "Install libsecret-1-0\(orFile)"
            case .locked: "Unlock the keyring (for example in Seahorse), then \(again)"
            case .timedOut: "Check the keyring, or allow longer with SWAGGERCTL_KEYRING_TIMEOUT"
            case .cancelled, .failed: "Check the keyring\(orFile)"
            }
        return SwaggerError(.failure, "\(what): \(error.reason). \(advice).")
    }
}
