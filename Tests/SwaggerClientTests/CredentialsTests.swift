import Foundation
import SwaggerClient
import Testing

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

    @Test("values that hold credentials do not show the tokens either")
    func containers() {
        let session = Session(record: Fixtures.record(Fixtures.ana), credentials: Self.credentials)
        let action = MainCoordinator.Action.store(session)
        let texts = [
            String(describing: session), String(reflecting: session), Self.dumped(session),
            String(describing: action), Self.dumped(action),
        ]
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
