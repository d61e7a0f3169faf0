import FoundationEssentials
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import SwaggerServers

/// `server list`: the servers swaggerctl knows, the current one marked.
package struct ServerListCommand: Sendable {
    package var format: OutputFormat

    package init(format: OutputFormat = .table) {
        self.format = format
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let (servers, damaged) = try await environment.withController(environment.configuration()) {
            (controller) throws(SwaggerError) in try controller.knownServers()
        }
        let console = environment.console
        for server in damaged {
            console.warning(
                "the registry's entry for \(server?.string ?? "a server") cannot be read; "
                    + "`swaggerctl server set` describes it again.")
        }
        switch format {
        case .json:
            console.print(JSONOutput.render(servers.map(ServerListing.init), fallback: "[]"))
        case .table:
            // An empty list is an answer, not a failure: scripts read nothing, people read why.
            guard !servers.isEmpty else {
                return console.notice(
                    "swaggerctl knows no server yet. Log in to one, or describe it with `server set`.")
            }
            console.print(console.tableRenderer.render(servers.map(ServerListing.row)))
        }
    }
}

/// `server show` and `server export`: how swaggerctl talks to a server, as a table or as the description file.
package struct ServerShowCommand: Sendable {
    /// The server; `nil` for the current one.
    package var server: ServerReference?
    package var format: OutputFormat

    package init(server: ServerReference? = nil, format: OutputFormat = .table) {
        self.server = server
        self.format = format
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let summary = try await environment.withController(environment.configuration()) {
            (controller) throws(SwaggerError) in try controller.server(server)
        }
        let console = environment.console
        switch format {
        case .json: console.print(DescriptionFile.export(summary.entry))
        case .table: console.print(console.tableRenderer.render(ServerListing.rows(summary, now: environment.now())))
        }
    }
}

/// `server set`: a server's description changed by the flags, or read again from what it publishes.
package struct ServerSetCommand: Sendable {
    package var server: ServerReference
    package var name: NameRequest?
    package var description: GivenDescription
    /// `--discover`: what the server publishes read again.
    package var discover = false
    package var appID: String?
    /// `-y`.
    package var yes = false
    /// `--verbose` and `--ca-cert`.
    package var connection = ConnectionChoice()

    package init(_ server: ServerReference, description: GivenDescription = GivenDescription()) {
        self.server = server
        self.description = description
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let configuration = try environment.configuration(connection)
        let (_, given) = try description.layers()
        // A name alone changes nothing the server publishes: it is not read again for it.
        let rediscover =
            discover || (given.isEmpty && appID == nil && connection.caCertificate == nil && name == nil)
        // Kept as a path that means the same from any folder a later command runs in.
        let caCertificate = configuration.trust.additionalCertificates.map { (path: String) in
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        let console = environment.console
        let described = try await console.working("Reading what \(server) publishes") {
            (progress) throws(SwaggerError) in
            try await environment.withController(configuration, delegate: progress) {
                (controller) throws(SwaggerError) in
                try await controller.describe(
                    controller.server(named: server), given: given, discover: rediscover, appID: appID,
                    caCertificate: caCertificate, naming: name)
            }
        }
        described.choice.discoveryNotices.forEach { console.notice($0) }
        let naming = try await described.keep(yes: yes, configuration, in: environment)
        console.notice("Saved how to talk to \(described.entry.server)\(naming.clause).")
    }
}

/// `server import`: a server described from a file that `server export` wrote.
package struct ServerImportCommand: Sendable {
    package var file: String
    /// `-s`; `nil` for the server the file names.
    package var server: ServerReference?
    /// `--rename`: the file's name given even where it moves or replaces one.
    package var rename = false
    package var yes = false
    package var connection = ConnectionChoice()

    package init(file: String) {
        self.file = file
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let configuration = try environment.configuration(connection)
        let read = try GivenDescription.read(file)
        guard let named = server ?? read.server.map(ServerReference.url) else {
            throw SwaggerError(.usage, "\(file) does not say which server it describes; name it with -s.")
        }
        let asked = read.name.map { NameRequest($0, rename: rename) }
        let described = try await environment.withController(configuration) { (controller) throws(SwaggerError) in
            try await controller.describe(
                controller.server(named: named), given: [read.layer], discover: false, appID: nil, caCertificate: nil,
                naming: asked)
        }
        let naming = try await described.keep(yes: yes, configuration, in: environment)
        environment.console.notice("Saved how to talk to \(described.entry.server)\(naming.clause), from \(file).")
    }
}

/// `server forget`: what swaggerctl knows of a server, forgotten once its sessions are gone.
package struct ServerForgetCommand: Sendable {
    package var server: ServerReference

    package init(_ server: ServerReference) {
        self.server = server
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let (url, forgotten) = try await environment.withController(environment.configuration()) {
            (controller) throws(SwaggerError) in
            let url = try controller.server(named: server)
            return (url, try controller.forget(url))
        }
        environment.console.notice(forgotten ? "Forgot \(url)." : "swaggerctl knew nothing of \(url).")
    }
}

extension SessionController.DescribedServer {
    /// Saves the description, once the person has agreed to where it sends other sessions' tokens.
    fileprivate func keep(yes: Bool, _ configuration: Configuration, in environment: CommandEnvironment)
        async throws(SwaggerError) -> ServerNaming
    {
        try environment.console.consent(to: moves, yes: yes)
        return try await environment.withController(configuration) { (controller) throws(SwaggerError) in
            try controller.keep(self)
        }
    }
}
