import SwaggerModel
import Synchronization

/// The keyring: keeps tokens in the desktop keyring through the Secret Service (GNOME Keyring, KeePassXC), with
/// libsecret.
///
/// The access token is one item, with the attributes that python keyring, go-keyring and `gh` use, so that
/// other Secret Service clients find it; swaggerctl itself matches its own schema's items only, and never reads
/// or changes another program's item with the same attributes:
///
/// | attribute | value |
/// | --- | --- |
/// | `service` | `swaggerctl:<server URL>` |
/// | `username` | the account's e-mail |
///
/// and the label `swaggerctl token for <email> on <server>`. Its secret is the access token alone, so
/// `secret-tool lookup service swaggerctl:<url> username <email>` prints a usable bearer token.
///
/// A refresh token is a second item, with `refresh-token-for` in place of `service`, and an OAuth 2 client
/// secret a third, with `client-secret-for`. They are kept apart so that a lookup by `service` and
/// `username` can only ever find the access token.
///
/// Every operation is bounded: its libsecret calls share one deadline, ``timeout`` from the start, and each
/// runs on a thread of its own that is never waited for past the deadline. After one failure,
/// the keyring fails at once for the rest of the process instead of waiting again.
package final class KeyringBackend: TokenBackend {
    /// How long an operation may take when `SWAGGERCTL_KEYRING_TIMEOUT` does not say.
    package static let defaultTimeout: Duration = .seconds(3)

    /// The limit on each operation: store, read or remove.
    package let timeout: Duration
    private let busAddress: String?
    private let failure = Mutex<SecretServiceError?>(nil)

    /// - Parameter busAddress: The session bus, from ``SessionBus/address(in:)``; `nil` when there is none, and
    ///   then libsecret is never called.
    package init(timeout: Duration = defaultTimeout, busAddress: String?) {
        self.timeout = timeout
        self.busAddress = busAddress
    }

    package var kind: BackendKind { .keyring }

    package var location: String { "the Secret Service" }

    /// The attributes of `account`'s access-token item.
    package static func attributes(for account: Account) -> [String: String] {
        ["service": service(for: account), "username": account.email]
    }

    /// The attributes of `account`'s refresh-token item.
    package static func refreshAttributes(for account: Account) -> [String: String] {
        ["refresh-token-for": service(for: account), "username": account.email]
    }

    /// The attributes of `account`'s client-secret item.
    package static func clientSecretAttributes(for account: Account) -> [String: String] {
        ["client-secret-for": service(for: account), "username": account.email]
    }

    /// The label of `account`'s access-token item, as keyring managers show it.
    package static func label(for account: Account) -> String {
        "swaggerctl token for \(account.email) on \(account.server)"
    }

    /// The `service` attribute's value: `swaggerctl:<server URL>`.
    static func service(for account: Account) -> String {
        "swaggerctl:\(account.server)"
    }

    /// Stores the access token, and the refresh token when there is one, replacing what was stored before.
    ///
    /// The refresh token goes first. A refresh has spent the old one on the server, so a crash between the
    /// two writes must leave the new refresh token stored: beside an old access token, which is refreshed
    /// again, rather than the new access token beside a spent refresh token, which ends the session.
    package func store(_ credentials: Credentials, for account: Account) async throws(SecretServiceError) {
        try await operation { (deadline) throws(SecretServiceError) in
            try await replace(
                credentials.refreshToken, label: "swaggerctl refresh token for \(account.email) on \(account.server)",
                attributes: Self.refreshAttributes(for: account), until: deadline)
            try await replace(
                credentials.clientSecret, label: "swaggerctl client secret for \(account.email) on \(account.server)",
                attributes: Self.clientSecretAttributes(for: account), until: deadline)
            try await replace(
                credentials.accessToken, label: Self.label(for: account), attributes: Self.attributes(for: account),
                until: deadline)
        }
    }

    /// Stores `secret` in the item with `attributes`, or removes that item when there is no secret, so that an
    /// old one never outlives the session it came with.
    private func replace(
        _ secret: String?, label: String, attributes: [String: String], until deadline: ContinuousClock.Instant
    ) async throws(SecretServiceError) {
        guard let secret else {
            _ = try await remove(attributes, until: deadline)
            return
        }
        try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.store(secret, label: label, attributes: attributes, cancellable: cancellable)
        }
    }

    /// The tokens stored for `account`.
    /// - Throws: ``SecretServiceError/locked`` when an item exists but its keyring stays locked, or another
    ///   ``SecretServiceError`` when the Secret Service cannot be used.
    package func credentials(for account: Account) async throws(SecretServiceError) -> Credentials? {
        try await operation { (deadline) throws(SecretServiceError) in
            let accessToken = try await lookup(Self.attributes(for: account), until: deadline)
            // Without its access token, a session whose refresh token survives can still be renewed.
            let refreshToken = try await lookup(Self.refreshAttributes(for: account), until: deadline)
            guard accessToken != nil || refreshToken != nil else { return nil }
            let clientSecret = try await lookup(Self.clientSecretAttributes(for: account), until: deadline)
            return Credentials(accessToken: accessToken, refreshToken: refreshToken, clientSecret: clientSecret)
        }
    }

    /// The access token stored for `account`: one lookup, without the refresh item.
    /// - Throws: ``SecretServiceError/locked`` when the item exists but its keyring stays locked, or another
    ///   ``SecretServiceError`` when the Secret Service cannot be used.
    package func accessToken(for account: Account) async throws(SecretServiceError) -> String? {
        try await operation { (deadline) throws(SecretServiceError) in
            try await lookup(Self.attributes(for: account), until: deadline)
        }
    }

    /// Deletes every item of `account`, and says whether there was any.
    /// - Throws: ``SecretServiceError/locked`` when an item exists but its keyring stays locked, so it could
    ///   not be deleted; another ``SecretServiceError`` when the Secret Service cannot be used.
    package func removeCredentials(for account: Account) async throws(SecretServiceError) -> Bool {
        try await operation { (deadline) throws(SecretServiceError) in
            let access = try await remove(Self.attributes(for: account), until: deadline)
            let refresh = try await remove(Self.refreshAttributes(for: account), until: deadline)
            let secret = try await remove(Self.clientSecretAttributes(for: account), until: deadline)
            return access || refresh || secret
        }
    }

    /// Reads one secret. libsecret returns nothing both when there is no item and when the only item stays
    /// locked, so an empty answer is followed by a search that tells the two apart.
    private func lookup(_ attributes: [String: String], until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> String?
    {
        let secret = try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.lookup(attributes: attributes, cancellable: cancellable)
        }
        if let secret { return secret }
        let matches = try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.count(attributes: attributes, unlock: false, cancellable: cancellable)
        }
        guard matches.all == 0 else { throw .locked }
        return nil
    }

    /// Deletes the items matching `attributes`. libsecret's clear skips locked items, so the matches are
    /// unlocked first (libsecret may prompt), and a match that stays locked is an error, never a success.
    private func remove(_ attributes: [String: String], until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> Bool
    {
        let matches = try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.count(attributes: attributes, unlock: true, cancellable: cancellable)
        }
        guard matches.all > 0 else { return false }
        guard matches.locked == 0 else { throw .locked }
        return try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.clear(attributes: attributes, cancellable: cancellable)
        }
    }

    /// Runs one operation against one deadline. Fails at once after an earlier failure, and without a
    /// session bus, so that libsecret never starts `dbus-launch`.
    private func operation<Value: Sendable>(
        _ body: (ContinuousClock.Instant) async throws(SecretServiceError) -> Value
    ) async throws(SecretServiceError) -> Value {
        if let earlier = failure.withLock({ $0 }) { throw earlier }
        guard busAddress != nil else { throw remember(.noSessionBus) }
        do {
            return try await body(ContinuousClock.now + timeout)
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw remember(error)
        }
    }

    private func remember(_ error: SecretServiceError) -> SecretServiceError {
        failure.withLock { $0 = error }
        return error
    }

    private func call<Value: Sendable>(
        until deadline: ContinuousClock.Instant,
        _ body: @escaping @Sendable (BoundedCall.Cancellable) throws(SecretServiceError) -> Value
    ) async throws(SecretServiceError) -> Value {
        try await BoundedCall.run(until: deadline, timeout: timeout, body)
    }
}
