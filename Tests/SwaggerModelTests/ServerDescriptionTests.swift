import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

@Suite(
    "ServerDescription: the description language, the presets, and the descriptions sessions kept before",
    .timeLimit(.minutes(5)))
struct ServerDescriptionTests {
    static let server = Fixtures.serverURL("https://h.example.com/api")

    static func read(_ json: JSONValue) throws -> ServerDescription {
        try ServerDescription(json: json, under: server)
    }

    @Test("every preset is a whole description, or says what it leaves to the server's documents")
    func presets() throws {
        for preset in ServerPresets.all {
            let json: JSONValue = ["preset": .string(preset.name)]
            switch preset.name {
            case "oauth2":
                // Its endpoints are the metadata's.
                #expect(throws: ServerDescription.Invalid.self) { try Self.read(json) }
                let described = try Self.read(
                    json.merging(["login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"]]))
                #expect(described.login.isPasswordGrant)
                #expect(described.refresh?.isGrant == true)
                #expect(described.refresh?.url == described.login.url, "a refresh goes where the login goes")
                #expect(described.revocation == nil)
            case "simplejwt", "flask-jwt-extended":
                // Their software has no current-user route.
                #expect(throws: ServerDescription.Invalid.self) { try Self.read(json) }
            default:
                let described = try Self.read(json)
                #expect(described.preset == preset.name)
            }
        }
        let original = try Self.read(["preset": "original"])
        #expect(original.login.url?.absoluteString == "https://h.example.com/api/User/AdminLogin")
        #expect(original.login.request?.members(holding: "app_id") == ["appId"])
        #expect(original.refresh?.request.members(holding: "app_id") == ["appId"])
        #expect(original.profile.labels.first == ProfileLabel("id", "ID"))
        #expect(original.profile.labels.contains(ProfileLabel("imageId", "Image ID", none: -1)))
        #expect(try Self.read(["preset": "identity"]).revocation == nil)
    }

    @Test("a description written out is read back the same, whole or relative to its server")
    func roundTrip() throws {
        var description = try Self.read([
            "preset": "simplejwt", "profile": ["url": "/users/me/", "unwrap": "data"],
            "login": ["email": "email", "members": ["provider": "db", "refresh": true], "refusals": [400]],
            "token": "Authorization: Token",
            "revocation": ["url": "https://other.example.com/revoke", "with": "rfc7009", "client": "bearer"],
            "client": ["id": "cli", "scope": "openid", "secret": true],
            "deviceAuthorization": "/device", "grantTypes": ["urn:ietf:params:oauth:grant-type:device_code"],
            "signIn": "device", "allowedOrigins": ["https://other.example.com", "auth.example.com:8443"],
        ])
        #expect(
            description.allowedOrigins.map(\.string) == ["https://other.example.com", "https://auth.example.com:8443"])
        description.refresh?.request.tokenUse = TokenUse(header: "Authorization", scheme: "Bearer")
        for server in [nil, Self.server] {
            #expect(try Self.read(description.json(relativeTo: server)) == description)
        }
        let relative = description.json(relativeTo: Self.server)
        #expect(relative[path: "login.request.url"] == "/token/")
        // Another host is written whole.
        guard case .array(let revocations)? = relative[path: "revocation.requests"] else {
            Issue.record("no revocation requests written")
            return
        }
        #expect(revocations.map { $0[path: "url"] } == Array(repeating: "https://other.example.com/revoke", count: 2))
        #expect(description.token.value("k") == "Token k")
    }

    @Test(
        "allowed origins are origins: no path, query or credentials, and no other scheme",
        arguments: [
            "https://a.example/path", "https://u:p@a.example", "ftp://a.example", "https://a.example?x=1", "", "//",
        ])
    func allowedOriginRefused(text: String) {
        #expect(ServerURL.allowedOrigin(text) == nil)
        #expect(throws: ServerDescription.Invalid.self) {
            try Self.read(["preset": "simplejwt", "allowedOrigins": [.string(text)]])
        }
    }

    @Test("an endpoint whose path begins with two slashes keeps its host, written out and read back")
    func doubleSlash() throws {
        let server = Fixtures.serverURL("http://127.0.0.1:4593/api/oidc")
        let description = try ServerDescription(
            json: [
                "preset": "oauth2", "login": ["url": "http://127.0.0.1:4593//api/oidc/token"],
                "profile": ["url": "http://127.0.0.1:4593//api/oidc/userinfo"],
            ], under: server)
        #expect(description.login.url?.host() == "127.0.0.1")
        #expect(description.login.url?.path(percentEncoded: true) == "//api/oidc/token")
        let back = try ServerDescription(json: description.json(relativeTo: server), under: server)
        #expect(back.login.url == description.login.url)
    }

    @Test("the original preset is an ordinary one: a change over it is taken, and it is written as its name")
    func original() throws {
        let changed = try Self.read(["preset": "original", "profile": ["url": "/me"], "revocation": .null])
        #expect(changed.profile.url?.absoluteString == "https://h.example.com/api/me")
        #expect(changed.revocation == nil && changed.login.request?.members(holding: "app_id") == ["appId"])
        let written = Fixtures.original(Self.server).json(relativeTo: Self.server)
        #expect(written == ["preset": "original"])
        #expect(
            Fixtures.original(Self.server).whole(relativeTo: Self.server)[path: "login.request.url"]
                == "/User/AdminLogin")
        #expect(try ServerDescription(json: written, under: Self.server) == Fixtures.original(Self.server))
    }

    @Test(
        "what is not part of the language is refused, naming it",
        arguments: [
            (["login": ["url": "/l"], "profile": ["url": "/p"], "kind": "custom"], "\"kind\""),
            (["preset": "nonesuch"], "preset must be one of"),
            (["login": ["url": "/l", "body": "xml"], "profile": ["url": "/p"]], "login.body"),
            (
                ["login": ["url": "/l"], "profile": ["url": "/p"], "refresh": ["url": "/r", "with": "bearer:GET"]],
                "refresh.with"
            ),
            (["login": ["url": "/l"], "profile": ["url": "/p"], "token": "Authorization: two words"], "token"),
            (["login": ["url": "/l"]], "profile.url is missing"),
            (["login": ["url": "ftp://h/l"], "profile": ["url": "/p"]], "login.request.url"),
            (["login": ["url": "/l", "refusals": [200]], "profile": ["url": "/p"]], "login.refusals"),
        ] as [(JSONValue, String)])
    func refused(json: JSONValue, names: String) {
        do throws(ServerDescription.Invalid) {
            _ = try ServerDescription(json: json, under: Self.server)
            Issue.record("read \(json.compactJSON)")
        } catch {
            #expect(error.reason.contains(names), "\(error.reason)")
        }
    }

    @Test(
        "a session's description from before the registry is read as a preset, or as its flags",
        arguments: [
            ("identity", nil, "/login"), ("simplejwt", "json:username", "/token/"),
            ("custom", "form:email", "/sessions"),
            ("oauth2", "password-grant", "/o/token/"), ("fastapi-users", nil, "/auth/jwt/login"),
        ] as [(String, String?, String)])
    func legacy(kind: String, shape: String?, path: String) throws {
        let url = "https://h.example.com/api"
        var old: [String: JSONValue] = [
            "kind": .string(kind), "loginURL": .string(url + path), "profileURL": .string(url + "/me"),
            "refreshURL": .string(url + "/refresh"),
            "fields": ["accessToken": "a", "refreshToken": "r", "expiresIn": "e"],
            "discoveredAt": "https://h.example.com/.well-known/openid-configuration https://h.example.com/openapi.json",
        ]
        if let shape { old["login"] = .string(shape) }
        let description = try ServerDescription(legacy: .object(old), under: Self.server)
        #expect(description.preset == (kind == "custom" ? nil : kind))
        #expect(description.login.url?.absoluteString == url + path)
        #expect(
            description.login.yields == [
                Yield.access: .member("a"), Yield.refresh: .member("r"), Yield.expiresIn: .member("e"),
            ])
        #expect(description.profile.url?.absoluteString == url + "/me")
        #expect(description.refresh?.url?.absoluteString == url + "/refresh")
        #expect(description.document?.absoluteString == "https://h.example.com/openapi.json")
        switch shape {
        case "password-grant": #expect(description.login.isPasswordGrant)
        case "form:email":
            #expect({ if case .form? = description.login.request?.body { true } else { false } }())
            #expect(description.login.request?.members(holding: "account") == ["email"])
        case "json:username":
            #expect({ if case .json? = description.login.request?.body { true } else { false } }())
            #expect(description.login.request?.members(holding: "account") == ["username"])
        default: break
        }
        #expect(
            try ServerDescription(legacy: ["kind": "original"], under: Self.server)
                == Fixtures.original(Self.server))
    }

    @Test(
        "the token's header and scheme as the language writes them",
        arguments: [
            ("Authorization: Bearer", "Authorization", "Bearer"), ("Authorization: Token", "Authorization", "Token"),
            ("X-API-Key", "X-API-Key", nil), (" X-Auth : JWT ", "X-Auth", "JWT"),
        ] as [(String, String, String?)])
    func tokenUse(text: String, header: String, scheme: String?) {
        #expect(TokenUse(text: text) == TokenUse(header: header, scheme: scheme))
    }

    @Test("a header that cannot be one is refused", arguments: ["", "Bad Header", "X:", "A: b c", "X\r\nY"])
    func badTokenUse(text: String) {
        #expect(TokenUse(text: text) == nil)
    }

    @Test("every file of Presets/ is a preset, and every preset of the binary is a file")
    func presetFiles() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Presets")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(ServerPresets.names))
        #expect(ServerPresets.all.map(\.name) == ServerPresets.names, "each file reads as a preset")
        for preset in ServerPresets.all {
            // A preset's description is in the language's requests, not its older words.
            guard case .object(let members) = preset.json else {
                Issue.record("\(preset.name)'s description is not an object")
                continue
            }
            let (_, edits) = ServerDescription.Shorthand.split(members)
            #expect(edits.isEmpty, "\(preset.name) is written with \(edits.keys.sorted())")
        }
    }

    @Test("layers apply in order: a file's request goes over what a document said in the older words, and back")
    func layersInOrder() throws {
        let document: JSONValue = ["login": ["url": "/token/", "account": "email"], "profile": ["url": "/me"]]
        let file: JSONValue = [
            "login": ["request": ["url": "/sessions", "json": ["user": "{account}", "pass": "{password}"]]]
        ]
        let over = try ServerDescription(layers: [document, file], under: Self.server)
        #expect(over.login.url?.absoluteString == "https://h.example.com/api/sessions")
        #expect(over.login.request?.members(holding: "account") == ["user"])
        // The same words after the file edit its request: the account moves, the address is the file's.
        let under = try ServerDescription(layers: [file, document], under: Self.server)
        #expect(under.login.url?.absoluteString == "https://h.example.com/api/token/")
        #expect(under.login.request?.members(holding: "account") == ["email"])
        #expect(under.login.request?.members(holding: "password") == ["pass"])
    }

    @Test(
        "a description of Keystone's shape: a token in a header, an absolute expiry, the user id in the profile's URL")
    func keystoneShape() throws {
        let json: JSONValue = [
            "login": [
                "request": [
                    "url": "/v3/auth/tokens",
                    "json": [
                        "auth": [
                            "identity": [
                                "methods": ["password"],
                                "password": [
                                    "user": [
                                        "name": "{account}", "domain": ["id": "default"], "password": "{password}",
                                    ]
                                ],
                            ]
                        ]
                    ],
                ],
                "yields": [
                    "access": "$response.header.X-Subject-Token", "expiresAt": "$response.body#/token/expires_at",
                    "user_id": "$response.body#/token/user/id",
                ],
                "refused": ["$statusCode == 401"],
            ],
            "token": "X-Auth-Token",
            "refresh": .null,
            "revocation": [
                "requests": [
                    [
                        "method": "DELETE", "url": "/v3/auth/tokens", "token": "{access}",
                        "headers": ["X-Subject-Token": "{access}"],
                    ]
                ]
            ],
            "profile": ["request": ["url": "/v3/users/{user_id}", "token": "{access}"], "unwrap": "user"],
        ]
        let description = try Self.read(json)
        #expect(description.token == TokenUse(header: "X-Auth-Token", scheme: nil))
        #expect(description.login.yields["user_id"] == .member("token.user.id"))
        #expect(description.profile.url == nil && description.profile.request.inputs == ["user_id", "access"])
        #expect(description.revocation?.sendsAccessToken == true && description.revocation?.needsRefreshToken == false)
        // The steps' origins are the server's, whatever the user id is.
        #expect(description.steps.allSatisfy { $0.url.host() == "h.example.com" })
        #expect(try Self.read(description.json(relativeTo: Self.server)) == description)
    }
}
