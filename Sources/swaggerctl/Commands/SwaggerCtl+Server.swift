import ArgumentParser
import FoundationEssentials
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import SwaggerServers

extension SwaggerCtl {
    struct Server: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "server",
            abstract: "List, show, describe and forget the servers swaggerctl knows.",
            discussion: """
                swaggerctl keeps what it knows about each server apart from the sessions on it: how to log in, \
                refresh, log out and read the profile, where that came from, and the server's OpenAPI document. A \
                first login describes the server from what it publishes; logging out keeps the description. A \
                team can keep a description in a file: `server export` writes it, and `server import` or \
                `login --server-file` read it.

                Examples:
                  swaggerctl server list
                  swaggerctl server show https://api.example.com
                  swaggerctl server set https://api.example.com --preset simplejwt --profile-path /users/me/
                  swaggerctl server export https://api.example.com > api.json
                  swaggerctl server import api.json
                """,
            subcommands: [List.self, Show.self, Set.self, Forget.self, Export.self, Import.self])
    }
}

extension SwaggerCtl.Server {
    /// Saves what `server set` or `server import` described, once the person agreed where it moves sessions'
    /// tokens: asked here, outside the spinner, and kept by a controller of its own.
    /// - Returns: The server's name before and after.
    static func keep(
        _ described: SessionController.DescribedServer, yes: YesOption, _ configuration: Configuration
    ) async throws(SwaggerError) -> ServerNaming {
        try Prompt.consent(to: described.moves, yes: yes.yes)
        return try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
            try controller.keep(described)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the servers swaggerctl knows, the current one marked.")

        @OptionGroup var output: FormatOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let (servers, damaged) = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in try controller.knownServers()
            }
            for server in damaged {
                Terminal.warning(
                    "the registry's entry for \(server?.string ?? "a server") cannot be read; "
                        + "`swaggerctl server set` describes it again.")
            }
            switch output.format {
            case .json:
                Terminal.print(JSONOutput.render(servers.map(ServerListing.init), fallback: "[]"))
            case .table:
                // An empty list is an answer, not a failure: scripts read nothing, people read why.
                guard !servers.isEmpty else {
                    return Terminal.notice(
                        "swaggerctl knows no server yet. Log in to one, or describe it with `server set`.")
                }
                Terminal.print(Terminal.tableRenderer.render(servers.map(ServerListing.row)))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show how swaggerctl talks to a server, and where each part of that came from.")

        @Argument(
            help: ArgumentHelp("The server's URL or name. Default: the current server.", valueName: "server"),
            completion: .custom(serverCompletions))
        var server: String?

        @OptionGroup var output: FormatOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let url = try server.map { (text) throws(SwaggerError) in try ServerReference(text) }
            let summary = try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
                try controller.server(url)
            }
            switch output.format {
            case .json: Terminal.print(DescriptionFile.export(summary.entry))
            case .table: Terminal.print(Terminal.tableRenderer.render(ServerListing.rows(summary)))
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Describe a server: what its login, refresh, logout and profile are, kept for its logins.",
            discussion: """
                The flags change the server's saved description. Without any, or with --discover, swaggerctl reads \
                again what the server publishes (its OpenAPI document, its OAuth metadata) and keeps what it \
                finds, with the flags over it. The first server described becomes the current one, which \
                commands use when neither -s nor SWAGGERCTL_SERVER names one.

                --name gives the server a short name that -s, SWAGGERCTL_SERVER and every server argument take in \
                place of its URL. A name never changes or moves by itself: another name for a server that has one, \
                or a name another server has, is refused unless --rename is given.

                Examples:
                  swaggerctl server set https://api.example.com
                  swaggerctl server set https://api.example.com --name prod
                  swaggerctl server set https://api.example.com --name staging --rename
                  swaggerctl server set https://api.example.com --preset simplejwt --profile-path /users/me/
                  swaggerctl server set https://api.example.com --token 'Authorization: Token'
                  swaggerctl server set https://api.example.com --set 'refresh:=null'
                  swaggerctl server set https://api.example.com --login-field provider=db --login-field refresh:=true
                  swaggerctl server set https://auth.example.com --client-id my-cli --scope openid
                  swaggerctl server set https://api.example.com --allow-origin https://login.example.com
                """)

        @Argument(
            help: ArgumentHelp("The server's URL, or its name.", valueName: "server"),
            completion: .custom(serverCompletions))
        var server: String

        @OptionGroup var serverName: ServerNameOption
        @OptionGroup var serverDescription: ServerDescriptionOptions
        @OptionGroup var client: ClientOptions
        @OptionGroup var origins: OriginOptions

        @Flag(help: "Read what the server publishes again, rather than change what is saved.")
        var discover = false

        @Option(name: .customLong("app-id"), help: ArgumentHelp("The app id its logins send.", valueName: "id"))
        var appID: String?

        @OptionGroup var caCert: CACertOption
        @OptionGroup var yes: YesOption
        @OptionGroup var verbose: VerboseOption

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(
                keyring: nil, verbose: verbose.verbose, caCert: caCert.caCert)
            let reference = try ServerReference(server)
            let asked = try serverName.request()
            let (_, given) = try givenLayers(file: nil, flags: serverDescription, client: client, origins: origins)
            // A name alone changes nothing the server publishes: it is not read again for it.
            let rediscover = discover || (given.isEmpty && appID == nil && caCert.caCert == nil && asked == nil)
            let caCertificate = configuration.trust.additionalCertificates.map(Self.absolute)
            let described = try await Spinner.run("Reading what \(reference) publishes") { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) in
                    try await controller.describe(
                        controller.server(named: reference), given: given, discover: rediscover, appID: appID,
                        caCertificate: caCertificate, naming: asked)
                }
            }
            described.choice.discoveryNotices.forEach(Terminal.notice)
            let naming = try await SwaggerCtl.Server.keep(described, yes: yes, configuration)
            Terminal.notice("Saved how to talk to \(described.entry.server)\(naming.clause).")
        }

        /// A certificate file's absolute path, as the registry keeps it for later commands run elsewhere.
        static func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
    }

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget",
            abstract: "Forget what swaggerctl knows about a server. Its sessions must be logged out first.")

        @Argument(
            help: ArgumentHelp("The server's URL, or its name, which is forgotten too.", valueName: "server"),
            completion: .custom(serverCompletions))
        var server: String

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let reference = try ServerReference(server)
            let (url, forgotten) = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                let url = try controller.server(named: reference)
                return (url, try controller.forget(url))
            }
            Terminal.notice(forgotten ? "Forgot \(url)." : "swaggerctl knew nothing of \(url).")
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print a server's description as JSON, for `server import` and `login --server-file`.")

        @Argument(
            help: ArgumentHelp("The server's URL or name. Default: the current server.", valueName: "server"),
            completion: .custom(serverCompletions))
        var server: String?

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let url = try server.map { (text) throws(SwaggerError) in try ServerReference(text) }
            let summary = try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
                try controller.server(url)
            }
            Terminal.print(DescriptionFile.export(summary.entry))
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Describe a server from a file that `server export` wrote.",
            discussion: """
                The file may name its server; -s names it otherwise, or instead. What the file leaves out is \
                taken from the server's saved description, or from what the server publishes. The server's name \
                in the file, if any, is given to it too; when the server has another name, or another server has \
                that one, nothing is saved unless --rename is given.
                """)

        @Argument(help: ArgumentHelp("The JSON file.", valueName: "file"))
        var file: String

        @OptionGroup var serverOption: ServerOption
        @OptionGroup var rename: RenameOption
        @OptionGroup var yes: YesOption
        @OptionGroup var verbose: VerboseOption

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: nil, verbose: verbose.verbose, caCert: nil)
            let read = try ServerFileOption.read(file)
            guard let named = try serverOption.reference() ?? read.server.map(ServerReference.url) else {
                throw SwaggerError(.usage, "\(file) does not say which server it describes; name it with -s.")
            }
            let (layer, asked) = (read.layer, read.name.map { NameRequest($0, rename: rename.rename) })
            let described = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                try await controller.describe(
                    controller.server(named: named), given: [layer], discover: false, appID: nil, caCertificate: nil,
                    naming: asked)
            }
            let naming = try await SwaggerCtl.Server.keep(described, yes: yes, configuration)
            Terminal.notice("Saved how to talk to \(described.entry.server)\(naming.clause), from \(file).")
        }
    }
}

/// A server as `server list` and `server show` print it.
struct ServerListing: Encodable {
    var server: String
    var name: String?
    var current: Bool
    var preset: String?
    var foundIn: String?
    var accounts: [String]

    init(_ summary: SessionController.ServerSummary) {
        server = summary.entry.server.string
        name = summary.entry.name?.string
        current = summary.isCurrent
        preset = summary.entry.description.preset
        foundIn = summary.entry.description.document?.absoluteString
        accounts = summary.accounts
    }

    /// One row: the server, and what describes it.
    static func row(_ summary: SessionController.ServerSummary) -> DetailsViewModel {
        let listing = ServerListing(summary)
        var notes: [String] = []
        if let name = listing.name { notes.append("named \(name)") }
        if listing.current { notes.append("current") }
        if let preset = listing.preset { notes.append("preset \(preset)") }
        if let found = listing.foundIn { notes.append("found in \(found)") }
        notes.append(
            listing.accounts.isEmpty
                ? "no session" : "\(listing.accounts.count) session\(listing.accounts.count == 1 ? "" : "s")")
        return DetailsViewModel(key: listing.server, value: notes.joined(separator: "; "))
    }

    /// `server show`'s rows: the server, its sessions, its description with where each part came from, and the
    /// settings `server set` keeps.
    static func rows(_ summary: SessionController.ServerSummary) -> [DetailsViewModel] {
        let entry = summary.entry
        var rows = [
            DetailsViewModel(key: "Server", value: entry.server.string + (summary.isCurrent ? " (current)" : ""))
        ]
        if let name = entry.name { rows.append(DetailsViewModel(key: "Name", value: name.string)) }
        rows.append(
            DetailsViewModel(
                key: "Accounts", value: summary.accounts.isEmpty ? "none" : summary.accounts.joined(separator: ", ")))
        rows += ServerView.rows(for: entry.description, sources: entry.sources)
        if let appID = entry.appID { rows.append(DetailsViewModel(key: "App ID", value: appID)) }
        if let caCertificate = entry.caCertificate {
            rows.append(DetailsViewModel(key: "CA certificates", value: caCertificate))
        }
        if let document = entry.document {
            rows.append(
                DetailsViewModel(
                    key: "Document copy",
                    value:
                        "\(document.url.absoluteString), read \(RelativeTime.stamp(document.fetchedAt, now: Date()))")
            )
        }
        return rows
    }
}
