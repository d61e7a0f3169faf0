import ArgumentParser
import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput

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

/// How `api` prints a body.
enum BodyOutput: String, ExpressibleByArgument, CaseIterable {
    case json, table
}

/// When `api` colours JSON.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

extension SwaggerCtl {
    struct API: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "api",
            abstract: "Send an authenticated request to the server, and print the response.",
            discussion: """
                OPERATION is an operationId or 'METHOD /path/{name}' of the server's document (see \
                operations), its fields checked first; a PATH is sent as it is. Exit status: 0 for 2xx, 4 for \
                401, 1 for another 4xx, 5 for 5xx, 64 for a field refused.

                Examples:
                  swaggerctl api getPet -f pet_id=7 -f kind=dog
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
        var output: BodyOutput = .json

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
        var color: ColorChoice = .auto

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
            guard let path, !list else {
                return try await Operations.list(
                    matching: path, format: .table, refresh: refreshDocument, session: session, network: network)
            }
            let paginate = self.paginate
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let rawFields = try rawField.map { (argument) throws(SwaggerError) in try Self.field(argument, .raw) }
            let fields =
                try rawFields + field.map { (argument) throws(SwaggerError) in try Self.field(argument, .typed) }
            let body = try input.map { (file) throws(SwaggerError) in try Self.contents(of: file) }
            let colour =
                switch color {
                case .auto: Terminal.stdoutSupportsColor
                case .always: true
                case .never: false
                }
            let renderer = ResponseRenderer(forTerminal: Terminal.isTerminal(STDOUT_FILENO), colour: colour)
            // Chosen once, before anything is sent; the --jq program is compiled here, so a mistake in it costs no
            // request.
            var pages = try APIOutput(
                .init(
                    include: include, silent: silent, paginate: paginate, slurp: slurp, table: output == .table,
                    jq: try jq.map { (expression) throws(SwaggerError) in try Self.program(expression) },
                    columns: Terminal.columns),
                renderer: renderer, environment: ProcessInfo.processInfo.environment,
                write: Terminal.standardOutput.write)
            let target = APITarget(path)
            let outcome = try await Spinner.run("Waiting for \(path)") { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) -> SessionController.RequestOutcome? in
                    let selection = try controller.select(
                        server: session.serverReference(), name: session.account, usingEnvironmentToken: true)
                    let request: APIRequest
                    switch target {
                    case .path(let path):
                        request = try APIRequest(
                            path, on: selection.server, method: paginate ? "GET" : method, headers: header,
                            fields: fields, input: body)
                    case .operation(let name):
                        let index = try await controller.operations(
                            on: selection.server, refresh: refreshDocument, wanted: name)
                        guard let operation = try index.operation(named: name) else {
                            throw SwaggerError.noOperation(
                                name, on: selection.server, nearest: index.suggestions(for: name))
                        }
                        request = try APIRequest(
                            operation, in: index, on: selection.server, method: method, headers: header,
                            fields: fields, raw: Set(rawFields.map(\.key)), input: body)
                    }
                    if paginate, request.method != "GET" {
                        throw SwaggerError(.usage, "--paginate follows pages with GET; \(path) is a \(request.method).")
                    }
                    if dryRun {
                        Terminal.print(
                            CurlLine.render(
                                request, token: selection.tokenUse, server: selection.server,
                                account: session.account, input: input))
                        return nil
                    }
                    let paging = paginate ? SessionController.Paging(limit: maxPages, parallel: parallel ?? 1) : nil
                    return try await controller.send(request, with: selection, paging: paging, elsewhere: location) {
                        (response) throws(SwaggerError) in try pages.receive(response)
                    }
                }
            }
            guard let outcome else { return }
            if let warning = try pages.finish(outcome) { Terminal.warning(warning) }
        }

        /// `--jq`'s program; a mistake in it is the person's, exit 64.
        private static func program(_ expression: String) throws(SwaggerError) -> JQProgram {
            do throws(JQError) {
                return try JQProgram(expression)
            } catch {
                if case .noLibrary = error { throw SwaggerError(.failure, "\(error.description).") }
                throw SwaggerError(.usage, "--jq: \(error.description).")
            }
        }

        private static func field(_ argument: String, _ kind: RequestField.Kind) throws(SwaggerError) -> RequestField {
            switch try RequestField.parse(argument, kind) {
            case .value(let field):
                return field
            case .file(let key, let path):
                var text = String(decoding: try contents(of: path), as: UTF8.self)
                // As a shell's $(…) does: a file ends with a line break that is not part of the value.
                if text.hasSuffix("\n") { text.removeLast() }
                return RequestField(key: key, string: text)
            }
        }

        /// The bytes of the file at `path`, or of standard input for `-`, read no further than one byte past the
        /// largest body: a larger file is refused, never cut.
        private static func contents(of path: String) throws(SwaggerError) -> Data {
            let limit = APIService.requestBodyLimit
            let data: Data
            do throws(DescriptorIO.Failure) {
                data = try DescriptorIO.readFile(path, limit: limit + 1)
            } catch {
                throw SwaggerError(.usage, "\(path) cannot be read: \(error).")
            }
            guard data.count <= limit else {
                throw SwaggerError(
                    .usage,
                    "\(path == "-" ? "stdin" : path) holds more than \(limit >> 20) MiB, the most a request body can be."
                )
            }
            return data
        }
    }
}
