import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("LoginCoordinator: every decision of a login, with no I/O", .timeLimit(.minutes(5)))
struct LoginCoordinatorTests {
    static let now = MainCoordinatorTests.now
    static let profile = MainCoordinatorTests.profile
    static let original = Fixtures.original()
    static let grant = TokenGrant(
        accessToken: MainCoordinatorTests.jwt(expiresIn: 900), refreshToken: "r1", username: "ana.h")

    static func request(
        _ account: Account = Fixtures.ana, description: ServerDescription = original, appIDFlag: String? = nil,
        environment: String? = nil, previous: SessionRecord? = nil, plainHTTPAllowed: Bool = false,
        clientSecret: String? = nil
    ) -> LoginCoordinator.Request {
        LoginCoordinator.Request(
            server: account.server, name: AccountName(account.name, isEmail: true), serverDescription: description,
            appIDFlag: appIDFlag, appIDFromEnvironment: environment, previous: previous,
            plainHTTP: PlainHTTP(allowed: plainHTTPAllowed), client: ClientProof(secret: clientSecret))
    }

    /// What `action` says to store, if it says to store anything.
    static func stored(_ action: LoginCoordinator.ProfileReceivedAction) -> LoginCoordinator.StoreTokens? {
        if case .storeTokens(let tokens) = action { tokens } else { nil }
    }

    /// A coordinator whose new session's profile request is in flight.
    static func checking(_ request: LoginCoordinator.Request = request(), grant: TokenGrant = grant)
        -> LoginCoordinator
    {
        var coordinator = LoginCoordinator()
        _ = coordinator.loginRequested(request)
        _ = coordinator.authenticated(grant, now: now)
        return coordinator
    }

    @Test("a login checks the profile with the new token, then stores the tokens, then the record, then shows")
    func login() {
        var coordinator = LoginCoordinator()
        #expect(
            coordinator.loginRequested(Self.request())
                == .authenticate(
                    LoginAttempt(
                        server: Fixtures.server, name: AccountName(Fixtures.ana.name, isEmail: true),
                        serverDescription: Self.original, appID: "swaggerctl-demo")))
        #expect(
            coordinator.authenticated(Self.grant, now: Self.now)
                == ProfileRequest(
                    server: Fixtures.server, serverDescription: Self.original,
                    accessToken: Self.grant.accessToken))
        #expect(
            coordinator.profileReceived(Self.profile)
                == .storeTokens(
                    LoginCoordinator.StoreTokens(account: Fixtures.ana, credentials: Self.grant.credentials)))
        let record = coordinator.tokensStored(in: .keyring)
        #expect(
            record
                == SessionRecord(
                    account: Fixtures.ana, appID: "swaggerctl-demo", username: "ana.h", backend: .keyring,
                    savedAt: Self.now, expiresAt: Self.now.addingTimeInterval(900), refreshable: true,
                    serverDescription: Fixtures.original()))
        #expect(
            coordinator.recordSaved()
                == .saveAndShow(
                    ProfileOutcome(
                        profile: Self.profile, origin: .server(renewed: false), labels: Self.original.profile.labels),
                    Fixtures.ana))
    }

    @Test(
        "the app id: --app-id, the server's entry's, SWAGGERCTL_APP_ID, the earlier session's, or swaggerctl-demo",
        arguments: [
            ("flag-app", "entry-app", "env-app", "saved-app", "flag-app"),
            ("flag-app", nil, nil, nil, "flag-app"),
            (nil, "entry-app", "env-app", "saved-app", "entry-app"),
            (nil, nil, "env-app", "saved-app", "env-app"),
            (nil, nil, "env-app", nil, "env-app"),
            (nil, nil, nil, "saved-app", "saved-app"),
            (nil, nil, nil, nil, "swaggerctl-demo"),
        ] as [(String?, String?, String?, String?, String)])
    func appID(flag: String?, entry: String?, environment: String?, saved: String?, expected: String) {
        var coordinator = LoginCoordinator()
        let previous = saved.map { Fixtures.record(Fixtures.ivo, appID: $0) }
        var request = Self.request(appIDFlag: flag, environment: environment, previous: previous)
        if let entry { request.entry = Self.entry(appID: entry) }
        guard case .authenticate(let attempt) = coordinator.loginRequested(request) else {
            Issue.record("a login to the loopback demo server is allowed")
            return
        }
        #expect(attempt.appID == expected)
    }

    static func entry(appID: String? = nil, caCertificate: String? = nil) -> ServerEntry {
        var entry = ServerEntry(server: Fixtures.server, description: original, updatedAt: now)
        entry.appID = appID
        entry.caCertificate = caCertificate
        return entry
    }

    @Test(
        "the certificate authority: --ca-cert or SWAGGERCTL_CA_CERT, the server's entry's, or the earlier session's",
        arguments: [
            ("/flag.pem", "/entry.pem", "/saved.pem", "/flag.pem"), (nil, "/entry.pem", "/saved.pem", "/entry.pem"),
            (nil, nil, "/saved.pem", "/saved.pem"), (nil, nil, nil, nil),
        ] as [(String?, String?, String?, String?)])
    func caCertificate(flag: String?, entry: String?, saved: String?, expected: String?) {
        var coordinator = LoginCoordinator()
        var previous = Fixtures.record(Fixtures.ivo)
        previous.caCertificate = saved
        var request = Self.request(previous: previous)
        request.caCertificate = flag
        if let entry { request.entry = Self.entry(caCertificate: entry) }
        _ = coordinator.loginRequested(request)
        _ = coordinator.authenticated(Self.grant, now: Self.now)
        _ = coordinator.profileReceived(Self.profile)
        #expect(coordinator.tokensStored(in: .keyring).caCertificate == expected)
    }

    @Test("a client that signs in as itself and is refused is named as the client; a person's refusal is not")
    func clientRefused() {
        var client = LoginCoordinator()
        var request = Self.request()
        request.asClient = true
        _ = client.loginRequested(request)
        #expect(
            client.authenticationFailed(.badCredentials(status: 401, message: nil))
                == .clientRefused(server: Fixtures.server, client: AccountName(Fixtures.ana.name, isEmail: true)))
        var person = LoginCoordinator()
        _ = person.loginRequested(Self.request())
        guard case .requestFailed = person.authenticationFailed(.badCredentials(status: 401, message: nil)) else {
            Issue.record("a person's refused password is the request's failure")
            return
        }
    }

    @Test(
        "the password goes over plain HTTP to another machine only when allowed; the allowance is saved where needed",
        arguments: [
            ("http://api.example.com/v1", false, nil, nil),
            ("http://api.example.com/v1", true, nil, true as Bool?),
            ("http://api.example.com/v1", false, true as Bool?, true as Bool?),
            ("https://api.example.com/v1", true, nil, nil),
            ("http://127.0.0.1:8080/api", true, nil, nil),
        ] as [(String, Bool, Bool?, Bool?)])
    func plainHTTP(server: String, allowed: Bool, previouslyAllowed: Bool?, saved: Bool?) {
        let account = Account(server: server, name: "ana@example.com")
        var previous = Fixtures.record(account)
        previous.allowsPlainHTTP = previouslyAllowed
        var coordinator = LoginCoordinator()
        let action = coordinator.loginRequested(
            Self.request(
                account, description: Fixtures.original(account.server), previous: previous, plainHTTPAllowed: allowed))
        guard case .authenticate = action else {
            #expect(action == .fail(.plainHTTPRefused(server: account.server, sending: .password)))
            #expect(!allowed && previouslyAllowed != true)
            return
        }
        _ = coordinator.authenticated(Self.grant, now: Self.now)
        _ = coordinator.profileReceived(Self.profile)
        #expect(coordinator.tokensStored(in: .file).allowsPlainHTTP == saved)
    }

    @Test(
        "the password goes to no origin but the server's and those allowed: a document's other host is refused",
        arguments: [
            ("https://evil.example:8443/login", nil, "login"), ("https://evil.example:8443/me", nil, "profile"),
            ("https://evil.example:8443/login", "https://evil.example:8443", nil),
            ("https://evil.example:8443/login", "evil.example", "login"),
            ("https://api.example.com/v2/login", nil, nil),
        ] as [(String, String?, String?)])
    func otherOrigin(endpoint: String, allowed: String?, refusedStep: String?) {
        let account = Account(server: "https://api.example.com/v1", name: "ana@example.com")
        let login = refusedStep == "profile" ? "https://api.example.com/v1/login" : endpoint
        let profile = refusedStep == "profile" ? endpoint : "https://api.example.com/v1/me"
        var json: JSONValue = ["login": ["url": .string(login)], "profile": ["url": .string(profile)]]
        if let allowed { json = json.merging(["allowedOrigins": [.string(allowed)]]) }
        let description = Fixtures.described(json, under: account.server)
        var coordinator = LoginCoordinator()
        let action = coordinator.loginRequested(Self.request(account, description: description))
        if let refusedStep {
            let origin = Fixtures.serverURL("https://evil.example:8443")
            #expect(
                action
                    == .fail(
                        .foreignOrigin(
                            server: account.server, OriginRule.Foreign(step: refusedStep, origin: origin),
                            sending: .password)))
        } else {
            guard case .authenticate = action else {
                Issue.record("refused \(action)")
                return
            }
        }
    }

    @Test("a login without a refresh token or a JWT records neither; expiresIn gives an opaque token's expiry")
    func opaqueToken() {
        // A lifetime that ends past year 9999 (500,000 years here) is no expiry at all.
        let cases: [(Duration?, Date?)] = [
            (nil, nil), (.seconds(3600), Self.now.addingTimeInterval(3600)), (.seconds(16_000_000_000_000), nil),
        ]
        for (lifetime, expiry) in cases {
            var coordinator = Self.checking(
                grant: TokenGrant(accessToken: "opaque", expiresIn: lifetime))
            _ = coordinator.profileReceived(Self.profile)
            let record = coordinator.tokensStored(in: .file)
            #expect(record.expiresAt == expiry)
            #expect(record.issuedAt == (expiry == nil ? nil : Self.now))
            #expect(record.refreshable == false)
        }
    }

    @Test("a client secret is kept with the tokens, and the description, saying the client uses one, with the record")
    func clientSecretAndDescription() {
        var coordinator = Self.checking(Self.request(description: Fixtures.identity, clientSecret: "s3cret"))
        let store = Self.stored(coordinator.profileReceived(Self.profile))
        #expect(store?.credentials.clientSecret == "s3cret")
        var expected = Fixtures.identity
        expected.usesClientSecret = true
        #expect(coordinator.tokensStored(in: .file).serverDescription == expected)
    }

    @Test("refused credentials, or a server that cannot be asked, fail the login; nothing is stored")
    func authenticationFailed() {
        for error in MainCoordinatorTests.everyError {
            var coordinator = LoginCoordinator()
            _ = coordinator.loginRequested(Self.request(description: Fixtures.identity))
            #expect(
                coordinator.authenticationFailed(error)
                    == .requestFailed(
                        error, server: Fixtures.server, account: Fixtures.ana.name, description: Fixtures.identity))
        }
    }

    @Test(
        "a profile request that fails after a good login stores the session all the same, and says so",
        arguments: MainCoordinatorTests.everyError)
    func halfLogin(error: APIServiceError) {
        var coordinator = Self.checking()
        #expect(
            coordinator.profileFailed(error)
                == .storeTokens(
                    LoginCoordinator.StoreTokens(account: Fixtures.ana, credentials: Self.grant.credentials)))
        let record = coordinator.tokensStored(in: .file)
        #expect(coordinator.recordSaved() == .fail(.profileAfterLogin(error, record)))
    }

    @Test("a login whose profile is not a profile stores nothing: no later command could use the session")
    func unusableProfile() {
        var coordinator = Self.checking(Self.request(description: Fixtures.identity))
        let error = APIServiceError.notAProfile("the profile is not a JSON object")
        #expect(coordinator.profileFailed(error) == .fail(.unusableProfile(error, Fixtures.ana, Fixtures.identity)))
    }

    @Test("tokens a failed login was given are revoked, or said to stay valid; kept or brought, they are left alone")
    func unkeptTokens() throws {
        // Nothing here could end them later: the server is asked to, as a logout would.
        var unusable = Self.checking()
        _ = unusable.profileFailed(.notAProfile("the profile is not a JSON object"))
        #expect(
            unusable.unkeptTokens()
                == .revoke(
                    Revocation(
                        server: Fixtures.server, serverDescription: Self.original, credentials: Self.grant.credentials))
        )
        let error = APIServiceError.unreachable("connection refused")
        let expiry = try #require(JWTClaims.expiry(of: Self.grant.accessToken))
        #expect(unusable.unkeptNotRevoked(error) == .init(until: expiry, failure: error))

        // A server with no revocation: the line says the token works on.
        var identity = Self.checking(Self.request(description: Fixtures.identity))
        _ = identity.profileFailed(.notAProfile("the profile is not a JSON object"))
        #expect(identity.unkeptTokens() == .stay(.init(until: expiry)))

        var notStored = Self.checking()
        _ = notStored.profileReceived(Self.profile)
        _ = notStored.tokensNotStored(SwaggerError(.failure, "The keyring is locked."))
        guard case .revoke = notStored.unkeptTokens() else {
            Issue.record("tokens that could not be stored were left on the server")
            return
        }

        var kept = Self.checking()
        _ = kept.profileReceived(Self.profile)
        _ = kept.tokensStored(in: .file)
        _ = kept.recordSaved()
        #expect(kept.unkeptTokens() == nil)
        var brought = Self.givenToken(nil)
        _ = brought.profileFailed(.notAProfile("the profile is not a JSON object"))
        #expect(brought.unkeptTokens() == nil, "a token the person brought is theirs")
    }

    /// What a login that found `earlier` (with `credentials`) before storing says of it once the new session is
    /// kept, and once it is not.
    static func replaced(
        _ earlier: SessionRecord, _ credentials: Credentials?, description: ServerDescription = original
    ) -> (kept: LoginCoordinator.Unkept?, unkept: LoginCoordinator.Unkept?) {
        var kept = Self.checking(Self.request(description: description))
        _ = kept.profileReceived(Self.profile)
        kept.earlierSessionRead(earlier, credentials, now: Self.now)
        #expect(kept.replacedSession() == nil, "nothing is said before the new session is kept")
        _ = kept.tokensStored(in: .file)
        _ = kept.recordSaved()
        var unkept = Self.checking(Self.request(description: description))
        _ = unkept.profileReceived(Self.profile)
        unkept.earlierSessionRead(earlier, credentials, now: Self.now)
        _ = unkept.tokensStored(in: .file)
        _ = unkept.recordNotSaved(SwaggerError(.failure, "The disk is full."))
        return (kept.replacedSession(), unkept.replacedSession())
    }

    @Test("a second login to the account ends its earlier session on the server once the new one is kept")
    func replacesEarlier() throws {
        let old = Credentials(accessToken: "old-access", refreshToken: "old-refresh")
        let soon = Self.now.addingTimeInterval(600)
        let earlier = Fixtures.record(Fixtures.ana, expiresAt: soon)
        let (kept, unkept) = Self.replaced(earlier, old)
        #expect(
            kept == .revoke(Revocation(server: Fixtures.server, serverDescription: Self.original, credentials: old)))
        #expect(unkept == nil, "a login that kept nothing replaced nothing")

        // Its revocation failed, or the server cannot revoke: it works on until it expires, or for good with a
        // refresh token.
        var coordinator = Self.checking()
        _ = coordinator.profileReceived(Self.profile)
        coordinator.earlierSessionRead(earlier, old, now: Self.now)
        _ = coordinator.tokensStored(in: .file)
        _ = coordinator.recordSaved()
        let error = APIServiceError.unreachable("connection refused")
        #expect(coordinator.replacedNotRevoked(error) == .init(until: nil, failure: error), "its refresh token lives")
        let identity = Fixtures.record(Fixtures.ana, expiresAt: soon, description: Fixtures.identity)
        #expect(Self.replaced(identity, old, description: Fixtures.identity).kept == .stay(.init(until: nil)))
        let access = Credentials(accessToken: "old-access")
        #expect(Self.replaced(identity, access, description: Fixtures.identity).kept == .stay(.init(until: soon)))
        let over = Fixtures.record(
            Fixtures.ana, expiresAt: Self.now.addingTimeInterval(-1), description: Fixtures.identity)
        #expect(Self.replaced(over, access, description: Fixtures.identity).kept == nil, "it has ended already")

        // Nothing of it lives on the server: its tokens are the new ones (a Basic pair, a token brought again),
        // or none could be read.
        #expect(Self.replaced(earlier, Self.grant.credentials).kept == nil)
        #expect(Self.replaced(earlier, nil).kept == nil)
        let basic = Fixtures.described(["preset": "rabbitmq"])
        let pair = Fixtures.record(Fixtures.ana, description: basic)
        #expect(Self.replaced(pair, Credentials(accessToken: "b2xkOnBhaXI="), description: basic).kept == nil)
    }

    @Test("tokens that cannot be stored stop the login with nothing stored")
    func tokensNotStored() {
        var coordinator = Self.checking()
        _ = coordinator.profileReceived(Self.profile)
        let error = SwaggerError(.failure, "The keyring is locked.")
        #expect(coordinator.tokensNotStored(error) == .notStored(Fixtures.ana, error))
    }

    @Test("a record that cannot be saved has its tokens removed from their backend, so nothing is left unlisted")
    func recordNotSaved() {
        var coordinator = Self.checking()
        _ = coordinator.profileReceived(Self.profile)
        _ = coordinator.tokensStored(in: .keyring)
        let error = SwaggerError(.failure, "The disk is full.")
        #expect(
            coordinator.recordNotSaved(error)
                == LoginCoordinator.DiscardTokens(
                    account: Fixtures.ana, backend: .keyring, failure: .notStored(Fixtures.ana, error)))
    }

    /// A description of a server whose last login was in the browser.
    static let browser: ServerDescription = {
        var description = Fixtures.described([
            "preset": "oauth2", "login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"],
            "allowedOrigins": ["https://idp"],
        ])
        description.signIn = .web
        return description
    }()

    /// A browser login of `name`, checking its profile.
    static func browserLogin(_ name: AccountName?, grant: TokenGrant = grant) -> LoginCoordinator {
        var coordinator = LoginCoordinator()
        _ = coordinator.loginRequested(
            LoginCoordinator.Request(server: Fixtures.server, name: name, serverDescription: browser))
        _ = coordinator.authenticated(grant, now: now)
        return coordinator
    }

    @Test(
        "a sign-in in the browser is kept under whoever signed in: the ID token's e-mail, user name or subject",
        arguments: [
            (#"{"sub":"s1","email":"ana@example.com"}"#, #"{"sub":"s1"}"#, "ana@example.com"),
            (#"{"sub":"s1","preferred_username":"ana"}"#, #"{}"#, "ana"),
            (#"{"sub":"s1"}"#, #"{"email":"other@example.com"}"#, "s1"),
            (nil, #"{"sub":"42","email":"ana@example.com"}"#, "ana@example.com"),
            (nil, #"{"username":"ana"}"#, "ana"),
        ] as [(String?, String, String)])
    func signedIn(idToken: String?, profile: String, account: String) throws {
        var grant = Self.grant
        grant.idToken = idToken.map(Fixtures.jwt(claims:))
        var coordinator = Self.browserLogin(nil, grant: grant)
        #expect(
            Self.stored(coordinator.profileReceived(try Fixtures.profile(profile)))?.account
                == Account(server: Fixtures.server, name: account))
    }

    @Test("a sign-in in the browser as someone else than -e names is refused, and nothing is stored")
    func otherAccount() throws {
        var grant = Self.grant
        grant.idToken = Fixtures.jwt(claims: #"{"sub":"s2","email":"mallory@example.com"}"#)
        var coordinator = Self.browserLogin(AccountName("ana@example.com", isEmail: true), grant: grant)
        #expect(
            coordinator.profileReceived(Self.profile)
                == .fail(
                    .otherAccountSignedIn(
                        server: Fixtures.server, asked: "ana@example.com", signedIn: "mallory@example.com")))
        // The name given matches without regard to case, and by user name or subject too.
        for given in ["ANA@example.com", "ana", "s1"] {
            grant.idToken = Fixtures.jwt(claims: #"{"sub":"s1","email":"ana@example.com","preferred_username":"ana"}"#)
            var matching = Self.browserLogin(AccountName(given, isEmail: given.contains("@")), grant: grant)
            #expect(Self.stored(matching.profileReceived(Self.profile))?.account.name == given)
        }
    }

    @Test("a sign-in in the browser that says nobody, with no account named, stores nothing; one named is kept")
    func unknownAccount() throws {
        var coordinator = Self.browserLogin(nil)
        #expect(
            coordinator.profileReceived(try Fixtures.profile(#"{"name":"Ana"}"#))
                == .fail(.unknownAccountSignedIn(server: Fixtures.server)))
        // A profile that cannot be read says nothing either.
        var failed = Self.browserLogin(nil)
        guard case .fail = failed.profileFailed(.serverFailed(status: 502)) else {
            Issue.record("stored a session of nobody")
            return
        }
        var named = Self.browserLogin(AccountName("ana", isEmail: false))
        #expect(Self.stored(named.profileReceived(try Fixtures.profile("{}")))?.account.name == "ana")
    }

    /// A login with a token the person brought (`--with-token`), named `name` or not, whose profile is in flight.
    static func givenToken(_ name: AccountName?) -> LoginCoordinator {
        var request = LoginCoordinator.Request(server: Fixtures.server, name: name, serverDescription: original)
        request.givenToken = true
        var coordinator = LoginCoordinator()
        _ = coordinator.loginRequested(request)
        _ = coordinator.authenticated(TokenGrant(accessToken: "given-token"), now: now)
        return coordinator
    }

    @Test("a token brought with --with-token is kept under whoever the profile names; refused, nothing is stored")
    func givenToken() throws {
        var unnamed = Self.givenToken(nil)
        let stored = Self.stored(unnamed.profileReceived(try Fixtures.profile(#"{"email":"ana@example.com"}"#)))
        #expect(
            stored
                == LoginCoordinator.StoreTokens(
                    account: Fixtures.ana, credentials: Credentials(accessToken: "given-token")))
        var misnamed = Self.givenToken(AccountName("ivo@example.com", isEmail: true))
        #expect(
            misnamed.profileReceived(try Fixtures.profile(#"{"email":"ana@example.com"}"#))
                == .fail(
                    .otherAccountSignedIn(
                        server: Fixtures.server, asked: "ivo@example.com", signedIn: "ana@example.com")))

        // Only the profile ever said the token was good: refused or unanswered, it is not stored, as a password
        // login's session would be.
        var refused = Self.givenToken(nil)
        let rejection = APIServiceError.tokenRejected(challenge: nil)
        #expect(refused.profileFailed(rejection) == .fail(.tokenRefused(server: Fixtures.server, rejection)))
        var down = Self.givenToken(nil)
        #expect(
            down.profileFailed(.serverFailed(status: 502))
                == .fail(
                    .requestFailed(
                        .serverFailed(status: 502), server: Fixtures.server, account: nil, description: Self.original)))
    }

    @Test("a fresh token refused with a challenge for another scheme is sent once more with it, which is kept")
    func challenge() {
        var coordinator = Self.checking(Self.request(description: Fixtures.identity))
        guard case .retryProfile(let again) = coordinator.profileFailed(.tokenRejected(challenge: "token")) else {
            Issue.record("not asked again")
            return
        }
        #expect(again.serverDescription.token == TokenUse(header: "Authorization", scheme: "Token"))
        #expect(again.accessToken == Self.grant.accessToken)
        _ = coordinator.profileReceived(Self.profile)
        #expect(coordinator.tokensStored(in: .file).serverDescription?.token.scheme == "Token")

        // Once only, and never for a scheme already sent, or one that puts the token elsewhere.
        for (first, second) in [("token", "bearer"), ("bearer", nil), ("apikey", nil)] as [(String, String?)] {
            var refused = Self.checking(Self.request(description: Fixtures.identity))
            let action = refused.profileFailed(.tokenRejected(challenge: first))
            if case .retryProfile = action, let second {
                guard case .storeTokens = refused.profileFailed(.tokenRejected(challenge: second)) else {
                    Issue.record("asked a third time")
                    continue
                }
            } else {
                #expect(second == nil, "\(first)")
                guard case .storeTokens = action else {
                    Issue.record("asked again for \(first)")
                    continue
                }
            }
        }
    }

    @Test("an event that cannot happen in the current state stops the process")
    func eventInWrongState() async {
        await #expect(processExitsWith: .failure) {
            var coordinator = LoginCoordinator()
            _ = coordinator.tokensStored(in: .file)
        }
    }
}
