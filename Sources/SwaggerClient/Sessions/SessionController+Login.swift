import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerServers

extension SessionController {
    /// What a login made: the account the session is kept under, and its profile.
    package struct LoginOutcome: Sendable, Hashable {
        package var account: Account
        package var profile: ProfileOutcome
        /// Whether the account's earlier session here, which this one replaces, was ended on the server.
        var endedEarlier = false
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
        /// The client credentials grant: the client, named as the account, signs in as itself with its proof.
        case client
        /// A token the person already has (`--with-token`): a personal access token, an API key. Only the profile
        /// checks it, and says whose it is.
        case token(String)

        var isClient: Bool { if case .client = self { true } else { false } }
        var isToken: Bool { if case .token = self { true } else { false } }
    }

    /// Logs in, checks the new session with a profile request, stores it with its server's description, and shows
    /// the profile, as the original app did.
    ///
    /// When the profile request fails after a good login, the session is kept (its token is good) and the error
    /// says both; when the answer is not a profile at all, nothing is stored. A sign-in in the browser is kept under
    /// whoever signed in: `name`, when given, must be that account.
    ///
    /// A password is sent to the server and never stored; `client`, what the OAuth 2 client proves itself with (its
    /// secret or its private key), is kept with the tokens. `selection` is the server and its active session, whose app id is reused, and `choice` comes
    /// from ``serverChoice(given:on:confidential:)``.
    package func login(
        as name: AccountName?, method: LoginMethod, on selection: SessionSelection, appIDFlag: String?,
        choice: ServerChoice, client: ClientProof = ClientProof(), proof: ProofKey? = nil
    ) async throws(SwaggerError) -> LoginOutcome {
        var coordinator = LoginCoordinator()
        let entry = selection.entry
        var request = LoginCoordinator.Request(
            server: selection.server, name: name, serverDescription: choice.serverDescription,
            appIDFlag: appIDFlag, appIDFromEnvironment: configuration.appIDFromEnvironment, entry: entry,
            previous: selection.record, plainHTTP: configuration.plainHTTP, client: client,
            asClient: method.isClient,
            proof: proof.map { ProofBinding(privateKey: $0.pem, thumbprint: $0.thumbprint) },
            caCertificate: configuration.trust.additionalCertificates)
        request.givenToken = method.isToken
        var service = service(for: selection.record, entry: entry)
        if let key = client.key { service = service.presenting(key) }
        if let proof { service = service.proving(with: proof) }
        let attempt: LoginAttempt
        switch coordinator.loginRequested(request) {
        case .authenticate(let next): attempt = next
        case .fail(let failure): throw message(for: failure)
        }
        let grant: TokenGrant
        switch method {
        case .password(let password):
            do throws(APIServiceError) {
                grant = try await service.login(attempt, password: password, client: client)
            } catch {
                throw message(for: coordinator.authenticationFailed(error))
            }
        case .client:
            do throws(APIServiceError) {
                grant = try await service.clientCredentials(attempt, client: client)
            } catch {
                throw message(for: coordinator.authenticationFailed(error))
            }
        case .token(let token):
            // The server made it before; its profile, next, is what checks it.
            grant = TokenGrant(accessToken: token)
        case .device(let show):
            grant = try await deviceGrant(attempt, service: service, clientSecret: client.secret, show: show)
        case .browser(let open, let timeout):
            grant = try await browserGrant(
                attempt, service: service, clientSecret: client.secret, open: open, timeout: timeout)
        }
        do throws(SwaggerError) {
            return try await keep(grant, &coordinator, service, choice: choice, entry: entry)
        } catch {
            await endUnkept(&coordinator, service)
            throw error
        }
    }

    /// Checks the grant with the profile, then stores the session and its server's description.
    private func keep(
        _ grant: TokenGrant, _ coordinator: inout LoginCoordinator, _ service: APIService,
        choice: ServerChoice, entry: ServerEntry?
    ) async throws(SwaggerError) -> LoginOutcome {
        let toStore = try await checked(coordinator.authenticated(grant, now: now()), &coordinator, service)
        let replacing = await readEarlier(toStore.account, &coordinator)
        let record: SessionRecord
        do throws(SwaggerError) {
            record = coordinator.tokensStored(in: try await tokens.store(toStore.credentials, for: toStore.account))
        } catch {
            throw message(for: coordinator.tokensNotStored(error))
        }
        do throws(SwaggerError) {
            // The server's description first: a record never names a server the registry does not describe.
            try servers.save(serverEntry(record, choice, previous: entry), current: true)
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
        case .saveAndShow(let outcome, let account):
            let profile = save(outcome, for: account)
            return LoginOutcome(
                account: account, profile: profile, endedEarlier: await endReplaced(coordinator, replacing, of: account)
            )
        case .fail(let failure): throw message(for: failure)
        }
    }

    /// The account's session here before this login, read before the new tokens take its place, with the service
    /// that would end it (its own certificate authority; its keys go in the revocation); `nil` when it had none.
    private func readEarlier(_ account: Account, _ coordinator: inout LoginCoordinator) async -> APIService? {
        guard let earlier = try? sessions.record(server: account.server, name: account.name) else { return nil }
        let credentials = (try? await tokens.credentials(for: earlier)) ?? nil
        coordinator.earlierSessionRead(earlier, credentials, now: now())
        return service(for: earlier)
    }

    /// Ends on the server the session this login replaced, as the coordinator says, or warns that it stays valid
    /// there; whether it was ended.
    private func endReplaced(_ coordinator: LoginCoordinator, _ service: APIService?, of account: Account)
        async -> Bool
    {
        switch coordinator.replacedSession() {
        case nil: return false
        case .stay(let leftover):
            warn(leftover.replacedLine(on: account.server, in: messageContext))
            return false
        case .revoke(let revocation):
            do throws(APIServiceError) {
                try await (service ?? self.service).revoke(revocation)
                return true
            } catch {
                warn(coordinator.replacedNotRevoked(error).replacedLine(on: revocation.server, in: messageContext))
                return false
            }
        }
    }

    /// Ends on the server the tokens of a login that failed after it was given them, which nothing here could end
    /// later; or says that they stay valid there.
    private func endUnkept(_ coordinator: inout LoginCoordinator, _ service: APIService) async {
        switch coordinator.unkeptTokens() {
        case nil: return
        case .stay(let leftover): warn(leftover.line(in: messageContext))
        case .revoke(let revocation):
            do throws(APIServiceError) {
                try await service.revoke(revocation)
            } catch {
                warn(coordinator.unkeptNotRevoked(error).line(in: messageContext))
            }
        }
    }

    /// Checks a new session with its profile, until the coordinator says what to store.
    private func checked(
        _ first: ProfileRequest, _ coordinator: inout LoginCoordinator, _ service: APIService
    ) async throws(SwaggerError) -> LoginCoordinator.StoreTokens {
        var check = first
        while true {
            let answer: Result<Profile, APIServiceError>
            do throws(APIServiceError) {
                answer = .success(try await service.profile(check))
            } catch {
                answer = .failure(error)
            }
            switch answer {
            case .success(let profile):
                switch coordinator.profileReceived(profile) {
                case .storeTokens(let tokens): return tokens
                case .fail(let failure): throw message(for: failure)
                }
            case .failure(let error):
                switch coordinator.profileFailed(error) {
                case .storeTokens(let tokens): return tokens
                // A token refused under one scheme is asked for once more under the scheme the server named.
                case .retryProfile(let again): check = again
                case .fail(let failure): throw message(for: failure)
                }
            }
        }
    }

    /// The registry's entry for the server a login just used: what the login was described by, where that came
    /// from, and a copy of the OpenAPI document it was found in; what `server set` gave before is kept.
    private func serverEntry(_ record: SessionRecord, _ choice: ServerChoice, previous: ServerEntry?) -> ServerEntry {
        var entry =
            previous
            ?? ServerEntry(server: record.server, description: choice.serverDescription, updatedAt: now())
        // The login's own, which may have learnt more than the choice said: the scheme a 401 named, a client secret.
        let description = record.serverDescription ?? choice.serverDescription
        // The other sessions kept under the server go where the login's description says from now on: their next
        // use says so, as the login did.
        if let previous {
            let moved = OriginRule.moved(record.server, from: previous.serverDescription, to: description)
            entry.announce += moved.filter { !entry.announce.contains($0) }
        }
        entry.serverDescription = description
        entry.updatedAt = now()
        if !choice.sources.isEmpty { entry.sources = choice.sources }
        if let fetched = choice.document, let url = choice.finding?.documents.first {
            entry.document = keepCopy(of: fetched, from: url, for: record.server) ?? entry.document
        }
        return entry
    }

    /// Keeps a copy of a server's OpenAPI document in the cache folder; `nil` when there is none, or it cannot be
    /// written, which costs only the copy.
    func keepCopy(of fetched: FetchedDocument, from url: URL, for server: ServerURL) -> DocumentCopy? {
        guard let cache = documents else { return nil }
        do {
            let file = try cache.save(fetched.body, for: server)
            return DocumentCopy(
                url: url, etag: fetched.etag, lastModified: fetched.lastModified, fetchedAt: now(), file: file)
        } catch {
            warn("a copy of \(url.absoluteString) could not be kept: \(error.message)")
            return nil
        }
    }

    /// Asks for a device code, shows it, and polls as ``DeviceFlow`` decides until the person has finished.
    private func deviceGrant(
        _ attempt: LoginAttempt, service: APIService, clientSecret: String?,
        show: @Sendable (DeviceAuthorization) -> Void
    ) async throws(SwaggerError) -> TokenGrant {
        let server = attempt.server
        let description = attempt.serverDescription
        guard description.deviceAuthorizationURL != nil else {
            throw SwaggerError.noDeviceAuthorization(server, description)
        }
        let authorization: DeviceAuthorization
        do throws(APIServiceError) {
            authorization = try await service.deviceAuthorization(
                description, clientSecret: clientSecret, server: server)
        } catch {
            throw error.rendered(on: server, account: nil, description: description, in: messageContext)
        }
        let issued = ContinuousClock.now
        show(authorization)
        var flow = DeviceFlow(authorization, server: server, description: description)
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
        _ attempt: LoginAttempt, service: APIService, clientSecret: String?,
        open: @Sendable (URL) -> Void, timeout: Duration
    ) async throws(SwaggerError) -> TokenGrant {
        let server = attempt.server
        let description = attempt.serverDescription
        guard let endpoint = description.authorizationURL, let clientID = description.clientID else {
            throw SwaggerError.noBrowserLogin(server, description)
        }
        let listener: LoopbackListener
        do throws(APIServiceError) {
            listener = try await LoopbackListener.open(path: "/callback")
        } catch {
            throw error.rendered(on: server, account: nil, description: description, in: messageContext)
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
        let warn = self.warn
        let decided = await Self.decision(on: listener, flow: flow, timeout: timeout, sleep: sleep, warn: warn)
        let code: String
        var answered: BrowserFlow
        switch decided {
        case .code(let taken, let flow):
            (code, answered) = (taken, flow)
        case .failed(let failure):
            await listener.close()
            throw message(for: failure)
        }
        // Until the code is spent, another answer is told it came too late, and the person is told of it: a page
        // that hands in a code of its own after the real one is worth a line.
        let latecomers = Task {
            for await callback in listener.callbacks {
                guard case .ignore(let page) = answered.received(callback.query) else { continue }
                callback.respond(LoopbackListener.Page(status: 409, text: page.text))
                warn(BrowserFlow.latecomerNotice)
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
            throw error.rendered(on: server, account: nil, description: description, in: messageContext)
        }
    }

    /// The first of: a request to the redirect that decides the login, or the deadline.
    private static func decision(
        on listener: LoopbackListener, flow: BrowserFlow, timeout: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void, warn: @escaping @Sendable (String) -> Void
    ) async -> BrowserDecision {
        await withTaskGroup(of: BrowserDecision?.self) { group in
            group.addTask {
                var flow = flow
                for await callback in listener.callbacks {
                    switch flow.received(callback.query) {
                    case .exchange(let code, let page):
                        callback.respond(LoopbackListener.Page(text: page.text))
                        return .code(code, flow)
                    case .fail(let failure, let page):
                        callback.respond(LoopbackListener.Page(status: 400, text: page.text))
                        return .failed(failure)
                    case .ignore(let page):
                        callback.respond(LoopbackListener.Page(status: 409, text: page.text))
                    case .turnAway(let page):
                        callback.respond(LoopbackListener.Page(status: 400, text: page.text))
                        warn(BrowserFlow.wrongStateNotice)
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
    }
}

/// What ended a browser login's wait.
private enum BrowserDecision: Sendable {
    /// The code, and the flow that took it, which answers any later request.
    case code(String, BrowserFlow)
    case failed(SessionFailure)
}
