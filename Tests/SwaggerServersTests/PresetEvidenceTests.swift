import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerDocuments
@testable import SwaggerServers

/// No server is taken for a family without evidence: its document's operations, or what its endpoints answer to a
/// `GET` without credentials; and the `original` preset is checked against the demo server's own document, so that
/// the two cannot drift.
@Suite("Presets are taken on evidence: documents and probes, never by default", .timeLimit(.minutes(5)))
struct PresetEvidenceTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let server = Fixtures.serverURL("http://127.0.0.1:8080/api")
    static let documentURL = URL(string: "http://127.0.0.1:8080/api/openapi.yaml") ?? URL(filePath: "/")

    static func demoDocument() throws -> Data {
        try Data(contentsOf: root.appending(path: "Sources/DemoServer/openapi.yaml"))
    }

    @Test("the original preset is the demo server's document: every step an operation, with its members and answer")
    func originalMatchesTheDemoDocument() throws {
        let data = try Self.demoDocument()
        let evidenced = try #require(Discovery.preset(evidencedBy: data, at: Self.documentURL, server: Self.server))
        #expect(evidenced[path: "preset"] == "original")
        // Every step is there: none is taken away for want of evidence.
        for step in ["login", "refresh", "revocation", "profile"] {
            #expect(evidenced[path: step] != JSONValue.null && evidenced[path: step] != nil, "\(step)")
        }
        let preset = Fixtures.original(Self.server)
        guard case .described(let read)? = Discovery.operations(data, at: Self.documentURL) else {
            Issue.record("the demo document describes no login")
            return
        }
        let found = try ServerDescription(json: read.json, under: Self.server)
        let (login, presetLogin) = (try #require(found.login.request), try #require(preset.login.request))
        #expect(login.fixedURL == presetLogin.fixedURL && login.method == presetLogin.method)
        for input in ["account", "password"] {
            #expect(login.members(holding: input) == presetLogin.members(holding: input), "\(input)")
        }
        #expect({ if case .json? = login.body { true } else { false } }(), "the document's login is JSON")
        for yield in [Yield.access, Yield.refresh] {
            #expect(found.login.yields[yield] == preset.login.yields[yield], "\(yield)")
        }
        #expect(found.refresh?.url == preset.refresh?.url)
        #expect(
            found.refresh?.request.members(holding: "refresh") == preset.refresh?.request.members(holding: "refresh"))
        #expect(found.revocation?.requests == preset.revocation?.requests)
        #expect(found.profile.request == preset.profile.request)
        // The members the preset fills with the app id, and the fields it labels, are the document's.
        guard case .object(let root)? = DocumentText.value(of: data) else {
            Issue.record("not a document")
            return
        }
        let schemas = root["components"].flatMap { $0[path: "schemas"] }
        let appID = presetLogin.members(holding: "app_id")
        #expect(appID.count == 1 && schemas?[path: "LoginRequest.properties.\(appID[0])"] != nil)
        let refreshAppID = preset.refresh?.request.members(holding: "app_id") ?? []
        #expect(refreshAppID.count == 1 && schemas?[path: "RefreshRequest.properties.\(refreshAppID[0])"] != nil)
        for label in preset.profile.labels {
            #expect(schemas?[path: "User.properties.\(label.field)"] != nil, "\(label.field)")
        }
    }

    @Test("a step the document lacks is no step of the server's, though its preset has one")
    func lackingStep() throws {
        var text = String(decoding: try Self.demoDocument(), as: UTF8.self)
        let logout = try #require(text.range(of: "  /User/Logout:"))
        let end = try #require(text[logout.upperBound...].range(of: "components:"))
        text.removeSubrange(logout.lowerBound..<end.lowerBound)
        let evidenced = try #require(
            Discovery.preset(evidencedBy: Data(text.utf8), at: Self.documentURL, server: Self.server))
        #expect(evidenced[path: "revocation"] == .null)
        #expect(try ServerDescription(json: evidenced, under: Self.server).revocation == nil)
    }

    @Test(
        "no preset without its login and profile in the document; a template stands for the values its enum lists",
        arguments: [
            (#"{"/login": {"post": {}}, "/manage/info": {"get": {}}}"#, "identity"),
            (#"{"/login": {"post": {}}}"#, nil),
            (#"{"/login": {"get": {}}, "/manage/info": {"get": {}}}"#, nil),
            (#"{"/{where}": {"post": {}}, "/manage/info": {"get": {}}}"#, "identity"),
            (
                #"{"/{where}": {"post": {"parameters": [{"name": "where", "in": "path", "schema": {"enum": ["signin"]}}]}}, "/manage/info": {"get": {}}}"#,
                nil
            ),
        ] as [(String, String?)])
    func evidence(paths: String, preset: String?) {
        let server = Fixtures.serverURL("http://h")
        let data = Data(#"{"openapi": "3.0.0", "paths": \#(paths)}"#.utf8)
        let found = Discovery.preset(evidencedBy: data, at: server.url.appending(path: "openapi.json"), server: server)
        #expect(found?[path: "preset"] == preset.map(JSONValue.string), "\(paths)")
    }

    @Test(
        "probes without credentials: a login that answers 405 and a profile that answers 401 or 403 are there",
        arguments: [
            (405, 401, 405, "identity", true),
            (405, 403, 404, "identity", false),
            (404, 401, 405, nil, false),
            (405, 404, 405, nil, false),
            (405, 200, 405, nil, false),
            (200, 401, 405, nil, false),
        ] as [(Int, Int, Int, String?, Bool)])
    func probes(login: Int, profile: Int, refresh: Int, preset: String?, keepsRefresh: Bool) throws {
        let server = Fixtures.serverURL("http://h/app")
        let probe = try #require(Discovery.presetProbes(for: server).first { $0.preset == "identity" })
        #expect(probe.login.absoluteString == "http://h/app/login")
        #expect(probe.profile.absoluteString == "http://h/app/manage/info")
        let refreshURL = try #require(probe.others.first { $0.step == "refresh" }?.url)
        let answers = [probe.login: login, probe.profile: profile, refreshURL: refresh]
        let found = Discovery.preset(probed: probe, answers: answers)
        #expect(found?[path: "preset"] == preset.map(JSONValue.string))
        if preset != nil {
            let described = try ServerDescription(json: try #require(found), under: server)
            #expect((described.refresh != nil) == keepsRefresh)
        }
    }

    @Test("where an API may be instead: one level down under the usual names, and one level up")
    func nearby() {
        let places = Discovery.nearby(Fixtures.serverURL("http://h:8080/v2")).map(\.server.string)
        #expect(places == ["http://h:8080/v2/api", "http://h:8080/v2/api/v1", "http://h:8080/v2/v1", "http://h:8080"])
        let root = Discovery.nearby(Fixtures.serverURL("http://h:8080")).map(\.server.string)
        #expect(root == ["http://h:8080/api", "http://h:8080/api/v1", "http://h:8080/v1"])
        let documents = Discovery.nearby(Fixtures.serverURL("http://h:8080")).first?.documents.map(\.absoluteString)
        #expect(documents?.contains("http://h:8080/api/openapi.yaml") == true)
    }
}
