import FoundationEssentials
import SessionStorage
import SwaggerModel

/// What the shell offers for `--server` and `--email`: the servers swaggerctl knows, and the accounts stored for
/// the server on the command line so far. It reads only the session list and the server registry; nothing it meets
/// is ever an error, because a completion must never print one.
package enum ShellCompletions {
    /// The servers of the stored sessions and the registry that start with `prefix`, the current one first.
    package static func servers(prefix: String, environment: [String: String]) -> [String] {
        let (current, entries) = registry(environment)
        let servers = [current].compactMap { $0 } + records(environment).map(\.server) + entries.map(\.server)
        return unique(servers.map(\.string)).filter { $0.hasPrefix(prefix) }
    }

    /// The e-mails stored for the server that `words` give with `-s`/`--server`, else for the default server,
    /// that start with `prefix`; the active account first. `words` is the command line so far, as the shell
    /// splits it.
    package static func emails(words: [String], prefix: String, environment: [String: String]) -> [String] {
        let records = records(environment)
        guard let configuration = try? Configuration(environment: environment),
            let server = try? configuration.server(
                flag: serverFlag(in: words).map { (text) throws(SwaggerError) in try ServerURL(text) },
                current: registry(environment).current ?? records.first?.server)
        else { return [] }
        return unique(records.filter { $0.server == server }.map(\.name)).filter { $0.hasPrefix(prefix) }
    }

    /// The value after the last `-s`, `--server` or `--server=` in `words`.
    static func serverFlag(in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word.hasPrefix("--server=") {
                found = String(word.dropFirst("--server=".count))
            } else if word == "-s" || word == "--server", index + 1 < words.count {
                found = words[index + 1]
            }
        }
        return found
    }

    private static func records(_ environment: [String: String]) -> [SessionRecord] {
        guard let configuration = try? Configuration(environment: environment) else { return [] }
        return (try? SessionList(directory: configuration.directory).records()) ?? []
    }

    private static func registry(_ environment: [String: String]) -> (current: ServerURL?, entries: [ServerEntry]) {
        guard let configuration = try? Configuration(environment: environment),
            let contents = try? ServerRegistry(directory: configuration.directory).contents()
        else { return (nil, []) }
        return contents
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
