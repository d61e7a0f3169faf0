import FoundationEssentials
import NIOHTTP1
import SwaggerModel

/// The one interpreter of a server's description: each step's request is made from its template with the step's
/// inputs, sent by ``APIService/send(_:)``, and its answer read with the step's yields and criteria. Nothing here
/// names a server family: what differs between servers is in their descriptions.
///
/// What stays code is protocol, the same for every server that speaks it: how an OAuth 2 client proves itself in a
/// form (RFC 6749 §2.3, RFC 7523, RFC 8705), the token type a Bearer client takes (RFC 6749 §7.1) and a DPoP one
/// needs (RFC 9449), and what the statuses of a login, a refresh and a revocation mean when no criterion says.
struct DescribedAPI {
    let description: ServerDescription

    /// The values a step's templates take: the session's inputs and what its earlier answers yielded.
    struct Inputs {
        private var values: [String: String]

        /// `account` is the account as given, `username` and `email` only as a user name (`-u`) or an e-mail (`-e`);
        /// `basic` is RFC 7617's base64 of the account and the password.
        init(
            account: AccountName? = nil, password: String? = nil, access: String? = nil, refresh: String? = nil,
            appID: String? = nil, outputs: [String: String] = [:], description: ServerDescription
        ) {
            values = outputs.filter { !Yield.standard.contains($0.key) }
            if let account {
                values["account"] = account.value
                values[account.isEmail ? "email" : "username"] = account.value
                if let password { values["basic"] = Data("\(account.value):\(password)".utf8).base64EncodedString() }
            }
            values["password"] = password
            values["access"] = access
            values["refresh"] = refresh
            values["app_id"] = appID
            values["client_id"] = description.clientID
            values["scope"] = description.scope
        }

        subscript(_ name: String) -> String? { values[name] }

        /// Whether every input `template` needs has a value.
        func satisfy(_ template: RequestTemplate) -> Bool {
            template.required.allSatisfy { values[$0] != nil }
        }
    }

    /// How a request's answer is read when its status is not a success, beside what its kind means.
    struct Outcomes {
        /// Answers that count as a success all the same: a revocation's "revoked" and "gone".
        var success: [Criterion] = []
        /// Answers that refuse the credentials (exit 4): a login's.
        var refused: [Criterion] = []
        /// Answers that say the session has ended: a refresh's.
        var ended: [Criterion] = []
    }

    // MARK: The steps

    /// Signs in as the login's request says; a login that sends nothing is checked by the profile's request. Refused
    /// credentials are ``APIServiceError/badCredentials(status:message:)``.
    func login(_ attempt: LoginAttempt, password: String, client: ClientProof, through service: APIService)
        async throws(APIServiceError) -> TokenGrant
    {
        let login = description.login
        let inputs = Inputs(
            account: attempt.accountName, password: password, appID: attempt.appID, description: description)
        guard let template = login.request else {
            return try await checkedByProfile(attempt, inputs: inputs, through: service)
        }
        return try await tokens(
            template, inputs, yields: login.yields, client: client, alias: description.mtls.token,
            operation: .login, outcomes: Outcomes(refused: login.refused), secrets: [password] + client.secrets,
            server: attempt.server, through: service)
    }

    /// Asks the token endpoint for tokens for the client itself (RFC 6749 §4.4), at login and at each renewal.
    func clientCredentials(
        _ client: ClientProof, server: ServerURL, operation: APIService.Operation,
        through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        try await grant(
            [("grant_type", "client_credentials")], scope: true, client: client, operation: operation, secrets: [],
            server: server, through: service)
    }

    /// An OAuth 2 grant's token request (RFC 6749 §4): `fields` in a form to the token endpoint, the login's
    /// address, with the client's proof, read as the login's answer is.
    func grant(
        _ fields: [(String, String)], scope: Bool, client: ClientProof, operation: APIService.Operation,
        secrets: [String?], server: ServerURL, through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        let url = try tokenEndpoint(for: client)
        var form = fields
        if scope, let value = description.scope { form.append(("scope", value)) }
        let proven = try APIService.clientForm(description, client, to: url, fields: form, scope: false)
        let request = OutgoingRequest(
            .POST, url, headers: proven.headers, body: proven.body,
            secrets: secrets + client.secrets + [proven.assertion],
            yields: description.login.yields, server: server)
        return try await read(
            request, yields: description.login.yields, operation: operation, outcomes: Outcomes(), through: service)
    }

    /// Spends the refresh token as the refresh's request says. A refused refresh (a 401, OAuth 2's `invalid_grant`,
    /// or what the refresh's `ended` criteria say) is ``APIServiceError/refreshRejected``.
    func refresh(_ request: RefreshRequest, through service: APIService) async throws(APIServiceError) -> TokenGrant {
        let refreshToken: String
        switch request.renewal {
        case .refreshToken(let token): refreshToken = token
        case .clientCredentials:
            // A refusal now is the client's, whose proof no longer holds: the session has ended.
            do throws(APIServiceError) {
                return try await clientCredentials(
                    request.client, server: request.server, operation: .login, through: service)
            } catch {
                if case .badCredentials = error { throw .refreshRejected }
                throw error
            }
        }
        guard let step = description.refresh else { throw .refreshRejected }
        let inputs = Inputs(
            refresh: refreshToken, appID: request.appID, outputs: request.outputs, description: description)
        return try await tokens(
            step.request, inputs, yields: step.yields ?? description.login.yields, client: request.client,
            alias: description.mtls.token, operation: step.isGrant ? .oauth2Refresh : .refresh,
            outcomes: Outcomes(ended: step.ended), secrets: [refreshToken] + request.client.secrets,
            server: request.server, through: service)
    }

    /// Ends the session with the revocation's requests, in order, each one whose tokens the session has. A refusal
    /// of a request that ``RevocationStep/Request/mayBeRefused`` is forgiven when a later one succeeds.
    func revoke(_ revocation: Revocation, through service: APIService) async throws(APIServiceError) {
        guard let step = description.revocation else { return }
        let credentials = revocation.credentials
        let inputs = Inputs(
            access: credentials.accessToken, refresh: credentials.refreshToken, outputs: revocation.outputs,
            description: description)
        let secrets = [credentials.accessToken, credentials.refreshToken] + credentials.client.secrets
        var refused: APIServiceError?
        for request in step.requests where inputs.satisfy(request.template) {
            let template = request.template
            // RFC 7009 §2.1: a client that proves itself with the access token sends it as the bearer, and no
            // other proof; one proven by its certificate revokes where the server asks for it.
            let bearer = template.client && step.clientAuthentication == .bearer
            let alias = credentials.clientKey?.certificate == nil ? nil : description.mtls.revocation
            var outgoing = try make(
                template, inputs, client: bearer ? ClientProof() : credentials.client,
                method: bearer ? ClientAuthentication.none : step.clientAuthentication, alias: alias,
                secrets: secrets, server: revocation.server)
            if bearer, let access = credentials.accessToken {
                outgoing.credential = Credential(token: access, use: .bearer)
            }
            let response = try await service.send(outgoing)
            // A token that goes beside a body authenticates the request, and its refusal is the token's; otherwise
            // what is refused is the revocation.
            let kind: APIService.Operation = template.token != nil && template.body != nil ? .bearer : .revocation
            do throws(APIServiceError) {
                try service.requireSuccess(response, kind, outcomes: Outcomes(success: step.revoked + step.gone))
                refused = nil
            } catch {
                guard request.mayBeRefused, (400..<500).contains(response.status) else { throw error }
                refused = error
            }
        }
        if let refused { throw refused }
    }

    /// Reads the profile as the profile's request says, retried on 429, 502, 503 and 504 as every profile is: the
    /// answer's object, or the object the description unwraps, with the command's secrets hidden in it. An answer
    /// that is not a JSON object is ``APIServiceError/notAProfile(_:)``.
    func profile(_ request: ProfileRequest, through service: APIService) async throws(APIServiceError) -> Profile {
        // A client that signed in as itself has no person to ask the server about; its token says who it is.
        if let client = request.client { return Profile(client: client, token: request.accessToken) }
        let step = description.profile
        let inputs = Inputs(access: request.accessToken, outputs: request.outputs, description: description)
        var outgoing = try make(
            step.request, inputs, client: nil, method: nil, alias: nil, secrets: [], server: request.server)
        outgoing.retries = true
        let response = try await service.send(outgoing)
        try service.requireSuccess(response, .profile)
        let profile = try service.reading { () throws(APIServiceError) in
            try Profile(answer: response.body, contentType: response.header("Content-Type"), unwrapping: step.unwrap)
        }
        // A server that quotes what the request carried (a Basic sign-in's password, the token) gets it hidden in
        // the table, in `--json`, and in the copy kept on disk.
        return service.secretBook.scrub(profile)
    }

    /// A login that sends nothing: its yields are the inputs' (the account and the password, by HTTP Basic), and the
    /// profile's request, carrying them, checks them. A refusal (401, 403) is refused credentials, and so is an
    /// answer without the member the profile is in, as Kinto answers its root without `user` when it does not know
    /// who asks. What the yields made is the session's token from then on, kept where tokens are kept.
    private func checkedByProfile(_ attempt: LoginAttempt, inputs: Inputs, through service: APIService)
        async throws(APIServiceError) -> TokenGrant
    {
        guard
            case .string(let access)? = description.login.yields[Yield.access]?.value(in: nil, inputs: { inputs[$0] }),
            Credentials.isToken(access)
        else { throw .contractViolation("the login yields no access token from what it was given") }
        let request = ProfileRequest(server: attempt.server, serverDescription: description, accessToken: access)
        do throws(APIServiceError) {
            _ = try await profile(request, through: service)
        } catch {
            switch error {
            case .tokenRejected, .forbidden: throw .badCredentials(status: 401, message: nil)
            case .notAProfile where description.profile.unwrap != nil: throw .badCredentials(status: 200, message: nil)
            default: throw error
            }
        }
        return TokenGrant(accessToken: access)
    }

    // MARK: Requests and answers

    /// The request `template` makes with `inputs`: its body typed, a form's client proof added as `method` says
    /// (else as the description says), its token carried as the description's token goes.
    /// - Parameter alias: Where a request that proves a client by its certificate goes instead (RFC 8705 §5).
    func make(
        _ template: RequestTemplate, _ inputs: Inputs, client: ClientProof?, method: ClientAuthentication?,
        alias: URL?, secrets: [String?], server: ServerURL
    ) throws(APIServiceError) -> OutgoingRequest {
        let expanded: RequestTemplate.Expanded
        switch template.expanded({ inputs[$0] }) {
        case .success(let request): expanded = request
        case .failure(let missing):
            throw .contractViolation("the description's request to \(template.address) needs {\(missing.name)}")
        }
        var url = expanded.url
        if template.client, client?.key?.certificate != nil, let alias { url = alias }
        var headers = HTTPHeaders()
        var body = expanded.body
        var assertion: String?
        switch template.body {
        case .json?: headers.add(name: "Content-Type", value: "application/json")
        case .form? where template.client:
            let proven = try APIService.clientForm(
                description, client ?? ClientProof(), to: url, fields: expanded.form ?? [], scope: false, method: method
            )
            headers = proven.headers
            body = proven.body
            assertion = proven.assertion
        case .form?: headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        case nil: break
        }
        if !headers.contains(name: "Accept") { headers.add(name: "Accept", value: "application/json") }
        for field in expanded.headers { headers.replaceOrAdd(name: field.name, value: field.value) }
        return OutgoingRequest(
            HTTPMethod(rawValue: expanded.method), url, headers: headers, body: body,
            credential: expanded.token.map { Credential(token: $0, use: template.tokenUse ?? description.token) },
            secrets: secrets + [assertion], server: server)
    }

    /// Sends a login's or refresh's request, and reads its tokens as `yields` says.
    func tokens(
        _ template: RequestTemplate, _ inputs: Inputs, yields: [String: Yield], client: ClientProof, alias: URL?,
        operation: APIService.Operation, outcomes: Outcomes, secrets: [String?], server: ServerURL,
        through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        var request = try make(
            template, inputs, client: client, method: nil, alias: alias, secrets: secrets, server: server)
        request.yields = yields
        return try await read(
            request, yields: yields, inputs: inputs, operation: operation, outcomes: outcomes, through: service)
    }

    /// Sends `request` and reads the tokens of its answer.
    private func read(
        _ request: OutgoingRequest, yields: [String: Yield], inputs: Inputs? = nil,
        operation: APIService.Operation, outcomes: Outcomes, through service: APIService
    ) async throws(APIServiceError) -> TokenGrant {
        let response = try await service.send(request)
        try service.requireSuccess(response, operation, outcomes: outcomes)
        return try service.reading { () throws(APIServiceError) in
            try TokenAnswer.grant(
                from: response, yields: yields, inputs: { inputs?[$0] },
                operation: operation == .login ? "login" : "refresh",
                bound: service.proofKey != nil)
        }
    }

    /// The token endpoint for `client`: the login's address, or its alias for certificates (RFC 8705 §5) where the
    /// client proves itself with one and the server names one.
    func tokenEndpoint(for client: ClientProof) throws(APIServiceError) -> URL {
        guard let url = description.login.url else {
            throw .contractViolation("the description names no token endpoint")
        }
        return client.key?.certificate == nil ? url : description.mtls.token ?? url
    }
}

extension APIService {
    /// A form to `endpoint` from the description's client: `fields`, the `scope` where wanted, and the client's
    /// proof, as `method` says, else as the description says, else as the proof allows: a private key signs an
    /// assertion (RFC 7523) or, with its certificate, is shown in TLS (RFC 8705); a secret goes by HTTP Basic
    /// (RFC 6749 §2.3.1); a public client sends its `client_id`.
    static func clientForm(
        _ description: ServerDescription, _ client: ClientProof, to endpoint: URL, fields: [(String, String)],
        scope: Bool, method: ClientAuthentication? = nil
    ) throws(APIServiceError) -> (headers: HTTPHeaders, body: Data, assertion: String?) {
        var fields = fields
        var assertion: String?
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if scope, let value = description.scope { fields.append(("scope", value)) }
        let clientID = description.clientID
        switch (method ?? description.clientAuthentication ?? Self.authentication(of: client), clientID) {
        case (.basic, let clientID?) where client.secret != nil:
            let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(client.secret ?? "")
            headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        case (.post, let clientID?) where client.secret != nil:
            fields += [("client_id", clientID), ("client_secret", client.secret ?? "")]
        case (.privateKeyJWT, let clientID?) where client.key != nil:
            guard let key = client.key else { break }
            let signed = try ClientAssertion.make(key, clientID: clientID, endpoint: endpoint, now: Date())
            fields += [
                ("client_id", clientID), ("client_assertion_type", ClientAssertion.type), ("client_assertion", signed),
            ]
            assertion = signed
        default:
            // A public client, a client proven in TLS, and one whose proof is not at hand name themselves.
            if let clientID { fields.append(("client_id", clientID)) }
        }
        headers.add(name: "Accept", value: "application/json")
        // The assertion goes back for the request's secrets: good for a minute, it is hidden wherever the request is
        // shown, as a secret is.
        return (headers, Data(FormEncoding.encode(fields).utf8), assertion)
    }

    /// How a client with `proof` proves itself when nothing says how.
    static func authentication(of proof: ClientProof) -> ClientAuthentication {
        if let key = proof.key { return key.certificate == nil ? .privateKeyJWT : .tlsClientAuth }
        return proof.secret == nil ? .none : .basic
    }
}
