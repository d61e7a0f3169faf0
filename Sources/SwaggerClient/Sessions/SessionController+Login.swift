import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel

extension SessionController {
    /// How a login talks to its server, and where discovery found it, if it ran.
    package struct ServerChoice: Sendable, Hashable {
        package var serverDescription: ServerDescription
        /// The documents discovery read the endpoints from; empty when it did not run or found nothing.
        package var discoveredIn: [URL] = []
        /// What those documents named, which the flags may have overridden.
        package var found = Discovery.Endpoints()
        /// The operations an OpenAPI document described, when it described the server.
        package var described: Discovery.Described?
    }

    /// Decides how to talk to the selected server for a login, reading its discovery documents when the flags
    /// and the saved session do not name an OAuth 2 server's endpoints. Nothing secret is sent.
    ///
    /// `selection` is the server and its active session, whose description a later login reuses; `clientSecret`
    /// says whether a client secret was given.
    /// - Throws: `SwaggerError`: usage for flags that do not fit, or endpoints that could not be found; the
    ///   request's error for a server that could not be reached.
    package func serverChoice(_ flags: ServerFlags, on selection: SessionSelection, clientSecret: Bool)
        async throws(SwaggerError) -> ServerChoice
    {
        let server = selection.server
        let saved = selection.record?.serverDescription
        switch try ServerPlan.plan(flags: flags, saved: saved, server: server, clientSecret: clientSecret) {
        case .ready(let description):
            return ServerChoice(serverDescription: description)
        case .discover(let metadata, let openAPI):
            var (found, documents) = try await Self.metadata(metadata) { url throws(SwaggerError) in
                try await document(url, selection)
            }
            var tried = metadata
            for url in openAPI where found.token == nil {
                tried.append(url)
                if let data = try await document(url, selection), let named = Discovery.openAPI(data, at: url) {
                    found = found.merging(named)
                    documents.append(url)
                }
            }
            let description = try ServerPlan.complete(
                flags: flags, saved: saved, server: server, clientSecret: clientSecret, found: found, at: documents,
                tried: tried)
            return ServerChoice(serverDescription: description, discoveredIn: documents, found: found)
        case .explore(let metadata, let openAPI):
            return try await explore(metadata: metadata, openAPI: openAPI, flags: flags, selection)
        }
    }

    /// Reads the documents a server may publish until one says how to log in. A server that publishes none is
    /// the original API, as before discovery.
    /// - Throws: `SwaggerError` with code `usage` when documents were found but none describes a login.
    private func explore(metadata: [URL], openAPI: [URL], flags: ServerFlags, _ selection: SessionSelection)
        async throws(SwaggerError) -> ServerChoice
    {
        let server = selection.server
        // The password may not go there in clear, whatever the documents say: the login refuses before anything
        // is sent.
        if configuration.plainHTTP.refusal(server, .original(server)) != nil {
            return ServerChoice(serverDescription: try ServerPlan.original(flags: flags, server: server))
        }
        var lacking: [String] = []
        var failure: APIServiceError?
        func read(_ url: URL) async -> Data? {
            guard failure == nil else { return nil }
            do throws(APIServiceError) {
                return try await service(for: nil).document(at: url)
            } catch {
                // A server that cannot be reached, or not trusted, would fail the login the same way; a document
                // that is merely unreadable is one fewer to read.
                switch error {
                case .unreachable, .timedOut, .tls, .proxyFailed, .elsewhere: failure = error
                default: break
                }
                return nil
            }
        }
        // Every metadata document is read, as for --kind oauth2: one may name what another leaves out, such as
        // RFC 8414's grant_types_supported beside OpenID Connect's userinfo_endpoint.
        let (found, documents) = try await Self.metadata(metadata, read: read)
        if !documents.isEmpty {
            if found.token != nil, found.userinfo != nil {
                let description = try ServerPlan.complete(
                    flags: flags, saved: nil, server: server, clientSecret: false, found: found, at: documents,
                    tried: documents)
                return ServerChoice(serverDescription: description, discoveredIn: documents, found: found)
            }
            let documentNames = documents.map(\.absoluteString).joined(separator: " and ")
            lacking.append(
                "\(documentNames) name\(documents.count == 1 ? "s" : "") no \(found.token == nil ? "token" : "userinfo") endpoint"
            )
        }
        for url in openAPI {
            guard let data = await read(url), let reading = Discovery.operations(data, at: url) else { continue }
            switch reading {
            case .original:
                return ServerChoice(serverDescription: try ServerPlan.original(flags: flags, server: server))
            case .described(let described):
                return ServerChoice(
                    serverDescription: try ServerPlan.described(described, at: url, flags: flags, server: server),
                    discoveredIn: [url],
                    found: described.endpoints, described: described)
            case .lacking(let why):
                lacking.append("\(url.absoluteString) has \(why)")
            }
        }
        if let failure { throw messages.error(failure, on: server, email: nil, kind: .original) }
        guard lacking.isEmpty else { throw Messages.nothingDescribed(server, lacking) }
        return ServerChoice(serverDescription: try ServerPlan.original(flags: flags, server: server))
    }

    /// What the OAuth 2 metadata documents at `urls` name together, and those of them that named anything.
    private static func metadata(
        _ urls: [URL], read: (URL) async throws(SwaggerError) -> Data?
    ) async throws(SwaggerError) -> (found: Discovery.Endpoints, documents: [URL]) {
        var found = Discovery.Endpoints()
        var documents: [URL] = []
        for url in urls {
            guard let data = try await read(url), let named = Discovery.metadata(data, at: url) else { continue }
            found = found.merging(named)
            documents.append(url)
        }
        return (found, documents)
    }

    private func document(_ url: URL, _ selection: SessionSelection) async throws(SwaggerError) -> Data? {
        do throws(APIServiceError) {
            return try await service(for: selection.record).document(at: url)
        } catch {
            guard let server = ServerURL(originOf: url) else {
                throw SwaggerError(.usage, "\(url) is not an http URL.")
            }
            // Only an OAuth 2 server's endpoints are discovered.
            throw messages.error(error, on: server, email: nil, kind: .oauth2)
        }
    }

    /// Logs in, checks the new session with a profile request, stores it, and shows the profile, as the original
    /// app did.
    ///
    /// When the profile request fails after a good login, the session is kept (its token is good) and the error
    /// says both; when the answer is not a profile at all, nothing is stored.
    ///
    /// `password` is sent to the server and never stored; `clientSecret`, the OAuth 2 client secret, is kept with
    /// the tokens. `selection` is the server and its active session, whose app id is reused, and
    /// `serverDescription` comes from ``serverChoice(_:on:clientSecret:)``.
    package func login(
        email: String, password: String, on selection: SessionSelection, appIDFlag: String?,
        serverDescription: ServerDescription, clientSecret: String? = nil
    ) async throws(SwaggerError) -> ProfileOutcome {
        try await login(
            email: email, method: .password(password), on: selection, appIDFlag: appIDFlag,
            serverDescription: serverDescription, clientSecret: clientSecret)
    }

    /// How a login gets its tokens.
    package enum LoginMethod: Sendable {
        /// The password, posted as the description says.
        case password(String)
        /// A device code (RFC 8628): `show` tells the person the code and where to enter it, and the token
        /// endpoint is polled until they have.
        case device(show: @Sendable (DeviceAuthorization) -> Void)
        /// The authorization code grant with PKCE: `open` shows the authorization URL in a browser, and the code
        /// comes back to a loopback listener within `timeout`.
        case browser(open: @Sendable (URL) -> Void, timeout: Duration)
    }

    /// ``login(email:password:on:appIDFlag:serverDescription:clientSecret:)``, with the tokens got by `method`.
    package func login(
        email: String, method: LoginMethod, on selection: SessionSelection, appIDFlag: String?,
        serverDescription: ServerDescription, clientSecret: String? = nil
    ) async throws(SwaggerError) -> ProfileOutcome {
        var coordinator = LoginCoordinator()
        let request = LoginCoordinator.Request(
            account: Account(server: selection.server, email: email), serverDescription: serverDescription,
            appIDFlag: appIDFlag, appIDFromEnvironment: configuration.appIDFromEnvironment,
            previous: selection.record, plainHTTP: configuration.plainHTTP, clientSecret: clientSecret,
            caCertificate: configuration.trust.additionalCertificates)
        let service = service(for: selection.record)
        let attempt: LoginAttempt
        switch coordinator.loginRequested(request) {
        case .authenticate(let next): attempt = next
        case .fail(let failure): throw message(for: failure)
        }
        let grant: TokenGrant
        switch method {
        case .password(let password):
            do throws(APIServiceError) {
                grant = try await service.login(attempt, password: password, clientSecret: clientSecret)
            } catch {
                throw message(for: coordinator.authenticationFailed(error))
            }
        case .device(let show):
            grant = try await deviceGrant(attempt, service: service, clientSecret: clientSecret, show: show)
        case .browser(let open, let timeout):
            grant = try await browserGrant(
                attempt, service: service, clientSecret: clientSecret, open: open, timeout: timeout)
        }
        let check = coordinator.authenticated(grant, now: now())
        let toStore: LoginCoordinator.StoreTokens
        do throws(APIServiceError) {
            let profile = try await service.profile(check)
            toStore = coordinator.profileReceived(profile)
        } catch {
            switch coordinator.profileFailed(error) {
            case .storeTokens(let tokens): toStore = tokens
            case .fail(let failure): throw message(for: failure)
            }
        }
        let record: SessionRecord
        do throws(SwaggerError) {
            record = coordinator.tokensStored(in: try await tokens.store(toStore.credentials, for: toStore.account))
        } catch {
            throw message(for: coordinator.tokensNotStored(error))
        }
        do throws(SwaggerError) {
            try sessions.save(record)
        } catch {
            let discard = coordinator.recordNotSaved(error)
            do {
                _ = try await tokens.remove(discard.account, recordedIn: discard.backend)
            } catch {
                warn("the tokens of the session that could not be stored remain: \(error.message)")
            }
            throw message(for: discard.failure)
        }
        switch coordinator.recordSaved() {
        case .saveAndShow(let outcome, let account): return save(outcome, for: account)
        case .fail(let failure): throw message(for: failure)
        }
    }

    /// Asks for a device code, shows it, and polls as ``DeviceFlow`` decides until the person has finished.
    private func deviceGrant(
        _ attempt: LoginAttempt, service: any SessionService, clientSecret: String?,
        show: @Sendable (DeviceAuthorization) -> Void
    ) async throws(SwaggerError) -> TokenGrant {
        let server = attempt.account.server
        let description = attempt.serverDescription
        guard description.deviceAuthorizationURL != nil else {
            throw Messages.noDeviceAuthorization(server, description)
        }
        let authorization: DeviceAuthorization
        do throws(APIServiceError) {
            authorization = try await service.deviceAuthorization(
                description, clientSecret: clientSecret, server: server)
        } catch {
            throw messages.error(error, on: server, email: nil, kind: .oauth2)
        }
        let issued = ContinuousClock.now
        show(authorization)
        var flow = DeviceFlow(authorization, server: server)
        var next = flow.started()
        while true {
            switch next {
            case .granted(let grant): return grant
            case .fail(let failure): throw message(for: failure)
            case .poll(let wait):
                do {
                    try await sleep(wait)
                } catch {
                    throw SwaggerError(.cancelled, "Login cancelled while waiting for the sign-in; nothing was stored.")
                }
                do throws(APIServiceError) {
                    let answer = try await service.pollDeviceToken(
                        description, deviceCode: authorization.deviceCode, clientSecret: clientSecret, server: server)
                    next = flow.answered(answer, elapsed: .now - issued)
                } catch {
                    throw message(for: flow.pollFailed(error))
                }
            }
        }
    }

    /// Listens on the loopback interface, has the browser sign in with the authorization URL, and exchanges the
    /// code its redirect brings, as ``BrowserFlow`` decides. The listener is closed on every way out.
    private func browserGrant(
        _ attempt: LoginAttempt, service: any SessionService, clientSecret: String?,
        open: @Sendable (URL) -> Void, timeout: Duration
    ) async throws(SwaggerError) -> TokenGrant {
        let server = attempt.account.server
        let description = attempt.serverDescription
        guard let endpoint = description.authorizationURL, let clientID = description.clientID else {
            throw Messages.noBrowserLogin(server, description)
        }
        let listener: LoopbackListener
        do throws(APIServiceError) {
            listener = try await LoopbackListener.open(path: "/callback")
        } catch {
            throw messages.error(error, on: server, email: nil, kind: .oauth2)
        }
        let pkce = PKCE()
        let flow = BrowserFlow(server: server, state: pkce.state)
        guard
            let url = BrowserFlow.authorizationURL(
                endpoint: endpoint, clientID: clientID, redirectURI: listener.redirectURI, scope: description.scope,
                state: pkce.state, challenge: pkce.challenge)
        else {
            await listener.close()
            throw SwaggerError(.usage, "\(endpoint.absoluteString) cannot carry an authorization request.")
        }
        open(url)
        let sleep = self.sleep
        // The first of: a request to the redirect that decides the login, or the deadline.
        let decided = await withTaskGroup(of: BrowserDecision?.self) { group in
            group.addTask {
                var flow = flow
                for await callback in listener.callbacks {
                    switch flow.received(callback.query) {
                    case .exchange(let code, let page):
                        callback.respond(LoopbackListener.Page(text: Messages.browserPage(page)))
                        return .code(code, flow)
                    case .fail(let failure, let page):
                        callback.respond(LoopbackListener.Page(status: 400, text: Messages.browserPage(page)))
                        return .failed(failure)
                    case .ignore(let page):
                        callback.respond(LoopbackListener.Page(status: 409, text: Messages.browserPage(page)))
                    }
                }
                return nil
            }
            group.addTask {
                do {
                    try await sleep(timeout)
                } catch {
                    return nil
                }
                return .failed(flow.timedOut(after: timeout))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed(flow.timedOut(after: timeout))
        }
        guard case .code(let code, var answered) = decided else {
            await listener.close()
            if case .failed(let failure) = decided { throw message(for: failure) }
            preconditionFailure("a browser login's wait ends with a code or a failure")
        }
        // Until the code is spent, another answer is told it came too late, and the person is told of it: a page
        // that hands in a code of its own after the real one is worth a line.
        let warn = self.warn
        let latecomers = Task {
            for await callback in listener.callbacks {
                guard case .ignore(let page) = answered.received(callback.query) else { continue }
                callback.respond(LoopbackListener.Page(status: 409, text: Messages.browserPage(page)))
                warn(Messages.browserLatecomer)
            }
        }
        defer { latecomers.cancel() }
        do throws(APIServiceError) {
            let grant = try await service.exchangeCode(
                description, code: code, verifier: pkce.verifier, redirectURI: listener.redirectURI,
                clientSecret: clientSecret, server: server)
            await listener.close()
            return grant
        } catch {
            await listener.close()
            throw messages.error(error, on: server, email: nil, kind: .oauth2)
        }
    }
}

/// What ended a browser login's wait.
private enum BrowserDecision: Sendable {
    /// The code, and the flow that took it, which answers any later request.
    case code(String, BrowserFlow)
    case failed(SessionFailure)
}
