import FoundationEssentials
import SwaggerModel

/// The token store: where session tokens go and where they are looked for, the one place that applies
/// `--keyring` and chooses between the keyring, the file and the kernel keyring.
///
/// - ``BackendChoice/auto`` stores in the keyring when it answers in time. When it does not, the token goes to
///   the file, and a warning says which file and why.
/// - ``BackendChoice/keyring`` never falls back: when the keyring cannot be used, the command fails with the
///   reason.
/// - ``BackendChoice/file`` uses the file and never touches D-Bus.
/// - ``BackendChoice/kernel`` uses the kernel keyring and never touches D-Bus; when the kernel refuses, the
///   command fails with the reason, and nothing is stored elsewhere.
///
/// Reading tries the backend that the session's record names first, then the others, so a session saved to
/// the file while the keyring was down is still found. The kernel keyring is asked only when it is chosen or the
/// record names it. Removing clears every backend the choice allows, and never reports success for a token that
/// is still in a locked keyring.
package struct TokenStore: TokenStoring {
    package let choice: BackendChoice
    package let file: FileBackend
    /// The keyring, or `nil` with ``BackendChoice/file`` and ``BackendChoice/kernel``.
    package let keyring: KeyringBackend?
    /// The kernel keyring, asked when it is chosen, and for a session whose record names it whatever the choice:
    /// a login made with `--keyring kernel` is used by later commands without it.
    package let kernel: KernelKeyringBackend
    private let warn: @Sendable (String) -> Void

    /// The token store for `choice`, with its file in the configuration folder `directory`.
    /// - Parameters:
    ///   - busAddress: The session bus, from ``SessionBus/address(in:)``.
    ///   - warn: Receives one line for each fallback or skipped check, without the "warning:" prefix.
    ///   - sleep: How the keyring's calls wait for their deadline.
    ///   - kernel: The kernel keyring; tests give theirs a description prefix of its own.
    package init(
        choice: BackendChoice, directory: URL, keyringTimeout: Duration, busAddress: String?,
        warn: @escaping @Sendable (String) -> Void = { _ in },
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        kernel: KernelKeyringBackend = KernelKeyringBackend()
    ) {
        self.choice = choice
        file = FileBackend(directory: directory)
        keyring =
            choice == .file || choice == .kernel
            ? nil : KeyringBackend(timeout: keyringTimeout, busAddress: busAddress, sleep: sleep)
        self.kernel = kernel
        self.warn = warn
    }

    /// Stores `credentials` for `account` in the chosen backend: the kernel keyring when it is chosen, else the
    /// keyring, else under `auto` the file.
    package func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) -> BackendKind {
        if choice == .kernel {
            do {
                try kernel.store(credentials, for: account)
            } catch {
                throw unusable(error, "Could not store the token for \(account.name) in \(kernel.location)")
            }
            await removeOlderCopy(of: account)
            return .kernel
        }
        guard let keyring else {
            try await file.store(credentials, for: account)
            return .file
        }
        do {
            try await keyring.store(credentials, for: account)
        } catch {
            guard choice == .auto else {
                throw unusable(error, "Could not store the token for \(account.name) in \(keyring.location)")
            }
            warn("\(error.reason); the token is in \(file.location). SWAGGERCTL_KEYRING=file silences this.")
            try await file.store(credentials, for: account)
            return .file
        }
        await removeOlderCopy(of: account)
        return .keyring
    }

    /// Removes `account`'s token from the file, now that another backend holds it: an older copy must not outlive
    /// it.
    private func removeOlderCopy(of account: Account) async {
        do {
            _ = try await file.removeCredentials(for: account)
        } catch {
            warn("could not remove an older copy of the token from \(file.location): \(error.message)")
        }
    }

    /// Reads the backend the record names first, then the others.
    package func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.credentials(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.credentials(for: record.account)
        } kernel: { (kernel) throws(KernelKeyringError) in
            try kernel.credentials(for: record.account)
        }
    }

    /// One keyring round trip instead of two: the refresh token is not read.
    package func accessToken(for record: SessionRecord) async throws(SwaggerError) -> String? {
        try await read(record) { (file) throws(SwaggerError) in
            try await file.accessToken(for: record.account)
        } keyring: { (keyring) throws(SecretServiceError) in
            try await keyring.accessToken(for: record.account)
        } kernel: { (kernel) throws(KernelKeyringError) in
            try kernel.accessToken(for: record.account)
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
                throw unusable(error, "Could not store the new tokens for \(account.name) in \(keyring.location)")
            }
        case .kernel:
            do {
                try kernel.store(session.credentials, for: account)
            } catch {
                throw unusable(error, "Could not store the new tokens for \(account.name) in \(kernel.location)")
            }
        }
    }

    /// The file is tried with a temporary file that is removed at once. The keyrings have no such trial: their
    /// items are written again as they are, which a crash cannot harm, since the Secret Service replaces an item
    /// whole and the kernel a key's payload in one step.
    package func checkReplaceable(_ session: Session) async throws(SwaggerError) {
        switch session.record.backend {
        case .file: try file.checkWritable()
        case .keyring, .kernel: try await replace(session)
        }
    }

    /// Reads from the backend that `record` names first, then the others, so a session saved to the file while
    /// the keyring was down is still found. The kernel keyring is read only when it is chosen or the record names
    /// it; a failure is an error only in the backend the record names.
    private func read<Value>(
        _ record: SessionRecord,
        file readFile: (FileBackend) async throws(SwaggerError) -> Value?,
        keyring readKeyring: (KeyringBackend) async throws(SecretServiceError) -> Value?,
        kernel readKernel: (KernelKeyringBackend) throws(KernelKeyringError) -> Value?
    ) async throws(SwaggerError) -> Value? {
        let account = record.account
        var keyringFailure: SecretServiceError?
        var kernelFailure: KernelKeyringError?
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
            case .kernel:
                guard choice == .kernel || record.backend == .kernel else { continue }
                do {
                    if let value = try readKernel(kernel) { return value }
                } catch {
                    kernelFailure = error
                }
            }
        }
        switch record.backend {
        case .file:
            return nil
        case .keyring:
            if let keyringFailure {
                throw unusable(
                    keyringFailure,
                    "Could not read the token for \(account.name) on \(account.server) from the Secret Service",
                    retry: "try again")
            }
            guard keyring != nil else { throw keyringNotInUse(account, "") }
            return nil
        case .kernel:
            // The key's description names the server; the line has no room for it twice.
            if let kernelFailure {
                throw unusable(
                    kernelFailure, "Could not read the token for \(account.name) from \(kernel.location)",
                    retry: "try again")
            }
            return nil
        }
    }

    private func keyringNotInUse(_ account: Account, _ consequence: String) -> SwaggerError {
        let detail = consequence.isEmpty ? "" : ", \(consequence)"
        let flag = "--keyring \(choice.rawValue)"
        return SwaggerError(
            .failure,
            "The token of \(account.name) is in the Secret Service, not used with \(flag)\(detail). Use --keyring auto."
        )
    }

    /// Removes `account`'s tokens from every backend the choice allows: the keyring first, then the file.
    /// - Parameter recorded: The backend the session's record names, if there is a record.
    /// - Returns: Whether any backend held a token.
    /// - Throws: ``SwaggerError`` when a token could not be removed, for example from a locked keyring. Nothing
    ///   has been removed from the file then, so the session is still whole and the person can try again.
    package func remove(_ account: Account, recordedIn recorded: BackendKind?) async throws(SwaggerError) -> Bool {
        var removed = false
        if choice == .kernel || recorded == .kernel {
            do {
                removed = try kernel.removeCredentials(for: account)
            } catch {
                // Short, so that the kernel's reason and the advice fit two lines; nothing was removed.
                throw unusable(error, "\(account.name) was not logged out", retry: "run `swaggerctl logout` again")
            }
        }
        guard let keyring else {
            // Forgetting the session would leave its token in the keyring with nothing to show it is there.
            if recorded == .keyring { throw keyringNotInUse(account, "so nothing was logged out") }
            return try await file.removeCredentials(for: account) || removed
        }
        do {
            removed = try await keyring.removeCredentials(for: account) || removed
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

    /// `--keyring secret-service` with a keyring that does not answer, and `--keyring kernel` with a kernel that
    /// refuses its keyring, fail here, naming why; `auto` has the file to fall back on, and the file needs only its
    /// folder, which the login checks with the session list's.
    package func checkReady(on server: ServerURL) async throws(SwaggerError) {
        // A lookup that matches nothing: it needs the backend to answer, and reads no secret.
        let nobody = Account(server: server, name: "")
        switch choice {
        case .keyring:
            guard let keyring else { return }
            do {
                _ = try await keyring.accessToken(for: nobody)
            } catch {
                throw unusable(error, "Nothing was sent to \(server)")
            }
        case .kernel:
            do {
                _ = try kernel.accessToken(for: nobody)
            } catch {
                throw unusable(error, "Nothing was sent to \(server)")
            }
        case .auto, .file:
            return
        }
    }

    /// Where `kind` keeps `account`'s token, for `swaggerctl status`: the file's path, the keyring item's
    /// attributes, or the kernel keyring and the key's description.
    package func location(of kind: BackendKind, for account: Account) -> String {
        switch kind {
        case .file: file.location
        case .keyring:
            KeyringBackend.lookupAttributes(for: account).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " ")
        case .kernel: kernel.place(of: account)
        }
    }

    /// The error for a backend that cannot be used: what failed, why, and what to do. `retry` is what to run
    /// again once the backend works; when it is given, the token is already there, so switching to the file is
    /// no advice.
    private func unusable(_ error: some BackendFailure, _ what: String, retry: String? = nil) -> SwaggerError {
        SwaggerError(.failure, "\(what): \(error.reason). \(error.advice(retry: retry)).")
    }
}
