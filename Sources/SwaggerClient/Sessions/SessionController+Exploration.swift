import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerServers

extension SessionController {
    /// How a login talks to its server, where each part of that came from, and what discovery found, if it ran.
    package struct ServerChoice: Sendable, Hashable {
        package var server: ServerURL
        package var serverDescription: ServerDescription
        /// Whose each part of the description is (`ServerEntry.sources`).
        package var sources: [String: String] = [:]
        /// What the server's documents said; `nil` when none was read.
        package var finding: Discovery.Finding?
        /// The OpenAPI document that described the server, as read, to keep a copy of.
        package var document: FetchedDocument?
    }

    /// Fails when what a login stores could not be kept: the configuration folder cannot be made private, or
    /// `--keyring secret-service` has no keyring that answers. Asked before the password is, so that a login the
    /// server accepts is never one this machine then loses.
    func checkStores(on server: ServerURL) async throws(SwaggerError) {
        try lockDirectory.create()
        try await tokens.checkReady(on: server)
    }

    /// Decides how to talk to the selected server, from what the person gave (`given`: a `--server-file`, then the
    /// flags), the registry's entry, the presets, and, where they do not say enough, the documents the server
    /// publishes. Nothing secret is sent. `confidential` says whether a client secret was given.
    /// - Throws: `SwaggerError`: usage for a description that cannot be made whole; the request's error for a
    ///   server that could not be reached.
    func serverChoice(given: [DescriptionLayer], on selection: SessionSelection, confidential: Bool)
        async throws(SwaggerError) -> ServerChoice
    {
        switch try await loginChoice(given: given, on: selection, confidential: confidential) {
        case .described(let choice): return choice
        case .delegated(let delegated): throw SwaggerError(.usage, delegated.refusal(for: selection.server))
        case .nearby(_, let undescribed): throw undescribed
        }
    }

    /// How a login goes on: with the server as described, or at the server it says is its own.
    package enum LoginChoice: Sendable, Hashable {
        case described(ServerChoice)
        /// The server says that another is the one to log in to; nothing was sent there. The login asks the
        /// person before it goes on there.
        case delegated(Discovery.Delegated)
        /// Nothing describes the server, but an address near it does (its API's base URL below the root
        /// typed): `undescribed` is the error to give unless the login goes on there.
        case nearby(ServerURL, undescribed: SwaggerError)
    }

    /// ``serverChoice(given:on:confidential:)``, with a server that names another as its own (Matrix's
    /// `/.well-known/matrix/client`) handed back rather than refused.
    func loginChoice(given: [DescriptionLayer], on selection: SessionSelection, confidential: Bool)
        async throws(SwaggerError) -> LoginChoice
    {
        let server = selection.server
        let choice: ServerChoice
        switch try ServerPlan.plan(given: given, saved: selection.entry, server: server) {
        case .ready(let description, let sources):
            choice = ServerChoice(server: server, serverDescription: description, sources: sources)
        case .explore(let exploration):
            // Nothing is read in clear from another machine to decide where a password goes: the login would refuse it
            // whatever the documents said.
            if let refused = configuration.plainHTTP.refusal(server, nil) {
                throw message(for: .plainHTTPRefused(server: refused, sending: .password))
            }
            let finding: Discovery.Finding?
            let document: FetchedDocument?
            switch try await explore(exploration, on: selection, confidential: confidential) {
            case .found(let found, let read):
                (finding, document) = (found, read)
            case .delegated(let delegated):
                return .delegated(delegated)
            }
            guard let (description, sources) = try ServerPlan.finish(exploration, found: finding, server: server)
            else {
                let (error, nearby) = await undescribed(server, exploration, on: selection)
                if let nearby { return .nearby(nearby, undescribed: error) }
                throw error
            }
            choice = ServerChoice(
                server: server, serverDescription: description, sources: sources, finding: finding, document: document)
        }
        // Refused here as well as by the login, so that no password is asked for to be refused.
        if let foreign = OriginRule.refusal(server, choice.serverDescription) {
            throw SwaggerError(.usage, foreign.refusal(on: server))
        }
        return .described(choice)
    }

    private enum Explored {
        case found(Discovery.Finding?, FetchedDocument?)
        case delegated(Discovery.Delegated)
    }

    /// Reads and probes, without credentials, what ``ServerExploration`` asks for.
    /// - Returns: What was found (`nil` when the server publishes nothing) and the OpenAPI document it was found in,
    ///   or the server it names as its own.
    /// - Throws: `SwaggerError`: usage when documents were found but none describes a login and nothing else says
    ///   how to log in; the request's error for a server that could not be reached.
    private func explore(_ exploration: ServerPlan.Exploration, on selection: SessionSelection, confidential: Bool)
        async throws(SwaggerError) -> Explored
    {
        let server = selection.server
        let service = service(for: nil, entry: selection.entry)
        var machine = ServerExploration(exploration, server: server, confidential: confidential)
        var event = ServerExploration.Event.start
        var failure: APIServiceError?
        var last: (url: URL, document: FetchedDocument)?
        while true {
            switch machine.next(event) {
            case .read(let url):
                event = await Self.event(keeping: &failure, otherwise: .unreadable) {
                    () async throws(APIServiceError) in
                    guard let document = try await service.document(at: url) else { return .unreadable }
                    last = (url, document)
                    return .document(document.body, link: document.link)
                }
            case .probe(let url):
                event = await Self.event(keeping: &failure, otherwise: .status(nil)) {
                    () async throws(APIServiceError) in .status(try await service.probe(url).status)
                }
            case .ask(let url):
                event = await Self.event(keeping: &failure, otherwise: .answered(nil)) {
                    () async throws(APIServiceError) in
                    let answer = try await service.ask(url)
                    return .answered(
                        Exchange(
                            method: "GET", url: url, status: answer.status, responseHeaders: answer.headers,
                            responseBody: JSONValue(parsing: answer.body)))
                }
            case .finished(let finding, let document):
                return .found(finding, document.flatMap { $0 == last?.url ? last?.document : nil })
            case .delegated(let delegated):
                return .delegated(delegated)
            case .undescribed(let lacking):
                throw SwaggerError.nothingDescribed(server, lacking)
            case .unreachable:
                throw (failure ?? .unreachable(server.string)).rendered(
                    on: server, account: nil, description: selection.serverDescription, in: messageContext)
            }
        }
    }

    /// What `fetch` found, as the exploration's event; `otherwise` when it failed for this one address. A server that
    /// cannot be reached, or not trusted, would fail the login the same way: that is `unreachable`, with the failure
    /// kept in `failure` to report; a document that is merely unreadable is one fewer to read.
    private static func event(
        keeping failure: inout APIServiceError?, otherwise: ServerExploration.Event,
        _ fetch: () async throws(APIServiceError) -> ServerExploration.Event
    ) async -> ServerExploration.Event {
        do throws(APIServiceError) {
            return try await fetch()
        } catch {
            guard error.meansUnreachable else { return otherwise }
            failure = error
            return .unreachable
        }
    }

    /// The error for a server that nothing describes: what was asked, and where an API may be instead, one path level
    /// down or up or where the address redirects, found without sending anything secret; and that address, if any.
    private func undescribed(_ server: ServerURL, _ exploration: ServerPlan.Exploration, on selection: SessionSelection)
        async -> (SwaggerError, nearby: ServerURL?)
    {
        let service = service(for: nil, entry: selection.entry)
        let asked = exploration.metadata.count + exploration.openAPI.count
        var suggestion: URL?
        if let answer = try? await service.probe(server.url), (300..<400).contains(answer.status),
            let location = answer.location, let target = APIDocument.resolve(location, against: server.url),
            let named = try? ServerURL(target.absoluteString), named != server
        {
            suggestion = named.url
        }
        places: for (place, documents) in Discovery.nearby(server) where suggestion == nil {
            for url in documents {
                guard let fetched = try? await service.document(at: url),
                    OperationIndex.read(fetched.body, at: url) != nil
                else { continue }
                suggestion = place.url
                break places
            }
        }
        return (
            SwaggerError.undescribedServer(server, asked: asked, suggestion: suggestion),
            suggestion.flatMap { try? ServerURL($0.absoluteString) }
        )
    }
}
