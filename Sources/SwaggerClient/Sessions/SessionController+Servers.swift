import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerModel
import SwaggerServers

extension SessionController {
    /// A server the registry knows, as `server list` and `server show` show it.
    package struct ServerSummary: Sendable, Hashable {
        package var entry: ServerEntry
        /// Whether commands without `-s` use it.
        package var isCurrent: Bool
        /// The accounts logged in to it, the active one first.
        package var accounts: [String]
    }

    /// Every server the registry knows, in the order they were first saved, and the servers whose entries cannot be
    /// read.
    package func knownServers() throws(SwaggerError) -> (servers: [ServerSummary], damaged: [ServerURL?]) {
        (summaries(try known()), try servers.damaged())
    }

    private func summaries(_ known: Known) -> [ServerSummary] {
        let current = try? configuration.server(flag: nil, current: known.current, entries: known.entries)
        return known.entries.map { entry in
            ServerSummary(
                entry: entry, isCurrent: entry.server == current,
                accounts: known.records.filter { $0.server == entry.server }.map(\.name))
        }
    }

    /// What the registry knows about `server`, else the current server.
    /// - Throws: `SwaggerError` with code `failure` when the registry has no entry for it.
    package func server(_ server: ServerReference?) throws(SwaggerError) -> ServerSummary {
        let known = try known()
        let summaries = summaries(known)
        guard let wanted = try configuration.server(flag: server, current: known.current, entries: known.entries) else {
            throw SwaggerError(.usage, "Which server? Name it, as in `swaggerctl server show URL`.")
        }
        guard let summary = summaries.first(where: { $0.entry.server == wanted }) else {
            throw SwaggerError(
                .failure,
                "swaggerctl knows nothing of \(wanted) yet. Run `swaggerctl server set \(wanted)` to describe it, or "
                    + "log in to it.")
        }
        return summary
    }

    /// A description made and not yet kept: ``keep(_:)`` saves it, once the person agreed to ``moves``.
    package struct DescribedServer: Sendable {
        package var entry: ServerEntry
        package var choice: ServerChoice
        /// Where the change sends the tokens of sessions kept under the server that they did not go before.
        package var moves: TokenMove?
        /// Whether no server was described before, which makes this one the current server.
        fileprivate var first: Bool
    }

    /// The sessions whose tokens a change of description sends to other origins, and those origins.
    package struct TokenMove: Sendable, Hashable {
        package var server: ServerURL
        package var accounts: [String]
        package var origins: [ServerURL]
    }

    /// Describes `server`: what is given (a file's layer, then the flags') over its saved description, or, with
    /// `discover` or when there is nothing saved, over what the server publishes. `appID`, `caCertificate` and
    /// `name`, when given, are kept for its later logins. Nothing is saved until ``keep(_:)``.
    /// - Throws: `SwaggerError`: usage for a description that cannot be made whole, or a name another server has;
    ///   the request's error for a server that could not be reached.
    package func describe(
        _ server: ServerURL, given: [DescriptionLayer], discover: Bool, appID: String?, caCertificate: String?,
        name: ServerName? = nil
    ) async throws(SwaggerError) -> DescribedServer {
        let known = try known()
        // Before the server is asked anything: the registry checks again as it saves.
        if let name, let clash = ServerName.clash(name, for: server, among: known.entries) { throw clash }
        let saved = known.entries.first { $0.server == server }
        // The --ca-cert given is the configuration's too, so that discovery trusts it already.
        let selection = SessionSelection(server: server, entry: discover ? nil : saved)
        let choice = try await serverChoice(given: given, on: selection, confidential: false)
        var entry =
            saved ?? ServerEntry(server: server, description: choice.serverDescription, updatedAt: now())
        entry.description = choice.serverDescription
        entry.sources = choice.sources
        entry.updatedAt = now()
        if let appID { entry.appID = appID }
        if let caCertificate { entry.caCertificate = caCertificate }
        if let name { entry.name = name }
        if let fetched = choice.document, let url = choice.finding?.documents.first {
            entry.document = keepCopy(of: fetched, from: url, for: server) ?? entry.document
        }
        let moves = tokenMove(to: choice.serverDescription, from: saved, records: known.records)
        if let moves { entry.announce += moves.origins.filter { !entry.announce.contains($0) } }
        return DescribedServer(entry: entry, choice: choice, moves: moves, first: known.current == nil)
    }

    /// Saves a description that ``describe(_:given:discover:appID:caCertificate:name:)`` made. The first server
    /// described becomes the one commands use, as the first one logged in to does; `-s` and SWAGGERCTL_SERVER
    /// still go over it.
    package func keep(_ described: DescribedServer) throws(SwaggerError) {
        try servers.save(described.entry, current: described.first)
    }

    /// Where a login with `choice` would send the tokens of the sessions already kept under its server.
    package func tokenMove(_ choice: ServerChoice) throws(SwaggerError) -> TokenMove? {
        let known = try known()
        return tokenMove(
            to: choice.serverDescription, from: known.entries.first { $0.server == choice.server },
            records: known.records)
    }

    private func tokenMove(to description: ServerDescription, from saved: ServerEntry?, records: [SessionRecord])
        -> TokenMove?
    {
        guard let saved else { return nil }
        let accounts = records.filter { $0.server == saved.server }.map(\.name)
        let origins = OriginRule.moved(saved.server, from: saved.description, to: description)
        guard !accounts.isEmpty, !origins.isEmpty else { return nil }
        return TokenMove(server: saved.server, accounts: accounts, origins: origins)
    }

    /// Names `server`, as a login with `--name` does once it has logged in.
    /// - Throws: `SwaggerError` with code `usage` when another server has the name.
    package func name(_ server: ServerURL, _ name: ServerName) throws(SwaggerError) {
        try servers.name(server, name)
    }

    /// Names `server`, as a file it was imported from says, unless another server has the name.
    /// - Returns: The server that has the name already, which keeps it; `nil` when `server` now has it.
    package func nameUnlessTaken(_ server: ServerURL, _ name: ServerName) throws(SwaggerError) -> ServerURL? {
        if let holder = ServerName.holder(of: name, other: server, among: try known().entries) { return holder }
        try servers.name(server, name)
        return nil
    }

    /// Whether `name` may be given to `server`: a login checks before it asks for a password.
    /// - Throws: `SwaggerError` with code `usage` when another server has the name.
    package func checkName(_ name: ServerName, for server: ServerURL) throws(SwaggerError) {
        if let clash = ServerName.clash(name, for: server, among: try known().entries) { throw clash }
    }

    /// Forgets what the registry knows about `server`, its name with it.
    /// - Throws: `SwaggerError` with code `failure` while accounts are logged in to it: their sessions need it.
    package func forget(_ server: ServerURL) throws(SwaggerError) -> Bool {
        let accounts = try records().filter { $0.server == server }.map(\.name)
        guard accounts.isEmpty else {
            throw SwaggerError(
                .failure,
                "\(Account.clause(accounts)) logged in to it; log out first: `swaggerctl logout -s \(server) -e "
                    + "\(accounts[0])`.")
        }
        return try servers.forget(server)
    }
}
