import Foundation
import SessionMachine
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("Messages: what each failure says, with what the server's description sends", .timeLimit(.minutes(5)))
struct MessagesTests {
    static let messages = MessageContext(timeout: .seconds(10), now: Date())
    static let oauth2 = Fixtures.described(["preset": "oauth2", "login": ["url": "/t"], "profile": ["url": "/u"]])
    static let described = Fixtures.described(["login": ["url": "/l"], "profile": ["url": "/p"]])

    @Test(
        "a refused request advises checking what the server's description sends that the server may not know",
        arguments: [
            (Fixtures.original(), "Check the server URL and the app id."),
            (Fixtures.identity, "Check the server URL, and what `swaggerctl server show` says is sent."),
            (oauth2, "Check the server URL, the client id and the scope."),
        ])
    func refusedRequest(description: ServerDescription, advice: String) {
        let error = APIServiceError.requestRejected(status: 400, message: nil).rendered(
            on: Fixtures.server, account: nil, description: description, in: Self.messages)
        #expect(error.message == "\(Fixtures.server) refused the request (HTTP 400) without saying why. \(advice)")
    }

    @Test(
        "refused credentials name the account the way it was given",
        arguments: [
            ("ana@example.com", "Wrong e-mail or password for ana@example.com"),
            ("ana", "Wrong user name or password for ana"),
        ])
    func refusedCredentials(account: String, said: String) {
        let error = APIServiceError.badCredentials(status: 401, message: nil).rendered(
            on: Fixtures.server, account: account, description: Self.described, in: Self.messages)
        #expect(error.code == .authentication)
        #expect(error.message == "\(said) on \(Fixtures.server). Check both and try again.")
    }

    @Test("the login a message suggests names the account as it signs in: -e an e-mail, -u a user name")
    func loginCommand() {
        #expect(
            Fixtures.server.loginCommand(as: "ana@example.com")
                == "swaggerctl login -s \(Fixtures.server) -e ana@example.com")
        #expect(Fixtures.server.loginCommand(as: "ana") == "swaggerctl login -s \(Fixtures.server) -u ana")
    }

    @Test("refused credentials in the server's words quote them, and say what to check")
    func refusedInWords() {
        let error = APIServiceError.badCredentials(
            status: 400, message: #"{"non_field_errors":["Unable to log in with provided credentials."]}"#
        ).rendered(
            on: Fixtures.server, account: "ana", description: Self.described, in: Self.messages)
        #expect(error.code == .authentication)
        #expect(error.message.hasPrefix("\(Fixtures.server) refused the login (HTTP 400): \""))
        #expect(error.message.hasSuffix("Check the account and password."))
    }

    @Test("a proxy that wants credentials is named, with its password hidden, and says where they go")
    func proxyAuthentication() {
        let error = APIServiceError.proxyFailed(proxy: "http://me:[redacted]@10.0.0.1:3128", .authenticationRequired)
            .rendered(
                on: Fixtures.server, account: nil, description: Fixtures.original(), in: Self.messages)
        #expect(error.code == .network)
        #expect(
            error.message
                == "The proxy http://me:[redacted]@10.0.0.1:3128 wants a user name and password (HTTP 407). Put them "
                + "in its URL: http://user:password@host:port.")
    }

    @Test("a revocation that failed is worded for the session's server, and fails the logout")
    func revocationFailure() {
        let warning = LogoutCoordinator.Warning.revocationFailed(
            .requestRejected(status: 400, message: nil), server: Fixtures.server, description: Self.oauth2)
        #expect(
            warning.failure(in: Self.messages)
                == "Logged out here, but the server was not told: it refused the request (HTTP 400) without saying "
                + "why. Check the server URL, the client id and the scope.")
    }

    @Test("a browser sign-in by someone else, or by nobody that can be named, says so and what to do")
    func signedIn() {
        let other = SessionFailure.otherAccountSignedIn(
            server: Fixtures.server, asked: "ana@example.com", signedIn: "bob@example.com"
        ).rendered(in: Self.messages)
        #expect(other.code == .authentication && other.message.hasPrefix("bob@example.com signed in, not "))
        let nobody = SessionFailure.unknownAccountSignedIn(server: Fixtures.server).rendered(in: Self.messages)
        #expect(nobody.code == .authentication && nobody.message.hasSuffix("Name the account with -e or -u."))
    }

    @Test("with no account to name, the login hint takes the server's account word: -e an e-mail, -u a user name")
    func accountWord() {
        let byName = Fixtures.described([
            "login": ["url": "https://api.example.com/token/", "account": "username"],
            "profile": ["url": "https://api.example.com/me/"],
        ])
        let rejected = APIServiceError.tokenRejected(challenge: nil)
        let named = rejected.rendered(on: Fixtures.server, account: nil, description: byName, in: Self.messages)
        #expect(named.message.hasSuffix("Run `swaggerctl login -s \(Fixtures.server) -u NAME`."), "\(named)")
        let mailed = rejected.rendered(
            on: Fixtures.server, account: nil, description: Fixtures.original(), in: Self.messages)
        #expect(mailed.message.hasSuffix("-e you@example.com`."), "\(mailed)")
    }

    @Test("a client's session that ended is signed in again as a client, not with -u")
    func clientSessionEnded() {
        var record = Fixtures.record(Fixtures.ana)
        record.signIn = .client
        let ended = SessionFailure.sessionEnded(Fixtures.ana, because: .tokenRejected(challenge: nil))
        #expect(
            ended.rendered(in: Self.messages, session: record).message
                == "The session has ended: the server refuses it. Run `swaggerctl login -s "
                + "\(Fixtures.server) --client-credentials --client-id \(Fixtures.ana.name)`.")
        #expect(ended.rendered(in: Self.messages).message.hasSuffix("-e \(Fixtures.ana.name)`."))
    }
}
