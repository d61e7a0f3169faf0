import ArgumentParser
import SwaggerClient
import SwaggerModel

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
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the servers swaggerctl knows, the current one marked.")

        @OptionGroup var output: FormatOptions

        func run() async throws {
            try await ServerListCommand(format: output.format).run(.terminal)
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
            let url = try server.map { (text) throws(SwaggerError) in try ServerReference.typed(text) }
            try await ServerShowCommand(server: url, format: output.format).run(.terminal)
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
            var command = ServerSetCommand(
                try ServerReference.typed(server),
                description: GivenDescription(
                    flags: try serverDescription.flags(client: client), allowOrigin: origins.allowOrigin))
            command.name = try serverName.request()
            command.discover = discover
            command.appID = appID
            command.yes = yes.yes
            command.connection = ConnectionChoice(verbose: verbose.verbose, caCertificate: caCert.caCert)
            try await command.run(.terminal)
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
            try await ServerForgetCommand(try ServerReference.typed(server)).run(.terminal)
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
            let url = try server.map { (text) throws(SwaggerError) in try ServerReference.typed(text) }
            try await ServerShowCommand(server: url, format: .json).run(.terminal)
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
            var command = ServerImportCommand(file: file)
            command.server = try serverOption.reference()
            command.rename = rename.rename
            command.yes = yes.yes
            command.connection = ConnectionChoice(verbose: verbose.verbose)
            try await command.run(.terminal)
        }
    }
}
