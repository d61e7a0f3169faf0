import Foundation
import Testing

@testable import DemoServer

@Suite("TokenIssuer", .timeLimit(.minutes(5)))
struct TokenIssuerTests {
    static func issuer(lifetime: Duration) async throws -> TokenIssuer {
        let database = try DemoDatabase.open(path: nil)
        let families = SessionFamilies(database: database, lifetime: .seconds(60), clock: DemoClock())
        return try await TokenIssuer(database: database, families: families, lifetime: lifetime, clock: DemoClock())
    }

    @Test(
        "iat is rounded down and exp up to whole seconds, so a token lives at least its lifetime",
        arguments: [1_800_000_000.0, 1_800_000_000.1, 1_800_000_000.9])
    func wholeSeconds(issuedAt: TimeInterval) async throws {
        let issuer = try await Self.issuer(lifetime: .seconds(1))
        let member = SessionFamilies.Member(email: "a@example.com", familyID: "family")
        let token = try await issuer.accessToken(for: member, issuedAt: Date(timeIntervalSince1970: issuedAt))
        let payload = try JWTPayload(token: token)
        #expect(payload.numberLiteral("iat") == String(Int(issuedAt.rounded(.down))))
        #expect(payload.numberLiteral("exp") == String(Int((issuedAt + 1).rounded(.up))))
        #expect(try #require(payload.number("exp")) >= issuedAt + 1)
    }

    @Test("two tokens for one session in the same second differ, so a refresh always gives a new one")
    func distinct() async throws {
        let issuer = try await Self.issuer(lifetime: .seconds(60))
        let member = SessionFamilies.Member(email: "a@example.com", familyID: "family")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try await issuer.accessToken(for: member, issuedAt: now)
        #expect(try await issuer.accessToken(for: member, issuedAt: now) != first)
    }
}
