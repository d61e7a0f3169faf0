import Foundation
import Testing

@testable import SwaggerClient

@Suite("Credentials: descriptions never show a token")
struct CredentialsTests {
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
        let use = MainCoordinator.StartAction.use(
            .fetchProfile(server: Fixtures.server, dialect: nil, accessToken: "SECRET"))
        let refresh = MainCoordinator.LockedAction.refresh(
            .init(server: Fixtures.server, refreshToken: "SECRET", appID: "app"))
        let source = MainCoordinator.Source.environment(token: "SECRET", server: Fixtures.server)
        let failure = MainCoordinator.Failure.request(.timedOut, source)
        let selection = SessionSelection(server: try ServerURL(Fixtures.server), environmentToken: "SECRET")
        var texts = [
            String(describing: session), String(reflecting: session), Self.dumped(session),
        ]
        for value in [use, refresh, source, failure, selection] as [Any] {
            texts += [String(describing: value), String(reflecting: value), Self.dumped(value)]
        }
        for text in texts {
            #expect(!text.contains("SECRET"), "\(text)")
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
