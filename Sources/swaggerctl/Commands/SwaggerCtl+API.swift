import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names and values the operation on the line takes, for `-f` and `-F`.
@Sendable func fieldCompletions(_ words: [String], _: Int, _ prefix: String) -> [String] {
    ShellCompletions.fields(words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment)
        .map(completionValue)
}

extension ColourChoice: ExpressibleByArgument {}

extension SwaggerCtl {
    struct API: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Send an authenticated request to the server, and print the response.",
            discussion: """
                OPERATION is an operationId or 'METHOD /path/{name}' of the server's document (see \
                operations), its fields checked first; a PATH is sent as it is. Exit status: 0 for 2xx, 4 for \
                401, 1 for another 4xx, 5 for 5xx, 64 for a field refused.

                Examples (the first for the demo server, the others for one with pages):
                  swaggerctl api getUser --jq .email
                  swaggerctl api createPet -f name=Rex -f kind=dog -F age=3 --dry-run
                  swaggerctl api /questions --paginate --jq '.items[].title'
                """)

        @Argument(
            help: ArgumentHelp(
                "An operationId, 'METHOD /path', path or URL.",
                valueName: "operation|path"),
            completion: .custom { words, _, prefix in
                ShellCompletions.operations(
                    words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment
                )
                .map(completionValue)
            })
        var path: String?

        @Flag(help: "List the operations, as `operations` does.")
        var list = false

        @Option(name: [.customShort("X"), .long], help: "The method. Default: the operation's, or GET.")
        var method: String?

        @Option(
            name: [.customShort("H"), .long], help: ArgumentHelp("A header to add: 'Name: value'.", valueName: "header")
        )
        var header: [String] = []

        @Option(
            name: [.customShort("f"), .customLong("raw-field")],
            help: ArgumentHelp("key=value, sent as the text it is.", valueName: "field"),
            completion: .custom(fieldCompletions))
        var rawField: [String] = []

        @Option(
            name: [.customShort("F"), .customLong("field")],
            help: ArgumentHelp(
                "Typed: numbers, true, @file, k:=json, a[k]=, a[]=.",
                valueName: "key=value"),
            completion: .custom(fieldCompletions))
        var field: [String] = []

        @Option(help: ArgumentHelp("The body: this file's bytes; - for stdin.", valueName: "file"))
        var input: String?

        @Flag(help: "Fetch every page, each printed as it arrives.")
        var paginate = false

        @Flag(help: "With --paginate, one JSON array of every page's items.")
        var slurp = false

        @Option(help: ArgumentHelp("With --paginate, the most pages to fetch.", valueName: "count"))
        var maxPages: Int?

        @Option(help: ArgumentHelp("With --paginate, up to this many pages at once.", valueName: "count"))
        var parallel: Int?

        @Flag(
            name: [.customShort("i"), .long],
            help: "Print the status line and headers before the body.")
        var include = false

        @Flag(help: "Do not print the response body.")
        var silent = false

        @Option(
            name: [.customShort("q"), .long],
            help: ArgumentHelp(
                "Print what this jq program makes of each page.",
                valueName: "expression"))
        var jq: String?

        @Option(
            name: [.customShort("o"), .long],
            help: ArgumentHelp(
                "json: the body as sent; table: a list's items, or an object's members.",
                valueName: "format"))
        var output: OutputFormat = .json

        @Flag(
            name: [.customShort("L"), .long],
            help: "Follow a redirect elsewhere too, without the token.")
        var location = false

        @Flag(help: "Print the request as a curl line; send nothing.")
        var dryRun = false

        @Flag(help: "Ask the server for its OpenAPI document again first.")
        var refreshDocument = false

        @Option(
            help: ArgumentHelp(
                "Colour JSON as jq does (auto: on a terminal).",
                valueName: "when"))
        var color: ColourChoice = .auto

        @OptionGroup var session: SessionOptions
        @OptionGroup var network: NetworkOptions
        // Shown by --help-hidden, for the help to fit one screen.
        @OptionGroup(visibility: .hidden) var keyring: KeyringOption

        func validate() throws {
            if path == nil, !list {
                throw ValidationError(
                    "Missing expected argument '<operation|path>'. `swaggerctl api --list` lists the operations.")
            }
            if slurp, !paginate { throw ValidationError("--slurp needs --paginate.") }
            if jq != nil, silent { throw ValidationError("--jq prints what --silent would hide; give one of them.") }
            if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
            if maxPages != nil, !paginate { throw ValidationError("--max-pages is for --paginate.") }
            if let parallel, !(1...16).contains(parallel) {
                throw ValidationError("--parallel takes 1 to 16 pages at once.")
            }
            if parallel != nil, !paginate { throw ValidationError("--parallel is for --paginate.") }
            if paginate, let method, method.uppercased() != "GET" {
                throw ValidationError("--paginate follows pages with GET; it cannot be used with -X \(method).")
            }
            let stdinReaders = (input == "-" ? 1 : 0) + field.filter { $0.contains("=@-") }.count
            if stdinReaders > 1 { throw ValidationError("Only one of --input and the -F fields can read stdin.") }
        }

        func run() async throws {
            var command = APICommand(path)
            command.list = list
            command.session = try session.choice()
            command.connection = network.connection(keyring: keyring)
            command.method = method
            command.headers = header
            command.rawFields = rawField
            command.fields = field
            command.input = input
            command.paging = paginate ? APICommand.Pages(limit: maxPages, parallel: parallel ?? 1) : nil
            command.slurp = slurp
            command.include = include
            command.silent = silent
            command.jq = jq
            command.format = output
            command.followCrossOrigin = location
            command.dryRun = dryRun
            command.refreshDocument = refreshDocument
            command.colour = color
            try await command.run(.terminal)
        }
    }
}
