import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient
@testable import SwaggerServers

/// `server set --set PATH=VALUE`: every part of the description language, one by one, over a preset.
@Suite("--set reaches every part of the description language", .timeLimit(.minutes(5)))
struct ServerSetTests {
    static let server = Fixtures.serverURL("https://h.example.com/api")

    @Test("each path of the language sets its part")
    func everyPart() throws {
        let base = "https://h.example.com/api"
        let checks: [(String, (ServerDescription) -> Bool)] = [
            ("login.url=/in", { $0.login.url?.absoluteString == base + "/in" }),
            (
                "login.with=basic",
                { $0.login.sendsNothing && $0.token == TokenUse(header: "Authorization", scheme: "Basic") }
            ),
            ("login.body=form", { if case .form? = $0.login.request?.body { true } else { false } }),
            ("login.account=identifier.user", { $0.login.request?.members(holding: "account") == ["identifier.user"] }),
            ("login.email=mail", { $0.login.request?.members(holding: "email") == ["mail"] }),
            ("login.password=secret", { $0.login.request?.members(holding: "password") == ["secret"] }),
            ("login.members.tenant=a", { $0.login.request?.fixedMembers["tenant"] == "a" }),
            ("login.appId=app", { $0.login.request?.members(holding: "app_id") == ["app"] }),
            ("login.answer.access=data.token", { $0.login.yields[Yield.access] == .member("data.token") }),
            ("login.answer.refresh=data.refresh", { $0.login.yields[Yield.refresh] == .member("data.refresh") }),
            ("login.answer.expiresIn=ttl", { $0.login.yields[Yield.expiresIn] == .member("ttl") }),
            (
                "login.answer.unit=ms",
                { $0.login.yields[Yield.expiresInMs] != nil && $0.login.yields[Yield.expiresIn] == nil }
            ),
            ("login.answer.username=user", { $0.login.yields[Yield.account] == .member("user") }),
            ("login.refusals:=[400]", { $0.login.refused == [Criterion(status: 400)] }),
            ("login.request.method=PUT", { $0.login.request?.method == "PUT" }),
            ("login.request.headers.X-Tenant=a", { $0.login.request?.headers["X-Tenant"]?.description == "a" }),
            ("login.request.query.v=2", { $0.login.request?.query["v"]?.description == "2" }),
            ("login.request.json.auth.scope=all", { $0.login.request?.fixedMembers["auth.scope"] == "all" }),
            ("login.yields.user_id=$response.body#/user/id", { $0.login.yields["user_id"] == .member("user.id") }),
            (#"login.refused:=["$statusCode == 400 && $response.body#/code == 3"]"#, { $0.login.refused.count == 1 }),
            ("token=X-API-Key", { $0.token == TokenUse(header: "X-API-Key", scheme: nil) }),
            (#"token:={"X-Auth-Token": "{access}"}"#, { $0.token == TokenUse(header: "X-Auth-Token", scheme: nil) }),
            ("refresh:=null", { $0.refresh == nil }),
            ("refresh.url=/r", { $0.refresh?.url?.absoluteString == base + "/r" }),
            (
                "refresh.with=bearer",
                { $0.refresh?.request.token?.description == "{refresh}" && $0.refresh?.request.body == nil }
            ),
            ("refresh.token=Authorization: Refresh", { $0.refresh?.request.tokenUse?.scheme == "Refresh" }),
            ("refresh.answer.access=data.a", { $0.refresh?.yields?[Yield.access] == .member("data.a") }),
            ("refresh.appId=app", { $0.refresh?.request.members(holding: "app_id") == ["app"] }),
            ("refresh.request.headers.X-R=1", { $0.refresh?.request.headers["X-R"]?.description == "1" }),
            (#"refresh.ended:=["$statusCode == 404"]"#, { $0.refresh?.ended == [Criterion(status: 404)] }),
            ("revocation:=null", { $0.revocation == nil }),
            ("revocation.url=/out", { $0.revocation?.url?.absoluteString == base + "/out" }),
            (
                "revocation.with=bearer:DELETE",
                { $0.revocation?.requests.map(\.template.method) == ["DELETE", "DELETE"] }
            ),
            ("revocation.client=client_secret_post", { $0.revocation?.clientAuthentication == .post }),
            ("revocation.revoked:=[401]", { $0.revocation?.revoked == [Criterion(status: 401)] }),
            (
                "revocation.gone:=[404, 410]",
                { $0.revocation?.gone == [Criterion(status: 404), Criterion(status: 410)] }
            ),
            (
                #"revocation.requests:=[{"method": "DELETE", "url": "/t", "token": "{access}", "headers": {"X-Subject-Token": "{access}"}}]"#,
                { $0.revocation?.requests.first?.template.headers["X-Subject-Token"]?.description == "{access}" }
            ),
            ("profile.url=/me", { $0.profile.url?.absoluteString == base + "/me" }),
            ("profile.request.url=/v3/users/{user_id}", { $0.profile.request.address == base + "/v3/users/{user_id}" }),
            ("profile.unwrap=data.user", { $0.profile.unwrap == "data.user" }),
            (#"profile.labels:=[["id", "ID"]]"#, { $0.profile.labels == [ProfileLabel("id", "ID")] }),
            ("client.id=cli", { $0.clientID == "cli" }),
            ("client.scope=openid", { $0.scope == "openid" }),
            ("client.secret:=true", { $0.usesClientSecret }),
            ("client.authentication=private_key_jwt", { $0.clientAuthentication == .privateKeyJWT }),
            ("mtls.token=/mtls/token", { $0.mtls.token?.absoluteString == base + "/mtls/token" }),
            ("mtls.revocation=/mtls/revoke", { $0.mtls.revocation?.absoluteString == base + "/mtls/revoke" }),
            ("authorization=/authorize", { $0.authorizationURL?.absoluteString == base + "/authorize" }),
            ("deviceAuthorization=/device", { $0.deviceAuthorizationURL?.absoluteString == base + "/device" }),
            (#"grantTypes:=["password"]"#, { $0.grantTypes == ["password"] }),
            ("signIn=web", { $0.signIn == .web }),
            ("document=/openapi.json", { $0.document?.absoluteString == base + "/openapi.json" }),
            ("paging.page=p", { $0.paging?.page == "p" && $0.paging?.cursor == nil }),
            ("paging.cursor=since", { $0.paging?.cursor == "since" && $0.paging?.page == nil }),
            (
                #"allowedOrigins:=["https://idp.example"]"#,
                { $0.allowedOrigins.map(\.string) == ["https://idp.example"] }
            ),
            ("preset=simplejwt", { $0.preset == "simplejwt" }),
        ]
        // Every member of the language at the top is reached by at least one path.
        let tops = Set(checks.map { String($0.0.prefix { $0 != "." && $0 != "=" && $0 != ":" }) })
        #expect(tops == ServerDescription.members, "\(ServerDescription.members.subtracting(tops))")
        for (part, holds) in checks {
            // Another preset's profile is the person's to give; a revocation is none until something says where.
            var parts = [part]
            if part.hasPrefix("preset=") { parts.append("profile.url=/me") }
            if part.hasPrefix("revocation."), !part.hasPrefix("revocation.url"), !part.hasPrefix("revocation.requests")
            {
                parts.append("revocation.url=/out")
            }
            var flags = ServerFlags()
            for part in parts { try flags.set("set", part) }
            let json = JSONValue.object(["preset": "identity"]).merging(flags.json)
            let description = try ServerDescription(json: json, under: Self.server)
            #expect(holds(description), "\(part): \(description.json(relativeTo: Self.server).compactJSON)")
            // Written out and read back, whole or as its preset and what differs from it, the part stays.
            let back = try ServerDescription(json: description.json(relativeTo: Self.server), under: Self.server)
            #expect(holds(back), "\(part) written out")
            let compact = description.json(relativeTo: Self.server)
            #expect(try ServerDescription(json: compact, under: Self.server) == description, "\(compact.compactJSON)")
        }
    }

    @Test(
        "a preset alone is written as its name; a change over it, as the name and the change",
        arguments: ServerPresets.names)
    func presetWritten(name: String) throws {
        // The presets whose software has no profile route of its own need one given.
        let given: JSONValue = ["preset": .string(name), "profile": ["url": "/me"], "login": ["url": "/in"]]
        let description = try ServerDescription(json: given, under: Self.server)
        let compact = description.json(relativeTo: Self.server)
        #expect(try ServerDescription(json: compact, under: Self.server) == description, "\(compact.compactJSON)")
        let alone = try? ServerDescription(json: ["preset": .string(name)], under: Self.server)
        if let alone { #expect(alone.json(relativeTo: Self.server) == ["preset": .string(name)]) }
    }

    @Test(
        "a path outside the language is refused as the flag's value, naming the flag",
        arguments: ["nonesuch.x=1", "login..url=x", "login", "=x", "login.url:=not json"])
    func refusedPath(part: String) {
        var flags = ServerFlags()
        let error = #expect(throws: SwaggerError.self) { try flags.set("set", part) }
        #expect(error?.code == .usage && error?.message.contains("--set") == true, "\(String(describing: error))")
    }

    @Test("a server that takes only tokens people bring is described with no login, and written back so")
    func tokensOnly() throws {
        let json: JSONValue = [
            "signIn": "token", "token": "X-API-Key", "profile": ["request": ["url": "/me"]],
            "paging": ["cursor": "after"],
        ]
        let description = try ServerDescription(json: json, under: Self.server)
        #expect(description.login.isNone && !description.login.sendsNothing)
        #expect(description.profile.request.token?.description == "{access}", "the profile asks with the token")
        #expect(description.paging?.cursor == "after")
        let written = description.json(relativeTo: Self.server)
        #expect(try ServerDescription(json: written, under: Self.server) == description, "\(written.compactJSON)")
        // Without saying so, a description with no login is one a part of is missing from.
        let missing = #expect(throws: ServerDescription.Invalid.self) {
            try ServerDescription(json: ["profile": ["request": ["url": "/me"]]], under: Self.server)
        }
        #expect(missing?.reason.contains("signIn=token") == true)
        // A profile asked for with no token says so, and keeps saying so.
        let bare = try ServerDescription(
            json: ["signIn": "token", "profile": ["request": ["url": "/me", "token": .null]]], under: Self.server)
        #expect(bare.profile.request.token == nil)
        #expect(try ServerDescription(json: bare.json(relativeTo: Self.server), under: Self.server) == bare)
    }

    @Test("a value the language does not take is refused when the description is read, naming its path")
    func refusedValue() throws {
        var flags = ServerFlags()
        try flags.set("set", "login.answer.unit:=3")
        let error = #expect(throws: ServerDescription.Invalid.self) {
            try ServerDescription(
                json: JSONValue.object(["preset": "identity"]).merging(flags.json), under: Self.server)
        }
        #expect(error?.reason.contains("login.answer.unit") == true)
    }
}
