import FoundationEssentials
import Synchronization

/// The server families swaggerctl knows by name: each a description file, `Presets/NAME.json`, in the description
/// language (see ``ServerDescription/init(json:under:)``), of the routes their software puts under the URL it is
/// mounted at, with what the family is and what shows a server to be of it.
///
/// ```json
/// {"summary": "Django REST framework with simplejwt: token/, token/refresh/, token/blacklist/",
///  "evidence": "steps",
///  "description": {"login": {"request": {"url": "/token/", "json": {…}}, …}, …}}
/// ```
///
/// A preset is data: what a family does differently is said in its file, and nowhere else. A preset may leave out
/// what its software does not fix, such as simplejwt's profile or an OAuth 2 server's endpoints, which its metadata
/// names. Each file is read when a description first names it.
package enum ServerPresets {
    package struct Preset: Sendable {
        package var name: String
        /// What the family is, for `server show` and the help.
        package var summary: String
        /// What shows a server to be of this family, when nobody said so.
        package var evidence: Evidence = .steps
        /// Where a server of the family that is not one itself says its own server is, as Matrix's
        /// `/.well-known/matrix/client` names the homeserver.
        package var delegation: Delegation?
        /// The description, in the description language.
        package var json: JSONValue
    }

    /// What shows a server to be of a family: discovery's side of a preset, as data.
    package enum Evidence: Sendable {
        /// Nothing: the preset is taken only by name, as another's that shares its evidence (allauth's JWT
        /// strategy, whose document is the session tokens' own).
        case none
        /// An OpenAPI document that has the preset's login and profile as operations.
        case steps
        /// An OpenAPI document that has these operations, `METHOD /path` under the server: for a family whose
        /// requests are signed in with HTTP Basic, which has no login of its own to find.
        case operations([String])
        /// Answers to `GET`s without credentials, as a protocol announces itself: each path, under the server or
        /// else at its origin, answers as every one of its criteria says (`$response.body#/versions`, a
        /// `WWW-Authenticate` that names the software).
        case answers([Answer])

        package struct Answer: Sendable {
            package var path: String
            package var when: [Criterion]

            package init(_ path: String, when: [Criterion]) {
                self.path = path
                self.when = when
            }
        }
    }

    /// A document at the origin, without credentials, that names the family's server for the names under it:
    /// `{"path": "/.well-known/matrix/client", "to": "$response.body#/m.homeserver/base_url"}`.
    package struct Delegation: Sendable {
        package var path: String
        package var to: Yield

        package init(path: String, to: Yield) {
            self.path = path
            self.to = to
        }
    }

    /// The presets, by name, each file read.
    package static var all: [Preset] { names.compactMap(named) }

    package static var names: [String] { PresetFiles.files.map(\.name) }

    /// The preset `name`, its file read once.
    package static func named(_ name: String) -> Preset? {
        if let preset = read.withLock({ $0[name] }) { return preset }
        guard let file = PresetFiles.files.first(where: { $0.name == name }), let preset = parse(name, file.text)
        else { return nil }
        read.withLock { $0[name] = preset }
        return preset
    }

    private static let read = Mutex<[String: Preset]>([:])

    /// A preset file; `nil` for one that is not a preset, which the presets' tests name.
    static func parse(_ name: String, _ text: String) -> Preset? {
        guard case .object(let file)? = JSONValue(parsing: text),
            case .string(let summary)? = file["summary"], case .object? = file["description"],
            let description = file["description"]
        else { return nil }
        var preset = Preset(name: name, summary: summary, json: description)
        switch file["evidence"] {
        case nil, .string("steps")?: break
        case .string("none")?: preset.evidence = .none
        case .object(let evidence)?:
            if case .array(let operations)? = evidence["operations"] {
                preset.evidence = .operations(
                    operations.compactMap { if case .string(let text) = $0 { text } else { nil } })
            } else if case .array(let answers)? = evidence["answers"] {
                var read: [Evidence.Answer] = []
                for answer in answers {
                    guard case .string(let path)? = answer[path: "path"], case .array(let when)? = answer[path: "when"],
                        !when.isEmpty
                    else { return nil }
                    var criteria: [Criterion] = []
                    for criterion in when {
                        guard let criterion = try? Criterion(json: criterion) else { return nil }
                        criteria.append(criterion)
                    }
                    read.append(Evidence.Answer(path, when: criteria))
                }
                preset.evidence = .answers(read)
                if let delegation = evidence["delegation"] {
                    guard case .string(let path)? = delegation[path: "path"], path.hasPrefix("/.well-known/"),
                        case .string(let to)? = delegation[path: "to"], let yield = try? Yield(to)
                    else { return nil }
                    preset.delegation = Delegation(path: path, to: yield)
                }
            } else {
                return nil
            }
        default: return nil
        }
        return preset
    }
}
