import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("LogoutCoordinator: lock, revoke, then remove, with no I/O", .timeLimit(.minutes(5)))
struct LogoutCoordinatorTests {
    static let tokens = Credentials(accessToken: "a1", refreshToken: "r1")
    static let record = Fixtures.record(Fixtures.ana)
    static let now = Fixtures.savedAt

    static func revocation(_ record: SessionRecord = record, _ credentials: Credentials = tokens) -> Revocation {
        Revocation(server: record.server, serverDescription: Fixtures.description(of: record), credentials: credentials)
    }

    /// A coordinator holding the lock, about to read `record`'s tokens.
    static func reading(_ record: SessionRecord = record, plainHTTPAllowed: Bool = false) -> LogoutCoordinator {
        var coordinator = LogoutCoordinator(record, revoke: true, plainHTTP: PlainHTTP(allowed: plainHTTPAllowed))
        #expect(coordinator.start() == record.account)
        #expect(coordinator.lockTaken() == .settle(.readCredentials(record)))
        return coordinator
    }

    @Test("under the lock, the tokens are read, the server told, and only then the session removed here")
    func order() {
        var coordinator = Self.reading()
        #expect(coordinator.settled(.credentials(Self.tokens), now: Self.now) == .revoke(Self.revocation()))
        // The original API's logout presents the access token and names the refresh token: whether it ended the
        // access token too, the profile says.
        let check = ProfileRequest(
            server: Self.record.server, serverDescription: Fixtures.description(of: Self.record), accessToken: "a1")
        #expect(coordinator.revoked(Self.revocation(), now: Self.now) == .checkAccess(check))
        #expect(coordinator.accessChecked(taken: false) == .remove(Self.record))
        #expect(coordinator.removed() == LogoutCoordinator.Outcome(account: Fixtures.ana, warning: nil))
    }

    @Test(
        "a session whose server nothing describes any more is removed here, and the logout says the server was not told"
    )
    func undescribed() {
        let record = Fixtures.record(Fixtures.ana, description: .some(nil))
        var coordinator = Self.reading(record)
        #expect(coordinator.settled(.credentials(Self.tokens), now: Self.now) == .remove(record))
        let outcome = coordinator.removed()
        #expect(outcome == LogoutCoordinator.Outcome(account: Fixtures.ana, warning: .undescribed(Fixtures.server)))
        #expect(outcome.failed)
    }

    @Test("--local reads no token and tells no server")
    func local() {
        var coordinator = LogoutCoordinator(Self.record, revoke: false, plainHTTP: PlainHTTP())
        _ = coordinator.start()
        #expect(coordinator.lockTaken() == .remove(Self.record))
        #expect(coordinator.removed().warning == nil)
    }

    @Test("a server that could not be told fails the logout, and the session is removed here all the same")
    func revocationFailed() {
        var coordinator = Self.reading()
        _ = coordinator.settled(.credentials(Self.tokens), now: Self.now)
        #expect(coordinator.revocationFailed(.unreachable("connection refused")) == .remove(Self.record))
        let outcome = coordinator.removed()
        #expect(
            outcome.warning
                == .revocationFailed(
                    .unreachable("connection refused"), server: Fixtures.server, description: Fixtures.original()))
        // The server could have ended the session and did not: the logout fails, the session gone here all the same.
        #expect(outcome.failed)
    }

    @Test("tokens that cannot be read cannot be revoked: the logout fails, and says what to do if removal fails too")
    func unreadable() {
        var coordinator = Self.reading()
        let error = SwaggerError(.failure, "The keyring is locked.")
        #expect(coordinator.tokensUnreadable(error) == .remove(Self.record))
        var removed = coordinator
        let outcome = removed.removed()
        #expect(outcome.warning == .tokensUnreadable(error, server: Fixtures.server) && outcome.failed)
        var unremovable = coordinator
        #expect(unremovable.tokensNotRemoved(error) == .fail(.tokensNotRemoved(Fixtures.ana, error)))
        #expect(coordinator.removalFailed(error) == .notRemoved(Fixtures.ana, error, revoked: false))
    }

    @Test("tokens that no store holds end no session on the server: removed here, and the logout fails saying so")
    func tokensMissing() {
        var coordinator = Self.reading()
        #expect(coordinator.settled(.credentials(nil), now: Self.now) == .remove(Self.record))
        let outcome = coordinator.removed()
        #expect(outcome.warning == .tokensMissing(Fixtures.server) && outcome.failed)
    }

    @Test("--local forgets a session whose tokens cannot be removed, and says where they may remain")
    func localForgets() {
        var coordinator = LogoutCoordinator(Self.record, revoke: false, plainHTTP: PlainHTTP())
        _ = coordinator.start()
        #expect(coordinator.lockTaken() == .remove(Self.record))
        let error = SwaggerError(.failure, "There is no D-Bus session bus.")
        #expect(coordinator.tokensNotRemoved(error) == .forget(Self.record))
        let outcome = coordinator.removed()
        #expect(outcome.warning == .tokensLeft(Self.record.backend) && !outcome.failed)
    }

    @Test("a logout that told the server, and then cannot remove the tokens, says the server ended the session")
    func tokensNotRemovedAfterRevocation() {
        var coordinator = Self.reading()
        _ = coordinator.settled(.credentials(Self.tokens), now: Self.now)
        _ = coordinator.revoked(Self.revocation(), now: Self.now)
        _ = coordinator.accessChecked(taken: false)
        let error = SwaggerError(.failure, "The keyring is locked.")
        #expect(coordinator.tokensNotRemoved(error) == .fail(.notRemoved(Fixtures.ana, error, revoked: true)))
    }

    @Test("a removal that fails after the server ended the session says so")
    func removalFailedAfterRevocation() {
        var coordinator = Self.reading()
        _ = coordinator.settled(.credentials(Self.tokens), now: Self.now)
        _ = coordinator.revoked(Self.revocation(), now: Self.now)
        _ = coordinator.accessChecked(taken: false)
        let error = SwaggerError(.failure, "The disk is full.")
        #expect(coordinator.removalFailed(error) == .notRemoved(Fixtures.ana, error, revoked: true))
    }

    @Test("nothing to revoke with: a token from --with-token on the original API, which stays valid, as it says")
    func nothingToRevokeWith() {
        var coordinator = Self.reading()
        #expect(
            coordinator.settled(.credentials(Credentials(accessToken: "a1")), now: Self.now) == .remove(Self.record))
        let outcome = coordinator.removed()
        #expect(outcome.warning == .accessTokenStays(Fixtures.server, until: nil, endedRefresh: false))
        #expect(!outcome.failed, "nothing could end it: the logout did all it could")

        // Expired, it works nowhere: nothing to say.
        var expired = Self.record
        expired.expiresAt = Self.now
        var gone = Self.reading(expired)
        #expect(gone.settled(.credentials(Credentials(accessToken: "a1")), now: Self.now) == .remove(expired))
        #expect(gone.removed().warning == nil)
    }

    /// A server that ends a session by its refresh token alone, as a JWT blacklist does.
    static let blacklist = Fixtures.described([
        "login": ["request": ["url": "/token", "json": ["username": "{account}", "password": "{password}"]]],
        "profile": ["request": ["url": "/me", "token": "{access}"]],
        "revocation": ["requests": [["url": "/logout", "json": ["refresh": "{refresh}"]]]],
    ])

    @Test("a revocation that carries only the refresh token asks the profile whether the access token still works")
    func accessTokenStays() {
        var record = Self.record
        record.serverDescription = Self.blacklist
        record.expiresAt = Self.now.addingTimeInterval(300)
        var taken = Self.reading(record)
        let revocation = Self.revocation(record)
        #expect(taken.settled(.credentials(Self.tokens), now: Self.now) == .revoke(revocation))
        let check = ProfileRequest(server: record.server, serverDescription: Self.blacklist, accessToken: "a1")
        #expect(taken.revoked(revocation, now: Self.now) == .checkAccess(check))
        #expect(taken.accessChecked(taken: true) == .remove(record))
        let outcome = taken.removed()
        #expect(outcome.warning == .accessTokenStays(record.server, until: record.expiresAt, endedRefresh: true))
        #expect(!outcome.failed)

        // Refused, the server ended it with the refresh token: nothing to say.
        var refused = Self.reading(record)
        _ = refused.settled(.credentials(Self.tokens), now: Self.now)
        _ = refused.revoked(revocation, now: Self.now)
        #expect(refused.accessChecked(taken: false) == .remove(record))
        #expect(refused.removed().warning == nil)

        // An access token that has expired is not tried; one the revocation carries is ended with the session.
        var expired = Self.reading(record)
        _ = expired.settled(.credentials(Self.tokens), now: Self.now)
        #expect(expired.revoked(revocation, now: Self.now.addingTimeInterval(300)) == .remove(record))
        var oauth2 = Self.record
        oauth2.serverDescription = Self.oauth2
        var carried = Self.reading(oauth2)
        _ = carried.settled(.credentials(Self.tokens), now: Self.now)
        #expect(carried.revoked(Self.revocation(oauth2), now: Self.now) == .remove(oauth2))
        // A session with no refresh token is the access token's alone, which the revocation ended (knox's logout).
        var knox = record
        knox.serverDescription = Fixtures.described([
            "login": ["request": ["url": "/login", "json": ["username": "{account}", "password": "{password}"]]],
            "profile": ["request": ["url": "/me", "token": "{access}"]],
            "revocation": ["requests": [["url": "/logout", "token": "{access}"]]],
        ])
        var bare = Self.reading(knox)
        let alone = Credentials(accessToken: "a1")
        #expect(bare.settled(.credentials(alone), now: Self.now) == .revoke(Self.revocation(knox, alone)))
        #expect(bare.revoked(Self.revocation(knox, alone), now: Self.now) == .remove(knox))
    }

    /// An OAuth 2 server's description, revoking as RFC 7009 says.
    static let oauth2 = Fixtures.described([
        "preset": "oauth2", "login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"],
        "revocation": ["url": "https://idp/revoke"], "allowedOrigins": ["https://idp"],
    ])

    @Test("RFC 7009 revokes with the access token alone; a server with no revocation says it cannot")
    func otherServers() {
        var oauth2 = Self.record
        oauth2.serverDescription = Self.oauth2
        let bare = Credentials(accessToken: "a1")
        var revoking = Self.reading(oauth2)
        #expect(revoking.settled(.credentials(bare), now: Self.now) == .revoke(Self.revocation(oauth2, bare)))

        var identity = Self.record
        identity.serverDescription = Fixtures.identity
        var local = Self.reading(identity)
        #expect(local.settled(.credentials(Self.tokens), now: Self.now) == .remove(identity))
        let outcome = local.removed()
        #expect(outcome.warning == .serverCannotRevoke(Fixtures.server) && !outcome.failed)
    }

    @Test(
        "a revocation that carries an access token that has expired renews it first, and stores the renewal",
        arguments: [
            ("json:refresh", nil, true), ("bearer:POST", nil, true), ("rfc7009", "bearer", true),
            ("rfc7009", nil, false), ("rfc7009", "client_secret_basic", false),
        ] as [(String, String?, Bool)])
    func renewFirst(shape: String, client: String?, renews: Bool) throws {
        var record = Self.record
        var revocation: JSONValue = ["url": "https://idp/revoke", "with": .string(shape)]
        if let client { revocation = revocation.merging(["client": .string(client)]) }
        record.serverDescription = Fixtures.described(
            [
                "preset": "oauth2", "login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"],
                "revocation": revocation, "allowedOrigins": ["https://idp"],
            ])
        record.expiresAt = Self.now.addingTimeInterval(-1)
        var coordinator = Self.reading(record)
        let action = coordinator.settled(.credentials(Self.tokens), now: Self.now)
        guard renews else {
            #expect(action == .revoke(Self.revocation(record)))
            return
        }
        #expect(
            action
                == .settle(
                    .refresh(
                        RefreshRequest(
                            server: record.server, serverDescription: Fixtures.description(of: record),
                            renewal: .refreshToken("r1"),
                            appID: record.appID, client: ClientProof()),
                        of: record)))
        let store = coordinator.settled(.refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2")), now: Self.now)
        guard case .settle(.store(let renewed)) = store else {
            Issue.record("the renewal is not stored before it is used: \(store)")
            return
        }
        #expect(renewed.credentials == Credentials(accessToken: "a2", refreshToken: "r2"))
        let renewedRevocation = Self.revocation(record, renewed.credentials)
        #expect(coordinator.settled(.stored, now: Self.now) == .revoke(renewedRevocation))
        // Named in its body, the access token was ended with the rest; else the profile says.
        let revoked = coordinator.revoked(renewedRevocation, now: Self.now)
        if shape == "rfc7009" {
            #expect(revoked == .remove(record))
        } else {
            #expect(revoked != .remove(record))
            _ = coordinator.accessChecked(taken: false)
        }
        #expect(coordinator.removed() == LogoutCoordinator.Outcome(account: Fixtures.ana, warning: nil))
    }

    @Test("a token that has not expired, or a session that cannot be renewed, is revoked as it is")
    func noRenewal() {
        var fresh = Self.record
        fresh.expiresAt = Self.now.addingTimeInterval(600)
        var coordinator = Self.reading(fresh)
        #expect(coordinator.settled(.credentials(Self.tokens), now: Self.now) == .revoke(Self.revocation(fresh)))

        var expired = Self.record
        expired.expiresAt = Self.now.addingTimeInterval(-1)
        var noRefreshToken = Self.reading(expired)
        let bare = Credentials(accessToken: "a1", refreshToken: nil)
        // The bundled API names the session by its refresh token: without one there is nothing to end.
        #expect(noRefreshToken.settled(.credentials(bare), now: Self.now) == .remove(expired))
    }

    /// The bundled API's session, whose access token has expired.
    static let expired = {
        var expired = record
        expired.expiresAt = now.addingTimeInterval(-1)
        return expired
    }()

    /// A coordinator renewing the access token of ``expired``, which its revocation carries.
    static func refreshing() -> LogoutCoordinator {
        var coordinator = reading(expired)
        _ = coordinator.settled(TokenResult.credentials(tokens), now: now)
        return coordinator
    }

    @Test("a renewal the server refuses means the session has ended there; one that fails otherwise revokes as is")
    func renewalFailed() {
        let record = Self.expired
        var refused = Self.refreshing()
        #expect(refused.settled(.refreshFailed(.refreshRejected), now: Self.now) == .remove(record))
        #expect(refused.removed() == LogoutCoordinator.Outcome(account: Fixtures.ana, warning: nil))

        var unreachable = Self.refreshing()
        #expect(unreachable.settled(.refreshFailed(.timedOut), now: Self.now) == .revoke(Self.revocation(record)))
        _ = unreachable.revocationFailed(.timedOut)
        #expect(unreachable.removed().failed)
    }

    @Test("a renewal that cannot be stored still ends the session on the server, with the renewed tokens")
    func renewalNotStored() {
        var coordinator = Self.refreshing()
        _ = coordinator.settled(.refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2")), now: Self.now)
        let renewed = Credentials(accessToken: "a2", refreshToken: "r2")
        #expect(
            coordinator.settled(.notStored(SwaggerError(.failure, "The disk is full.")), now: Self.now)
                == .revoke(Self.revocation(Self.expired, renewed)))
    }

    @Test("tokens whose DPoP key is missing are revoked all the same, unproven")
    func keysMissing() {
        var coordinator = Self.reading(Self.record)
        #expect(coordinator.settled(.keysMissing(Self.tokens), now: Self.now) == .revoke(Self.revocation()))
    }

    @Test("the tokens never go over plain HTTP to another machine to be revoked, unless allowed")
    func plainHTTP() {
        let account = Account(server: "http://api.example.com/v1", name: "ana@example.com")
        let record = Fixtures.record(account)
        var refused = Self.reading(record)
        #expect(refused.settled(.credentials(Self.tokens), now: Self.now) == .remove(record))
        #expect(refused.removed().warning == .plainHTTPRefused(account, to: account.server))

        var allowed = Self.reading(record, plainHTTPAllowed: true)
        #expect(allowed.settled(.credentials(Self.tokens), now: Self.now) == .revoke(Self.revocation(record)))
    }

    @Test("the tokens never go to another origin than the server's to be revoked, unless allowed")
    func otherOrigin() {
        var record = Self.record
        let json: JSONValue = [
            "preset": "oauth2", "login": ["url": "/token"], "profile": ["url": "/me"],
            "revocation": ["url": "https://evil.example/revoke", "with": "rfc7009"],
        ]
        record.serverDescription = Fixtures.described(json, under: record.server)
        var refused = Self.reading(record)
        #expect(refused.settled(.credentials(Self.tokens), now: Self.now) == .remove(record))
        let evil = Fixtures.serverURL("https://evil.example")
        #expect(
            refused.removed().warning
                == .foreignOrigin(record.account, OriginRule.Foreign(step: "revocation", origin: evil)))

        record.serverDescription = Fixtures.described(
            json.merging(["allowedOrigins": ["https://evil.example"]]), under: record.server)
        var allowed = Self.reading(record)
        guard case .revoke = allowed.settled(.credentials(Self.tokens), now: Self.now) else {
            Issue.record("an allowed origin was refused")
            return
        }
    }
}
