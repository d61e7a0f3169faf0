import FoundationEssentials
import SwaggerDocuments
import SwaggerModel

extension Discovery {
    /// The preset whose steps an OpenAPI document shows the server to have, in the description language: the
    /// preset's login and profile must both be operations of the document (a `POST` and a `GET` at the preset's
    /// paths under `server`), and each of its other steps is kept only where the document has it too; the others are
    /// `null`, as a server that has no such step. A preset whose evidence is other operations (a family signed in
    /// with HTTP Basic, which has no login to find) needs every one of them. `nil` when no preset's are there.
    ///
    /// A preset says what a document cannot (the member that carries an app id, the labels of a profile's fields),
    /// so the layer goes under what the document's operations say, never over it. A path template of the document
    /// matches a preset's path where each `{name}` stands for a segment its parameter's schema allows.
    package static func preset(evidencedBy data: Data, at url: URL, server: ServerURL) -> JSONValue? {
        guard case .object(let root)? = DocumentText.value(of: data), case .object(let paths)? = root["paths"] else {
            return nil
        }
        let document = APIDocument(root: root, url: url)
        let operations = document.operations(paths)
        for preset in ServerPresets.all {
            guard let description = try? ServerDescription(json: ["preset": .string(preset.name)], under: server),
                case .object(var steps) = preset.json
            else { continue }
            func present(_ method: String, _ target: URL?) -> Bool {
                guard let target else { return false }
                return operations.contains { $0.method == method && document.matches($0, target) }
            }
            switch preset.evidence {
            case .steps:
                guard present("post", description.login.url), present("get", description.profile.url) else {
                    continue
                }
            case .operations(let named):
                let shown = named.allSatisfy { operation in
                    let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
                    return parts.count == 2 && present(parts[0].lowercased(), try? server.resolve(parts[1]))
                }
                guard shown else { continue }
                steps["preset"] = .string(preset.name)
                return .object(steps)
            case .answers, .none:
                continue
            }
            if let refresh = description.refresh, !present(refresh.request.method.lowercased(), refresh.url) {
                steps["refresh"] = .null
            }
            if let revocation = description.revocation {
                let method = revocation.requests.first?.template.method.lowercased() ?? "post"
                if !present(method, revocation.url) { steps["revocation"] = .null }
            }
            steps["preset"] = .string(preset.name)
            return .object(steps)
        }
        return nil
    }
}

extension APIDocument {
    /// Whether `operation`'s path, under the document's base, is `target`'s: segment by segment, a template's
    /// `{name}` standing for any segment that the parameter's schema allows (one of its `enum` values, when it
    /// lists them).
    func matches(_ operation: Operation, _ target: URL) -> Bool {
        let theirs = operation.url.path(percentEncoded: false).split(separator: "/", omittingEmptySubsequences: true)
        let wanted = target.path(percentEncoded: false).split(separator: "/", omittingEmptySubsequences: true)
        guard theirs.count == wanted.count else { return false }
        for (segment, value) in zip(theirs, wanted) {
            guard segment.hasPrefix("{"), segment.hasSuffix("}") else {
                if segment != value { return false }
                continue
            }
            let name = String(segment.dropFirst().dropLast())
            guard let allowed = pathValues(of: operation, name), !allowed.isEmpty else { continue }
            if !allowed.contains(String(value)) { return false }
        }
        return true
    }

    /// The values the path parameter `name` of `operation` lists (`enum`, or `const`); `nil` when it lists none.
    func pathValues(of operation: Operation, _ name: String) -> [String]? {
        var shared: JSONValue?
        if case .object(let paths)? = root["paths"], case .object(let item)? = resolved(paths[operation.path]) {
            shared = item["parameters"]
        }
        var lists: [JSONValue] = []
        if case .array(let own)? = operation.object["parameters"] { lists += own }
        if case .array(let common)? = shared { lists += common }
        for case .object(let parameter)? in lists.map(resolved) {
            guard parameter["in"] == .string("path"), parameter["name"] == .string(name) else { continue }
            let schema: [String: JSONValue]? =
                if case .object(let schema)? = resolved(parameter["schema"]) { schema } else { parameter }
            if case .array(let values)? = schema?["enum"] {
                return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            }
            if case .string(let value)? = schema?["const"] { return [value] }
            return nil
        }
        return nil
    }
}

extension Discovery {
    /// The addresses a probe without credentials asks for one preset with a fixed login and profile: a server that
    /// publishes no document can still show that it has them.
    package struct PresetProbe: Sendable, Hashable {
        package var preset: String
        package var login: URL
        package var profile: URL
        /// The refresh and the revocation, which are kept only where they answer as a `POST`-only endpoint does.
        package var others: [(step: String, url: URL)]

        package static func == (lhs: PresetProbe, rhs: PresetProbe) -> Bool {
            lhs.preset == rhs.preset && lhs.login == rhs.login && lhs.profile == rhs.profile
                && lhs.others.map(\.url) == rhs.others.map(\.url)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(preset)
            hasher.combine(login)
        }
    }

    /// The presets whose login and profile are at fixed paths under `server`, in the order they are probed.
    static func presetProbes(for server: ServerURL) -> [PresetProbe] {
        ServerPresets.all.compactMap { preset in
            guard case .steps = preset.evidence,
                let description = try? ServerDescription(json: ["preset": .string(preset.name)], under: server),
                let login = description.login.url, let profile = description.profile.url
            else { return nil }
            var others: [(String, URL)] = []
            if let refresh = description.refresh?.url { others.append(("refresh", refresh)) }
            if let revocation = description.revocation?.url { others.append(("revocation", revocation)) }
            return PresetProbe(preset: preset.name, login: login, profile: profile, others: others)
        }
    }

    /// What the probes' answers show, in the description language: the preset, when its login answers a `GET`
    /// with 405 (it is there, and takes only `POST`, as Flask, Django and ASP.NET Core answer) and its profile with
    /// 401 or 403 (it is there, and wants credentials); each other step kept where it answers 405, and `null`
    /// where not. A 404 shows nothing. `nil` when the login or the profile is not shown to be there.
    package static func preset(probed probe: PresetProbe, answers: [URL: Int]) -> JSONValue? {
        guard answers[probe.login] == 405, let profile = answers[probe.profile], [401, 403].contains(profile),
            case .object(var steps)? = ServerPresets.named(probe.preset)?.json
        else { return nil }
        for (step, url) in probe.others where answers[url] != 405 { steps[step] = .null }
        steps["preset"] = .string(probe.preset)
        return .object(steps)
    }

    /// A protocol's preset asked for as it announces itself, without credentials: the addresses under `base` and
    /// what each answer must meet.
    package struct ProtocolProbe: Sendable {
        package var preset: String
        /// Where the preset's paths are: the server's URL, or, for a server typed with the protocol's own path (Synapse
        /// at `…/_matrix/client/v3`), its origin.
        package var base: ServerURL
        package var answers: [(url: URL, when: [Criterion])]
    }

    /// The protocols' probes, for each preset whose evidence is answers: under `server`, then at its origin where
    /// the server has a path of its own, so that a protocol found at the origin is described from there.
    static func protocolProbes(for server: ServerURL) -> [ProtocolProbe] {
        var bases = [server]
        if let origin = ServerURL(originOf: server.url), origin != server {
            bases.append(origin)
        }
        return bases.flatMap { base in
            ServerPresets.all.compactMap { preset in
                guard case .answers(let answers) = preset.evidence, !answers.isEmpty else { return nil }
                let urls = answers.compactMap { answer in
                    (try? base.resolve(answer.path)).map { (url: $0, when: answer.when) }
                }
                return urls.count == answers.count ? ProtocolProbe(preset: preset.name, base: base, answers: urls) : nil
            }
        }
    }

    /// A server that a family's document at its origin says is the one to talk to in its place: the family, the
    /// server it names, and the document that said so.
    package struct Delegated: Sendable, Hashable {
        package var preset: String
        package var server: ServerURL
        package var source: URL

        package init(preset: String, server: ServerURL, source: URL) {
            self.preset = preset
            self.server = server
            self.source = source
        }
    }

    /// The documents that may name another server for `server`, at its origin: each family's that has one.
    static func delegations(for server: ServerURL) -> [(preset: String, url: URL, to: Yield)] {
        guard let origin = ServerURL(originOf: server.url) else { return [] }
        return ServerPresets.all.compactMap { preset in
            guard let delegation = preset.delegation, let url = try? origin.resolve(delegation.path) else { return nil }
            return (preset.name, url, delegation.to)
        }
    }

    /// The server that `value`, a delegation's answer, names in place of `server`: an http or https URL, which is
    /// neither `server` nor its origin. `nil` for anything else, which is no delegation.
    static func delegated(_ value: JSONValue?, from server: ServerURL) -> ServerURL? {
        guard case .string(let text)? = value, text.utf8.count <= 2048,
            let named = try? ServerURL(text.hasSuffix("/") ? String(text.dropLast()) : text)
        else { return nil }
        return named == server || named == ServerURL(originOf: server.url) ? nil : named
    }

    /// A preset in the description language whole, as evidence showed it, its paths under `base`: written whole
    /// where `base` is not `server`, whose paths they would otherwise be read under.
    static func presetLayer(_ name: String, at base: ServerURL, for server: ServerURL) -> JSONValue? {
        guard case .object(var steps)? = ServerPresets.named(name)?.json else { return nil }
        steps["preset"] = .string(name)
        return base == server ? .object(steps) : rebased(.object(steps), onto: base)
    }

    /// `json` with each request's path, and each address that is a path, written as the URL it names under `base`.
    static func rebased(_ json: JSONValue, onto base: ServerURL) -> JSONValue {
        ServerDescription.mappingPaths(json) { base.joining($0) }
    }

    /// Where an API may be beside `server` when nothing at it describes one: one path level down, under the names
    /// APIs are most often mounted at, and one level up; with the documents asked for at each, the commonest first.
    package static func nearby(_ server: ServerURL) -> [(server: ServerURL, documents: [URL])] {
        var places: [ServerURL] = ["/api", "/api/v1", "/v1"].compactMap { try? ServerURL(server.string + $0) }
        let path = server.url.path(percentEncoded: true)
        if let slash = path.lastIndex(of: "/"), !path.isEmpty,
            let parent = try? ServerURL((ServerURL.origin(of: server.url)?.absoluteString ?? "") + path[..<slash])
        {
            places.append(parent)
        }
        let names = ["/openapi.json", "/openapi.yaml", "/swagger.json", "/schema/openapi.json", "/__api__"]
        return places.map { place in (place, names.compactMap { URL(string: place.string + $0) }) }
    }
}
