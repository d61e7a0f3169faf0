import FoundationEssentials
import SwaggerModel

/// Reading what a server publishes to find how to log in to it, as a state machine: one event in, one action out.
/// The owner reads or probes what an action names, without credentials, and hands back what came of it.
///
/// The order is the decision: every OAuth 2 metadata document, whose endpoints make it an OAuth 2 server where they
/// name the profile (or something given does); a protocol that announces itself to a `GET`, as Matrix's client API
/// does; then OpenAPI documents until one describes a login, those the server names (a `Link` to its
/// `service-desc`, an API catalog) before the frameworks' usual places; last, where nothing was found or given,
/// the presets whose login and profile answer a probe as they would. A server that cannot be reached ends the
/// reading, but what was already found still stands.
package struct ServerExploration: Sendable {
    package enum Action: Sendable, Hashable {
        /// Read the document at this address; answer with `.document`, `.unreadable` or `.unreachable`.
        case read(URL)
        /// Ask this address how it answers without credentials; answer with `.status` or `.unreachable`.
        case probe(URL)
        /// Ask this address, without credentials, for the whole of its answer; answer with `.answered` or
        /// `.unreachable`.
        case ask(URL)
        /// Done: what the server published said this (`nil`: nothing), read from `document`, the OpenAPI document to
        /// keep a copy of.
        case finished(Discovery.Finding?, document: URL?)
        /// Done: the server is not one of a family's, and says its own server is elsewhere, as a Matrix server name's
        /// `/.well-known/matrix/client` names the homeserver. Nothing was sent there.
        case delegated(Discovery.Delegated)
        /// Documents were read, none describes a login, and nothing given says how: what each lacked.
        case undescribed([String])
        /// The server could not be reached: the error that said so is the answer.
        case unreachable
    }

    package enum Event: Sendable, Hashable {
        case start
        /// The document last asked for, and its `Link` header.
        case document(Data, link: String?)
        /// The document last asked for could not be read: not there, not a document, too large.
        case unreadable
        /// The status the address last probed answered; `nil` for an answer that says nothing.
        case status(Int?)
        /// What the address last asked answered: its status, headers and, where it is JSON, its body; `nil` for no
        /// answer at all.
        case answered(Exchange?)
        /// The server could not be reached, or not trusted.
        case unreachable
    }

    private enum Stage: Sendable {
        case metadata(next: Int)
        case protocols(preset: Int, answer: Int)
        case delegations(next: Int)
        /// The server's own address, for a `Link` to its description.
        case root
        case catalog(URL, named: [URL])
        case openAPI([URL], next: Int)
        case presets(preset: Int, address: Int, answers: [URL: Int])
        case over
    }

    private let exploration: ServerPlan.Exploration
    private let server: ServerURL
    private let confidential: Bool
    private let protocolProbes: [Discovery.ProtocolProbe]
    private let presetProbes: [Discovery.PresetProbe]
    private let delegations: [(preset: String, url: URL, to: Yield)]
    private var stage = Stage.metadata(next: 0)
    private var endpoints = Discovery.Endpoints()
    private var metadata: [URL] = []
    private var lacking: [String] = []
    private var cutOff = false

    /// `confidential` says whether a client secret was given, which the OAuth 2 parts of a finding depend on.
    package init(_ exploration: ServerPlan.Exploration, server: ServerURL, confidential: Bool) {
        self.exploration = exploration
        self.server = server
        self.confidential = confidential
        // A protocol shows itself by its answers; one that names none would be taken for every server.
        protocolProbes = Discovery.protocolProbes(for: server).filter { !$0.answers.isEmpty }
        presetProbes = Discovery.presetProbes(for: server)
        delegations = Discovery.delegations(for: server)
    }

    package mutating func next(_ event: Event) -> Action {
        if case .start = event { return advance() }
        if case .unreachable = event {
            // Probes come after every read: a server that stops answering one cannot be probed any further.
            if case .presets = stage { return finish(.unreachable) }
            cutOff = true
        }
        if let action = take(event) { return finish(action) }
        return advance()
    }

    private mutating func finish(_ action: Action) -> Action {
        stage = .over
        return action
    }

    /// What the answer to the last action says; an action when it ends the reading.
    private mutating func take(_ event: Event) -> Action? {
        var body: Data?
        var link: String?
        if case .document(let data, let header) = event {
            body = data
            link = header
        }
        switch stage {
        case .metadata(let next):
            let url = exploration.metadata[next]
            if let body, let named = Discovery.metadata(body, at: url) {
                endpoints = endpoints.merging(named)
                metadata.append(url)
            }
            stage = .metadata(next: next + 1)
        case .protocols(let preset, let answer):
            return protocolAnswer(event, preset: preset, answer: answer)
        case .delegations(let next):
            stage = .delegations(next: next + 1)
            let delegation = delegations[next]
            guard case .answered(let exchange?) = event, exchange.status == 200,
                let elsewhere = Discovery.delegated(
                    delegation.to.value(in: exchange, inputs: { _ in nil }), from: server)
            else { return nil }
            return .delegated(Discovery.Delegated(preset: delegation.preset, server: elsewhere, source: delegation.url))
        case .root:
            let named = Discovery.serviceDescriptions(link: link, at: server.url)
            if let origin = ServerURL.origin(of: server.url),
                let catalog = URL(string: origin.absoluteString + "/.well-known/api-catalog")
            {
                stage = .catalog(catalog, named: named)
            } else {
                stage = candidates(named)
            }
        case .catalog(let catalog, let named):
            stage = candidates(named + (body.map { Discovery.catalog($0, at: catalog) } ?? []))
        case .openAPI(let candidates, let next):
            stage = .openAPI(candidates, next: next + 1)
            if let body { return openAPI(body, at: candidates[next]) }
        case .presets(let preset, let address, let answers):
            return presetAnswer(event, preset: preset, address: address, answers: answers)
        case .over:
            break
        }
        return nil
    }

    /// A protocol's probe, answered: the next of its answers to check, the next preset's, or the preset found.
    private mutating func protocolAnswer(_ event: Event, preset: Int, answer: Int) -> Action? {
        let probe = protocolProbes[preset]
        let answers = probe.answers
        guard case .answered(let exchange?) = event, answers[answer].when.allSatisfy({ $0.holds(in: exchange) })
        else {
            stage = .protocols(preset: preset + 1, answer: 0)
            return nil
        }
        if answer + 1 < answers.count {
            stage = .protocols(preset: preset, answer: answer + 1)
        } else if let json = Discovery.presetLayer(probe.preset, at: probe.base, for: server) {
            let layer = DescriptionLayer(
                json: json, source: answers.map(\.url.absoluteString).joined(separator: " "))
            return .finished(Discovery.Finding(layer: layer, documents: answers.map(\.url)), document: nil)
        } else {
            stage = .protocols(preset: preset + 1, answer: 0)
        }
        return nil
    }

    /// A preset's probe of one address, answered: the next address, the next preset, or the preset found.
    private mutating func presetAnswer(_ event: Event, preset: Int, address: Int, answers: [URL: Int]) -> Action? {
        var answers = answers
        let probe = presetProbes[preset]
        let addresses = Self.addresses(probe)
        if case .status(let status?) = event {
            answers[addresses[address]] = status
            // A login that is not there ends this preset's probe.
            let more = address + 1 < addresses.count && (address != 0 || status == 405)
            if more {
                stage = .presets(preset: preset, address: address + 1, answers: answers)
                return nil
            }
        }
        if let json = Discovery.preset(probed: probe, answers: answers) {
            let layer = DescriptionLayer(json: json, source: "probe of \(probe.login.pathAndQuery)")
            return .finished(Discovery.Finding(layer: layer, documents: []), document: nil)
        }
        stage = .presets(preset: preset + 1, address: 0, answers: [:])
        return nil
    }

    /// The next thing to read or probe, past every stage that has nothing more to ask; once the server is cut off,
    /// what would have been read counts as unreadable.
    private mutating func advance() -> Action {
        while true {
            let asking: URL?
            switch stage {
            case .metadata(let next) where next < exploration.metadata.count:
                asking = exploration.metadata[next]
            case .metadata:
                if let action = metadataRead() { return finish(action) }
                stage =
                    exploration.metadata.isEmpty
                    ? .openAPI(exploration.openAPI, next: 0) : .protocols(preset: 0, answer: 0)
                continue
            case .protocols(let preset, let answer) where preset < protocolProbes.count:
                guard !cutOff else {
                    asking = nil
                    break
                }
                return .ask(protocolProbes[preset].answers[answer].url)
            case .protocols:
                stage = .delegations(next: 0)
                continue
            case .delegations(let next) where next < delegations.count:
                guard !cutOff else {
                    asking = nil
                    break
                }
                return .ask(delegations[next].url)
            case .delegations:
                stage = .root
                continue
            case .root:
                asking = server.url
            case .catalog(let catalog, _):
                asking = catalog
            case .openAPI(let candidates, let next) where next < candidates.count:
                asking = candidates[next]
            case .openAPI:
                if let action = documentsRead() { return finish(action) }
                stage = .presets(preset: 0, address: 0, answers: [:])
                continue
            case .presets(let preset, let address, _) where preset < presetProbes.count:
                return .probe(Self.addresses(presetProbes[preset])[address])
            case .presets, .over:
                return finish(.finished(nil, document: nil))
            }
            guard let asking, !cutOff else {
                if let action = take(.unreadable) { return finish(action) }
                continue
            }
            return .read(asking)
        }
    }

    /// Metadata that names a token endpoint and a profile is an OAuth 2 server's; metadata short of that says what
    /// it lacks.
    private mutating func metadataRead() -> Action? {
        guard !metadata.isEmpty else { return nil }
        let profileGiven = (exploration.below + exploration.over).contains { $0.json[path: "profile.url"] != nil }
        if endpoints.token != nil, endpoints.userinfo != nil || profileGiven {
            let layer = DescriptionLayer(
                json: endpoints.json(confidential: confidential),
                source: metadata.map(\.absoluteString).joined(separator: " "))
            return .finished(Discovery.Finding(preset: "oauth2", layer: layer, documents: metadata), document: nil)
        }
        lacking.append(
            "\(metadata.map(\.absoluteString).joined(separator: " and ")) name\(metadata.count == 1 ? "s" : "") no "
                + "\(endpoints.token == nil ? "token" : "userinfo") endpoint")
        return nil
    }

    /// What the server names comes before the frameworks' places; only the server's own host is read, since a
    /// document elsewhere would describe another host's endpoints.
    private func candidates(_ named: [URL]) -> Stage {
        .openAPI(Discovery.unique(named.filter(server.isSameOrigin) + exploration.openAPI), next: 0)
    }

    /// An OpenAPI document that describes a login, or whose paths show a preset, or whose OAuth 2 password flow
    /// names a token endpoint that no operation describes.
    private mutating func openAPI(_ body: Data, at url: URL) -> Action? {
        let flows = Discovery.openAPI(body, at: url)
        // A preset whose steps the document has says what the document cannot, under what it says.
        let preset = Discovery.preset(evidencedBy: body, at: url, server: server)
        let reading = Discovery.operations(body, at: url)
        var described: Discovery.Described?
        if case .described(let found)? = reading { described = found }
        if described != nil || preset != nil {
            var json = (preset ?? [:]).merging(described?.json ?? [:])
            json = json.merging(.object(["document": .string(url.absoluteString)]))
            if let flows { json = json.merging(flows.browserJSON) }
            let layer = DescriptionLayer(json: json, source: url.absoluteString)
            return .finished(Discovery.Finding(layer: layer, documents: [url], described: described), document: url)
        }
        if case .lacking(let why)? = reading { lacking.append("\(url.absoluteString) has \(why)") }
        if let flows, flows.token != nil {
            let layer = DescriptionLayer(
                json: flows.json(confidential: confidential).merging(["document": .string(url.absoluteString)]),
                source: url.absoluteString)
            return .finished(Discovery.Finding(preset: "oauth2", layer: layer, documents: [url]), document: url)
        }
        return nil
    }

    /// Once every document was read: a preset or what was given may still say enough (``ServerPlan`` says what is
    /// missing if not); documents that lacked something, with nothing given, are the answer; else the probes.
    private func documentsRead() -> Action? {
        if cutOff { return .unreachable }
        let given = !(exploration.below + exploration.over).isEmpty
        if !lacking.isEmpty, !given { return .undescribed(lacking) }
        return given ? .finished(nil, document: nil) : nil
    }

    private static func addresses(_ probe: Discovery.PresetProbe) -> [URL] {
        [probe.login, probe.profile] + probe.others.map(\.url)
    }
}
