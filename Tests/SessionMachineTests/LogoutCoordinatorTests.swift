import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("LogoutCoordinator: lock, revoke, then remove, with no I/O")
struct LogoutCoordinatorTests {
    static let tokens = Credentials(accessToken: "a1", refreshToken: "r1")
    static let record = Fixtures.record(Fixtures.ana)

    static func revocation(_ record: SessionRecord = record, _ credentials: Credentials = tokens) -> Revocation {
        Revocation(server: record.server, serverDescription: record.serverDescription, credentials: credentials)
    }

    /// A coordinator holding the lock, about to read `record`'s tokens.
    static func reading(_ record: SessionRecord = record, plainHTTPAllowed: Bool = false) -> LogoutCoordinator {
        var coordinator = LogoutCoordinator(record, revoke: true, plainHTTP: PlainHTTP(allowed: plainHTTPAllowed))
        #expect(coordinator.start() == record.account)
        #expect(coordinator.lockTaken() == .readTokens(record))
        return coordinator
    }

    @Test("under the lock, the tokens are read, the server told, and only then the session removed here")
    func order() {
        var coordinator = Self.reading()
        #expect(coordinator.tokensRead(Self.tokens) == .revoke(Self.revocation()))
        #expect(coordinator.revoked() == Self.record)
        #expect(coordinator.removed() == LogoutCoordinator.Outcome(account: Fixtures.ana, warning: nil))
    }

    @Test("--local reads no token and tells no server")
    func local() {
        var coordinator = LogoutCoordinator(Self.record, revoke: false, plainHTTP: PlainHTTP())
        _ = coordinator.start()
        #expect(coordinator.lockTaken() == .remove(Self.record))
        #expect(coordinator.removed().warning == nil)
    }

    @Test("a server that cannot be told is a warning, and the session is removed here all the same")
    func revocationFailed() {
        var coordinator = Self.reading()
        _ = coordinator.tokensRead(Self.tokens)
        #expect(coordinator.revocationFailed(.unreachable("connection refused")) == Self.record)
        #expect(
            coordinator.removed().warning
                == .revocationFailed(.unreachable("connection refused"), server: Fixtures.server, kind: .original))
    }

    @Test("tokens that cannot be read cannot be revoked: a warning, and removal says what to do if it fails too")
    func unreadable() {
        var coordinator = Self.reading()
        let error = SwaggerError(.failure, "The keyring is locked.")
        #expect(coordinator.tokensUnreadable(error) == Self.record)
        var removed = coordinator
        #expect(removed.removed().warning == .tokensUnreadable(error, server: Fixtures.server))
        #expect(coordinator.removalFailed(error) == .notRemoved(Fixtures.ana, error, revoked: false))
    }

    @Test("a removal that fails after the server ended the session says so")
    func removalFailedAfterRevocation() {
        var coordinator = Self.reading()
        _ = coordinator.tokensRead(Self.tokens)
        _ = coordinator.revoked()
        let error = SwaggerError(.failure, "The disk is full.")
        #expect(coordinator.removalFailed(error) == .notRemoved(Fixtures.ana, error, revoked: true))
    }

    @Test("nothing to revoke with: no tokens, or the original API's session without its refresh token")
    func nothingToRevokeWith() {
        for credentials in [nil, Credentials(accessToken: "a1")] {
            var coordinator = Self.reading()
            #expect(coordinator.tokensRead(credentials) == .remove(Self.record))
            #expect(coordinator.removed().warning == nil)
        }
    }

    @Test("another kind revokes with the access token alone; one with no revocation endpoint says it cannot")
    func otherKinds() {
        var oauth2 = Self.record
        oauth2.serverDescription.kind = .oauth2
        let bare = Credentials(accessToken: "a1")
        var revoking = Self.reading(oauth2)
        #expect(revoking.tokensRead(bare) == .revoke(Self.revocation(oauth2, bare)))

        var identity = Self.record
        identity.serverDescription = Fixtures.identity
        var local = Self.reading(identity)
        #expect(local.tokensRead(Self.tokens) == .remove(identity))
        #expect(local.removed().warning == .serverCannotRevoke(Fixtures.server))
    }

    @Test("the tokens never go over plain HTTP to another machine to be revoked, unless allowed")
    func plainHTTP() {
        let account = Account(server: "http://api.example.com/v1", email: "ana@example.com")
        let record = Fixtures.record(account)
        var refused = Self.reading(record)
        #expect(refused.tokensRead(Self.tokens) == .remove(record))
        #expect(refused.removed().warning == .plainHTTPRefused(account, to: account.server))

        var allowed = Self.reading(record, plainHTTPAllowed: true)
        #expect(allowed.tokensRead(Self.tokens) == .revoke(Self.revocation(record)))
    }
}
