import FoundationEssentials
import SessionStorage
import SwaggerModel
import SwaggerOutput

/// What the shell offers for `--server` and `--email`: the servers swaggerctl knows, and the accounts stored for
/// the server on the command line so far. It reads only the session list and the server registry; nothing it meets
/// is ever an error, because a completion must never print one.
package enum ShellCompletions {
    /// The servers of the stored sessions and the registry that start with `prefix`, the current one first, and the
    /// names the registry gives servers.
    package static func servers(prefix: String, environment: [String: String]) -> [String] {
        let (current, entries) = registry(environment)
        let servers = [current].compactMap { $0 } + records(environment).map(\.server) + entries.map(\.server)
        let names = entries.compactMap(\.name).sorted().map(\.string)
        return offerable(unique(servers.map(\.string) + names).filter { $0.hasPrefix(prefix) })
    }

    /// ``servers(prefix:environment:)``, each with what a shell that shows descriptions says of it: a URL's name and
    /// whether it is the current server or who is logged in there, and a name's URL.
    package static func describedServers(prefix: String, environment: [String: String]) -> [Candidate] {
        let (current, entries) = registry(environment)
        let records = records(environment)
        return servers(prefix: prefix, environment: environment).map { value in
            if let entry = entries.first(where: { $0.name?.string == value }) {
                return Candidate(value: value, description: entry.server.string)
            }
            let server = try? ServerURL(value)
            var parts: [String] = []
            if let name = entries.first(where: { $0.server == server })?.name { parts.append("named \(name)") }
            if server == current { parts.append("current") }
            let accounts = records.filter { $0.server == server }.map(\.name)
            if let first = accounts.first {
                parts.append(accounts.count == 1 ? first : "\(first) and \(accounts.count - 1) more")
            }
            return Candidate(value: value, description: parts.joined(separator: ", "))
        }
    }

    /// A value the shell offers, and what it says of it where it shows descriptions (fish, zsh).
    package struct Candidate: Sendable {
        package var value: String
        package var description: String
    }

    /// The e-mails stored for the server that `words` give with `-s`/`--server`, else for the default server,
    /// that start with `prefix`; the active account first. `words` is the command line so far, as the shell
    /// splits it.
    package static func emails(words: [String], prefix: String, environment: [String: String]) -> [String] {
        let records = records(environment)
        let known = registry(environment)
        guard let configuration = try? Configuration(environment: environment),
            let server = server(
                in: words, configuration, current: known.current ?? records.first?.server, known.entries)
        else { return [] }
        return offerable(unique(records.filter { $0.server == server }.map(\.name)).filter { $0.hasPrefix(prefix) })
    }

    /// After `api`: the ids of the operations of the server's document that start with `prefix`, or, for a prefix that
    /// starts with `/`, its path templates. Only the copy kept in the cache folder is read: a completion never waits
    /// on the network.
    package static func operations(words: [String], prefix: String, environment: [String: String]) -> [String] {
        guard let names = names(words: words, environment: environment) else { return [] }
        return offerable(CompletionNames.operations(in: names, prefix: prefix))
    }

    /// After `-f` or `-F`: the names the operation on the line takes, each with its `=`, and after `name=`, the values
    /// its schema lists.
    package static func fields(words: [String], prefix: String, environment: [String: String]) -> [String] {
        guard let operation = operationArgument(in: words), let names = names(words: words, environment: environment)
        else { return [] }
        // bash and zsh hand over the words as typed, with the quotes that Tab put around an id with a space or a `$`;
        // fish, as the command will receive them. The word is looked up as it came first, which is what fish sends.
        let fields =
            CompletionNames.fields(in: names, operation: operation, prefix: prefix)
            ?? CompletionNames.fields(in: names, operation: unquoted(operation), prefix: prefix)
        return offerable(fields ?? [])
    }

    /// The options of `api` that take a value, whose value is not the operation.
    static let valueOptions: Set<String> = [
        "-X", "--method", "-H", "--header", "-f", "--raw-field", "-F", "--field", "--input", "--max-pages", "--color",
        "-s", "--server", "-e", "--email", "-u", "--username", "--keyring", "--ca-cert", "-q", "--jq", "-o", "--output",
    ]

    /// The first word after `api` that is neither an option nor an option's value.
    static func operationArgument(in words: [String]) -> String? {
        guard let start = words.firstIndex(of: "api") else { return nil }
        var index = start + 1
        while index < words.count {
            let word = words[index]
            if valueOptions.contains(word) {
                index += 2
                continue
            }
            if !word.hasPrefix("-") { return word }
            index += 1
        }
        return nil
    }

    /// The completion's lines for the server that `words` name with `-s`, else the current one: as kept beside the
    /// copy of its document, else made from what was read from it, and kept.
    private static func names(words: [String], environment: [String: String]) -> String? {
        let known = registry(environment)
        guard let configuration = try? Configuration(environment: environment),
            let cacheDirectory = configuration.cacheDirectory,
            let server = server(in: words, configuration, current: known.current, known.entries),
            let copy = known.entries.first(where: { $0.server == server })?.document
        else { return nil }
        let cache = DocumentCache(cacheDirectory: cacheDirectory)
        if let kept = try? cache.reading(.names, of: copy.file).map({ String(decoding: $0, as: UTF8.self) }),
            CompletionNames.isCurrent(kept)
        {
            return kept
        }
        guard let index = cache.index(of: copy) else { return nil }
        let text = CompletionNames.text(of: index)
        try? cache.saveReading(Data(text.utf8), .names, of: copy.file)
        return text
    }

    /// The server that `words` name with `-s`, by URL or by one of `entries`' names, else `current`, as the command
    /// would take it; `nil` for none, or one that cannot be read.
    private static func server(
        in words: [String], _ configuration: Configuration, current: ServerURL?, _ entries: [ServerEntry]
    ) -> ServerURL? {
        try? configuration.server(
            flag: serverFlag(in: words).map { (text) throws(SwaggerError) in try ServerReference(text) },
            current: current, entries: entries)
    }

    /// The value after the last `-s`, `--server` or `--server=` in `words`, unquoted: no URL or server name holds a
    /// quote or a backslash.
    static func serverFlag(in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word.hasPrefix("--server=") {
                found = String(word.dropFirst("--server=".count))
            } else if word == "-s" || word == "--server", index + 1 < words.count {
                found = words[index + 1]
            }
        }
        return found.map(unquoted)
    }

    /// `word`, as typed on a line of bash or zsh, as the command receives it: quotes and backslashes taken away by the
    /// shell's rules. Between single quotes every character is itself; between double quotes a backslash only
    /// escapes `$`, `` ` ``, `"`, `\` and a line break; elsewhere it escapes any character. A quote still open at
    /// the end, as in a word being typed, holds the rest.
    static func unquoted(_ word: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped {
                // A backslash and a line break continue the line, and are both taken away.
                if quote == "\"", !"$`\"\\\n".contains(character) { result.append("\\") }
                if character != "\n" { result.append(character) }
                escaped = false
            } else if quote == "'" {
                if character == "'" { quote = nil } else { result.append(character) }
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" || (quote == nil && character == "'") {
                quote = quote == nil ? character : nil
            } else {
                result.append(character)
            }
        }
        return result
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

    /// The candidates a shell may be shown: none with a character that ``TerminalText`` escapes (a control or
    /// invisible character), which would reach the terminal, or the command line, as it is. A server chose many of
    /// them: an operation's id, an account's name.
    static func offerable(_ values: [String]) -> [String] {
        values.filter { TerminalText.escaped($0) == $0 }
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
