import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("ServerPlan: how a login talks to its server, from the flags, the saved session and discovery")
struct ServerPlanTests {
    static let server = Fixtures.serverURL("https://id.example.com/realms/app")

    static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(filePath: "/")
    }

    @Test("no flags and nothing saved: the documents the server publishes are read; a saved original session is kept")
    func original() throws {
        #expect(
            try ServerPlan.plan(flags: ServerFlags(), saved: nil, server: Self.server, clientSecret: false)
                == .explore(
                    metadata: Discovery.metadataDocuments(for: Self.server),
                    openAPI: Discovery.openAPIDocuments(for: Self.server)))
        #expect(
            try ServerPlan.plan(
                flags: ServerFlags(), saved: .original(Self.server), server: Self.server, clientSecret: false)
                == .ready(.original(Self.server)))
    }

    @Test("OAuth 2 without its endpoints reads the metadata documents first, then the OpenAPI ones")
    func discovers() throws {
        let plan = try ServerPlan.plan(
            flags: ServerFlags(kind: .oauth2), saved: nil, server: Self.server, clientSecret: false)
        #expect(
            plan
                == .discover(
                    metadata: Discovery.metadataDocuments(for: Self.server),
                    openAPI: Discovery.openAPIDocuments(for: Self.server)))
    }

    @Test("OAuth 2 with its endpoints given is ready, and the flags' paths resolve under the server")
    func oauth2Ready() throws {
        let flags = ServerFlags(
            kind: .oauth2, loginPath: "/token", profilePath: "/userinfo", clientID: "cli", scope: "openid")
        guard
            case .ready(let description) = try ServerPlan.plan(
                flags: flags, saved: nil, server: Self.server, clientSecret: true)
        else {
            Issue.record("expected a ready description")
            return
        }
        #expect(description.loginURL == Self.url("https://id.example.com/realms/app/token"))
        #expect(description.refreshURL == description.loginURL)
        #expect(description.profileURL == Self.url("https://id.example.com/realms/app/userinfo"))
        #expect(description.clientID == "cli" && description.usesClientSecret)
    }

    @Test("a flag for another kind with the original API, or no kind at all, is a usage error that names it")
    func misfits() {
        let cases: [(ServerFlags, Bool, String)] = [
            (
                ServerFlags(kind: .original, loginPath: "/login"), false,
                "--login-path is for the other kinds of server"
            ),
            (ServerFlags(openAPI: "/openapi.json"), false, "--openapi describes another kind of server"),
            (ServerFlags(kind: .identity, clientID: "cli"), false, "--client-id is for --kind oauth2"),
            (ServerFlags(kind: .original), true, "--client-secret-stdin is for the other kinds of server"),
        ]
        for (flags, clientSecret, message) in cases {
            #expect {
                try ServerPlan.plan(flags: flags, saved: nil, server: Self.server, clientSecret: clientSecret)
            } throws: { error in
                (error as? SwaggerError).map { $0.code == .usage && $0.message.contains(message) } == true
            }
        }
    }

    @Test("a client secret without a client id is refused: Basic authentication needs both")
    func secretWithoutClientID() {
        let flags = ServerFlags(kind: .oauth2, loginPath: "/token", profilePath: "/userinfo")
        #expect {
            try ServerPlan.plan(flags: flags, saved: nil, server: Self.server, clientSecret: true)
        } throws: { error in
            (error as? SwaggerError)?.message
                == "--client-secret-stdin needs --client-id: the secret authenticates that client."
        }
        let found = Discovery.Endpoints(token: Self.url("https://id.example.com/token"))
        #expect(throws: SwaggerError.self) {
            try ServerPlan.complete(
                flags: ServerFlags(kind: .oauth2, profilePath: "/userinfo"), saved: nil, server: Self.server,
                clientSecret: true, found: found, at: [], tried: [])
        }
    }

    static let saved = ServerDescription(
        kind: .oauth2, loginURL: url("https://id.example.com/token"), refreshURL: nil, revocationURL: nil,
        profileURL: url("https://id.example.com/userinfo"), clientID: "cli", scope: "openid", fields: .oauth2,
        usesClientSecret: true)

    @Test("a later login reuses the saved client id and scope, so the secret needs no flag again")
    func savedClientID() throws {
        let plan = try ServerPlan.plan(flags: ServerFlags(), saved: Self.saved, server: Self.server, clientSecret: true)
        guard case .ready(let description) = plan else {
            Issue.record("expected a ready description: \(plan)")
            return
        }
        #expect(description.clientID == "cli" && description.scope == "openid")
    }

    @Test("a later login that reads an OpenAPI document keeps the saved client id and scope")
    func savedClientIDAfterDiscovery() throws {
        let flags = ServerFlags(openAPI: "/openapi.json")
        let document = Self.url("https://id.example.com/realms/app/openapi.json")
        #expect(
            try ServerPlan.plan(flags: flags, saved: Self.saved, server: Self.server, clientSecret: true)
                == .discover(metadata: [], openAPI: [document]))
        let found = Discovery.Endpoints(token: Self.url("https://id.example.com/realms/app/token"))
        let description = try ServerPlan.complete(
            flags: flags, saved: Self.saved, server: Self.server, clientSecret: true, found: found, at: [document],
            tried: [document])
        #expect(description.loginURL == found.token)
        #expect(description.clientID == "cli" && description.scope == "openid")
    }
}

@Suite("ServerPlan.signIn: the browser where the server offers no password grant")
struct SignInTests {
    static let server = Fixtures.serverURL("https://id.example.com/realms/app")
    static let device = "urn:ietf:params:oauth:grant-type:device_code"

    static func description(web: Bool = true, device: Bool = true) -> ServerDescription {
        var description = ServerDescription(
            kind: .oauth2, loginURL: server.url, refreshURL: nil, revocationURL: nil, profileURL: server.url,
            fields: .oauth2)
        description.authorizationURL = web ? server.url.appending(path: "auth") : nil
        description.deviceAuthorizationURL = device ? server.url.appending(path: "device") : nil
        return description
    }

    @Test(
        "the password where it is offered or nothing is said; else the browser where there is one, else the code",
        arguments: [
            ([String]?.none, true, SignIn.password),
            (["password", "authorization_code"], true, .password),
            (["authorization_code", device], true, .web),
            (["authorization_code", device], false, .device),
            (["authorization_code"], false, .web),
            ([device], true, .device),
            (["client_credentials"], true, .password),
        ])
    func chosen(grants: [String]?, hasBrowser: Bool, expected: SignIn) {
        #expect(
            ServerPlan.signIn(flag: nil, grantTypes: grants, description: Self.description(), hasBrowser: hasBrowser)
                == expected)
    }

    @Test("a grant without its endpoint is not chosen")
    func needsEndpoint() {
        #expect(
            ServerPlan.signIn(
                flag: nil, grantTypes: ["authorization_code", Self.device], description: Self.description(web: false),
                hasBrowser: true) == .device)
    }

    @Test("a flag wins; else the saved session's way, before what the documents say")
    func flagAndSaved() {
        var saved = Self.description()
        saved.signIn = .device
        #expect(ServerPlan.signIn(flag: .web, grantTypes: nil, description: saved, hasBrowser: true) == .web)
        #expect(ServerPlan.signIn(flag: nil, grantTypes: ["password"], description: saved, hasBrowser: true) == .device)
        #expect(
            ServerPlan.signIn(flag: .password, grantTypes: ["authorization_code"], description: saved, hasBrowser: true)
                == .password)
    }
}
