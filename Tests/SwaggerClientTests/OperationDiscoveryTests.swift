import Foundation
import SwaggerModel
import Testing

@testable import SwaggerClient
@testable import SwaggerDocuments
@testable import SwaggerServers

@Suite(
    "Discovery: a server's login, refresh, logout and profile from its OpenAPI document's operations",
    .timeLimit(.minutes(5)))
struct OperationDiscoveryTests {
    static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(filePath: "/")
    }

    static let origin = url("http://h:8000/api/schema/")

    /// drf-spectacular's document for simplejwt, as `Tests/Fixtures/python/drf_server` publishes it: one component
    /// for both ways, with the tokens `readOnly` and the credentials `writeOnly`, and a users list beside `me`.
    static let simpleJWT = Data(
        #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "paths": {
           "/api/token/": {"post": {"operationId": "token_create",
             "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenObtainPair"}}}},
             "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenObtainPair"}}}}}}},
           "/api/token/refresh/": {"post": {"operationId": "token_refresh_create",
             "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenRefresh"}}}},
             "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenRefresh"}}}}}}},
           "/api/token/verify/": {"post": {"operationId": "token_verify_create",
             "requestBody": {"content": {"application/json": {"schema": {"properties": {"token": {"type": "string"}}}}}},
             "responses": {"200": {"description": "ok"}}}},
           "/api/token/blacklist/": {"post": {"operationId": "token_blacklist_create",
             "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenBlacklist"}}}},
             "responses": {"200": {"description": "ok"}}}},
           "/api/users/": {"get": {"operationId": "users_list", "security": [{"jwtAuth": []}], "responses": {}}},
           "/api/users/me/": {"get": {"operationId": "users_me_retrieve", "security": [{"jwtAuth": []}], "responses": {}}},
           "/api/users/{id}/": {"get": {"operationId": "users_retrieve", "security": [{"jwtAuth": []}], "responses": {}}},
           "/api/public/profile/": {"get": {"operationId": "public_profile", "security": [{}], "responses": {}}}
         },
         "components": {
           "schemas": {
             "TokenObtainPair": {"type": "object", "properties": {
               "username": {"type": "string", "writeOnly": true}, "password": {"type": "string", "writeOnly": true},
               "access": {"type": "string", "readOnly": true}, "refresh": {"type": "string", "readOnly": true}}},
             "TokenRefresh": {"type": "object", "properties": {
               "access": {"type": "string", "readOnly": true}, "refresh": {"type": "string", "writeOnly": true}}},
             "TokenBlacklist": {"type": "object", "properties": {"refresh": {"type": "string", "writeOnly": true}}}
           },
           "securitySchemes": {"jwtAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
         }}
        """#.utf8)

    /// fastapi-users' document: a form login with OAuth 2's members, a bearer logout without a body, `users/me`, a
    /// registration that also takes a password but answers with no token, and paths relative to `/`.
    static let fastAPIUsers = Data(
        #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {
           "/auth/jwt/login": {"post": {"operationId": "auth_jwt_login_auth_jwt_login_post",
             "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Body_login"}}}},
             "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/BearerResponse"}}}}}}},
           "/auth/jwt/logout": {"post": {"operationId": "auth_jwt_logout_auth_jwt_logout_post",
             "security": [{"OAuth2PasswordBearer": []}], "responses": {"200": {"description": "ok"}}}},
           "/auth/register": {"post": {"operationId": "register_register_auth_register_post",
             "requestBody": {"content": {"application/json": {"schema": {"properties": {
               "email": {"type": "string"}, "password": {"type": "string"}}}}}},
             "responses": {"201": {"content": {"application/json": {"schema": {"properties": {
               "id": {"type": "string"}, "email": {"type": "string"}}}}}}}}},
           "/users/me": {"get": {"operationId": "users_current_user_users_me_get",
             "security": [{"OAuth2PasswordBearer": []}], "responses": {}}}
         },
         "components": {
           "schemas": {
             "Body_login": {"properties": {"grant_type": {"anyOf": [{"type": "string"}, {"type": "null"}]},
               "username": {"type": "string"}, "password": {"type": "string"}, "scope": {"type": "string"}}},
             "BearerResponse": {"properties": {"access_token": {"type": "string"}, "token_type": {"type": "string"}}}
           },
           "securitySchemes": {"OAuth2PasswordBearer": {"type": "oauth2",
             "flows": {"password": {"scopes": {}, "tokenUrl": "auth/jwt/login"}}}}
         }}
        """#.utf8)

    static func described(_ data: Data, at url: URL = origin) throws -> Discovery.Described {
        guard case .described(let described)? = Discovery.operations(data, at: url) else {
            throw Failure("not described: \(String(describing: Discovery.operations(data, at: url)))")
        }
        return described
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("simplejwt: JSON login of username, refresh and blacklist by the refresh member, and users/me over the list")
    func simpleJWT() throws {
        let found = try Self.described(Self.simpleJWT)
        #expect(found.login.url.absoluteString == "http://h:8000/api/token/")
        #expect(found.login.shape.encoding == .json && found.login.shape.account == "username")
        #expect(
            found.login.shape.answer
                == TokenFields(accessToken: "access", refreshToken: "refresh", expiresIn: "expires_in"))
        #expect(found.refresh?.url.absoluteString == "http://h:8000/api/token/refresh/")
        #expect(found.refresh?.shape.shape == .json(field: "refresh"))
        #expect(found.token == .bearer)
        #expect(found.revocation?.url.absoluteString == "http://h:8000/api/token/blacklist/")
        #expect(found.revocation?.shape == .json(field: "refresh"))
        #expect(found.profile?.url.absoluteString == "http://h:8000/api/users/me/")
        // Its answer is undocumented here, so nothing is unwrapped.
        #expect(found.profile?.shape.unwrap == nil)
        // The list fits too, so the choice is said; the path with a parameter, and the profile that needs no token
        // (`security: [{}]`), do not fit.
        #expect(
            found.contested == [
                Discovery.Contest(
                    step: "profile", chosen: "GET /api/users/me/", others: ["GET /api/users/"], flag: "--profile-path")
            ])
    }

    @Test("fastapi-users: the form login, not the registration; a POST logout with the bearer; no refresh")
    func fastAPIUsers() throws {
        let found = try Self.described(Self.fastAPIUsers, at: Self.url("http://h:8000/openapi.json"))
        #expect(found.login.url.absoluteString == "http://h:8000/auth/jwt/login")
        #expect(found.login.shape.encoding == .form && found.login.shape.members == ["grant_type": "password"])
        #expect(found.login.shape.answer.accessToken == "access_token")
        #expect(found.refresh == nil)
        #expect(found.revocation?.shape == .bearer(method: "POST"))
        #expect(found.revocation?.url.absoluteString == "http://h:8000/auth/jwt/logout")
        #expect(found.profile?.url.absoluteString == "http://h:8000/users/me")
        #expect(found.contested.isEmpty)
    }

    @Test("a logout whose path alone says so, in two words (log-out, sign-out), is the logout")
    func logoutInTwoWords() throws {
        let text = String(decoding: Self.fastAPIUsers, as: UTF8.self)
        for path in ["/auth/jwt/log-out", "/auth/sign_out"] {
            let renamed = text.replacingOccurrences(
                of: #""/auth/jwt/logout": {"post": {"operationId": "auth_jwt_logout_auth_jwt_logout_post","#,
                with: #""\#(path)": {"post": {"#)
            #expect(renamed != text)
            let found = try Self.described(Data(renamed.utf8), at: Self.url("http://h:8000/openapi.json"))
            #expect(found.revocation?.url.absoluteString == "http://h:8000\(path)", "\(path)")
        }
    }

    @Test("a login whose answer nests the token is read by its dotted path, and a form without grant_type is a form")
    func nestedAnswer() throws {
        let document = Data(
            #"""
            {"swagger": "2.0", "basePath": "/v1", "paths": {
              "/sessions": {"post": {"parameters": [{"in": "formData", "name": "email"}, {"in": "formData", "name": "password"}],
                "responses": {"200": {"schema": {"properties": {"data": {"properties": {
                  "token": {"type": "string"}, "refreshToken": {"type": "string"}, "expiresIn": {"type": "integer"}}}}}}}}},
              "/account": {"get": {"security": [{"bearer": []}], "responses": {}}}}}
            """#.utf8)
        let found = try Self.described(document, at: Self.url("https://h/docs/swagger.json"))
        #expect(found.login.url.absoluteString == "https://h/v1/sessions")
        #expect(found.login.shape.encoding == .form && found.login.shape.account == "email")
        #expect(found.login.shape.members.isEmpty)
        #expect(
            found.login.shape.answer
                == TokenFields(
                    accessToken: "data.token", refreshToken: "data.refreshToken", expiresIn: "data.expiresIn"))
        #expect(found.profile?.url.absoluteString == "https://h/v1/account")
    }

    @Test("two logins: the one the password flow names as its tokenUrl is taken, and the other is said")
    func contestedLogin() throws {
        let document = Data(
            #"""
            {"openapi": "3.0.0", "paths": {
              "/auth/login": {"post": {"requestBody": {"content": {"application/json": {"schema": {"properties": {
                "email": {}, "password": {}}}}}}, "responses": {"200": {"content": {"application/json": {"schema": {
                "properties": {"token": {}}}}}}}}},
              "/oauth/token": {"post": {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
                "properties": {"grant_type": {}, "username": {}, "password": {}}}}}}, "responses": {"200": {"content": {
                "application/json": {"schema": {"properties": {"access_token": {}, "refresh_token": {}}}}}}}}}},
             "components": {"securitySchemes": {"o": {"type": "oauth2", "flows": {"password": {"tokenUrl": "/oauth/token"}}}}}}
            """#.utf8)
        let found = try Self.described(document)
        #expect(found.login.operation == "POST /oauth/token")
        #expect(found.contested.map(\.others) == [["POST /auth/login"]])
        #expect(found.contested.first?.flag == "--login-path")
    }

    @Test("a login whose answer is undescribed counts only when the password flow names it, under the server's path")
    func vouchedLogin() throws {
        func document(tokenURL: String) -> Data {
            Data(
                #"""
                {"openapi": "3.1.0", "servers": [{"url": "/api"}], "paths": {
                  "/token": {"post": {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
                    "properties": {"grant_type": {}, "username": {}, "password": {}}}}}}, "responses": {"200": {
                    "content": {"application/json": {"schema": {}}}}}}},
                  "/users/me": {"get": {"security": [{"o": []}], "responses": {}}}},
                 "components": {"securitySchemes": {"o": {"type": "oauth2", "flows": {"password": {"tokenUrl": "\#(tokenURL)"}}}}}}
                """#.utf8)
        }
        let found = try Self.described(document(tokenURL: "token"), at: Self.url("https://h/openapi.json"))
        #expect(found.login.url.absoluteString == "https://h/api/token")
        #expect(found.login.shape.members == ["grant_type": "password"])
        #expect(found.login.shape.answer == .oauth2)
        #expect(found.profile?.url.absoluteString == "https://h/api/users/me")
        #expect(
            Discovery.operations(document(tokenURL: "elsewhere"), at: Self.url("https://h/openapi.json"))
                == .lacking("no POST of 1 takes a password and a user name and answers with a token"))
    }

    @Test("no path is taken for a family by its name, and a document without a login says what it lacks")
    func noSniffAndLacking() {
        // A login path alone, whose operation says nothing, describes nothing.
        let original = Data(#"{"openapi": "3.0.1", "paths": {"/api/User/AdminLogin": {"post": {}}}}"#.utf8)
        #expect(
            Discovery.operations(original, at: Self.origin)
                == .lacking("no POST of 1 takes a password and a user name and answers with a token"))
        // A sign-up or a registration is never the login, even where it answers with tokens as a login would.
        for path in ["/register", "/auth/sign-up", "/users/signup"] {
            let making = Data(
                #"""
                {"openapi": "3.0.1", "paths": {"\#(path)": {"post": {"requestBody": {"content": {"application/json": {
                  "schema": {"properties": {"username": {}, "password": {}}}}}}, "responses": {"201": {"content": {
                  "application/json": {"schema": {"properties": {"access_token": {"type": "string"},
                  "refresh_token": {"type": "string"}, "token_type": {"type": "string"}}}}}}}}}}}
                """#.utf8)
            #expect(
                Discovery.operations(making, at: Self.origin)
                    == .lacking("no POST of 1 takes a password and a user name and answers with a token"), "\(path)")
        }
        #expect(Discovery.operations(Data(#"{"openapi": "3.0.1"}"#.utf8), at: Self.origin) == nil)
        #expect(Discovery.operations(Data("<html>".utf8), at: Self.origin) == nil)
    }

    @Test("a $ref that refers to itself is not followed for ever")
    func referenceLoop() {
        let document = Data(
            #"""
            {"openapi": "3.0.0", "paths": {"/login": {"post": {"requestBody": {"content": {"application/json": {
              "schema": {"$ref": "#/components/schemas/A"}}}}, "responses": {}}}},
             "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}
            """#.utf8)
        #expect(
            Discovery.operations(document, at: Self.origin)
                == .lacking("no POST of 1 takes a password and a user name and answers with a token"))
    }

    @Test("what a document describes is a layer of the description, credited to it, with the flags over it")
    func description() throws {
        let document = Self.url("http://h:8000/api/schema/")
        let server = try ServerURL("http://h:8000/api")
        let found = try Self.described(Self.simpleJWT)
        let finding = Discovery.Finding(
            layer: DescriptionLayer(json: found.json, source: document.absoluteString), documents: [document],
            described: found)
        let exploration = ServerPlan.Exploration(metadata: [], openAPI: [document], below: [], over: [])
        let (made, sources) = try #require(try ServerPlan.finish(exploration, found: finding, server: server))
        #expect(made.preset == nil)
        #expect(made.login.request?.members(holding: "account") == ["username"])
        #expect({ if case .json? = made.login.request?.body { true } else { false } }())
        #expect(made.refresh?.request.members(holding: "refresh") == ["refresh"])
        #expect(made.revocation?.requests.map { $0.template.members(holding: "refresh") } == [["refresh"]])
        #expect(made.profile.url?.absoluteString == "http://h:8000/api/users/me/")
        #expect(Set(sources.values) == [document.absoluteString])
        let lines = SessionController.ServerChoice(
            server: server, serverDescription: made, sources: sources, finding: finding
        ).discoveryNotices
        #expect(
            lines.first
                == "Found in /api/schema/: login POST /api/token/, refresh POST /api/token/refresh/, logout POST "
                + "/api/token/blacklist/, profile GET /api/users/me/.", "\(lines)")
        #expect(
            lines.dropFirst().first?.hasPrefix("For the profile, chose GET /api/users/me/ over GET /api/users/")
                == true,
            "each its own line, not one with a line break in it: \(lines)")

        var flags = ServerFlags()
        try flags.set("profile-path", "/users/")
        try flags.set("access-token-field", "data.access")
        try flags.set("revoke-with", "bearer:POST")
        let given = ServerPlan.Exploration(
            metadata: [], openAPI: [document], below: [],
            over: [DescriptionLayer(json: flags.json, source: "given")])
        let (changed, changedSources) = try #require(try ServerPlan.finish(given, found: finding, server: server))
        #expect(changed.profile.url?.absoluteString == "http://h:8000/api/users/")
        #expect(changed.login.yields[Yield.access] == .member("data.access"))
        #expect(changed.login.yields[Yield.refresh] == .member("refresh"))
        #expect(changed.revocation?.requests.map(\.template.method) == ["POST", "POST"])
        // The revocation is still the document's, sent as the flag says.
        #expect(changedSources["profile"] == "given" && changedSources["revocation"] == document.absoluteString)
        // The line credits the flag with the profile, and says nothing of the choice the flag overrode.
        let credited = SessionController.ServerChoice(
            server: server, serverDescription: changed, sources: changedSources, finding: finding
        ).discoveryNotices.joined(separator: "\n")
        #expect(credited.hasSuffix("logout POST /api/token/blacklist/; profile given."), "\(credited)")
        #expect(!credited.contains("chose"), "\(credited)")
    }

    /// A login whose documented body has more than the account and the password, as Flask-AppBuilder's has.
    static let moreMembers = Data(
        #"""
        {"openapi": "3.0.2", "servers": [{"url": "http://h:8080/"}], "paths": {
          "/api/v1/security/login": {"post": {"requestBody": {"required": true, "content": {"application/json": {
            "schema": {"type": "object", "properties": {
              "username": {"type": "string", "example": "admin"}, "password": {"type": "string"},
              "provider": {"type": "string", "enum": ["db", "ldap"], "example": "db"},
              "refresh": {"type": "boolean", "example": true}, "remember": {"type": "boolean", "default": false},
              "note": {"type": "string"}}}}}},
            "responses": {"200": {"content": {"application/json": {"schema": {"properties": {
              "access_token": {"type": "string"}, "refresh_token": {"type": "string"}}}}}},
              "400": {"description": "Bad request"}, "401": {"description": "Not authorized"},
              "422": {"description": "Wrong username or password"}}}},
          "/api/v1/security/refresh": {"post": {"security": [{"jwt_refresh": []}], "responses": {"200": {}}}},
          "/api/v1/me/": {"get": {"security": [{"jwt": []}], "responses": {"200": {"content": {"application/json": {
            "schema": {"type": "object", "properties": {"result": {"type": "object", "properties": {
              "id": {"type": "integer"}, "username": {"type": "string"}}}}}}}}}}}},
         "components": {"securitySchemes": {
           "jwt": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
           "jwt_refresh": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}}}
        """#.utf8)

    @Test("a login's other members go with the schema's value; a status it declares refuses; a wrapped profile unwraps")
    func members() throws {
        let found = try Self.described(Self.moreMembers, at: Self.url("http://h:8080/api/v1/_openapi"))
        let login = found.login.shape
        // An example, a default, or the first of an enum's values when it also gives an example; none for `note`.
        #expect(login.members == ["provider": "db", "refresh": true, "remember": false])
        #expect(login.account == "username" && login.email == nil)
        #expect(login.refusals == [422])
        #expect(found.refresh?.shape.shape == .bearer && found.refresh?.shape.token == nil)
        #expect(found.profile?.url.absoluteString == "http://h:8080/api/v1/me/")
        #expect(found.profile?.shape.unwrap == "result")
        #expect(found.json[path: "profile.unwrap"] == "result")
    }

    @Test("a required member without a value rules a login out: it could not be sent")
    func unsendable() {
        let document = Data(
            #"""
            {"openapi": "3.0.0", "paths": {"/login": {"post": {"requestBody": {"content": {"application/json": {
              "schema": {"required": ["tenant"], "properties": {"username": {}, "password": {}, "tenant": {}}}}}},
              "responses": {"200": {"content": {"application/json": {"schema": {"properties": {"token": {}}}}}}}}}}}
            """#.utf8)
        #expect(
            Discovery.operations(document, at: Self.origin)
                == .lacking("no POST of 1 takes a password and a user name and answers with a token"))
    }

    @Test(
        "the token's header and scheme come from the current user's security scheme",
        arguments: [
            (
                #"{"type": "apiKey", "in": "header", "name": "Authorization", "description": "Token-based authentication with required prefix \"Token\""}"#,
                "Authorization: Token"
            ),
            (
                #"{"type": "apiKey", "in": "header", "name": "Authorization", "description": "Type \"Bearer <token>\""}"#,
                "Authorization: Bearer"
            ),
            (#"{"type": "apiKey", "in": "header", "name": "X-API-Key"}"#, "X-API-Key"),
            (#"{"type": "http", "scheme": "bearer"}"#, "Authorization: Bearer"),
            (#"{"type": "http", "scheme": "token"}"#, "Authorization: Token"),
            (#"{"type": "oauth2", "flows": {}}"#, "Authorization: Bearer"),
        ])
    func tokenScheme(scheme: String, use: String) throws {
        let document = Data(
            #"""
            {"openapi": "3.0.0", "security": [{"s": []}], "paths": {
              "/auth/login/": {"post": {"security": [], "requestBody": {"content": {"application/json": {"schema": {
                "properties": {"username": {}, "email": {}, "password": {}}}}}},
                "responses": {"200": {"content": {"application/json": {"schema": {"properties": {"key": {}}}}}}}}},
              "/auth/user/": {"get": {"responses": {}}}},
             "components": {"securitySchemes": {"s": \#(scheme)}}}
            """#.utf8)
        let found = try Self.described(document)
        #expect(found.token == TokenUse(text: use))
        // dj-rest-auth's login takes a user name or an e-mail, and answers with a `key`.
        #expect(found.login.shape.account == "username" && found.login.shape.email == "email")
        #expect(found.login.shape.answer.accessToken == "key")
        #expect(found.profile?.url.absoluteString == "http://h:8000/auth/user/")
    }

    @Test(
        "a security scheme's header name that is not an HTTP token, or a scheme of two words, refuses the description",
        arguments: [
            (#"{"type": "apiKey", "in": "header", "name": "X-Key $(id)"}"#, "X-Key $(id)"),
            (#"{"type": "apiKey", "in": "header", "name": "X-\"Key\""}"#, #"X-"Key""#),
            (#"{"type": "apiKey", "in": "header", "name": "X-Key\r\nHost: b"}"#, "X-Key\r\nHost: b"),
            (#"{"type": "http", "scheme": "bearer x"}"#, "Authorization: Bearer x"),
            (#"{"type": "http", "scheme": "to(ken)"}"#, "Authorization: To(ken)"),
        ])
    func untokenScheme(scheme: String, text: String) throws {
        let document = Data(
            #"""
            {"openapi": "3.0.0", "security": [{"s": []}], "paths": {
              "/auth/login/": {"post": {"security": [], "requestBody": {"content": {"application/json": {"schema": {
                "properties": {"username": {}, "password": {}}}}}},
                "responses": {"200": {"content": {"application/json": {"schema": {"properties": {"key": {}}}}}}}}},
              "/auth/user/": {"get": {"responses": {}}}},
             "components": {"securitySchemes": {"s": \#(scheme)}}}
            """#.utf8)
        let found = try Self.described(document)
        #expect(found.json[path: "token"] == .string(text))
        let server = try ServerURL("http://h:8000")
        let refusal = #expect(throws: ServerDescription.Invalid.self) {
            try ServerDescription(json: found.json, under: server)
        }
        #expect(
            refusal?.reason.hasPrefix("token must be a header and its scheme") == true, "\(String(describing: refusal))"
        )
    }

    @Test("schemas that refer to each other in a loop, or fan out beyond reading, end the walk rather than never")
    func boundedWalks() {
        // allOf's parts refer back to each other.
        let cycle = Data(
            #"""
            {"openapi": "3.0.0", "paths": {"/login": {"post": {"requestBody": {"content": {"application/json": {
              "schema": {"$ref": "#/components/schemas/A"}}}}, "responses": {}}}},
             "components": {"schemas": {"A": {"allOf": [{"$ref": "#/components/schemas/B"}]},
                                        "B": {"allOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/A"}]}}}}
            """#.utf8)
        #expect(
            Discovery.operations(cycle, at: Self.origin)
                == .lacking("no POST of 1 takes a password and a user name and answers with a token"))
        // Twenty levels of two references each: a million schemas, were they all read.
        var schemas = [#""S0": {"properties": {"username": {}, "password": {}}}"#]
        for level in 1...20 {
            let below = "#/components/schemas/S\(level - 1)"
            schemas.append(#""S\#(level)": {"allOf": [{"$ref": "\#(below)"}, {"$ref": "\#(below)"}]}"#)
        }
        let fan = Data(
            #"""
            {"openapi": "3.0.0", "paths": {"/login": {"post": {"requestBody": {"content": {"application/json": {
              "schema": {"$ref": "#/components/schemas/S20"}}}}, "responses": {"200": {"content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/S20"}}}}}}}},
             "components": {"schemas": {\#(schemas.joined(separator: ", "))}}}
            """#.utf8)
        #expect(
            Discovery.operations(fan, at: Self.origin) == .lacking("schemas that refer to each other beyond reading"))
    }

    @Test(
        "words of paths and operationIds",
        arguments: [
            ("/api/token/refresh/", ["api", "token", "refresh"]),
            ("getCurrentUser", ["get", "current", "user"]),
            ("/users/me", ["user", "me"]),
        ])
    func words(text: String, words: [String]) {
        #expect(APIDocument.words(text) == words)
    }

    @Test("no login to post to, but the current user's operation is signed in by HTTP Basic: every request carries it")
    func basicSignIn() throws {
        let document = Data(
            #"""
            {"openapi": "3.0.3", "paths": {
              "/me": {"get": {"security": [{"basicAuth": []}], "responses": {"200": {"content": {"application/json": {
                "schema": {"type": "object", "properties": {"user": {"type": "object", "properties": {
                  "id": {"type": "string"}}}}}}}}}}},
              "/items": {"get": {"security": [{"basicAuth": []}], "responses": {}}},
              "/signup": {"post": {"requestBody": {"content": {"application/json": {"schema": {"properties": {
                "username": {}, "password": {}}}}}}, "responses": {"201": {}}}}},
             "components": {"securitySchemes": {"basicAuth": {"type": "http", "scheme": "Basic"}}}}
            """#.utf8)
        let found = try Self.described(document)
        #expect(found.login.shape.shape == .basic)
        #expect(found.token == TokenUse(header: "Authorization", scheme: "Basic"))
        let made = try ServerDescription(json: found.json, under: try ServerURL("http://h:8000"))
        #expect(made.login.sendsNothing && made.refresh == nil && made.revocation == nil)
        #expect(made.profile.url?.absoluteString == "http://h:8000/me" && made.profile.unwrap == "user")
        #expect(
            made.login.yields[Yield.access] == .template(try Template("{basic}")), "the password goes on every request")

        // A bearer scheme on the same operation is not Basic: nothing says how to get its token.
        let bearer = Data(
            String(decoding: document, as: UTF8.self).replacingOccurrences(of: "\"Basic\"", with: "\"bearer\"").utf8)
        guard case .lacking? = Discovery.operations(bearer, at: Self.origin) else {
            Issue.record(
                "a bearer profile without a login is described: \(String(describing: Discovery.operations(bearer, at: Self.origin)))"
            )
            return
        }
    }

    @Test("a login with no body, secured by HTTP Basic and answering a token, sends the password once by Basic")
    func basicOnce() throws {
        // As drf-spectacular writes django-rest-knox's LoginView, its logout and a current-user view, and knox's
        // token scheme (Tests/Fixtures/python/knox_server).
        let document = Data(
            #"""
            {"openapi": "3.0.3", "paths": {
              "/api/auth/login/": {"post": {"operationId": "auth_login_create", "tags": ["auth"],
                "security": [{"basicAuth": []}], "responses": {"200": {"content": {"application/json": {"schema": {
                  "$ref": "#/components/schemas/Login"}}}, "description": ""}}}},
              "/api/auth/logout/": {"post": {"operationId": "auth_logout_create", "tags": ["auth"],
                "security": [{"knoxApiToken": []}], "responses": {"200": {"description": "No response body"}}}},
              "/api/users/me/": {"get": {"operationId": "users_me_retrieve", "tags": ["users"],
                "security": [{"knoxApiToken": []}], "responses": {"200": {"content": {"application/json": {"schema": {
                  "$ref": "#/components/schemas/User"}}}, "description": ""}}}}},
             "components": {"securitySchemes": {"basicAuth": {"type": "http", "scheme": "basic"},
               "knoxApiToken": {"type": "apiKey", "in": "header", "name": "Authorization",
                 "description": "Token-based authentication with required prefix \"Token\""}},
               "schemas": {
                 "Login": {"type": "object", "properties": {"expiry": {"type": "string", "format": "date-time"},
                   "token": {"type": "string"}}, "required": ["expiry", "token"]},
                 "User": {"type": "object", "properties": {"id": {"type": "integer", "readOnly": true},
                   "username": {"type": "string"}, "email": {"type": "string", "format": "email"},
                   "first_name": {"type": "string"}, "last_name": {"type": "string"}},
                   "required": ["id", "username"]}}}}
            """#.utf8)
        let found = try Self.described(document)
        let made = try ServerDescription(json: found.json, under: try ServerURL("http://h:8000"))
        let login = try #require(made.login.request)
        #expect(login.url.description == "http://h:8000/api/auth/login/" && login.body == nil)
        #expect(login.headers["Authorization"]?.description == "Basic {basic}", "the password once, by Basic")
        #expect(made.login.yields[Yield.access] == .member("token"))
        #expect(made.login.yields[Yield.expiresAt] == .member("expiry"))
        #expect(!made.login.sendsNothing, "a token comes back, and goes on every later request instead")
        #expect(made.token == TokenUse(header: "Authorization", scheme: "Token"))
        #expect(made.revocation?.url?.absoluteString == "http://h:8000/api/auth/logout/")
    }

    @Test("a document's lists give the page and cursor parameters they take most, by the names frameworks use")
    func pagingParameters() throws {
        let document = Data(
            #"""
            {"openapi": "3.0.3", "paths": {
              "/me": {"get": {"security": [{"basicAuth": []}], "responses": {"200": {"content": {"application/json": {
                "schema": {"type": "object", "properties": {"id": {"type": "string"}}}}}}}}},
              "/a": {"get": {"parameters": [{"in": "query", "name": "starting_after"}], "responses": {}}},
              "/b": {"get": {"parameters": [{"in": "query", "name": "cursor"}, {"in": "query", "name": "page"}],
                "responses": {}}},
              "/c": {"get": {"parameters": [{"in": "query", "name": "cursor"}, {"in": "header", "name": "page"}],
                "responses": {}}},
              "/d": {"post": {"parameters": [{"in": "query", "name": "page_token"}], "responses": {}}}},
             "components": {"securitySchemes": {"basicAuth": {"type": "http", "scheme": "Basic"}}}}
            """#.utf8)
        let found = try Self.described(document)
        #expect(found.paging == Paging(page: "page", cursor: "cursor"), "\(String(describing: found.paging))")
        let made = try ServerDescription(json: found.json, under: try ServerURL("http://h:8000"))
        #expect(made.paging == Paging(page: "page", cursor: "cursor"))
    }
}
