import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("--server-file and the shape flags: a server described once, by the flags' own names")
struct ServerFileTests {
    static let server = Fixtures.serverURL("https://api.example.com/v1")

    static func flags(_ json: String) throws(SwaggerError) -> ServerFlags {
        try ServerFlags(file: Data(json.utf8), named: "server.json")
    }

    @Test("a file holds the flags by name, and the command line wins over it")
    func readsAndYields() throws {
        let file = try Self.flags(
            #"""
            {"kind": "custom", "login-path": "/login", "profile-path": "/me", "refresh-path": "/refresh",
             "revoke-path": "/logout", "login-body": "json:username", "refresh-with": "bearer",
             "revoke-with": "bearer:DELETE", "access-token-field": "access_token"}
            """#)
        #expect(file.kind == .custom && file.loginPath == "/login" && file.refreshShape == .bearer)
        #expect(file.revocationShape == .bearer(method: "DELETE") && file.loginShape == .json(userField: "username"))
        let merged = ServerFlags(profilePath: "/users/me", refreshShape: .json(field: "refresh")).over(file)
        #expect(merged.profilePath == "/users/me" && merged.refreshShape == .json(field: "refresh"))
        #expect(merged.loginPath == "/login" && merged.kind == .custom)
    }

    @Test(
        "a file that is not the flags is a usage error that says what is wrong",
        arguments: [
            (#"["kind"]"#, "is not a JSON object of flags"), (#"{"login": "/x"}"#, #""login" is not a flag"#),
            (#"{"login-path": 7}"#, #""login-path" must be a string"#),
            (#"{"refresh-with": "cookie"}"#, #""refresh-with" cannot be "cookie""#),
            (#"{"kind": "original"}"#, #""kind" cannot be "original""#),
        ])
    func refused(json: String, said: String) {
        #expect {
            try Self.flags(json)
        } throws: { error in
            guard let error = error as? SwaggerError else { return false }
            return error.code == .usage && error.message.contains(said) && error.message.hasPrefix("server.json: ")
                || error.message.hasPrefix("server.json is not")
        }
    }

    @Test("a custom server needs its login and profile addresses; the shapes come from the flags")
    func custom() throws {
        #expect(throws: SwaggerError.self) {
            try ServerPlan.plan(
                flags: ServerFlags(kind: .custom, profilePath: "/me"), saved: nil, server: Self.server,
                clientSecret: false)
        }
        let flags = ServerFlags(
            kind: .custom, loginPath: "/login", refreshPath: "/refresh", revokePath: "/logout", profilePath: "/me",
            refreshShape: .bearer, revocationShape: .bearer(method: "DELETE"))
        guard
            case .ready(let description) = try ServerPlan.plan(
                flags: flags, saved: nil, server: Self.server, clientSecret: false)
        else {
            Issue.record("not ready")
            return
        }
        #expect(description.loginURL.absoluteString == "https://api.example.com/v1/login")
        #expect(description.login == .json(userField: "username") && description.refresh == .bearer)
        #expect(description.revocation == .bearer(method: "DELETE") && description.fields == .oauth2)

        // A later login without the flags keeps the saved shapes.
        guard
            case .ready(let again) = try ServerPlan.plan(
                flags: ServerFlags(), saved: description, server: Self.server, clientSecret: false)
        else {
            Issue.record("not ready")
            return
        }
        #expect(again == description)
    }
}
