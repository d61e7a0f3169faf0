import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerModel
import SwaggerServers

extension SessionController {
    /// Every server the registry knows, in the order they were first saved, and the servers whose entries cannot be
    /// read.
    func knownServers() throws(SwaggerError) -> (servers: [ServerSummary], damaged: [ServerURL?]) {
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
        /// The name the command asks for, which ``keep(_:)`` gives under the registry's lock.
        fileprivate var naming: NameRequest?
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
    /// the name `naming` asks for, when given, are kept for its later logins. Nothing is saved until ``keep(_:)``.
    /// - Throws: `SwaggerError`: usage for a description that cannot be made whole, or a name that needs
    ///   `--rename`; the request's error for a server that could not be reached.
    package func describe(
        _ server: ServerURL, given: [DescriptionLayer], discover: Bool, appID: String?, caCertificate: String?,
        naming: NameRequest? = nil
    ) async throws(SwaggerError) -> DescribedServer {
        let known = try known()
        // Before the server is asked anything, so that a name refused sends nothing to the server that asked for
        // it: the registry decides again as it saves.
        _ = try ServerNaming(server, naming, among: known.entries)
        let saved = known.entries.first { $0.server == server }
        // The --ca-cert given is the configuration's too, so that discovery trusts it already.
        let selection = SessionSelection(server: server, entry: discover ? nil : saved)
        let choice = try await serverChoice(given: given, on: selection, confidential: false)
        var entry =
            saved ?? ServerEntry(server: server, description: choice.serverDescription, updatedAt: now())
        entry.serverDescription = choice.serverDescription
        entry.sources = choice.sources
        entry.updatedAt = now()
        if let appID { entry.appID = appID }
        if let caCertificate { entry.caCertificate = caCertificate }
        if let fetched = choice.document, let url = choice.finding?.documents.first {
            entry.document = keepCopy(of: fetched, from: url, for: server) ?? entry.document
        }
        let moves = tokenMove(to: choice.serverDescription, from: saved, records: known.records)
        if let moves { entry.announce += moves.origins.filter { !entry.announce.contains($0) } }
        return DescribedServer(
            entry: entry, choice: choice, moves: moves, naming: naming, first: known.current == nil)
    }

    /// Saves a description that ``describe(_:given:discover:appID:caCertificate:naming:)`` made. The first server
    /// described becomes the one commands use, as the first one logged in to does; `-s` and SWAGGERCTL_SERVER
    /// still go over it.
    /// - Returns: The server's name before and after.
    package func keep(_ described: DescribedServer) throws(SwaggerError) -> ServerNaming {
        try servers.save(described.entry, current: described.first, naming: described.naming)
    }

    /// Where a login with `choice` would send the tokens of the sessions already kept under its server.
    func tokenMove(_ choice: ServerChoice) throws(SwaggerError) -> TokenMove? {
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
        let origins = OriginRule.moved(saved.server, from: saved.serverDescription, to: description)
        guard !accounts.isEmpty, !origins.isEmpty else { return nil }
        return TokenMove(server: saved.server, accounts: accounts, origins: origins)
    }

    /// Gives `server` the name `request` asks for, as a login with `--name` does once it has logged in; without a
    /// request, reads the name it has.
    /// - Returns: The server's name before and after.
    /// - Throws: `SwaggerError` with code `usage` when the request needs `--rename`.
    package func naming(_ server: ServerURL, _ request: NameRequest?) throws(SwaggerError) -> ServerNaming {
        if let request, let naming = try servers.name(server, request) { return naming }
        return try ServerNaming(server, nil, among: try known().entries)
    }

    /// Whether `request` may be given to `server`: a login checks before it asks for a password.
    /// - Throws: `SwaggerError` with code `usage` when the request needs `--rename`.
    func checkName(_ request: NameRequest, for server: ServerURL) throws(SwaggerError) {
        _ = try ServerNaming(server, request, among: try known().entries)
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
