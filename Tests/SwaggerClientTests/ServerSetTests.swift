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
            ("login.url=/in", { $0.login.url.absoluteString == base + "/in" }),
            ("login.with=basic", { $0.login.shape == .basic }),
            ("login.body=form", { $0.login.encoding == .form }),
            ("login.account=identifier.user", { $0.login.account == "identifier.user" }),
            ("login.email=mail", { $0.login.email == "mail" }),
            ("login.password=secret", { $0.login.password == "secret" }),
            ("login.members.tenant=a", { $0.login.members["tenant"] == "a" }),
            ("login.appId=app", { $0.login.appID == "app" }),
            ("login.answer.access=data.token", { $0.login.answer.accessToken == "data.token" }),
            ("login.answer.refresh=data.refresh", { $0.login.answer.refreshToken == "data.refresh" }),
            ("login.answer.expiresIn=ttl", { $0.login.answer.expiresIn == "ttl" }),
            ("login.answer.unit=ms", { $0.login.answer.unit == .milliseconds }),
            ("login.answer.username=user", { $0.login.answer.username == "user" }),
            ("login.refusals:=[400]", { $0.login.refusals == [400] }),
            ("token=X-API-Key", { $0.token == TokenUse(header: "X-API-Key", scheme: nil) }),
            ("refresh:=null", { $0.refresh == nil }),
            ("refresh.url=/r", { $0.refresh?.url.absoluteString == base + "/r" }),
            ("refresh.with=bearer", { $0.refresh?.shape == .bearer }),
            ("refresh.token=Authorization: Refresh", { $0.refresh?.token?.scheme == "Refresh" }),
            ("refresh.answer.access=data.a", { $0.refresh?.answer?.accessToken == "data.a" }),
            ("refresh.appId=app", { $0.refresh?.appID == "app" }),
            ("revocation:=null", { $0.revocation == nil }),
            ("revocation.url=/out", { $0.revocation?.url.absoluteString == base + "/out" }),
            ("revocation.with=bearer:DELETE", { $0.revocation?.shape == .bearer(method: "DELETE") }),
            ("revocation.client=client_secret_post", { $0.revocation?.clientAuthentication == .post }),
            ("revocation.revoked:=[401]", { $0.revocation?.revoked == [401] }),
            ("revocation.gone:=[404, 410]", { $0.revocation?.gone == [404, 410] }),
            ("profile.url=/me", { $0.profile.url.absoluteString == base + "/me" }),
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
            if part.hasPrefix("revocation."), !part.hasPrefix("revocation.url") { parts.append("revocation.url=/out") }
            var flags = ServerFlags()
            for part in parts { try flags.set("set", part) }
            let json = JSONValue.object(["preset": "identity"]).merging(flags.json)
            let description = try ServerDescription(json: json, under: Self.server)
            #expect(holds(description), "\(part): \(description.json(relativeTo: Self.server).compactJSON)")
            // Written out and read back, whole or as its preset and what differs from it, the part stays.
            let back = try ServerDescription(json: description.json(relativeTo: Self.server), under: Self.server)
            #expect(holds(back), "\(part) written out")
            let compact = description.presetJSON(under: Self.server)
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
        let compact = description.presetJSON(under: Self.server)
        #expect(try ServerDescription(json: compact, under: Self.server) == description, "\(compact.compactJSON)")
        let alone = try? ServerDescription(json: ["preset": .string(name)], under: Self.server)
        if let alone { #expect(alone.presetJSON(under: Self.server) == ["preset": .string(name)]) }
    }

    @Test(
        "a path outside the language is refused as the flag's value, naming the flag",
        arguments: ["nonesuch.x=1", "login..url=x", "login", "=x", "login.url:=not json"])
    func refusedPath(part: String) {
        var flags = ServerFlags()
        let error = #expect(throws: SwaggerError.self) { try flags.set("set", part) }
        #expect(error?.code == .usage && error?.message.contains("--set") == true, "\(String(describing: error))")
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
