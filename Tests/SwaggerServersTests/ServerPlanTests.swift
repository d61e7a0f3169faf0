import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerServers

@Suite("ServerPlan: a server's description from what is given, saved, preset and published", .timeLimit(.minutes(5)))
struct ServerPlanTests {
    static let server = Fixtures.serverURL("https://h.example.com/api")

    static func given(_ json: JSONValue, source: String = "given") -> DescriptionLayer {
        DescriptionLayer(json: json, source: source)
    }

    static func entry(_ json: JSONValue, sources: [String: String] = [:]) -> ServerEntry {
        ServerEntry(
            server: server, description: Fixtures.described(json, under: server), sources: sources,
            updatedAt: Fixtures.savedAt)
    }

    static func ready(_ plan: ServerPlan) throws -> (ServerDescription, [String: String]) {
        guard case .ready(let description, let sources) = plan else { throw Unexpected(plan) }
        return (description, sources)
    }

    static func exploration(_ plan: ServerPlan) throws -> ServerPlan.Exploration {
        guard case .explore(let exploration) = plan else { throw Unexpected(plan) }
        return exploration
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
        init(_ plan: ServerPlan) { description = "\(plan)" }
    }

    @Test("nothing given and nothing saved: every metadata document, then the frameworks' OpenAPI places")
    func nothingKnown() throws {
        let exploration = try Self.exploration(ServerPlan.plan(given: [], saved: nil, server: Self.server))
        #expect(exploration.metadata == Discovery.metadataDocuments(for: Self.server))
        #expect(exploration.openAPI == Discovery.openAPIDocuments(for: Self.server))
        #expect(exploration.below.isEmpty && exploration.over.isEmpty)
        // A server that publishes nothing is no family at all.
        #expect(try ServerPlan.finish(exploration, found: nil, server: Self.server) == nil)
    }

    @Test("a saved description is used as it is, with what is given over it, and nothing is read")
    func saved() throws {
        let saved = Self.entry(
            ["preset": "simplejwt", "profile": ["url": "/users/me/"]], sources: ["profile": "https://h/schema/"])
        let (kept, keptSources) = try Self.ready(ServerPlan.plan(given: [], saved: saved, server: Self.server))
        #expect(kept == saved.serverDescription)
        #expect(keptSources["profile"] == "https://h/schema/")

        let (changed, sources) = try Self.ready(
            ServerPlan.plan(
                given: [Self.given(["token": "Authorization: Token", "profile": ["url": "/me"]])], saved: saved,
                server: Self.server))
        #expect(changed.profile.url?.absoluteString == "https://h.example.com/api/me")
        #expect(changed.token.scheme == "Token")
        #expect(changed.login == saved.serverDescription.login)
        #expect(sources["profile"] == "given" && sources["login"] == "preset simplejwt")
    }

    @Test("a client id over a server that publishes nothing describes nothing: no login flag is asked for")
    func clientAlone() throws {
        var flags = ServerFlags()
        try flags.set("client-id", "my-cli")
        try flags.set("scope", "openid")
        let exploration = try Self.exploration(
            ServerPlan.plan(given: [Self.given(flags.json)], saved: nil, server: Self.server))
        #expect(try ServerPlan.finish(exploration, found: nil, server: Self.server) == nil)
        // The login's own flag still makes a description, which names what else it lacks.
        try flags.set("login-path", "/token/")
        let login = try Self.exploration(
            ServerPlan.plan(given: [Self.given(flags.json)], saved: nil, server: Self.server))
        #expect(throws: SwaggerError.self) { try ServerPlan.finish(login, found: nil, server: Self.server) }
    }

    @Test("a preset that says everything is ready; one that does not is completed from the documents")
    func presets() throws {
        let (identity, sources) = try Self.ready(
            ServerPlan.plan(given: [Self.given(["preset": "identity"])], saved: nil, server: Self.server))
        #expect(identity.preset == "identity" && identity.revocation == nil)
        #expect(sources["login"] == "preset identity")

        let exploration = try Self.exploration(
            ServerPlan.plan(
                given: [Self.given(["preset": "oauth2", "client": ["id": "cli"]])], saved: nil, server: Self.server))
        #expect(exploration.below.map(\.source) == ["preset oauth2"])
        let metadata = Discovery.Endpoints(
            token: URL(string: "https://idp/token"), userinfo: URL(string: "https://idp/userinfo"),
            revocation: URL(string: "https://idp/revoke"), scopes: ["openid", "email", "offline_access"],
            revocationAuthentication: ["client_secret_basic", "bearer"])
        let finding = Discovery.Finding(
            preset: "oauth2",
            layer: DescriptionLayer(json: metadata.json(confidential: false), source: "https://idp/.well-known"),
            documents: [URL(string: "https://idp/.well-known")!])
        let (oauth2, found) = try #require(try ServerPlan.finish(exploration, found: finding, server: Self.server))
        #expect(oauth2.login.url?.absoluteString == "https://idp/token" && oauth2.login.isPasswordGrant)
        #expect(oauth2.refresh?.url?.absoluteString == "https://idp/token" && oauth2.refresh?.isGrant == true)
        #expect(oauth2.revocation?.clientAuthentication == .bearer)
        #expect(oauth2.clientID == "cli" && oauth2.scope == "openid email")
        #expect(found["login"] == "https://idp/.well-known" && found["client"] == "given")
    }

    @Test("a preset other than the saved one's starts over from the preset")
    func otherPreset() throws {
        let saved = Self.entry(["preset": "identity"])
        let (fastAPIUsers, _) = try Self.ready(
            ServerPlan.plan(given: [Self.given(["preset": "fastapi-users"])], saved: saved, server: Self.server))
        #expect(fastAPIUsers.login.url?.absoluteString == "https://h.example.com/api/auth/jwt/login")
    }

    @Test("what is given whole needs no document; what is given in part goes over what the documents say")
    func given() throws {
        let whole = Self.given(["login": ["url": "/login"], "profile": ["url": "/me"]], source: "team.json")
        let (description, sources) = try Self.ready(ServerPlan.plan(given: [whole], saved: nil, server: Self.server))
        #expect(description.preset == nil && sources["login"] == "team.json")

        let part = Self.given(["profile": ["url": "/me"]])
        let exploration = try Self.exploration(ServerPlan.plan(given: [part], saved: nil, server: Self.server))
        #expect(exploration.over == [part])
        let document = URL(string: "https://h.example.com/openapi.json")!
        let finding = Discovery.Finding(
            layer: DescriptionLayer(
                json: ["login": ["url": "https://h.example.com/token"]], source: document.absoluteString),
            documents: [document])
        let (found, foundSources) = try #require(
            try ServerPlan.finish(exploration, found: finding, server: Self.server))
        #expect(found.login.url?.absoluteString == "https://h.example.com/token")
        #expect(found.profile.url?.absoluteString == "https://h.example.com/api/me")
        #expect(foundSources == ["login": document.absoluteString, "profile": "given"])
    }

    @Test("a document named with --openapi is the only one read")
    func namedDocument() throws {
        let exploration = try Self.exploration(
            ServerPlan.plan(given: [Self.given(["document": "/schema.json"])], saved: nil, server: Self.server))
        #expect(exploration.metadata.isEmpty)
        #expect(exploration.openAPI.map(\.absoluteString) == ["https://h.example.com/api/schema.json"])
    }

    @Test("a description that cannot be made whole names what it lacks and the flag that gives it")
    func incomplete() throws {
        let exploration = try Self.exploration(
            ServerPlan.plan(given: [Self.given(["preset": "simplejwt"])], saved: nil, server: Self.server))
        #expect {
            _ = try #require(try ServerPlan.finish(exploration, found: nil, server: Self.server))
        } throws: { error in
            guard let error = error as? SwaggerError else { return false }
            return error.code == .usage && error.message.contains("profile.url is missing")
                && error.message.contains("swaggerctl server set https://h.example.com/api --profile-path PATH")
        }
        #expect(throws: SwaggerError.self) {
            try ServerPlan.plan(given: [Self.given(["preset": "nonesuch"])], saved: nil, server: Self.server)
        }
    }

    static func description(grantTypes: [String]?, authorization: Bool = true, device: Bool = true) -> ServerDescription
    {
        var description = Fixtures.described(["preset": "oauth2", "login": ["url": "/t"], "profile": ["url": "/u"]])
        description.grantTypes = grantTypes
        if authorization { description.authorizationURL = URL(string: "https://idp/authorize") }
        if device { description.deviceAuthorizationURL = URL(string: "https://idp/device") }
        return description
    }

    @Test(
        "the password where it is offered or nothing is said; else the browser where there is one, else the code",
        arguments: [
            (nil, true, SignIn.password), (["password", "authorization_code"], true, .password),
            (["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"], true, .web),
            (["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"], false, .device),
            (["authorization_code"], false, .web), (["urn:ietf:params:oauth:grant-type:device_code"], true, .device),
            (["client_credentials"], true, .password),
        ] as [([String]?, Bool, SignIn)])
    func signIn(grantTypes: [String]?, hasBrowser: Bool, expected: SignIn) {
        #expect(
            ServerPlan.signIn(
                flag: nil, description: Self.description(grantTypes: grantTypes), hasBrowser: hasBrowser) == expected)
    }

    @Test("a grant without its endpoint is not chosen; a flag wins; else the last login's way")
    func signInOrder() {
        let codeOnly = ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"]
        #expect(
            ServerPlan.signIn(
                flag: nil, description: Self.description(grantTypes: codeOnly, authorization: false),
                hasBrowser: true) == .device)
        var saved = Self.description(grantTypes: ["password"])
        saved.signIn = .device
        #expect(ServerPlan.signIn(flag: nil, description: saved, hasBrowser: true) == .device)
        #expect(ServerPlan.signIn(flag: .web, description: saved, hasBrowser: false) == .web)
    }
}
