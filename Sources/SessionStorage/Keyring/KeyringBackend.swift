import FoundationEssentials
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
/// | `swaggerctl-item` | `access` |
///
/// and the label `swaggerctl token for <email> on <server>`. Its secret is the access token alone, so
/// `secret-tool lookup service swaggerctl:<url> username <email>` prints a usable bearer token.
///
/// A refresh token is a second item, with `refresh-token-for` in place of `service`, an OAuth 2 client
/// secret a third, with `client-secret-for`, and a client's private key a fourth, with `client-key-for` (its PEM,
/// key id and certificate as a JSON object), and a DPoP key a fifth, with `proof-key-for` (its PEM). They are kept apart so that a lookup by `service` and
/// `username` can only ever find the access token.
///
/// `swaggerctl-item` marks the items as swaggerctl's own: another program that stores a secret under the
/// same `service` and `username` replaces the item in place, and drops the mark (see the schema in CSecret).
/// Such an item is never read, so a session whose access-token item was taken over is renewed with its
/// refresh token. Items written before the mark existed are read, marked and replaced once, if their labels
/// are still swaggerctl's.
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
    /// Whether lookups may try a ``PlainSession`` first.
    private let mayBePlain: Bool
    private let failure = Mutex<SecretServiceError?>(nil)
    /// How a call waits for its deadline (``BoundedCall``).
    private let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - busAddress: The session bus, from ``SessionBus/address(in:)``; `nil` when there is none, and then
    ///     libsecret is never called.
    ///   - sleep: How a call waits for its deadline: `Task.sleep`, or the command loop's.
    package init(
        timeout: Duration = defaultTimeout, busAddress: String?,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.timeout = timeout
        self.busAddress = busAddress
        self.sleep = sleep
        mayBePlain = busAddress.map(PlainSession.mayBePlain(address:)) ?? false
    }

    package var kind: BackendKind { .keyring }

    package var location: String { "the Secret Service" }

    /// The attribute that marks an item as swaggerctl's.
    static let marker = "swaggerctl-item"

    /// The items of a session.
    enum Item: String, CaseIterable {
        case access
        case refresh
        case clientSecret = "client-secret"
        case clientKey = "client-key"
        case proofKey = "proof-key"

        /// The item's attributes as swaggerctl wrote them before it marked its items.
        func unmarkedAttributes(for account: Account) -> [String: String] {
            let name =
                switch self {
                case .access: "service"
                case .refresh: "refresh-token-for"
                case .clientSecret: "client-secret-for"
                case .clientKey: "client-key-for"
                case .proofKey: "proof-key-for"
                }
            return [name: KeyringBackend.service(for: account), "username": account.name]
        }

        func attributes(for account: Account) -> [String: String] {
            unmarkedAttributes(for: account).merging([KeyringBackend.marker: rawValue]) { $1 }
        }

        /// The label that keyring managers show.
        func label(for account: Account) -> String {
            let what =
                switch self {
                case .access: "token"
                case .refresh: "refresh token"
                case .clientSecret: "client secret"
                case .clientKey: "client key"
                case .proofKey: "DPoP key"
                }
            return "swaggerctl \(what) for \(account.name) on \(account.server)"
        }
    }

    /// A client key as its item keeps it.
    private static func text(_ key: ClientKey) -> String {
        (try? JSONEncoder().encode(key)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The client key an item keeps; `nil` for text that is not one, which leaves the session without it.
    private static func clientKey(_ text: String) -> ClientKey? {
        try? JSONDecoder().decode(ClientKey.self, from: Data(text.utf8))
    }

    /// The attributes by which `secret-tool lookup` finds `account`'s access token.
    static func lookupAttributes(for account: Account) -> [String: String] {
        Item.access.unmarkedAttributes(for: account)
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
            try await store(credentials, for: account, until: deadline)
        }
    }

    private func store(_ credentials: Credentials, for account: Account, until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError)
    {
        try await replace(.refresh, of: account, with: credentials.refreshToken, until: deadline)
        try await replace(.clientSecret, of: account, with: credentials.clientSecret, until: deadline)
        try await replace(.clientKey, of: account, with: credentials.clientKey.map(Self.text), until: deadline)
        try await replace(.proofKey, of: account, with: credentials.proofKey, until: deadline)
        try await replace(.access, of: account, with: credentials.accessToken, until: deadline)
    }

    /// Stores `secret` in `account`'s `item`, or removes that item when there is no secret, so that an old one
    /// never outlives the session it came with.
    private func replace(
        _ item: Item, of account: Account, with secret: String?, until deadline: ContinuousClock.Instant
    ) async throws(SecretServiceError) {
        guard let secret else {
            _ = try await remove(item, of: account, until: deadline)
            return
        }
        try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
            try LibSecret.store(
                secret, label: item.label(for: account), attributes: item.attributes(for: account),
                cancellable: cancellable)
        }
    }

    /// The tokens stored for `account`.
    /// - Throws: ``SecretServiceError/locked`` when an item exists but its keyring stays locked, or another
    ///   ``SecretServiceError`` when the Secret Service cannot be used.
    package func credentials(for account: Account) async throws(SecretServiceError) -> Credentials? {
        try await operation { (deadline) throws(SecretServiceError) in
            let accessToken = try await lookup(Item.access.attributes(for: account), until: deadline)
            // Without its access token, a session whose refresh token survives can still be renewed.
            let refreshToken = try await lookup(Item.refresh.attributes(for: account), until: deadline)
            guard accessToken != nil || refreshToken != nil else {
                return try await adoptUnmarked(account, until: deadline)
            }
            let clientSecret = try await lookup(Item.clientSecret.attributes(for: account), until: deadline)
            let clientKey = try await lookup(Item.clientKey.attributes(for: account), until: deadline)
            let proofKey = try await lookup(Item.proofKey.attributes(for: account), until: deadline)
            return Credentials(
                accessToken: accessToken, refreshToken: refreshToken, clientSecret: clientSecret,
                clientKey: clientKey.flatMap(Self.clientKey), proofKey: proofKey)
        }
    }

    /// The session that an earlier swaggerctl stored for `account` without marks, stored again with them, its
    /// unmarked items deleted; `nil` when there is none. It runs only when no marked item was found, so it
    /// costs a session that has its items nothing.
    private func adoptUnmarked(_ account: Account, until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> Credentials?
    {
        var secrets: [Item: String] = [:]
        for item in Item.allCases {
            secrets[item] = try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
                try LibSecret.unmarkedSecret(
                    attributes: item.unmarkedAttributes(for: account), label: item.label(for: account),
                    marker: Self.marker, cancellable: cancellable)
            }
        }
        guard secrets[.access] != nil || secrets[.refresh] != nil else { return nil }
        let credentials = Credentials(
            accessToken: secrets[.access], refreshToken: secrets[.refresh], clientSecret: secrets[.clientSecret])
        try await store(credentials, for: account, until: deadline)
        _ = try await removeUnmarked(account, until: deadline)
        return credentials
    }

    private func removeUnmarked(_ account: Account, until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> Bool
    {
        var removed = false
        for item in Item.allCases {
            removed =
                try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
                    try LibSecret.deleteUnmarked(
                        attributes: item.unmarkedAttributes(for: account), label: item.label(for: account),
                        marker: Self.marker, cancellable: cancellable)
                } || removed
        }
        return removed
    }

    /// The access token stored for `account`: one lookup, when its item is there.
    /// - Throws: ``SecretServiceError/locked`` when the item exists but its keyring stays locked, or another
    ///   ``SecretServiceError`` when the Secret Service cannot be used.
    package func accessToken(for account: Account) async throws(SecretServiceError) -> String? {
        try await operation { (deadline) throws(SecretServiceError) in
            if let accessToken = try await lookup(Item.access.attributes(for: account), until: deadline) {
                return accessToken
            }
            // A session stored before items were marked is found here, so that it goes on as it was: a
            // session without a refresh token could not be renewed.
            guard try await lookup(Item.refresh.attributes(for: account), until: deadline) == nil else { return nil }
            return try await adoptUnmarked(account, until: deadline)?.accessToken
        }
    }

    /// Deletes every item of `account`, and says whether there was any.
    /// - Throws: ``SecretServiceError/locked`` when an item exists but its keyring stays locked, so it could
    ///   not be deleted; another ``SecretServiceError`` when the Secret Service cannot be used.
    package func removeCredentials(for account: Account) async throws(SecretServiceError) -> Bool {
        try await operation { (deadline) throws(SecretServiceError) in
            var removed = false
            for item in Item.allCases {
                removed = try await remove(item, of: account, until: deadline) || removed
            }
            // A session stored before items were marked has its items removed too.
            return try await removeUnmarked(account, until: deadline) || removed
        }
    }

    /// Reads one secret: over a ``PlainSession`` where the bus allows one, else with libsecret. libsecret
    /// returns nothing both when there is no item and when the only item stays locked, so its empty answer is
    /// followed by a search that tells the two apart.
    private func lookup(_ attributes: [String: String], until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> String?
    {
        if mayBePlain {
            let found = try await call(until: deadline) { (cancellable) throws(SecretServiceError) in
                try PlainSession.lookup(attributes, cancellable: cancellable)
            }
            switch found {
            case .secret(let secret): return secret
            case .absent: return nil
            case .deferred: break
            }
        }
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

    /// Deletes `account`'s `item`. libsecret's clear skips locked items, so the matches are
    /// unlocked first (libsecret may prompt), and a match that stays locked is an error, never a success.
    private func remove(_ item: Item, of account: Account, until deadline: ContinuousClock.Instant)
        async throws(SecretServiceError) -> Bool
    {
        let attributes = item.attributes(for: account)
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
        try await BoundedCall.run(until: deadline, timeout: timeout, sleep: sleep, body)
    }
}
