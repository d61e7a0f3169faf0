import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("Redaction: descriptions never show a token", .timeLimit(.minutes(5)))
struct RedactionTests {
    static let credentials = Credentials(accessToken: "eyJ-access-SECRET", refreshToken: "refresh-SECRET")

    static func dumped(_ value: some Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test("description, debugDescription, String(reflecting:), interpolation and dump hide both tokens")
    func redacted() {
        let credentials = Self.credentials
        let texts = [
            credentials.description, credentials.debugDescription, String(describing: credentials),
            String(reflecting: credentials), "\(credentials)", Self.dumped(credentials),
            String(describing: Optional(credentials)), "\([credentials])",
        ]
        for text in texts {
            #expect(!text.contains("SECRET"), "\(text)")
        }
        #expect(credentials.description == "Credentials(redacted)")
        #expect(credentials.debugDescription == "Credentials(redacted)")
        #expect(Mirror(reflecting: credentials).children.isEmpty)
    }

    @Test("values that hold credentials or tokens, actions included, do not show the tokens either")
    func containers() throws {
        let session = Session(record: Fixtures.record(Fixtures.ana), credentials: Self.credentials)
        let description = Fixtures.original()
        let values: [Any] = [
            session,
            MainCoordinator<ProfilePurpose>.Action.proceed(
                .fetch(ProfileRequest(server: Fixtures.server, serverDescription: description, accessToken: "SECRET"))),
            MainCoordinator<TokenPurpose>.Action.settle(
                .refresh(
                    RefreshRequest(
                        server: Fixtures.server, serverDescription: description, renewal: .refreshToken("SECRET"),
                        appID: "app", client: ClientProof(secret: "SECRET", key: ClientKey(privateKey: "SECRET"))),
                    of: Fixtures.record(Fixtures.ana))),
            TokenResult.locked(
                LockedSession(record: nil, credentials: Self.credentials, waitingSince: Date(timeIntervalSince1970: 0))),
            MainCoordinator<RequestPurpose>.Action.proceed(.send(accessToken: "SECRET")),
            TokenSource.environment(token: "SECRET", server: Fixtures.server, description: Fixtures.original()),
            TokenGrant(accessToken: "SECRET", refreshToken: "SECRET"),
            LoginCoordinator.StoreTokens(account: Fixtures.ana, credentials: Self.credentials),
            LoginCoordinator.Request(
                server: Fixtures.server, name: AccountName("ana", isEmail: false), serverDescription: description,
                client: ClientProof(secret: "SECRET")),
            Revocation(server: Fixtures.server, serverDescription: description, credentials: Self.credentials),
        ]
        for value in values {
            for text in [String(describing: value), String(reflecting: value), Self.dumped(value)] {
                #expect(!text.contains("SECRET"), "\(text)")
            }
        }
    }

    @Test("the tokens are still there to use, and equality compares them")
    func values() {
        #expect(Self.credentials.accessToken == "eyJ-access-SECRET")
        #expect(Self.credentials.refreshToken == "refresh-SECRET")
        #expect(Self.credentials != Credentials(accessToken: "eyJ-access-SECRET"))
        #expect(Credentials(accessToken: "a").refreshToken == nil)
    }
}
