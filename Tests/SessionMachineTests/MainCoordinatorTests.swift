import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("MainCoordinator: every decision of a use of a session, with no I/O", .timeLimit(.minutes(5)))
struct MainCoordinatorTests {
    /// 2033-05-18T03:33:20Z.
    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let profile = Profile(fields: ["id": .integer(1024), "name": .string("Ana")])
    static let original = Fixtures.original()

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
        .badCredentials(status: 401, message: nil), .tokenRejected(challenge: nil), .forbidden(message: "disabled"),
        .refreshRejected, .requestRejected(status: 400, message: "appId is required"),
        .redirected(status: 302, location: "https://elsewhere.example/api"), .serverFailed(status: 503),
        .contractViolation("the profile is not a JSON object"), .unreachable("connection refused"), .timedOut,
        .tls(.untrusted),
    ]
    static let unreachable: [APIServiceError] = [.unreachable("connection refused"), .timedOut]

    /// An unsigned JWT whose only claim is `exp`, ``now`` plus `offset`.
    static func jwt(expiresIn offset: TimeInterval) -> String {
        Fixtures.jwt(exp: Int(now.timeIntervalSince1970 + offset))
    }

    static func fetch(_ token: String, _ record: SessionRecord = fresh) -> ProfilePurpose.Step {
        .fetch(
            ProfileRequest(
                server: record.server, serverDescription: Fixtures.description(of: record), accessToken: token,
                client: record.isClient ? record.name : nil))
    }

    static func refresh(_ token: String = "old-refresh", _ record: SessionRecord = expired) -> RefreshRequest {
        RefreshRequest(
            server: record.server, serverDescription: Fixtures.description(of: record), renewal: .refreshToken(token),
            appID: record.appID, client: ClientProof())
    }

    /// The refresh `request` of `record`'s session, once the renewal was found storable.
    static func renewal<Purpose>(_ request: RefreshRequest, of record: SessionRecord) -> MainCoordinator<Purpose>.Action
    {
        .settle(.refresh(request, of: record))
    }

    /// The refresh of `record`'s session with `token`, once the renewal was found storable.
    static func renewal<Purpose>(_ token: String = "old-refresh", _ record: SessionRecord = expired)
        -> MainCoordinator<Purpose>.Action
    {
        .settle(.refresh(refresh(token, record), of: record))
    }

    static func failure(_ error: APIServiceError, _ record: SessionRecord = fresh) -> SessionFailure {
        .requestFailed(error, server: record.server, account: record.name, description: record.serverDescription)
    }

    static let details = ProfilePurpose(allowsSavedProfile: true)
    static let noCache = ProfilePurpose(allowsSavedProfile: false)

    /// A coordinator with a stored session, waiting for the refresh lock because the token is due.
    static func waitingForLock<Purpose>(_ purpose: Purpose, _ record: SessionRecord = expired)
        -> MainCoordinator<Purpose>
    {
        var coordinator = MainCoordinator(purpose: purpose)
        #expect(
            coordinator.start(.stored(record), now: now, plainHTTP: PlainHTTP()) == .settle(.lock(record.account)))
        return coordinator
    }

    /// A coordinator whose profile request with the stored access token is in flight.
    static func fetching(_ record: SessionRecord = fresh, purpose: ProfilePurpose = details)
        -> MainCoordinator<ProfilePurpose>
    {
        var coordinator = MainCoordinator(purpose: purpose)
        _ = coordinator.start(.stored(record), now: now, plainHTTP: PlainHTTP())
        _ = coordinator.tokenRead(stored.accessToken)
        return coordinator
    }

    /// A coordinator whose refresh request for `record` is in flight.
    static func refreshing<Purpose>(_ purpose: Purpose, _ record: SessionRecord = expired) -> MainCoordinator<Purpose> {
        var coordinator = waitingForLock(purpose, record)
        _ = coordinator.lockTaken(record: record, credentials: stored, now: now)
        return coordinator
    }

    // MARK: - Starting

    @Test(
        "the access token is refreshed first when it has expired or expires within 30 s; else only it is read",
        arguments: [
            (-600, true), (-1, true), (0, true), (29, true), (30, true), (31, false), (3600, false), (nil, false),
        ] as [(TimeInterval?, Bool)])
    func refreshBeforeUse(expiresIn offset: TimeInterval?, refreshes: Bool) {
        let record = Self.record(expiresIn: offset)
        let expected: MainCoordinator<TokenPurpose>.Action =
            refreshes ? .settle(.lock(Fixtures.ana)) : .settle(.readAccessToken(record))
        var token = MainCoordinator(purpose: TokenPurpose())
        #expect(token.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP()) == expected)
        var profile = MainCoordinator(purpose: Self.details)
        #expect(
            profile.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == (refreshes ? .settle(.lock(Fixtures.ana)) : .settle(.readAccessToken(record))))
    }

    @Test(
        "a token that lives less than a minute is refreshed in the second half of its life, not at every use",
        arguments: [(1.5, false), (1.01, false), (1, true), (0.5, true), (-1, true)] as [(TimeInterval, Bool)])
    func shortLivedToken(expiresIn offset: TimeInterval, refreshes: Bool) {
        var record = Self.record(expiresIn: offset)
        record.issuedAt = Self.now.addingTimeInterval(offset - 2)
        var coordinator = MainCoordinator(purpose: TokenPurpose())
        #expect(
            coordinator.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == (refreshes ? .settle(.lock(Fixtures.ana)) : .settle(.readAccessToken(record))))
    }

    @Test("a bound session's keys go in every request made for it: the profile, the refresh, the person's own")
    func boundRequests() {
        var record = Self.fresh
        record.proofKey = "thumbprint"
        record.presentsCertificate = true
        let certificate = ClientKey(privateKey: "client-key", certificate: "client-certificate")
        var credentials = Self.stored
        credentials.proofKey = "proof-key"
        credentials.clientKey = certificate
        let binding = SessionBinding(credentials, of: record)
        #expect(binding.proofKey == "proof-key" && binding.certificate == certificate)

        var profile = MainCoordinator(purpose: Self.details)
        #expect(
            profile.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP()) == .settle(.readCredentials(record)))
        var fetch = ProfileRequest(
            server: record.server, serverDescription: Fixtures.description(of: record), accessToken: "old-access")
        fetch.binding = binding
        #expect(profile.settled(.credentials(credentials), now: Self.now) == .proceed(.fetch(fetch)))

        var request = MainCoordinator(purpose: RequestPurpose())
        _ = request.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
        #expect(
            request.settled(.credentials(credentials), now: Self.now)
                == .proceed(.send(accessToken: "old-access", binding: binding)))

        var due = record
        due.expiresAt = Self.expired.expiresAt
        var renewal = MainCoordinator(purpose: Self.details)
        _ = renewal.start(.stored(due), now: Self.now, plainHTTP: PlainHTTP())
        var refresh = Self.refresh("old-refresh", due)
        refresh.binding = binding
        refresh.client = credentials.client
        #expect(
            renewal.lockTaken(record: due, credentials: credentials, now: Self.now) == Self.renewal(refresh, of: due))

        // A record that binds nothing sends nothing of what its store happens to hold.
        var unbound = MainCoordinator(purpose: RequestPurpose())
        _ = unbound.start(.stored(Self.expired), now: Self.now, plainHTTP: PlainHTTP())
        var plain = Self.refresh()
        plain.client = credentials.client
        #expect(
            unbound.lockTaken(record: Self.expired, credentials: credentials, now: Self.now)
                == .settle(.refresh(plain, of: Self.expired)))
    }

    @Test("a fresh token is fetched with for the profile, and handed over for token")
    func freshToken() {
        var details = MainCoordinator(purpose: Self.details)
        _ = details.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
        #expect(details.tokenRead("access") == .proceed(Self.fetch("access")))
        #expect(
            details.profileReceived(Self.profile)
                == .saveAndShow(
                    ProfileOutcome(
                        profile: Self.profile, origin: .server(renewed: false),
                        labels: Fixtures.original().profile.labels),
                    Fixtures.ana))

        var token = MainCoordinator(purpose: TokenPurpose())
        _ = token.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
        let used = token.tokenRead("access")
        #expect(used == .proceed(UsableToken("access", from: .stored(Self.fresh))))
        // What another program needs to send it: the server, its header and scheme, the account and the expiry.
        if case .proceed(let usable) = used {
            #expect(usable.server == Self.fresh.server && usable.account == Self.fresh.name)
            #expect(usable.expiresAt == Self.fresh.expiresAt && usable.headerValue == "Bearer access")
        }
    }

    @Test("a record whose token is in no store, and that has no refresh token, is reported, not removed")
    func noStoredToken() {
        var coordinator = MainCoordinator(purpose: TokenPurpose())
        let record = Self.record(expiresIn: 600, refreshable: false)
        _ = coordinator.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
        #expect(coordinator.tokenRead(nil) == .fail(.noStoredToken(record)))
    }

    @Test("a record from before refreshable existed, with no access token stored, looks for its refresh token")
    func noStoredTokenInAnOldRecord() {
        let old = Self.record(expiresIn: 600, refreshable: nil)
        var renewable = MainCoordinator(purpose: TokenPurpose())
        _ = renewable.start(.stored(old), now: Self.now, plainHTTP: PlainHTTP())
        #expect(renewable.tokenRead(nil) == .settle(.lock(Fixtures.ana)))
        #expect(
            renewable.lockTaken(
                record: old, credentials: Credentials(accessToken: nil, refreshToken: "old-refresh"), now: Self.now)
                == Self.renewal("old-refresh", old))

        var empty = MainCoordinator(purpose: TokenPurpose())
        _ = empty.start(.stored(old), now: Self.now, plainHTTP: PlainHTTP())
        _ = empty.tokenRead(nil)
        #expect(
            empty.lockTaken(record: old, credentials: Credentials(accessToken: nil), now: Self.now)
                == .fail(.noStoredToken(old)))
    }

    @Test("a session whose access token was removed by another program is renewed with its refresh token")
    func missingAccessToken() {
        var coordinator = MainCoordinator(purpose: Self.details)
        _ = coordinator.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
        #expect(coordinator.tokenRead(nil) == .settle(.lock(Fixtures.ana)))
        let survivor = Credentials(accessToken: nil, refreshToken: "old-refresh")
        #expect(
            coordinator.lockTaken(record: Self.fresh, credentials: survivor, now: Self.now)
                == Self.renewal("old-refresh", Self.fresh))
        _ = coordinator.refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2"), now: Self.now)
        #expect(coordinator.rotationStored() == Self.fetch("a2", Self.fresh))

        // Neither token: nothing to renew with.
        var lost = MainCoordinator(purpose: Self.details)
        _ = lost.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
        _ = lost.tokenRead(nil)
        #expect(
            lost.lockTaken(record: Self.fresh, credentials: Credentials(accessToken: nil), now: Self.now)
                == .fail(.noStoredToken(Self.fresh)))
    }

    @Test("a session that cannot be written is not renewed: the flow stops before the refresh token is spent")
    func renewalNotWritable() {
        var coordinator = Self.waitingForLock(TokenPurpose())
        let locked = LockedSession(record: Self.expired, credentials: Self.stored, waitingSince: Self.now)
        #expect(
            coordinator.settled(.locked(locked), now: Self.now)
                == .settle(.checkRenewable(Session(record: Self.expired, credentials: Self.stored))))
        let error = SwaggerError(.failure, "The disk is full.")
        #expect(
            coordinator.settled(.notRenewable(error), now: Self.now)
                == .fail(.renewalNotWritable(Fixtures.ana, error)))
    }

    @Test(
        "tokens never go over plain HTTP to another machine unless SWAGGERCTL_ALLOW_HTTP or the login allowed it",
        arguments: [
            ("http://api.example.com/v1", false, nil, true), ("http://api.example.com/v1", true, nil, false),
            ("http://api.example.com/v1", false, true, false), ("https://api.example.com/v1", false, nil, false),
            ("http://localhost:8080/api", false, nil, false), ("http://127.3.4.5/api", false, nil, false),
        ] as [(String, Bool, Bool?, Bool)])
    func plainHTTP(server: String, allowedByEnvironment: Bool, allowedAtLogin: Bool?, refused: Bool) {
        var record = Fixtures.record(Account(server: server, name: "ana@example.com"))
        record.allowsPlainHTTP = allowedAtLogin
        var coordinator = MainCoordinator(purpose: TokenPurpose())
        let action = coordinator.start(
            .stored(record), now: Self.now, plainHTTP: PlainHTTP(allowed: allowedByEnvironment))
        #expect(
            action
                == (refused
                    ? .fail(.plainHTTPRefused(server: record.server, sending: .tokens(account: "ana@example.com")))
                    : .settle(.readAccessToken(record))))
    }

    @Test("an endpoint of the server's description counts as the server does for plain HTTP")
    func plainHTTPEndpoint() {
        var record = Fixtures.record(Account(server: "https://api.example.com/v1", name: "ana@example.com"))
        record.serverDescription = Fixtures.described(
            [
                "preset": "oauth2", "login": ["url": "http://auth.example.com/token"],
                "profile": ["url": "https://api.example.com/v1/me"], "allowedOrigins": ["http://auth.example.com"],
            ], under: record.server)
        var coordinator = MainCoordinator(purpose: TokenPurpose())
        #expect(
            coordinator.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == .fail(
                    .plainHTTPRefused(
                        server: Fixtures.serverURL("http://auth.example.com"), sending: .tokens(account: record.name))))
    }

    @Test(
        "a session's token goes only to its server's origin and those allowed, for every purpose and a refresh asked for",
        arguments: [nil, "https://auth.example.com"] as [String?])
    func otherOrigin(allowed: String?) {
        var record = Fixtures.record(Account(server: "https://api.example.com/v1", name: "ana@example.com"))
        var json: JSONValue = [
            "preset": "oauth2", "login": ["url": "https://auth.example.com/token"],
            "profile": ["url": "https://api.example.com/v1/me"],
        ]
        if let allowed { json = json.merging(["allowedOrigins": [.string(allowed)]]) }
        record.serverDescription = Fixtures.described(json, under: record.server)
        let refused = SessionFailure.foreignOrigin(
            server: record.server,
            OriginRule.Foreign(step: "login", origin: Fixtures.serverURL("https://auth.example.com")),
            sending: .tokens(account: record.name))
        var token = MainCoordinator(purpose: TokenPurpose())
        #expect(
            token.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == (allowed == nil ? .fail(refused) : .settle(.readAccessToken(record))))
        var refresh = MainCoordinator(purpose: RefreshPurpose())
        #expect(
            refresh.refreshRequested(record, plainHTTP: PlainHTTP())
                == (allowed == nil ? .fail(refused) : .settle(.lock(record.account))))
    }

    @Test("a refresh asked for never sends the refresh token over plain HTTP to another machine")
    func refreshOverPlainHTTP() {
        let record = Fixtures.record(Account(server: "http://api.example.com/v1", name: "ana@example.com"))
        var refused = MainCoordinator(purpose: RefreshPurpose())
        #expect(
            refused.refreshRequested(record, plainHTTP: PlainHTTP())
                == .fail(.plainHTTPRefused(server: record.server, sending: .tokens(account: "ana@example.com"))))
        var allowed = MainCoordinator(purpose: RefreshPurpose())
        #expect(
            allowed.refreshRequested(record, plainHTTP: PlainHTTP(allowed: true)) == .settle(.lock(record.account)))
    }

    // MARK: - Under the refresh lock

    @Test("under the lock, an unchanged session is refreshed with the refresh token read there")
    func refreshesWhenUnchanged() {
        var coordinator = Self.waitingForLock(Self.details)
        #expect(
            coordinator.lockTaken(record: Self.expired, credentials: Self.stored, now: Self.now)
                == Self.renewal())
    }

    @Test("under the lock, tokens another process stored meanwhile are used and not refreshed again")
    func usesAnotherProcessTokens() {
        // The other process's token lives for 2 s only: less than the margin, but it is new, so it is used.
        var renewed = Self.record(expiresIn: 2)
        renewed.username = "changed"
        let theirs = Credentials(accessToken: "their-access", refreshToken: "their-refresh")

        var profile = Self.waitingForLock(Self.details)
        #expect(
            profile.lockTaken(record: renewed, credentials: theirs, now: Self.now)
                == .proceed(Self.fetch("their-access", renewed)))
        // Used after a refresh: a 401 now ends the session instead of refreshing again.
        #expect(
            profile.profileFailed(.tokenRejected(challenge: nil))
                == .endSession(SessionEnd(record: renewed, reason: .tokenRejected(challenge: nil))))

        var token = Self.waitingForLock(TokenPurpose())
        #expect(
            token.lockTaken(record: renewed, credentials: theirs, now: Self.now)
                == .proceed(UsableToken("their-access", from: .stored(renewed))))

        var request = Self.waitingForLock(RequestPurpose())
        #expect(
            request.lockTaken(record: renewed, credentials: theirs, now: Self.now)
                == .proceed(.send(accessToken: "their-access")))
        #expect(request.responseReceived(status: 401) == .answered)
    }

    @Test("under the lock, a changed session whose token has run out is refreshed all the same")
    func changedButExpired() {
        let renewed = Self.record(expiresIn: -1)
        var coordinator = Self.waitingForLock(Self.details)
        #expect(
            coordinator.lockTaken(
                record: renewed, credentials: Credentials(accessToken: "a", refreshToken: "r2"), now: Self.now)
                == Self.renewal("r2", renewed))
    }

    @Test("after a 401, a different stored token is used unless it has expired; the same one is refreshed")
    func after401() {
        var expired = Self.fetching()
        _ = expired.profileFailed(.tokenRejected(challenge: nil))
        #expect(
            expired.lockTaken(
                record: Self.expired, credentials: Credentials(accessToken: "newer", refreshToken: "r"), now: Self.now)
                == Self.renewal("r", Self.expired))

        var other = Self.fetching()
        #expect(other.profileFailed(.tokenRejected(challenge: nil)) == .settle(.lock(Fixtures.ana)))
        #expect(
            other.lockTaken(
                record: Self.fresh, credentials: Credentials(accessToken: "newer", refreshToken: "r"), now: Self.now)
                == .proceed(Self.fetch("newer")))

        var same = Self.fetching()
        _ = same.profileFailed(.tokenRejected(challenge: nil))
        #expect(
            same.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == Self.renewal("old-refresh", Self.fresh))
    }

    @Test("with no refresh token: a 401 ends the session; a due profile request is tried; token fails")
    func noRefreshToken() {
        let bare = Credentials(accessToken: "old-access")
        var after401 = Self.fetching()
        _ = after401.profileFailed(.tokenRejected(challenge: nil))
        #expect(
            after401.lockTaken(record: Self.fresh, credentials: bare, now: Self.now)
                == .endSession(SessionEnd(record: Self.fresh, reason: .tokenRejected(challenge: nil))))

        var profile = Self.waitingForLock(Self.details)
        #expect(
            profile.lockTaken(record: Self.expired, credentials: bare, now: Self.now)
                == .proceed(Self.fetch("old-access", Self.expired)))
        #expect(
            profile.profileFailed(.tokenRejected(challenge: nil))
                == .endSession(SessionEnd(record: Self.expired, reason: .tokenRejected(challenge: nil))))

        var token = Self.waitingForLock(TokenPurpose())
        #expect(
            token.lockTaken(record: Self.expired, credentials: bare, now: Self.now)
                == .fail(.expiredWithoutRefreshToken(Self.expired)))
    }

    @Test("a session that disappeared, or lost its token, while waiting for the lock is reported")
    func goneWhileWaiting() {
        var gone = Self.waitingForLock(Self.details)
        #expect(gone.lockTaken(record: nil, credentials: nil, now: Self.now) == .fail(.sessionGone(Fixtures.ana)))

        var tokenless = Self.waitingForLock(Self.details)
        #expect(
            tokenless.lockTaken(record: Self.expired, credentials: nil, now: Self.now)
                == .fail(.noStoredToken(Self.expired)))
    }

    // MARK: - refresh, on request

    @Test("refresh refreshes even a fresh token that another process just renewed, and gives the renewed record")
    func forcedRefresh() {
        var coordinator = MainCoordinator(purpose: RefreshPurpose())
        #expect(coordinator.refreshRequested(Self.fresh, plainHTTP: PlainHTTP()) == .settle(.lock(Fixtures.ana)))
        var renewed = Self.fresh
        renewed.expiresAt = Self.now.addingTimeInterval(900)
        #expect(
            coordinator.lockTaken(record: renewed, credentials: Self.stored, now: Self.now)
                == Self.renewal("old-refresh", renewed))
        // An opaque token: only the answer's lifetime says when it expires.
        let session = coordinator.refreshed(
            TokenGrant(accessToken: "opaque", expiresIn: .seconds(3600)), now: Self.now)
        #expect(session.record.expiresAt == Self.now.addingTimeInterval(3600))
        #expect(coordinator.rotationStored() == .renewed(session.record))
    }

    @Test(
        "refresh without a refresh token says so: done while the access token is good, a failure once it is not",
        arguments: [(600, true), (5, true), (-5, false), (nil, true)] as [(TimeInterval?, Bool)])
    func refreshWithoutRefreshToken(expiresIn offset: TimeInterval?, good: Bool) {
        let record = Self.record(expiresIn: offset, refreshable: false)
        var coordinator = MainCoordinator(purpose: RefreshPurpose())
        _ = coordinator.refreshRequested(record, plainHTTP: PlainHTTP())
        #expect(
            coordinator.lockTaken(record: record, credentials: Credentials(accessToken: "a"), now: Self.now)
                == (good ? .proceed(.notRenewable(record)) : .fail(.expiredWithoutRefreshToken(record))))
    }

    // MARK: - The refresh

    @Test("the rotated tokens replace the stored ones, with the new expiry, before they are used")
    func rotation() {
        var coordinator = Self.refreshing(Self.details)
        let token = Self.jwt(expiresIn: 900)

        let session = coordinator.refreshed(
            TokenGrant(accessToken: token, refreshToken: "new-refresh", username: "ana.h"),
            now: Self.now)

        var expected = Self.expired
        expected.expiresAt = Self.now.addingTimeInterval(900)
        expected.username = "ana.h"
        #expect(
            session
                == Session(record: expected, credentials: Credentials(accessToken: token, refreshToken: "new-refresh")))
        #expect(coordinator.rotationStored() == Self.fetch(token, expected))
        #expect(
            coordinator.profileReceived(Self.profile)
                == .saveAndShow(
                    ProfileOutcome(
                        profile: Self.profile, origin: .server(renewed: true),
                        labels: Fixtures.original().profile.labels
                    ),
                    Fixtures.ana))
    }

    @Test("a server that does not rotate keeps the refresh token it has (RFC 6749 §6)")
    func noRotation() {
        var coordinator = Self.refreshing(Self.details)
        let session = coordinator.refreshed(TokenGrant(accessToken: "a2"), now: Self.now)
        #expect(session.credentials.refreshToken == "old-refresh")
        #expect(session.record.refreshable == true)
        #expect(session.record.username == Self.expired.username)
    }

    @Test("renewed tokens that cannot be stored end the flow, saying the old refresh token is spent")
    func rotationNotStored() {
        var coordinator = Self.refreshing(TokenPurpose())
        _ = coordinator.refreshed(TokenGrant(accessToken: "a2"), now: Self.now)
        let error = SwaggerError(.failure, "The disk is full.")
        #expect(coordinator.rotationNotStored(error) == .fail(.renewedButNotStored(Fixtures.ana, error)))
    }

    @Test("a rejected refresh ends the session, whatever was asked for")
    func refreshRejected() {
        let ended = SessionEnd(record: Self.expired, reason: .refreshRejected)
        var details = Self.refreshing(Self.details)
        #expect(details.refreshFailed(.refreshRejected) == .endSession(ended))
        var token = Self.refreshing(TokenPurpose())
        #expect(token.refreshFailed(.refreshRejected) == .endSession(ended))
        var request = Self.refreshing(RequestPurpose())
        #expect(request.refreshFailed(.refreshRejected) == .endSession(ended))
    }

    @Test(
        "a refresh that cannot reach the server keeps the session: the saved profile for details, a failure else",
        arguments: unreachable)
    func refreshUnreachable(error: APIServiceError) {
        var details = Self.refreshing(Self.details)
        #expect(details.refreshFailed(error) == .proceed(.loadSavedProfile(Fixtures.ana)))

        var noCache = Self.refreshing(Self.noCache)
        #expect(noCache.refreshFailed(error) == .fail(Self.failure(error, Self.expired)))
        var token = Self.refreshing(TokenPurpose())
        #expect(token.refreshFailed(error) == .fail(Self.failure(error, Self.expired)))
    }

    @Test("a refresh that could not reach the server leaves its failure for those waiting; no other failure does")
    func refreshLeavesNote() {
        for error in Self.everyError {
            var coordinator = Self.refreshing(TokenPurpose())
            let failed = coordinator.settled(.refreshFailed(error), now: Self.now)
            guard error.isUnreachable else {
                if case .settle = failed { Issue.record("\(error) leaves a note: \(failed)") }
                continue
            }
            let note = RefreshNote(failedAt: Self.now, renewing: Self.expired, error)
            #expect(failed == .settle(.leaveNote(note)))
            #expect(coordinator.settled(.noteLeft, now: Self.now) == .fail(Self.failure(error, Self.expired)))
        }
    }

    @Test(
        "under the lock, a failure left by a refresh of this session since the wait began is met as this one's own",
        arguments: unreachable)
    func noteStands(error: APIServiceError) {
        let waitingSince = Self.now.addingTimeInterval(-3)
        func locked(noteAt failedAt: Date, of record: SessionRecord) -> TokenResult {
            .locked(
                LockedSession(
                    record: Self.expired, credentials: Self.stored,
                    note: RefreshNote(failedAt: failedAt, renewing: record, error), waitingSince: waitingSince))
        }
        // Nothing is sent, and no note is left again: the saved profile, or the failure, at once.
        var details = Self.waitingForLock(Self.details)
        #expect(
            details.settled(locked(noteAt: Self.now, of: Self.expired), now: Self.now)
                == .proceed(.loadSavedProfile(Fixtures.ana)))
        var token = Self.waitingForLock(TokenPurpose())
        #expect(
            token.settled(locked(noteAt: waitingSince, of: Self.expired), now: Self.now)
                == .fail(Self.failure(error, Self.expired)))
        // A failure from before the wait, or of a session renewed since, is not this command's: it tries itself.
        let renewable = MainCoordinator<TokenPurpose>.Action.settle(
            .checkRenewable(Session(record: Self.expired, credentials: Self.stored)))
        var earlier = Self.waitingForLock(TokenPurpose())
        #expect(
            earlier.settled(locked(noteAt: waitingSince.addingTimeInterval(-1), of: Self.expired), now: Self.now)
                == renewable)
        var other = Self.waitingForLock(TokenPurpose())
        #expect(other.settled(locked(noteAt: Self.now, of: Self.fresh), now: Self.now) == renewable)
    }

    @Test(
        "any other failed refresh is reported and keeps the session",
        arguments: everyError.filter { error in
            guard case .requestRejected = error else { return error != .refreshRejected && !error.isUnreachable }
            return false
        })
    func refreshOtherFailure(error: APIServiceError) {
        var coordinator = Self.refreshing(Self.details)
        #expect(coordinator.refreshFailed(error) == .fail(Self.failure(error, Self.expired)))
    }

    @Test("a refresh refused without an answer that ends the session keeps it, and says the refresh was refused")
    func refreshRefused() {
        var coordinator = Self.refreshing(TokenPurpose())
        let refused = APIServiceError.requestRejected(status: 400, message: #"{"refresh":["This field is required."]}"#)
        #expect(
            coordinator.refreshFailed(refused)
                == .fail(
                    .renewalRefused(Self.expired, status: 400, message: #"{"refresh":["This field is required."]}"#)))
    }

    // MARK: - The profile request

    @Test("a 401 is refreshed once and the request repeated once; a second 401 ends the session")
    func refreshOnceOn401() {
        var coordinator = Self.fetching()
        #expect(coordinator.profileFailed(.tokenRejected(challenge: nil)) == .settle(.lock(Fixtures.ana)))
        #expect(
            coordinator.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == Self.renewal("old-refresh", Self.fresh))
        let session = coordinator.refreshed(
            TokenGrant(accessToken: "a2", refreshToken: "r2"), now: Self.now)
        #expect(coordinator.rotationStored() == Self.fetch("a2", session.record))
        #expect(
            coordinator.profileFailed(.tokenRejected(challenge: nil))
                == .endSession(SessionEnd(record: session.record, reason: .tokenRejected(challenge: nil))))
    }

    @Test("a 403 ends the session at once: the server knows the token and will not serve it; no refresh helps")
    func forbiddenEndsSession() {
        var coordinator = Self.fetching()
        #expect(
            coordinator.profileFailed(.forbidden(message: "disabled"))
                == .endSession(SessionEnd(record: Self.fresh, reason: .forbidden(message: "disabled"))))
    }

    @Test("410 Gone ends the session at once: the server says it is no more; another 4xx is a failure, kept")
    func goneEndsSession() {
        var gone = Self.fetching()
        let error = APIServiceError.requestRejected(status: 410, message: nil)
        #expect(gone.profileFailed(error) == .endSession(SessionEnd(record: Self.fresh, reason: error)))
        var missing = Self.fetching()
        let notFound = APIServiceError.requestRejected(status: 404, message: nil)
        guard case .fail = missing.profileFailed(notFound) else {
            Issue.record("a 404 ended the session")
            return
        }
    }

    @Test("an unreachable server shows the saved profile for details, unless --no-cache", arguments: unreachable)
    func profileUnreachable(error: APIServiceError) {
        var details = Self.fetching()
        #expect(details.profileFailed(error) == .proceed(.loadSavedProfile(Fixtures.ana)))
        let saved = SavedProfile(
            account: Fixtures.ana, profile: Self.profile, receivedAt: Self.now.addingTimeInterval(-7200))
        #expect(
            details.savedProfileLoaded(saved)
                == .show(
                    ProfileOutcome(
                        profile: Self.profile, origin: .saved(receivedAt: saved.receivedAt, because: error),
                        labels: Fixtures.original().profile.labels)))

        var noCache = Self.fetching(purpose: Self.noCache)
        #expect(noCache.profileFailed(error) == .fail(Self.failure(error)))
    }

    @Test("with nothing saved, the unreachable server is reported")
    func nothingSaved() {
        var coordinator = Self.fetching()
        _ = coordinator.profileFailed(.timedOut)
        #expect(coordinator.savedProfileLoaded(nil) == .fail(Self.failure(.timedOut)))
    }

    @Test(
        "any other failed profile request is reported and keeps the session; never the saved profile",
        arguments: everyError.filter {
            $0 != .tokenRejected(challenge: nil) && $0 != .forbidden(message: "disabled") && !$0.isUnreachable
        })
    func profileOtherFailure(error: APIServiceError) {
        var coordinator = Self.fetching()
        #expect(coordinator.profileFailed(error) == .fail(Self.failure(error)))
    }

    @Test("another kind's session carries its description to the refresh and the profile, with its secret")
    func otherKind() {
        var record = Self.record(expiresIn: -10)
        record.serverDescription = Fixtures.identity
        let credentials = Credentials(accessToken: "a1", refreshToken: "r1", clientSecret: "s3cret")
        var coordinator = Self.waitingForLock(Self.details, record)
        #expect(
            coordinator.lockTaken(record: record, credentials: credentials, now: Self.now)
                == .settle(
                    .refresh(
                        RefreshRequest(
                            server: Fixtures.server, serverDescription: Fixtures.identity, renewal: .refreshToken("r1"),
                            appID: record.appID, client: ClientProof(secret: "s3cret")), of: record)))
        let renewed = coordinator.refreshed(
            TokenGrant(accessToken: "a2", refreshToken: "r2", expiresIn: .seconds(60)),
            now: Self.now)
        #expect(renewed.credentials == Credentials(accessToken: "a2", refreshToken: "r2", clientSecret: "s3cret"))
        #expect(renewed.record.expiresAt == Self.now.addingTimeInterval(60))
        #expect(coordinator.rotationStored() == Self.fetch("a2", renewed.record))
        guard case .saveAndShow(let outcome, _) = coordinator.profileReceived(Self.profile) else {
            Issue.record("a stored session's profile is saved")
            return
        }
        #expect(outcome.labels.isEmpty)
    }

    @Test("a client's own session, due, asks again with the client's proof, keeps it, and stays renewable")
    func clientSession() {
        var record = Self.record(expiresIn: -10)
        record.serverDescription = Fixtures.identity
        record.signIn = .client
        let key = ClientKey(privateKey: "PEM", keyID: "k1")
        let credentials = Credentials(accessToken: "a1", clientKey: key)
        var coordinator = Self.waitingForLock(Self.details, record)
        #expect(
            coordinator.lockTaken(record: record, credentials: credentials, now: Self.now)
                == .settle(
                    .refresh(
                        RefreshRequest(
                            server: Fixtures.server, serverDescription: Fixtures.identity, renewal: .clientCredentials,
                            appID: record.appID, client: ClientProof(key: key)), of: record)))
        let renewed = coordinator.refreshed(TokenGrant(accessToken: "a2", expiresIn: .seconds(60)), now: Self.now)
        #expect(renewed.credentials == Credentials(accessToken: "a2", clientKey: key))
        #expect(renewed.record.refreshable == true)
        #expect(coordinator.rotationStored() == Self.fetch("a2", renewed.record))
    }

    @Test("a person's session without a refresh token is not renewed with a client secret it happens to keep")
    func personWithSecret() {
        var record = Self.record(expiresIn: -10)
        record.serverDescription = Fixtures.identity
        var coordinator = Self.waitingForLock(Self.details, record)
        let action = coordinator.lockTaken(
            record: record, credentials: Credentials(accessToken: "a1", clientSecret: "s3cret"), now: Self.now)
        if case .settle(.refresh) = action { Issue.record("\(action) renews a person's session as its client") }
    }

    // MARK: - A server nothing describes

    @Test("a stored session whose server nothing describes is not used: no token is read, and it says so")
    func undescribedStored() {
        let record = Fixtures.record(Fixtures.ana, expiresAt: Self.now.addingTimeInterval(600), description: .some(nil))
        var details = MainCoordinator(purpose: Self.details)
        #expect(
            details.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == .fail(.undescribed(server: Fixtures.server)))
        var request = MainCoordinator(purpose: RequestPurpose())
        #expect(
            request.start(.stored(record), now: Self.now, plainHTTP: PlainHTTP())
                == .fail(.undescribed(server: Fixtures.server)))
        var refresh = MainCoordinator(purpose: RefreshPurpose())
        #expect(
            refresh.refreshRequested(record, plainHTTP: PlainHTTP()) == .fail(.undescribed(server: Fixtures.server)))
        // Found so only under the lock: the registry lost the entry meanwhile.
        var due = MainCoordinator(purpose: Self.details)
        #expect(
            due.start(.stored(Self.expired), now: Self.now, plainHTTP: PlainHTTP()) == .settle(.lock(Fixtures.ana)))
        #expect(
            due.lockTaken(record: record, credentials: Credentials(accessToken: "a", refreshToken: "r"), now: Self.now)
                == .fail(.undescribed(server: Fixtures.server)))
    }

    @Test("SWAGGERCTL_TOKEN for a server nothing describes: sent as a bearer token, handed on, but no profile")
    func undescribedEnvironment() {
        let source = TokenSource.environment(token: "env-token", server: Fixtures.server, description: nil)
        var details = MainCoordinator(purpose: Self.details)
        #expect(
            details.start(source, now: Self.now, plainHTTP: PlainHTTP())
                == .fail(.undescribed(server: Fixtures.server)))
        var request = MainCoordinator(purpose: RequestPurpose())
        #expect(
            request.start(source, now: Self.now, plainHTTP: PlainHTTP()) == .proceed(.send(accessToken: "env-token")))
        var token = MainCoordinator(purpose: TokenPurpose())
        guard case .proceed(let usable) = token.start(source, now: Self.now, plainHTTP: PlainHTTP()) else {
            Issue.record("no token")
            return
        }
        #expect(usable.use == .bearer && usable.headerValue == "Bearer env-token")
        // Plain HTTP to another machine is refused for the server itself, described or not.
        let remote = TokenSource.environment(
            token: "env-token", server: Fixtures.serverURL("http://api.example.com"), description: nil)
        var refused = MainCoordinator(purpose: RequestPurpose())
        guard case .fail(.plainHTTPRefused) = refused.start(remote, now: Self.now, plainHTTP: PlainHTTP()) else {
            Issue.record("sent in clear")
            return
        }
    }

    // MARK: - SWAGGERCTL_TOKEN

    @Test("a token from the environment is used as it is and never saved, refreshed or removed")
    func environmentToken() {
        let source = TokenSource.environment(
            token: "env-token", server: Fixtures.server, description: Fixtures.original())
        var details = MainCoordinator(purpose: Self.details)
        #expect(
            details.start(source, now: Self.now, plainHTTP: PlainHTTP())
                == .proceed(
                    .fetch(
                        ProfileRequest(
                            server: Fixtures.server, serverDescription: Self.original, accessToken: "env-token"))))
        #expect(
            details.profileReceived(Self.profile)
                == .show(
                    ProfileOutcome(
                        profile: Self.profile, origin: .server(renewed: false),
                        labels: Fixtures.original().profile.labels)))

        for error in Self.everyError {
            var failing = MainCoordinator(purpose: Self.details)
            _ = failing.start(source, now: Self.now, plainHTTP: PlainHTTP())
            let expected: SessionFailure =
                error == .tokenRejected(challenge: nil)
                ? .environmentTokenRejected(server: Fixtures.server)
                : .requestFailed(error, server: Fixtures.server, account: nil, description: Fixtures.original())
            #expect(failing.profileFailed(error) == .fail(expected))
        }

        var token = MainCoordinator(purpose: TokenPurpose())
        #expect(
            token.start(source, now: Self.now, plainHTTP: PlainHTTP())
                == .proceed(UsableToken("env-token", from: source)))
    }

    @Test("token never hands over an expired token from the environment; details lets the server decide")
    func expiredEnvironmentToken() {
        let expired = Self.jwt(expiresIn: -60)
        let source = TokenSource.environment(token: expired, server: Fixtures.server, description: Fixtures.original())
        var token = MainCoordinator(purpose: TokenPurpose())
        #expect(
            token.start(source, now: Self.now, plainHTTP: PlainHTTP())
                == .fail(.environmentTokenExpired(server: Fixtures.server)))
        var details = MainCoordinator(purpose: Self.details)
        #expect(
            details.start(source, now: Self.now, plainHTTP: PlainHTTP())
                == .proceed(
                    .fetch(
                        ProfileRequest(server: Fixtures.server, serverDescription: Self.original, accessToken: expired))
                ))
    }

    // MARK: - Misuse

    @Test("an event that cannot happen in the current state stops the process instead of guessing")
    func eventInWrongState() async {
        await #expect(processExitsWith: .failure) {
            var coordinator = MainCoordinator(purpose: TokenPurpose())
            _ = coordinator.tokenRead("token")
        }
    }

    // MARK: - The person's own requests (api)

    @Test("api: a 401 renews the token and repeats the request once; a second 401 is the answer; the session stays")
    func requestRefreshesOnce() {
        var coordinator = MainCoordinator(purpose: RequestPurpose())
        #expect(
            coordinator.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
                == .settle(.readAccessToken(Self.fresh)))
        #expect(coordinator.tokenRead(Self.stored.accessToken) == .proceed(.send(accessToken: "old-access")))
        #expect(coordinator.responseReceived(status: 401) == .settle(.lock(Fixtures.ana)))
        #expect(
            coordinator.lockTaken(record: Self.fresh, credentials: Self.stored, now: Self.now)
                == Self.renewal("old-refresh", Self.fresh))
        _ = coordinator.refreshed(TokenGrant(accessToken: "new-access"), now: Self.now)
        #expect(coordinator.rotationStored() == .send(accessToken: "new-access"))
        // Not .endSession: the session was renewed a moment ago, so only this endpoint refuses it.
        #expect(coordinator.responseReceived(status: 401) == .answered)
    }

    @Test("api: a refusal after any accepted answer may renew again; other statuses, a 403 among them, are answers")
    func requestPages() {
        var coordinator = MainCoordinator(purpose: RequestPurpose())
        _ = coordinator.start(.stored(Self.fresh), now: Self.now, plainHTTP: PlainHTTP())
        _ = coordinator.tokenRead(Self.stored.accessToken)
        #expect(coordinator.responseReceived(status: 403) == .answered)
        #expect(coordinator.responseReceived(status: 200) == .answered)
        #expect(coordinator.responseReceived(status: 401) == .settle(.lock(Fixtures.ana)))
        // Another process renewed meanwhile: its token is used for the repeat.
        #expect(
            coordinator.lockTaken(
                record: Self.fresh, credentials: Credentials(accessToken: "theirs", refreshToken: "r"), now: Self.now)
                == .proceed(.send(accessToken: "theirs")))
        #expect(coordinator.responseReceived(status: 200) == .answered)
        // The renewed token was accepted once: a later refusal, as when it runs out in a long list, renews again.
        #expect(coordinator.responseReceived(status: 401) == .settle(.lock(Fixtures.ana)))
    }

    @Test("api: a 401 is the answer when nothing can renew the token: SWAGGERCTL_TOKEN, or no refresh token")
    func requestWithoutRefresh() {
        var environment = MainCoordinator(purpose: RequestPurpose())
        #expect(
            environment.start(
                .environment(token: "env", server: Fixtures.server, description: Fixtures.original()), now: Self.now,
                plainHTTP: PlainHTTP())
                == .proceed(.send(accessToken: "env")))
        #expect(environment.responseReceived(status: 401) == .answered)

        let bare = Self.record(expiresIn: 600, refreshable: false)
        var stored = MainCoordinator(purpose: RequestPurpose())
        _ = stored.start(.stored(bare), now: Self.now, plainHTTP: PlainHTTP())
        _ = stored.tokenRead(Self.stored.accessToken)
        #expect(stored.responseReceived(status: 401) == .answered)
    }

    @Test("api: a session written before refreshable existed keeps the 401 as the answer, and is not ended")
    func requestOldRecordWithoutRefreshToken() {
        let old = Self.record(expiresIn: 600, refreshable: nil)
        var coordinator = MainCoordinator(purpose: RequestPurpose())
        _ = coordinator.start(.stored(old), now: Self.now, plainHTTP: PlainHTTP())
        _ = coordinator.tokenRead("old-access")
        // Only the token store can say whether there is a refresh token.
        #expect(coordinator.responseReceived(status: 401) == .settle(.lock(Fixtures.ana)))
        #expect(
            coordinator.lockTaken(record: old, credentials: Credentials(accessToken: "old-access"), now: Self.now)
                == .proceed(.keepAnswer))
    }

    @Test("api: an expired token is renewed before the request; a request with no answer keeps the session")
    func requestExpired() {
        var coordinator = Self.refreshing(RequestPurpose())
        _ = coordinator.refreshed(TokenGrant(accessToken: "new-access"), now: Self.now)
        #expect(coordinator.rotationStored() == .send(accessToken: "new-access"))
        #expect(
            coordinator.requestFailed(.timedOut)
                == .requestFailed(
                    .timedOut, server: Fixtures.server, account: Fixtures.ana.name, description: Fixtures.original()))
    }
}

/// The token's results as the owner reports them, one at a time: a renewal found storable, and a note left, as
/// they go when nothing fails.
extension MainCoordinator {
    mutating func tokenRead(_ accessToken: String?) -> Action {
        settled(.accessToken(accessToken), now: MainCoordinatorTests.now)
    }

    mutating func lockTaken(record: SessionRecord?, credentials: Credentials?, now: Date) -> Action {
        let locked = LockedSession(record: record, credentials: credentials, waitingSince: now)
        let action = settled(.locked(locked), now: now)
        guard case .settle(.checkRenewable) = action else { return action }
        return settled(.renewable, now: now)
    }

    /// The renewed session the coordinator asks to store.
    mutating func refreshed(_ grant: TokenGrant, now: Date) -> Session {
        let action = settled(.refreshed(grant), now: now)
        guard case .settle(.store(let session)) = action else {
            Issue.record("a renewal that is not stored first: \(action)")
            return Session(record: MainCoordinatorTests.expired, credentials: Credentials(accessToken: nil))
        }
        return session
    }

    /// The step the stored renewal leads to, once the note of a failure is cleared.
    mutating func rotationStored() -> Purpose.Step? {
        let action = settled(.stored, now: MainCoordinatorTests.now)
        guard action == .settle(.leaveNote(nil)) else {
            Issue.record("a stored renewal that leaves a failure's note: \(action)")
            return nil
        }
        guard case .proceed(let step) = settled(.noteLeft, now: MainCoordinatorTests.now) else { return nil }
        return step
    }

    mutating func rotationNotStored(_ error: SwaggerError) -> Action {
        settled(.notStored(error), now: MainCoordinatorTests.now)
    }

    mutating func refreshFailed(_ error: APIServiceError) -> Action {
        let action = settled(.refreshFailed(error), now: MainCoordinatorTests.now)
        guard case .settle(.leaveNote) = action else { return action }
        return settled(.noteLeft, now: MainCoordinatorTests.now)
    }
}
