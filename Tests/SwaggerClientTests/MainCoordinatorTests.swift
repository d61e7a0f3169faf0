import Foundation
import Testing

@testable import SwaggerClient

@Suite("MainCoordinator: every decision, with no I/O")
struct MainCoordinatorTests {
    typealias Coordinator = MainCoordinator

    /// 2033-05-18T03:33:20Z.
    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let profile = Profile(fields: ["id": .integer(1024), "name": .string("Ana")])

    /// A record whose access token expires `offset` seconds from ``now``, or whose expiry is unknown.
    static func record(expiresIn offset: TimeInterval?, refreshable: Bool? = true) -> SessionRecord {
        var record = Fixtures.record(Fixtures.ana, expiresAt: offset.map { now.addingTimeInterval($0) })
        record.refreshable = refreshable
        return record
    }

    static let fresh = record(expiresIn: 600)
    static let expired = record(expiresIn: -5)
    static let stored = Credentials(accessToken: "old-access", refreshToken: "old-refresh")

    static let everyError: [APIServiceError] = [
        .badCredentials(status: 401, message: nil), .tokenRejected, .forbidden(message: "disabled"),
        .refreshRejected, .requestRejected(status: 400, message: "appId is required"),
        .redirected(status: 302, location: "https://elsewhere.example/api"), .serverFailed(status: 503),
        .contractViolation("the profile is not a JSON object"), .unreachable("connection refused"), .timedOut,
        .tls(.untrusted),
    ]
    static let unreachable: [APIServiceError] = [.unreachable("connection refused"), .timedOut]

    /// An unsigned JWT whose only claim is `exp`, ``now`` plus `offset`.
    static func jwt(expiresIn offset: TimeInterval) -> String {
        SessionStatusTests.jwt(exp: Int(now.timeIntervalSince1970 + offset))
    }

    /// A coordinator with a stored session, waiting for the refresh lock for the reason given.
    static func waitingForLock(
        _ record: SessionRecord, purpose: Coordinator.Purpose = .profile(allowSaved: true), after401: Bool = false
    ) -> Coordinator {
        var coordinator = Coordinator()
        if after401 {
            #expect(coordinator.start(.stored(record), for: purpose, now: now) == .readAccessToken(record))
            _ = coordinator.tokenRead(stored.accessToken)
            #expect(coordinator.profileFailed(.tokenRejected) == .lockForRefresh(record.account))
        } else {
            #expect(coordinator.start(.stored(record), for: purpose, now: now) == .lockForRefresh(record.account))
        }
        return coordinator
    }

    /// A coordinator whose profile request with the stored access token is in flight.
    static func fetching(_ record: SessionRecord, purpose: Coordinator.Purpose = .profile(allowSaved: true))
        -> Coordinator
    {
        var coordinator = Coordinator()
        _ = coordinator.start(.stored(record), for: purpose, now: now)
        _ = coordinator.tokenRead(stored.accessToken)
        return coordinator
    }

    /// A coordinator whose refresh request for `record` is in flight.
    static func refreshing(_ record: SessionRecord, purpose: Coordinator.Purpose = .profile(allowSaved: true))
        -> Coordinator
    {
        var coordinator = waitingForLock(record, purpose: purpose)
        _ = coordinator.lockTaken(record: record, credentials: stored, now: now)
        return coordinator
    }

    // MARK: - Login

    @Test("a login checks the profile with the new token, then stores the session, then saves the profile")
    func login() throws {
        var coordinator = Coordinator()
        coordinator.loginRequested(Fixtures.ana, appID: "my-app")
        let token = Self.jwt(expiresIn: 900)
        let answer = APIService.Login(
            credentials: Credentials(accessToken: token, refreshToken: "r1"), username: "ana.h")

        #expect(
            coordinator.authenticated(answer, now: Self.now)
                == .fetchProfile(server: Fixtures.server, dialect: nil, accessToken: token))
        guard case .storeNewSession(let session) = coordinator.profileReceived(Self.profile) else {
            Issue.record("a login's profile stores the session")
            return
        }
        #expect(session.credentials == Credentials(accessToken: token, refreshToken: "r1"))
        let record = coordinator.tokensStored(in: .secretService)
        #expect(
            record
                == SessionRecord(
                    account: Fixtures.ana, appId: "my-app", username: "ana.h", keystore: .secretService,
                    savedAt: Self.now, expiresAt: Self.now.addingTimeInterval(900), refreshable: true))
        #expect(
            coordinator.sessionSaved()
                == .saveAndShow(.init(profile: Self.profile, origin: .server(refreshed: false)), Fixtures.ana))
    }

    @Test("a login without a refresh token or a JWT records neither; expiresIn gives an opaque token's expiry")
    func loginWithOpaqueToken() {
        for (lifetime, expiry) in [(nil, nil), (Duration.seconds(3600), Self.now.addingTimeInterval(3600))] {
            var coordinator = Coordinator()
            coordinator.loginRequested(Fixtures.ana, appID: "app")
            let answer = APIService.Login(credentials: Credentials(accessToken: "opaque"), expiresIn: lifetime)
            _ = coordinator.authenticated(answer, now: Self.now)
            _ = coordinator.profileReceived(Self.profile)
            let record = coordinator.tokensStored(in: .file)
            #expect(record.expiresAt == expiry)
            #expect(record.issuedAt == (lifetime == nil ? nil : Self.now))
            #expect(record.refreshable == false)
        }
    }

    @Test(
        "a profile request that fails after a good login stores the session all the same, and says so",
        arguments: everyError)
    func halfLogin(error: APIServiceError) {
        var coordinator = Coordinator()
        coordinator.loginRequested(Fixtures.ana, appID: "app")
        _ = coordinator.authenticated(APIService.Login(credentials: Self.stored), now: Self.now)

        guard case .storeNewSession(let session) = coordinator.profileFailed(error) else {
            Issue.record("a login whose profile failed so stores its session")
            return
        }
        #expect(session.credentials == Self.stored)
        let record = coordinator.tokensStored(in: .file)
        #expect(coordinator.sessionSaved() == .fail(.profileAfterLogin(error, record)))
    }

    @Test("a login whose profile is not a profile stores nothing: no later command could use the session")
    func unusableProfile() {
        let dialect = Fixtures.identity
        var coordinator = Coordinator()
        coordinator.loginRequested(Fixtures.ana, appID: "app", dialect: dialect)
        #expect(
            coordinator.authenticated(APIService.Login(credentials: Self.stored), now: Self.now)
                == .fetchProfile(server: Fixtures.server, dialect: dialect, accessToken: Self.stored.accessToken))
        let error = APIServiceError.notAProfile("the profile is not a JSON object")
        #expect(coordinator.profileFailed(error) == .fail(.unusableProfile(error, Fixtures.ana, dialect: dialect)))
    }

    @Test("another kind's session carries its dialect to the profile request and the refresh, with its secret")
    func dialectFlows() throws {
        var record = Self.record(expiresIn: -10)
        record.dialect = Fixtures.identity
        let credentials = Credentials(accessToken: "a1", refreshToken: "r1", clientSecret: "s3cret")
        var coordinator = Coordinator()
        #expect(
            coordinator.start(.stored(record), for: .profile(allowSaved: true), now: Self.now)
                == .lockForRefresh(Fixtures.ana))
        #expect(
            coordinator.lockTaken(record: record, credentials: credentials, now: Self.now)
                == .refresh(
                    .init(
                        server: Fixtures.server, refreshToken: "r1", appID: record.appId, dialect: Fixtures.identity,
                        clientSecret: "s3cret")))
        let renewed = coordinator.refreshed(
            APIService.Login(credentials: Credentials(accessToken: "a2", refreshToken: "r2"), expiresIn: .seconds(60)),
            now: Self.now)
        #expect(renewed.credentials == Credentials(accessToken: "a2", refreshToken: "r2", clientSecret: "s3cret"))
        #expect(renewed.record.expiresAt == Self.now.addingTimeInterval(60))
        #expect(
            coordinator.rotationStored()
                == .fetchProfile(server: Fixtures.server, dialect: Fixtures.identity, accessToken: "a2"))
        guard case .saveAndShow(let outcome, _) = coordinator.profileReceived(Self.profile) else {
            Issue.record("a stored session's profile is saved")
            return
        }
        #expect(outcome.kind == .identity)
    }

    // MARK: - Starting with a stored session

    @Test(
        "the access token is refreshed first when it has expired or expires within 30 s; else only it is read",
        arguments: [
            (-600, true), (-1, true), (0, true), (29, true), (30, true), (31, false), (3600, false), (nil, false),
        ] as [(TimeInterval?, Bool)])
    func refreshBeforeUse(expiresIn offset: TimeInterval?, refreshes: Bool) {
        let record = Self.record(expiresIn: offset)
        for purpose in [Coordinator.Purpose.profile(allowSaved: true), .profile(allowSaved: false), .token] {
            var coordinator = Coordinator()
            #expect(
                coordinator.start(.stored(record), for: purpose, now: Self.now)
                    == (refreshes ? .lockForRefresh(Fixtures.ana) : .readAccessToken(record)))
        }
    }

    @Test(
        "a token that lives less than a minute is refreshed in the second half of its life, not at every use",
        arguments: [(1.5, false), (1.01, false), (1, true), (0.5, true), (-1, true)] as [(TimeInterval, Bool)])
    func shortLivedToken(expiresIn offset: TimeInterval, refreshes: Bool) {
        var record = Self.record(expiresIn: offset)
        record.issuedAt = Self.now.addingTimeInterval(offset - 2)
        var coordinator = Coordinator()
        #expect(
            coordinator.start(.stored(record), for: .token, now: Self.now)
                == (refreshes ? .lockForRefresh(Fixtures.ana) : .readAccessToken(record)))
    }

    @Test("a fresh token is fetched with for the profile, and handed over for token")
    func freshToken() {
        var details = Coordinator()
        _ = details.start(.stored(Self.fresh), for: .profile(allowSaved: true), now: Self.now)
        #expect(
            details.tokenRead("access")
                == .use(.fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "access")))
        #expect(
            details.profileReceived(Self.profile)
                == .saveAndShow(.init(profile: Self.profile, origin: .server(refreshed: false)), Fixtures.ana))

        var token = Coordinator()
        _ = token.start(.stored(Self.fresh), for: .token, now: Self.now)
        #expect(token.tokenRead("access") == .use(.deliver(accessToken: "access")))
    }

    @Test("a record whose token is in no store is reported, not removed")
    func noStoredToken() {
        var coordinator = Coordinator()
        _ = coordinator.start(.stored(Self.fresh), for: .token, now: Self.now)
        #expect(coordinator.tokenRead(nil) == .fail(.noStoredToken(Self.fresh)))
    }

    // MARK: - Under the refresh lock

    @Test("under the lock, an unchanged session is refreshed with the refresh token read there")
    func refreshesWhenUnchanged() {
        var coordinator = Self.waitingForLock(Self.expired)
        #expect(
            coordinator.lockTaken(record: Self.expired, credentials: Self.stored, now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "old-refresh", appID: "swaggerctl-demo")))
    }

    @Test(
        "under the lock, tokens another process stored meanwhile are used and not refreshed again",
        arguments: [Coordinator.Purpose.profile(allowSaved: true), .token, .request])
    func usesAnotherProcessTokens(purpose: Coordinator.Purpose) {
        // The other process's token lives for 2 s only: less than the margin, but it is new, so it is used.
        var renewed = Self.record(expiresIn: 2)
        renewed.username = "changed"
        let theirs = Credentials(accessToken: "their-access", refreshToken: "their-refresh")
        var coordinator = Self.waitingForLock(Self.expired, purpose: purpose)

        let action = coordinator.lockTaken(record: renewed, credentials: theirs, now: Self.now)

        switch purpose {
        case .profile:
            #expect(action == .use(.fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "their-access")))
            // Used after a refresh: a 401 now ends the session instead of refreshing again.
            #expect(
                coordinator.profileFailed(.tokenRejected) == .endSession(.init(record: renewed, reason: .tokenRejected))
            )
        case .token:
            #expect(action == .use(.deliver(accessToken: "their-access")))
        case .request:
            #expect(action == .use(.send(accessToken: "their-access")))
            #expect(coordinator.responseReceived(status: 401) == .answered)
        }
    }

    @Test("under the lock, a changed session whose token has run out is refreshed all the same")
    func changedButExpired() {
        let renewed = Self.record(expiresIn: -1)
        var coordinator = Self.waitingForLock(Self.expired)
        #expect(
            coordinator.lockTaken(
                record: renewed, credentials: Credentials(accessToken: "a", refreshToken: "r2"), now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "r2", appID: "swaggerctl-demo")))
    }

    @Test("after a 401, a different stored token is used; the same one is refreshed")
    func after401() {
        var replaced = Self.waitingForLock(Self.fresh, after401: true)
        #expect(
            replaced.lockTaken(
                record: Self.fresh, credentials: Credentials(accessToken: "newer", refreshToken: "r"), now: Self.now)
                == .use(.fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "newer")))

        var same = Self.waitingForLock(Self.fresh, after401: true)
        #expect(
            same.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "old-refresh", appID: "swaggerctl-demo")))
    }

    @Test("with no refresh token: a 401 ends the session; an expired profile request is tried; token fails")
    func noRefreshToken() {
        let bare = Credentials(accessToken: "old-access")
        var after401 = Self.waitingForLock(Self.fresh, after401: true)
        #expect(
            after401.lockTaken(record: Self.fresh, credentials: bare, now: Self.now)
                == .endSession(.init(record: Self.fresh, reason: .tokenRejected)))

        var profile = Self.waitingForLock(Self.expired)
        #expect(
            profile.lockTaken(record: Self.expired, credentials: bare, now: Self.now)
                == .use(.fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "old-access")))
        #expect(
            profile.profileFailed(.tokenRejected) == .endSession(.init(record: Self.expired, reason: .tokenRejected)))

        var token = Self.waitingForLock(Self.expired, purpose: .token)
        #expect(
            token.lockTaken(record: Self.expired, credentials: bare, now: Self.now)
                == .fail(.expiredWithoutRefreshToken(Self.expired)))
    }

    @Test("a session that disappeared, or lost its token, while waiting for the lock is reported")
    func goneWhileWaiting() {
        var gone = Self.waitingForLock(Self.expired)
        #expect(gone.lockTaken(record: nil, credentials: nil, now: Self.now) == .fail(.sessionGone(Fixtures.ana)))

        var tokenless = Self.waitingForLock(Self.expired)
        #expect(
            tokenless.lockTaken(record: Self.expired, credentials: nil, now: Self.now)
                == .fail(.noStoredToken(Self.expired)))
    }

    @Test("refresh asked for by the person refreshes even a fresh token that another process just renewed")
    func forcedRefresh() {
        var coordinator = Coordinator()
        #expect(coordinator.refreshRequested(Self.fresh) == .lockForRefresh(Fixtures.ana))
        var renewed = Self.fresh
        renewed.expiresAt = Self.now.addingTimeInterval(900)
        #expect(
            coordinator.lockTaken(record: renewed, credentials: Self.stored, now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "old-refresh", appID: "swaggerctl-demo")))
        let token = Self.jwt(expiresIn: 900)
        _ = coordinator.refreshed(.init(credentials: Credentials(accessToken: token), username: nil), now: Self.now)
        #expect(coordinator.rotationStored() == .deliver(accessToken: token))
    }

    // MARK: - The refresh

    @Test("the rotated tokens replace the stored ones, with the new expiry, before they are used")
    func rotation() {
        var coordinator = Self.refreshing(Self.expired)
        let token = Self.jwt(expiresIn: 900)

        let session = coordinator.refreshed(
            .init(credentials: Credentials(accessToken: token, refreshToken: "new-refresh"), username: "ana.h"),
            now: Self.now)

        var expected = Self.expired
        expected.expiresAt = Self.now.addingTimeInterval(900)
        expected.username = "ana.h"
        #expect(
            session == Session(record: expected, credentials: .init(accessToken: token, refreshToken: "new-refresh")))
        #expect(
            coordinator.rotationStored() == .fetchProfile(server: Fixtures.server, dialect: nil, accessToken: token))
        #expect(
            coordinator.profileReceived(Self.profile)
                == .saveAndShow(.init(profile: Self.profile, origin: .server(refreshed: true)), Fixtures.ana))
    }

    @Test("a server that does not rotate keeps the refresh token it has (RFC 6749 §6)")
    func noRotation() {
        var coordinator = Self.refreshing(Self.expired)
        let session = coordinator.refreshed(
            .init(credentials: Credentials(accessToken: "a2"), username: nil), now: Self.now)
        #expect(session.credentials.refreshToken == "old-refresh")
        #expect(session.record.refreshable == true)
        #expect(session.record.username == Self.expired.username)
    }

    @Test("a rejected refresh ends the session, whatever was asked for")
    func refreshRejected() {
        for purpose in [Coordinator.Purpose.profile(allowSaved: true), .profile(allowSaved: false), .token] {
            var coordinator = Self.refreshing(Self.expired, purpose: purpose)
            #expect(
                coordinator.refreshFailed(.refreshRejected)
                    == .endSession(.init(record: Self.expired, reason: .refreshRejected)))
        }
    }

    @Test(
        "a refresh that cannot reach the server keeps the session: the saved profile for details, a failure else",
        arguments: unreachable)
    func refreshUnreachable(error: APIServiceError) {
        var details = Self.refreshing(Self.expired, purpose: .profile(allowSaved: true))
        #expect(details.refreshFailed(error) == .loadSavedProfile(Fixtures.ana))

        for purpose in [Coordinator.Purpose.profile(allowSaved: false), .token] {
            var coordinator = Self.refreshing(Self.expired, purpose: purpose)
            #expect(coordinator.refreshFailed(error) == .fail(.request(error, .stored(Self.expired))))
        }
    }

    @Test(
        "any other failed refresh is reported and keeps the session",
        arguments: everyError.filter { $0 != .refreshRejected && !$0.isUnreachable })
    func refreshOtherFailure(error: APIServiceError) {
        var coordinator = Self.refreshing(Self.expired)
        #expect(coordinator.refreshFailed(error) == .fail(.request(error, .stored(Self.expired))))
    }

    // MARK: - The profile request

    @Test("a 401 is refreshed once and the request repeated once; a second 401 ends the session")
    func refreshOnceOn401() {
        var coordinator = Self.fetching(Self.fresh)

        #expect(coordinator.profileFailed(.tokenRejected) == .lockForRefresh(Fixtures.ana))
        #expect(
            coordinator.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "old-refresh", appID: "swaggerctl-demo")))
        let session = coordinator.refreshed(
            .init(credentials: Credentials(accessToken: "a2", refreshToken: "r2"), username: nil), now: Self.now)
        #expect(coordinator.rotationStored() == .fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "a2"))
        #expect(
            coordinator.profileFailed(.tokenRejected)
                == .endSession(.init(record: session.record, reason: .tokenRejected)))
    }

    @Test("a 403 ends the session at once: the server knows the token and will not serve it; no refresh helps")
    func forbiddenEndsSession() {
        var coordinator = Self.fetching(Self.fresh)
        #expect(
            coordinator.profileFailed(.forbidden(message: "disabled"))
                == .endSession(.init(record: Self.fresh, reason: .forbidden(message: "disabled"))))
    }

    @Test("an unreachable server shows the saved profile for details, unless --no-cache", arguments: unreachable)
    func profileUnreachable(error: APIServiceError) {
        var details = Self.fetching(Self.fresh)
        #expect(details.profileFailed(error) == .loadSavedProfile(Fixtures.ana))
        let saved = SavedProfile(
            account: Fixtures.ana, profile: Self.profile, receivedAt: Self.now.addingTimeInterval(-7200))
        #expect(
            details.savedProfileLoaded(saved)
                == .show(.init(profile: Self.profile, origin: .saved(receivedAt: saved.receivedAt, because: error))))

        var noCache = Self.fetching(Self.fresh, purpose: .profile(allowSaved: false))
        #expect(noCache.profileFailed(error) == .fail(.request(error, .stored(Self.fresh))))
    }

    @Test("with nothing saved, the unreachable server is reported")
    func nothingSaved() {
        var coordinator = Self.fetching(Self.fresh)
        _ = coordinator.profileFailed(.timedOut)
        #expect(coordinator.savedProfileLoaded(nil) == .fail(.request(.timedOut, .stored(Self.fresh))))
    }

    @Test(
        "any other failed profile request is reported and keeps the session; never the saved profile",
        arguments: everyError.filter {
            $0 != .tokenRejected && $0 != .forbidden(message: "disabled") && !$0.isUnreachable
        })
    func profileOtherFailure(error: APIServiceError) {
        var coordinator = Self.fetching(Self.fresh)
        #expect(coordinator.profileFailed(error) == .fail(.request(error, .stored(Self.fresh))))
    }

    // MARK: - SWAGGERCTL_TOKEN

    @Test("a token from the environment is used as it is and never saved, refreshed or removed")
    func environmentToken() {
        let source = Coordinator.Source.environment(token: "env-token", server: Fixtures.server)
        var details = Coordinator()
        #expect(
            details.start(source, for: .profile(allowSaved: true), now: Self.now)
                == .use(.fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "env-token")))
        #expect(
            details.profileReceived(Self.profile)
                == .show(.init(profile: Self.profile, origin: .server(refreshed: false))))

        for error in Self.everyError {
            var failing = Coordinator()
            _ = failing.start(source, for: .profile(allowSaved: true), now: Self.now)
            #expect(failing.profileFailed(error) == .fail(.request(error, source)))
        }

        var token = Coordinator()
        #expect(token.start(source, for: .token, now: Self.now) == .use(.deliver(accessToken: "env-token")))
    }

    @Test("token never hands over an expired token from the environment")
    func expiredEnvironmentToken() {
        var coordinator = Coordinator()
        let source = Coordinator.Source.environment(token: Self.jwt(expiresIn: -60), server: Fixtures.server)
        #expect(
            coordinator.start(source, for: .token, now: Self.now)
                == .fail(.environmentTokenExpired(server: Fixtures.server)))
    }

    // MARK: - Misuse

    @Test("an event that cannot happen in the current state stops the process instead of guessing")
    func eventInWrongState() async {
        await #expect(processExitsWith: .failure) {
            var coordinator = MainCoordinator()
            _ = coordinator.tokenRead("token")
        }
    }

    // MARK: - The person's own requests (api)

    @Test("api: a 401 renews the token and repeats the request once; a second 401 is the answer; the session stays")
    func requestRefreshesOnce() {
        var coordinator = Coordinator()
        #expect(coordinator.start(.stored(Self.fresh), for: .request, now: Self.now) == .readAccessToken(Self.fresh))
        #expect(coordinator.tokenRead(Self.stored.accessToken) == .use(.send(accessToken: "old-access")))
        #expect(coordinator.responseReceived(status: 401) == .lockForRefresh(Fixtures.ana))
        #expect(
            coordinator.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == .refresh(.init(server: Fixtures.server, refreshToken: "old-refresh", appID: "swaggerctl-demo")))
        _ = coordinator.refreshed(.init(credentials: Credentials(accessToken: "new-access")), now: Self.now)
        #expect(coordinator.rotationStored() == .send(accessToken: "new-access"))
        // Not .endSession: the session was renewed a moment ago, so only this endpoint refuses it.
        #expect(coordinator.responseReceived(status: 401) == .answered)
    }

    @Test("api: each page may renew once; other statuses, a 403 among them, are answers")
    func requestPages() {
        var coordinator = Coordinator()
        _ = coordinator.start(.stored(Self.fresh), for: .request, now: Self.now)
        _ = coordinator.tokenRead(Self.stored.accessToken)
        #expect(coordinator.responseReceived(status: 403) == .answered)
        #expect(coordinator.nextRequest() == .send(accessToken: "old-access"))
        #expect(coordinator.responseReceived(status: 200) == .answered)
        #expect(coordinator.nextRequest() == .send(accessToken: "old-access"))
        #expect(coordinator.responseReceived(status: 401) == .lockForRefresh(Fixtures.ana))
        // Another process renewed meanwhile: its token is used for the repeat.
        #expect(
            coordinator.lockTaken(
                record: Self.fresh, credentials: Credentials(accessToken: "theirs", refreshToken: "r"), now: Self.now)
                == .use(.send(accessToken: "theirs")))
        #expect(coordinator.responseReceived(status: 200) == .answered)
        #expect(coordinator.nextRequest() == .send(accessToken: "theirs"))
        #expect(coordinator.responseReceived(status: 401) == .lockForRefresh(Fixtures.ana))
    }

    @Test("api: a 401 is the answer when nothing can renew the token: SWAGGERCTL_TOKEN, or no refresh token")
    func requestWithoutRefresh() {
        var environment = Coordinator()
        #expect(
            environment.start(.environment(token: "env", server: Fixtures.server), for: .request, now: Self.now)
                == .use(.send(accessToken: "env")))
        #expect(environment.responseReceived(status: 401) == .answered)

        let bare = Self.record(expiresIn: 600, refreshable: false)
        var stored = Coordinator()
        _ = stored.start(.stored(bare), for: .request, now: Self.now)
        _ = stored.tokenRead(Self.stored.accessToken)
        #expect(stored.responseReceived(status: 401) == .answered)
    }

    @Test("api: an expired token is renewed before the request; a request with no answer keeps the session")
    func requestExpired() {
        var coordinator = Self.waitingForLock(Self.expired, purpose: .request)
        _ = coordinator.lockTaken(record: Self.expired, credentials: Self.stored, now: Self.now)
        _ = coordinator.refreshed(.init(credentials: Credentials(accessToken: "new-access")), now: Self.now)
        #expect(coordinator.rotationStored() == .send(accessToken: "new-access"))
        let unexpected = coordinator.requestFailed(.timedOut)
        guard case .request(.timedOut, .stored(_)) = unexpected else {
            Issue.record("\(unexpected)")
            return
        }
    }
}
