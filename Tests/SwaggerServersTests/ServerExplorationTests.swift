import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerServers

@Suite("ServerExploration: what is read of a server, in what order, and when the reading ends", .timeLimit(.minutes(5)))
struct ServerExplorationTests {
    typealias Event = ServerExploration.Event
    typealias Action = ServerExploration.Action

    static let server = Fixtures.serverURL("https://h.example.com/api")

    /// The reading of `server` when `given` is what the person said.
    static func exploration(given: [JSONValue] = []) throws -> ServerPlan.Exploration {
        let layers = given.map { DescriptionLayer(json: $0, source: "given") }
        guard case .explore(let exploration) = try ServerPlan.plan(given: layers, saved: nil, server: server) else {
            throw SwaggerError(.usage, "the plan needs no document")
        }
        return exploration
    }

    /// Runs the machine to its end, answering each read from `documents` by the address's path (unreadable where
    /// absent), each probe from `statuses` (404 where absent), and each question from `answers`, else from
    /// `documents` as a 200 (404 where absent from both).
    static func run(
        _ exploration: ServerPlan.Exploration, documents: [String: Event] = [:], statuses: [String: Event] = [:],
        answers: [String: Exchange] = [:], server: ServerURL = server
    ) -> (asked: [Action], end: Action?) {
        var machine = ServerExploration(exploration, server: server, confidential: false)
        var asked: [Action] = []
        var event = Event.start
        // Far more than any reading asks; a machine that loops ends the test rather than hanging it.
        for _ in 0..<500 {
            let action = machine.next(event)
            switch action {
            case .read(let url):
                asked.append(action)
                event = documents[url.path(percentEncoded: false)] ?? .unreadable
            case .probe(let url):
                asked.append(action)
                event = statuses[url.path(percentEncoded: false)] ?? .status(404)
            case .ask(let url):
                asked.append(action)
                let path = url.path(percentEncoded: false)
                if let answer = answers[path] {
                    event = .answered(answer)
                } else if case .document(let body, _)? = documents[path] {
                    event = .answered(
                        Exchange(
                            method: "GET", url: url, status: 200,
                            responseBody: try? JSONDecoder().decode(JSONValue.self, from: body)))
                } else {
                    event = .answered(Exchange(method: "GET", url: url, status: 404))
                }
            case .finished, .undescribed, .unreachable, .delegated:
                return (asked, action)
            }
        }
        return (asked, nil)
    }

    static func json(_ text: String) -> Event { .document(Data(text.utf8), link: nil) }

    static let metadataPath = "/api/.well-known/openid-configuration"
    static let complete = json(
        #"{"issuer": "https://h.example.com/api", "token_endpoint": "https://h.example.com/api/token", "#
            + #""userinfo_endpoint": "https://h.example.com/api/me"}"#)

    @Test("metadata naming a token endpoint and userinfo is an OAuth 2 server, after every metadata document")
    func completeMetadata() throws {
        let exploration = try Self.exploration()
        let (asked, end) = Self.run(exploration, documents: [Self.metadataPath: Self.complete])
        #expect(asked == exploration.metadata.map(Action.read))
        guard case .finished(let finding?, let document) = end else {
            Issue.record("\(String(describing: end))"); return
        }
        #expect(finding.preset == "oauth2" && document == nil)
        #expect(finding.documents.map(\.path) == [Self.metadataPath])
        #expect(finding.layer?.json[path: "profile.url"] == .string("https://h.example.com/api/me"))
    }

    @Test("metadata without userinfo reads on and says what it lacked; a profile given makes it whole")
    func metadataWithoutProfile() throws {
        let tokenOnly = Self.json(#"{"token_endpoint": "https://h.example.com/api/token"}"#)
        let (asked, end) = Self.run(try Self.exploration(), documents: [Self.metadataPath: tokenOnly])
        #expect(asked.contains(.read(URL(string: "https://h.example.com/api/openapi.json")!)))
        guard case .undescribed(let lacking) = end else { Issue.record("\(String(describing: end))"); return }
        #expect(lacking == ["https://h.example.com\(Self.metadataPath) names no userinfo endpoint"])

        let given = try Self.exploration(given: [["profile": ["url": "/whoami"]]])
        let (_, found) = Self.run(given, documents: [Self.metadataPath: tokenOnly])
        guard case .finished(let finding?, nil) = found else { Issue.record("\(String(describing: found))"); return }
        #expect(finding.preset == "oauth2")
    }

    @Test("a protocol that shows itself by every answer it names is its preset; one answer short is not")
    func protocolAnswers() throws {
        let versions = "/api/_matrix/client/versions"
        let login = "/api/_matrix/client/v3/login"
        let shown = Self.run(
            try Self.exploration(),
            documents: [
                versions: Self.json(#"{"versions": ["v1.11"]}"#),
                login: Self.json(#"{"flows": [{"type": "m.login.password"}]}"#),
            ])
        guard case .finished(let finding?, nil) = shown.end else {
            Issue.record("\(String(describing: shown.end))")
            return
        }
        #expect(finding.layer?.json[path: "preset"] == .string("matrix"))
        #expect(finding.documents.map(\.path) == [versions, login])

        let short = Self.run(
            try Self.exploration(),
            documents: [
                versions: Self.json(#"{"versions": ["v1.11"]}"#),
                login: Self.json(#"{"flows": [{"type": "m.login.sso"}]}"#),
            ])
        guard case .finished(nil, nil) = short.end else { Issue.record("\(String(describing: short.end))"); return }
    }

    @Test(
        "a server that is not a protocol's, and names another as its own at its origin's /.well-known/, is said to",
        arguments: [
            // Another host, with a path, and a trailing slash as Element writes it.
            ("https://matrix.example.net/", "https://matrix.example.net"),
            ("https://h.example.com:8448/synapse", "https://h.example.com:8448/synapse"),
            // Itself, its origin, or what is no http or https URL: none, and the reading goes on.
            ("https://h.example.com/api", nil), ("https://h.example.com", nil), ("file:///etc/passwd", nil),
            ("javascript:alert(1)", nil), (String(repeating: "a", count: 3000), nil),
        ] as [(String, String?)])
    func delegation(named: String, server: String?) throws {
        let wellKnown = "/.well-known/matrix/client"
        let answer = Exchange(
            method: "GET", url: Self.server.url, status: 200,
            responseBody: ["m.homeserver": ["base_url": .string(named)]])
        let (asked, end) = Self.run(try Self.exploration(), answers: [wellKnown: answer])
        let url = try #require(URL(string: "https://h.example.com" + wellKnown))
        #expect(asked.contains(.ask(url)))
        if let server {
            #expect(
                end
                    == .delegated(
                        Discovery.Delegated(preset: "matrix", server: Fixtures.serverURL(server), source: url)))
            // Nothing more is asked once it is said: the rest is the person's to allow.
            #expect(asked.last == .ask(url))
        } else {
            guard case .finished(nil, nil) = end else { Issue.record("\(String(describing: end))"); return }
        }
        // A server that speaks the protocol itself is the protocol's, whatever its /.well-known/ says.
        let (_, itself) = Self.run(
            try Self.exploration(),
            documents: [
                "/api/_matrix/client/versions": Self.json(#"{"versions": ["v1.11"]}"#),
                "/api/_matrix/client/v3/login": Self.json(#"{"flows": [{"type": "m.login.password"}]}"#),
            ], answers: [wellKnown: answer])
        guard case .finished(let finding?, nil) = itself else { Issue.record("\(String(describing: itself))"); return }
        #expect(finding.layer?.json[path: "preset"] == .string("matrix"))
    }

    @Test("a protocol is asked for at the origin too, and its paths are the origin's; a header on a 401 is evidence")
    func protocolAtOrigin() throws {
        // Typed with the protocol's own path, as a person copies it from a client's settings.
        let typed = Fixtures.serverURL("https://h.example.com/_matrix/client/v3")
        let exploration = try #require(
            { () throws -> ServerPlan.Exploration? in
                guard case .explore(let found) = try ServerPlan.plan(given: [], saved: nil, server: typed) else {
                    return nil
                }
                return found
            }())
        let found = Self.run(
            exploration,
            documents: [
                "/_matrix/client/versions": Self.json(#"{"versions": ["v1.11"]}"#),
                "/_matrix/client/v3/login": Self.json(#"{"flows": [{"type": "m.login.password"}]}"#),
            ], server: typed)
        guard case .finished(let finding?, nil) = found.end, let layer = finding.layer else {
            Issue.record("\(String(describing: found.end))")
            return
        }
        #expect(layer.json[path: "preset"] == .string("matrix"))
        let description = try ServerDescription(json: layer.json, under: typed)
        #expect(description.login.url?.absoluteString == "https://h.example.com/_matrix/client/v3/login")
        #expect(description.profile.url?.absoluteString == "https://h.example.com/_matrix/client/v3/account/whoami")

        // A Basic challenge that names the software, answered 401, with no document at all.
        let challenge = Exchange(
            method: "GET", url: Self.server.url, status: 401,
            responseHeaders: [HeaderField(name: "WWW-Authenticate", value: #"Basic realm="RabbitMQ Management""#)])
        let rabbit = Self.run(try Self.exploration(), answers: ["/api/whoami": challenge])
        guard case .finished(let shown?, nil) = rabbit.end else {
            Issue.record("\(String(describing: rabbit.end))")
            return
        }
        #expect(shown.layer?.json[path: "preset"] == .string("rabbitmq"))
        var other = challenge
        other.responseHeaders = [HeaderField(name: "WWW-Authenticate", value: #"Basic realm="api""#)]
        let plain = Self.run(try Self.exploration(), answers: ["/api/whoami": other])
        #expect(
            plain.end.map { if case .finished(nil, nil) = $0 { true } else { false } } == true, "\(plain.end as Any)")
    }

    @Test("what the server names is read before the frameworks' places, and only on its own origin")
    func namedDocuments() throws {
        let exploration = try Self.exploration()
        let link = #"</api/spec.json>; rel="service-desc", <https://elsewhere.example/x.json>; rel="service-desc""#
        let catalog = Self.json(
            #"{"linkset": [{"anchor": "https://h.example.com/api", "service-desc": [{"href": "/api/listed.json"}, "#
                + #"{"href": "https://elsewhere.example/y.json"}]}]}"#)
        let (asked, _) = Self.run(
            exploration,
            documents: ["/api": .document(Data(), link: link), "/.well-known/api-catalog": catalog])
        let reads = asked.compactMap { action -> String? in
            if case .read(let url) = action { url.absoluteString } else { nil }
        }
        let afterCatalog = try #require(reads.firstIndex(of: "https://h.example.com/.well-known/api-catalog")) + 1
        #expect(
            Array(reads[afterCatalog...].prefix(3)) == [
                "https://h.example.com/api/spec.json", "https://h.example.com/api/listed.json",
                "https://h.example.com/api/openapi.json",
            ])
        #expect(!reads.contains { $0.hasPrefix("https://elsewhere.example") })
    }

    @Test("an OpenAPI document with an OAuth 2 password flow ends the reading, and is the document kept")
    func openAPIFlow() throws {
        let document = Self.json(
            #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": "#
                + #"{"securitySchemes": {"o": {"type": "oauth2", "flows": {"password": {"tokenUrl": "token", "#
                + #""scopes": {}}}}}}}"#)
        let (asked, end) = Self.run(try Self.exploration(), documents: ["/api/schema/openapi.json": document])
        let url = URL(string: "https://h.example.com/api/schema/openapi.json")!
        #expect(asked.last == .read(url))
        guard case .finished(let finding?, let kept) = end else { Issue.record("\(String(describing: end))"); return }
        #expect(finding.preset == "oauth2" && kept == url && finding.documents == [url])
    }

    @Test("a server cut off ends the reading with nothing more asked, unless what was read already says enough")
    func unreachable() throws {
        let exploration = try Self.exploration()
        let cut = Self.run(exploration, documents: [Self.metadataPath: .unreachable])
        #expect(cut.asked == [.read(exploration.metadata[0])])
        #expect(cut.end == .unreachable)

        let second = exploration.metadata[1].path(percentEncoded: false)
        let found = Self.run(exploration, documents: [Self.metadataPath: Self.complete, second: .unreachable])
        #expect(found.asked == Array(exploration.metadata.prefix(2)).map(Action.read))
        guard case .finished(let finding?, nil) = found.end else {
            Issue.record("\(String(describing: found.end))")
            return
        }
        #expect(finding.preset == "oauth2")
    }

    @Test("with something given and nothing found, nothing is probed: the plan says what is missing")
    func givenNothingFound() throws {
        let (asked, end) = Self.run(try Self.exploration(given: [["profile": ["url": "/whoami"]]]))
        #expect(!asked.contains { if case .probe = $0 { true } else { false } })
        #expect(end == .finished(nil, document: nil))
    }

    @Test("with nothing given or found, each preset's login is probed, and one that is not there ends its probe")
    func presetProbes() throws {
        let (asked, end) = Self.run(try Self.exploration())
        let probes = Discovery.presetProbes(for: Self.server)
        #expect(asked.filter { if case .probe = $0 { true } else { false } } == probes.map { .probe($0.login) })
        #expect(end == .finished(nil, document: nil))
    }

    @Test("a preset whose login answers 405 and profile 401 is the finding; a server cut off while probed is not")
    func presetShown() throws {
        let probe = try #require(Discovery.presetProbes(for: Self.server).last)
        let statuses: [String: Event] = [
            probe.login.path(percentEncoded: false): .status(405),
            probe.profile.path(percentEncoded: false): .status(401),
        ]
        let (_, end) = Self.run(try Self.exploration(), statuses: statuses)
        guard case .finished(let finding?, nil) = end else { Issue.record("\(String(describing: end))"); return }
        #expect(finding.layer?.json[path: "preset"] == .string(probe.preset))
        #expect(finding.layer?.source == "probe of \(probe.login.pathAndQuery)")

        let cut = Self.run(
            try Self.exploration(), statuses: [probe.login.path(percentEncoded: false): .unreachable])
        #expect(cut.end == .unreachable)
    }

    @Test("a document the person named is the only one read")
    func namedByPerson() throws {
        let exploration = try Self.exploration(given: [["document": "https://h.example.com/api/spec.yaml"]])
        let (asked, end) = Self.run(exploration)
        #expect(asked == [.read(URL(string: "https://h.example.com/api/spec.yaml")!)])
        #expect(end == .finished(nil, document: nil))
    }
}
