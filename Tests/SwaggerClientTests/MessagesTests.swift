import Foundation
import SessionMachine
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("Messages: what each failure says, for the kind of server it came from")
struct MessagesTests {
    static let messages = Messages(timeout: .seconds(10), now: Date())

    @Test(
        "a refused request advises checking what that kind of server is given",
        arguments: [
            (ServerKind.original, "Check the server URL and the app id."),
            (.identity, "Check the server URL and --login-path."),
            (.oauth2, "Check the server URL, the client id and the scope."),
        ])
    func refusedRequest(kind: ServerKind, advice: String) {
        let error = Self.messages.error(
            .requestRejected(status: 400, message: nil), on: Fixtures.server, email: nil, kind: kind)
        #expect(error.message == "\(Fixtures.server) refused the request with HTTP 400. \(advice)")
    }

    @Test(
        "refused credentials name the account the way it was given",
        arguments: [
            ("ana@example.com", "Wrong e-mail or password for ana@example.com"),
            ("ana", "Wrong user name or password for ana"),
        ])
    func refusedCredentials(account: String, said: String) {
        let error = Self.messages.error(
            .badCredentials(status: 401, message: nil), on: Fixtures.server, email: account, kind: .custom)
        #expect(error.message == "\(said) on \(Fixtures.server). Check both and try again.")
    }

    @Test("a proxy that wants credentials is named, with its password hidden, and says where they go")
    func proxyAuthentication() {
        let error = Self.messages.error(
            .proxyFailed(proxy: "http://me:[redacted]@10.0.0.1:3128", .authenticationRequired), on: Fixtures.server,
            email: nil, kind: .original)
        #expect(error.code == .network)
        #expect(
            error.message
                == "The proxy http://me:[redacted]@10.0.0.1:3128 wants a user name and password (HTTP 407) that it was "
                + "not given. Put them in the proxy's URL, as http://user:password@host:port.")
    }

    @Test("a revocation that failed is worded for the session's kind of server, not the original API's")
    func revocationWarning() {
        let warning = LogoutCoordinator.Warning.revocationFailed(
            .requestRejected(status: 400, message: nil), server: Fixtures.server, kind: .oauth2)
        #expect(
            Self.messages.warning(warning)
                == "the session was removed from this machine, but \(Fixtures.server) could not be told to end it: "
                + "\(Fixtures.server) refused the request with HTTP 400. Check the server URL, the client id and the "
                + "scope.")
    }
}
