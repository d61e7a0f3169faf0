import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerServers

@Suite(
    "server set's flags and description files: one language, with the flags' names as its old spelling",
    .timeLimit(.minutes(5)))
struct ServerFileTests {
    static let server = Fixtures.serverURL("https://api.example.com/v1")

    static func read(_ json: String) throws(SwaggerError) -> (server: ServerURL?, layer: DescriptionLayer) {
        let read = try DescriptionFile.read(Data(json.utf8), named: "server.json")
        return (read.server, read.layer)
    }

    static func described(_ layer: DescriptionLayer) throws -> ServerDescription {
        try ServerDescription(json: layer.json, under: server)
    }

    @Test("each flag sets its part of the description")
    func flags() throws {
        var flags = ServerFlags()
        for (name, value) in [
            ("preset", "simplejwt"), ("profile-path", "/users/me/"), ("refresh-with", "bearer"),
            ("revoke-with", "bearer:DELETE"), ("access-token-field", "data.token"), ("token", "Authorization: Token"),
            ("login-field", "provider=db"), ("login-field", "refresh:=true"), ("revoke-client-auth", "bearer"),
            ("client-id", "cli"), ("scope", "openid"), ("allow-origin", "https://auth.example.com"),
            ("allow-origin", "login.example.com:8443"),
        ] {
            try flags.set(name, value)
        }
        let description = try Self.described(DescriptionLayer(json: flags.json, source: "given"))
        #expect(description.preset == "simplejwt")
        #expect(description.profile.url?.absoluteString == "https://api.example.com/v1/users/me/")
        #expect(description.refresh?.sentAsBearer == true)
        #expect(description.revocation?.sent == ["DELETE {refresh}", "DELETE {access}"])
        #expect(description.revocation?.clientAuthentication == .bearer)
        #expect(description.login.yields[Yield.access] == .member("data.token"))
        // The answer's other members keep the preset's names.
        #expect(description.login.yields[Yield.refresh] == .member("refresh"))
        #expect(description.token == TokenUse(header: "Authorization", scheme: "Token"))
        #expect(description.login.request?.fixedMembers == ["provider": "db", "refresh": true])
        #expect(description.clientID == "cli" && description.scope == "openid")
        // Each --allow-origin adds one.
        #expect(
            description.allowedOrigins.map(\.string) == ["https://auth.example.com", "https://login.example.com:8443"])
        #expect(flags.given.contains("--login-field") && flags.given.contains("--preset"))
    }

    @Test("the login's body: JSON or a form of a member, or OAuth 2's password grant, in place of the preset's")
    func loginBody() throws {
        var form = ServerFlags()
        try form.set("preset", "fastapi-users")
        try form.set("login-body", "json:email")
        let json = try Self.described(DescriptionLayer(json: form.json, source: "given"))
        let login = try #require(json.login.request)
        #expect({ if case .json? = login.body { true } else { false } }())
        #expect(login.members(holding: "account") == ["email"] && login.fixedMembers.isEmpty)
        var grant = ServerFlags()
        try grant.set("login-path", "/token")
        try grant.set("profile-path", "/me")
        try grant.set("login-body", "password-grant")
        #expect(try Self.described(DescriptionLayer(json: grant.json, source: "given")).login.isPasswordGrant)
    }

    @Test(
        "a flag's value that is not one it takes is refused, naming what it takes",
        arguments: [
            ("refresh-with", "cookie", "json:FIELD, grant or bearer"), ("revoke-with", "bearer:GET", "rfc7009"),
            ("preset", "custom", "one of allauth"), ("login-body", "xml:user", "password-grant"),
            ("login-field", "noequals", "NAME=VALUE"), ("login-field", "n:=not json", "NAME:=JSON"),
            ("token", "Two Words", "a header and its scheme"), ("revoke-client-auth", "mtls", "client_secret_basic"),
            ("nonesuch", "x", "is not a flag"), ("allow-origin", "https://a.example/x", "an origin"),
        ])
    func refused(name: String, value: String, said: String) {
        var flags = ServerFlags()
        #expect {
            try flags.set(name, value)
        } throws: { error in
            (error as? SwaggerError)?.code == .usage && (error as? SwaggerError)?.message.contains(said) == true
        }
    }

    @Test("the command line wins over a file's flags")
    func over() throws {
        var file = ServerFlags()
        try file.set("profile-path", "/me")
        try file.set("login-path", "/login")
        var line = ServerFlags()
        try line.set("profile-path", "/users/me")
        let merged = line.over(file)
        #expect(merged.values == ["profile-path": "/users/me", "login-path": "/login"])
    }

    @Test("a file in the description language, naming its server")
    func descriptionFile() throws {
        let (server, layer) = try Self.read(
            #"""
            {"server": "https://api.example.com/v1", "preset": "flask-jwt-extended", "profile": {"url": "/me"},
             "token": "X-API-Key"}
            """#)
        #expect(server == Self.server && layer.source == "server.json")
        let description = try Self.described(layer)
        #expect(description.refresh?.sentAsBearer == true && description.token.header == "X-API-Key")
    }

    @Test("a file of flags by name, as they were written before, reads the same, kind and all")
    func flagFile() throws {
        let (server, layer) = try Self.read(
            #"""
            {"kind": "custom", "login-path": "/login", "profile-path": "/me", "refresh-path": "/refresh",
             "revoke-path": "/logout", "login-body": "json:username", "refresh-with": "bearer",
             "revoke-with": "bearer:DELETE", "access-token-field": "access_token"}
            """#)
        #expect(server == nil)
        let description = try Self.described(layer)
        #expect(description.preset == nil)
        #expect(description.login.url?.absoluteString == "https://api.example.com/v1/login")
        #expect(description.refresh?.sentAsBearer == true)
        #expect(description.revocation?.sent == ["DELETE {refresh}", "DELETE {access}"])
        let (_, simplejwt) = try Self.read(#"{"kind": "simplejwt", "profile-path": "/users/me/"}"#)
        #expect(try Self.described(simplejwt).preset == "simplejwt")
    }

    @Test(
        "a file that describes nothing swaggerctl knows is a usage error that says what is wrong",
        arguments: [
            (#"["kind"]"#, "is not a JSON object"), (#"{"logn": "/x"}"#, #""logn" is not a flag"#),
            (#"{"login-path": 7}"#, #""login-path" must be a string"#),
            (#"{"refresh-with": "cookie"}"#, "--refresh-with cannot be \"cookie\""),
            (#"{"server": "ftp://x", "preset": "identity"}"#, "not an http or https URL"),
        ])
    func refusedFile(json: String, said: String) {
        #expect {
            try Self.read(json)
        } throws: { error in
            guard let error = error as? SwaggerError else { return false }
            return error.code == .usage && error.message.contains(said)
        }
    }

    @Test("an export is the description relative to its server, with its URL, and reads back the same")
    func exportReadsBack() throws {
        let description = Fixtures.described(
            [
                "preset": "simplejwt", "profile": ["url": "/users/me/"],
                "revocation": ["url": "https://auth.example.com/revoke", "with": "rfc7009"],
            ], under: Self.server)
        let entry = ServerEntry(server: Self.server, description: description, updatedAt: Fixtures.savedAt)
        let text = DescriptionFile.export(entry)
        #expect(text.contains(#""url": "/users/me/""#), "\(text)")
        #expect(text.contains("https://auth.example.com/revoke") || text.contains(#"https:\/\/auth"#), "\(text)")
        let (server, layer) = try Self.read(text)
        #expect(server == Self.server)
        #expect(try Self.described(layer) == description)
    }

    @Test("a file's name is the server's, kept apart from its description; one that is not a name is refused")
    func names() throws {
        let named = try DescriptionFile.read(
            Data(#"{"server": "https://api.example.com/v1", "name": "prod"}"#.utf8), named: "f")
        #expect(named.name?.string == "prod")
        #expect(named.layer.json == .object([:]), "the name is no member of the description")
        #expect(try DescriptionFile.read(Data(#"{"kind": "simplejwt"}"#.utf8), named: "f").name == nil)
        for (json, message) in [
            (#"{"name": "-prod"}"#, #"f: "-prod" is not a server name"#),
            (#"{"name": 3}"#, "f: the name is not a string."),
            (#"{"name": null}"#, "f: the name is not a string."),
        ] {
            #expect {
                try DescriptionFile.read(Data(json.utf8), named: "f")
            } throws: { error in
                (error as? SwaggerError)?.code == .usage && (error as? SwaggerError)?.message.hasPrefix(message) == true
            }
        }
    }
}

extension RefreshStep {
    /// Whether the refresh token goes as the token of a request with no body.
    var sentAsBearer: Bool { request.body == nil && request.token?.description == "{refresh}" }
}

extension RevocationStep {
    /// Each request's method and the token it carries.
    var sent: [String] { requests.map { "\($0.template.method) \($0.template.token?.description ?? "")" } }
}
