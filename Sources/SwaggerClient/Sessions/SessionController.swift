import FoundationEssentials
import RequestMachine
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel

extension APIService {
    /// Starts `request` to `url`, with the token unless it is `nil`, to be awaited later.
    package func start(_ request: APIRequest, to url: URL, accessToken: String?, as use: TokenUse) -> PendingResponse {
        start(
            method: request.method, headers: request.headers, body: request.body, to: url, accessToken: accessToken,
            as: use)
    }
}

/// Carries out what the person asked for: runs a coordinator for each command (`LoginCoordinator`,
/// `MainCoordinator`, `LogoutCoordinator`, `RequestCoordinator`), performs the I/O that their actions name, and
/// feeds the outcomes back in.
///
/// Its collaborators are parameters: the session list and saved profiles are files in the configured
/// folders, while the token store and the clock can be stand-ins, and the service's transport a recorded one, so
/// that every flow can be tested without a process or a network. Every method throws only `SwaggerError`, whose
/// message is ready to show.
package struct SessionController: Sendable {
    package let configuration: Configuration
    package let sessions: SessionList
    /// The server registry: how to talk to each server, whatever becomes of its sessions.
    package let servers: ServerRegistry
    package let tokens: any TokenStoring
    /// The saved profiles; `nil` when there is no cache folder.
    package let profiles: ProfileCache?
    /// The copies of servers' OpenAPI documents; `nil` when there is no cache folder.
    package let documents: DocumentCache?
    let service: APIService
    /// The time, for expiry: the system's clock, or a test's.
    let now: @Sendable () -> Date
    /// Receives one line for each thing that went wrong without stopping the command.
    let warn: @Sendable (String) -> Void
    /// How a device-code login waits between polls: the task's clock, or a test's.
    let sleep: @Sendable (Duration) async throws -> Void

    package init(
        configuration: Configuration, tokens: any TokenStoring, service: APIService,
        now: @escaping @Sendable () -> Date = { Date() }, warn: @escaping @Sendable (String) -> Void = { _ in },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.sessions = SessionList(directory: configuration.directory)
        self.servers = ServerRegistry(directory: configuration.directory)
        self.tokens = tokens
        self.profiles = configuration.cacheDirectory.map(ProfileCache.init(directory:))
        self.documents = configuration.cacheDirectory.map(DocumentCache.init(cacheDirectory:))
        self.service = service
        self.now = now
        self.warn = warn
        self.sleep = sleep
    }

    /// Resolves the server and the stored session to use on it, from one read of the session list and the server
    /// registry.
    ///
    /// With `usingEnvironmentToken` and `SWAGGERCTL_TOKEN` set, the token is used instead and the session list
    /// is not read: the server is `--server`, else `SWAGGERCTL_SERVER`, else the current one.
    package func select(server flag: ServerReference?, name: String?, usingEnvironmentToken: Bool = false)
        throws(SwaggerError) -> SessionSelection
    {
        if usingEnvironmentToken, let token = configuration.environmentToken {
            guard Credentials.isToken(token) else {
                throw SwaggerError(
                    .usage,
                    "SWAGGERCTL_TOKEN is not a token: it may hold only visible ASCII characters, with no spaces.")
            }
            // The registry says how the server takes a token; a registry that cannot be read says nothing.
            let (current, entries) = (try? servers.contents()) ?? (nil, [])
            guard let server = try configuration.server(flag: flag, current: current, entries: entries) else {
                throw SwaggerError.tokenWithoutServer
            }
            return SessionSelection(
                server: server, name: name, environmentToken: token, entry: entries.first { $0.server == server })
        }
        let known = try known()
        guard let server = try configuration.server(flag: flag, current: known.current, entries: known.entries) else {
            throw SwaggerError.noServer
        }
        let record = known.records.session(on: server, name: name)
        let entry = known.entries.first { $0.server == server }
        // Said once, by the command that takes it; a registry that cannot be written says it again next time.
        if record != nil, entry?.announce.isEmpty == false, let origins = try? servers.takeAnnouncement(of: server),
            !origins.isEmpty
        {
            warn(OriginRule.movedNotice(server, origins))
        }
        return SessionSelection(server: server, name: name, record: record, entry: entry)
    }

    /// The server commands without `-s` use: `SWAGGERCTL_SERVER`, else the one last logged in to or switched to;
    /// `nil` on a machine that has neither.
    func defaultServer() throws(SwaggerError) -> ServerURL? {
        let known = try known()
        return try configuration.server(flag: nil, current: known.current, entries: known.entries)
    }

    /// The server that `reference` names: its URL, or the URL of the server the registry knows by that name.
    /// - Throws: `SwaggerError` with code `usage` for a name the registry does not know.
    package func server(named reference: ServerReference) throws(SwaggerError) -> ServerURL {
        guard case .name = reference else { return try reference.resolved(among: []) }
        return try reference.resolved(among: known().entries)
    }

    /// The sessions and servers swaggerctl knows: every record that can be read, most recently active first, with
    /// its server's description from the registry; the records that cannot be read; the registry's entries; and
    /// the current server.
    package struct Known: Sendable {
        package var records: [SessionRecord]
        package var damaged: [Account?]
        package var entries: [ServerEntry]
        package var current: ServerURL?
    }

    /// The session list and the server registry, read once each, and joined.
    ///
    /// Records written before the registry kept their server's description themselves, and the most recent of them
    /// named the default server: the registry takes both in the first time, and keeps them from then on.
    package func known() throws(SwaggerError) -> Known {
        let (records, damaged) = try sessions.contents()
        var (current, entries) = try servers.contents()
        let adoption = RegistryAdoption(records, into: entries, current: current, file: SessionList.fileName)
        if !adoption.isEmpty {
            // A folder that cannot be written still has its sessions used as they are; the move waits.
            _ = try? servers.adopt(adoption.entries, current: adoption.current)
            entries += adoption.entries
            current = current ?? adoption.current
        }
        return Known(records: records.map { join($0, entries) }, damaged: damaged, entries: entries, current: current)
    }

    /// `record`, with its server's description from `entries` when the registry has it.
    private func join(_ record: SessionRecord, _ entries: [ServerEntry]) -> SessionRecord {
        guard let entry = entries.first(where: { $0.server == record.server }) else { return record }
        var joined = record
        joined.serverDescription = entry.serverDescription
        return joined
    }

    /// `account`'s record as it is now, with its server's description: read again under the refresh lock.
    func currentRecord(of account: Account) throws(SwaggerError) -> SessionRecord? {
        guard let record = try sessions.record(server: account.server, name: account.name) else { return nil }
        return join(record, try servers.entry(for: account.server).map { [$0] } ?? [])
    }

    /// Every stored session, most recently active first, with its server's description. Never reads a token.
    package func records() throws(SwaggerError) -> [SessionRecord] {
        try known().records
    }

    /// The service for `record`'s requests: one that trusts the certificate authorities its login was given
    /// with `--ca-cert`, or that the registry keeps for its server, when the command names none.
    func service(for record: SessionRecord?, entry: ServerEntry? = nil) -> APIService {
        var service = self.service
        if let caCertificate = record?.caCertificate ?? entry?.caCertificate {
            service = service.trusting(caCertificate)
        }
        return service
    }

    func source(of selection: SessionSelection) throws(SwaggerError) -> TokenSource {
        if let token = selection.environmentToken {
            return .environment(
                token: token, server: selection.server,
                description: selection.entry?.serverDescription)
        }
        return .stored(try storedRecord(of: selection))
    }

    func storedRecord(of selection: SessionSelection) throws(SwaggerError) -> SessionRecord {
        guard let record = selection.record else {
            let server = selection.server
            if let damaged = try damagedAccounts(of: selection).first {
                throw SwaggerError(
                    .failure,
                    "The record for \(damaged.name) cannot be read; `swaggerctl logout -s \(server) -e \(damaged.name)` "
                        + "removes it.")
            }
            throw SwaggerError(
                .authentication,
                Account.notLoggedIn(
                    to: server, as: selection.name, among: try records(), selection.serverDescription))
        }
        return record
    }

    /// The accounts of the selection's server (and the account named, if any) whose records cannot be read.
    func damagedAccounts(of selection: SessionSelection) throws(SwaggerError) -> [Account] {
        try sessions.damaged().compactMap { $0 }.filter {
            $0.server == selection.server && (selection.name == nil || $0.name == selection.name)
        }
    }

    /// What the words for what went wrong depend on, now.
    var messageContext: MessageContext {
        MessageContext(timeout: configuration.timeout, now: now(), proxies: configuration.proxies)
    }

    /// - Parameter record: The session's record, when there is one.
    func message(for failure: SessionFailure, session record: SessionRecord? = nil) -> SwaggerError {
        failure.rendered(in: messageContext, session: record)
    }

    /// Where the refresh locks are: the configuration folder, beside the session list they guard.
    var lockDirectory: PrivateDirectory { PrivateDirectory(configuration.directory) }

    /// Removes a session from this machine: tokens first and the record next, so a failure never leaves tokens
    /// that nothing lists; then the saved profile, which is personal data; and last the lock file, which only a
    /// stored session needs.
    /// - Returns: The account that is active on the record's server now, when the record was the active one there
    ///   and another account is logged in to it: a change the command says.
    @discardableResult
    func remove(_ record: SessionRecord, releasing lock: consuming RefreshLock) async throws(SwaggerError) -> String? {
        let nowActive = try nextActive(after: record)
        try await removeTokens(of: record)
        try forget(record, releasing: lock)
        return nowActive
    }

    /// The account that becomes the active one on `record`'s server once `record`'s session is gone, when it was
    /// the active one there and another is logged in.
    func nextActive(after record: SessionRecord) throws(SwaggerError) -> String? {
        let here = try sessions.records().filter { $0.server == record.server }
        return here.first?.account == record.account ? here.dropFirst().first?.name : nil
    }

    /// Removes the session's tokens, once its record is marked as being removed: a logout killed after the mark
    /// leaves no record that lists but cannot work, and the next logout on the server removes what is left. When
    /// the tokens cannot be removed, the mark is taken back.
    func removeTokens(of record: SessionRecord) async throws(SwaggerError) {
        try sessions.markRemoving(record.account, since: now())
        do {
            _ = try await tokens.remove(record.account, recordedIn: record.backend)
        } catch {
            try? sessions.markRemoving(record.account, since: nil)
            throw error
        }
    }

    /// Removes the session's record and its saved profile, which is personal data, and last the lock file.
    func forget(_ record: SessionRecord, releasing lock: consuming RefreshLock) throws(SwaggerError) {
        try sessions.remove(record.account)
        do {
            try profiles?.remove(record.account)
        } catch {
            warn("the saved profile of \(record.name) could not be deleted: \(error.message)")
        }
        lock.releaseRemovingFile()
    }
}
