import ArgumentParser
import FoundationEssentials
import SessionStorage
import SwaggerClient
import SwaggerHTTP
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
                PATH is under the session's server, such as /users/me; a full URL must be on the same server, \
                because the token goes nowhere else. A redirect on the server is followed with the token; one to \
                another host only with -L, and without it. An expired token is renewed \
                first, and a 401 renews it and repeats the request once. GET, HEAD, PUT, DELETE and OPTIONS are \
                retried on 429, 502, 503 and 504.

                The body goes to stdout: indented JSON on a terminal, exactly as received in a pipe, error \
                bodies too. Exit status: 0 for 2xx, 4 for 401, 1 for any other 4xx or a redirect, 5 for 5xx.

                As in gh api, -f key=value sends the text as it is, and -F key=value types it: true, false, null \
                and integers become JSON's, @file reads a file's text (@- stdin), and key:=json is any JSON value. \
                user[name]=ana makes a member of an object, tags[]=a an element of an array, and -F tags[] an \
                empty array. The fields go in the query for GET and HEAD, and with --input; otherwise they make \
                a JSON body, and the method defaults to POST.

                --paginate follows every page: a Link header with rel="next", a "next" URL in the body (or in \
                its "links", "pagination" or "meta"), "has_more", a "next_page" cursor, "page" below "pages" or \
                "current_page" below "total_pages", "offset" plus "limit" below "total", or a total beside the \
                list with the page in the query. A page of a list that names no next page it can follow stops \
                it with exit 1; --max-pages stops it early, and says where.

                Examples:
                  swaggerctl api /users/me
                  swaggerctl api /questions --paginate --slurp | jq length
                  swaggerctl api -X PATCH /users/me -f full_name='Ana H.'
                  swaggerctl api /items -f tag=new -F limit=10
                  swaggerctl api -X PUT /items/7 --input item.json
                """)

        @Argument(
            help: ArgumentHelp(
                "An operation of the server's document (its operationId, or 'METHOD /path/{template}'), or a path "
                    + "under the server, or a URL on it.",
                valueName: "operation|path"),
            completion: .custom { words, _, prefix in
                ShellCompletions.operations(
                    words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment
                )
                .map(completionValue)
            })
        var path: String

        @Option(name: [.customShort("X"), .long], help: "The method. Default: GET, or POST with fields or --input.")
        var method: String?

        @Option(name: [.customShort("H"), .long], help: ArgumentHelp("A header to add.", valueName: "name: value"))
        var header: [String] = []

        @Option(
            name: [.customShort("f"), .customLong("raw-field")],
            help: ArgumentHelp("A field whose value is sent as the text it is.", valueName: "key=value"),
            completion: .custom(fieldCompletions))
        var rawField: [String] = []

        @Option(
            name: [.customShort("F"), .customLong("field")],
            help: ArgumentHelp(
                "A typed field: true, false, null and integers as JSON, @file a file's text, key:=json.",
                valueName: "key=value"),
            completion: .custom(fieldCompletions))
        var field: [String] = []

        @Option(help: ArgumentHelp("Send this file's bytes as the body; - for stdin.", valueName: "file"))
        var input: String?

        @Flag(help: "Fetch every page, each one printed as it arrives.")
        var paginate = false

        @Flag(help: "With --paginate, print one JSON array of every page's items.")
        var slurp = false

        @Option(help: ArgumentHelp("With --paginate, the most pages to fetch. Default: every one.", valueName: "count"))
        var maxPages: Int?

        @Flag(
            name: [.customShort("i"), .long],
            help: "Print the status line and headers before the body, as gh and curl do.")
        var include = false

        @Flag(help: "Do not print the response body.")
        var silent = false

        @Option(
            name: [.customShort("q"), .long],
            help: ArgumentHelp(
                "Print what this jq expression makes of each page (of the whole list with --slurp); strings as text.",
                valueName: "expression"))
        var jq: String?

        @Option(
            name: [.customShort("o"), .long],
            help: ArgumentHelp(
                "json: the body as sent; table: a list's items (every page's) as rows, a column for each member.",
                valueName: "format"))
        var output: BodyOutput = .json

        @Flag(
            name: [.customShort("L"), .long],
            help: "Follow a redirect to another host too, without the token. One on the server is always followed.")
        var location = false

        @Flag(help: "Print the request as a curl command line, without the token, and send nothing.")
        var dryRun = false

        @Flag(help: "Ask the server for its OpenAPI document again before using the copy kept.")
        var refreshDocument = false

        @Option(
            help: ArgumentHelp(
                "Colour JSON as jq does: auto (on a terminal, unless NO_COLOR is set), always, or never.",
                valueName: "when"))
        var color: ColorChoice = .auto

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        func validate() throws {
            if slurp, !paginate { throw ValidationError("--slurp needs --paginate.") }
            if jq != nil, output == .table { throw ValidationError("--jq and -o table are two outputs; give one.") }
            if jq != nil, silent { throw ValidationError("--jq prints what --silent would hide; give one of them.") }
            if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be at least 1.") }
            if maxPages != nil, !paginate { throw ValidationError("--max-pages is for --paginate.") }
            if paginate, let method, method.uppercased() != "GET" {
                throw ValidationError("--paginate follows pages with GET; it cannot be used with -X \(method).")
            }
            let stdinReaders = (input == "-" ? 1 : 0) + field.filter { $0.contains("=@-") }.count
            if stdinReaders > 1 { throw ValidationError("Only one of --input and the -F fields can read stdin.") }
        }

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let fields =
                try rawField.map { (argument) throws(SwaggerError) in try Self.field(argument, .raw) }
                + field.map { (argument) throws(SwaggerError) in try Self.field(argument, .typed) }
            let body = try input.map { (file) throws(SwaggerError) in try Self.contents(of: file) }
            let colour =
                switch color {
                case .auto: Terminal.stdoutSupportsColor
                case .always: true
                case .never: false
                }
            let renderer = ResponseRenderer(forTerminal: Terminal.isTerminal(STDOUT_FILENO), colour: colour)
            // Kept only for printing, so --silent keeps nothing.
            var table = output == .table && !silent ? ItemTable() : nil
            let spool =
                try slurp && !silent && table == nil ? ItemSpool(environment: ProcessInfo.processInfo.environment) : nil
            var lastFailure: APIResponse?
            // Compiled before anything is sent: a mistake in it costs no request.
            let program = try jq.map { (expression) throws(SwaggerError) in try Self.program(expression) }
            let target = APITarget(path)
            let rawKeys = Set(rawField.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
            let outcome = try await Spinner.run("Waiting for \(path)") { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) -> SessionController.RequestOutcome? in
                    let selection = try controller.select(
                        server: session.serverURL(), name: session.account, usingEnvironmentToken: true)
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
                            throw Messages.noOperation(
                                name, on: selection.server, nearest: index.suggestions(for: name))
                        }
                        request = try APIRequest(
                            operation, in: index, on: selection.server, method: method, headers: header,
                            fields: fields, raw: rawKeys, input: body)
                    }
                    if paginate, request.method != "GET" {
                        throw SwaggerError(.usage, "--paginate follows pages with GET; \(path) is a \(request.method).")
                    }
                    if dryRun {
                        Terminal.print(
                            CurlLine.render(
                                request, token: selection.serverDescription.token, server: selection.server,
                                account: session.account, input: input))
                        return nil
                    }
                    let paging = paginate ? SessionController.Paging(limit: maxPages) : nil
                    return try await controller.send(request, with: selection, paging: paging, elsewhere: location) {
                        (response) throws(SwaggerError) in
                        if include { Terminal.standardOutput.write(renderer.head(response)) }
                        guard response.isSuccess else {
                            lastFailure = response
                            if !silent { Terminal.standardOutput.write(renderer.body(response.body)) }
                            return
                        }
                        if table != nil {
                            try table?.add(response.body, from: response.url)
                        } else if slurp {
                            guard let pageItems = JSONText.items(of: response.body) ?? Self.single(response.body) else {
                                throw SwaggerError(
                                    .server,
                                    "A page from \(response.url.absoluteString.prefix(300)) is not JSON, which --slurp needs."
                                )
                            }
                            try spool?.append(pageItems)
                        } else if let program, !silent {
                            Terminal.standardOutput.write(try renderer.jq(program, on: response.body))
                        } else if !silent {
                            Terminal.standardOutput.write(renderer.body(response.body, separated: paginate))
                        }
                    }
                }
            }
            guard let outcome else { return }
            if let table, lastFailure == nil {
                Terminal.standardOutput.write(
                    Data(table.render(forTerminal: Terminal.isTerminal(STDOUT_FILENO) || color == .always).utf8))
            }
            if let spool, !silent, lastFailure == nil {
                if let program {
                    var whole = Data()
                    try spool.array { whole.append($0) }
                    Terminal.standardOutput.write(try renderer.jq(program, on: whole))
                } else {
                    try renderer.slurped(spool) { Terminal.standardOutput.write($0) }
                }
            }
            if let lastFailure, let failure = ResponseRenderer.failure(lastFailure, outcome) { throw failure }
            switch outcome.stoppedEarly.flatMap({ ResponseRenderer.stop($0, outcome) }) {
            case .success(let warning): Terminal.warning(warning)
            case .failure(let error): throw error
            case nil: break
            }
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

        /// A page that is JSON but not a list is one item.
        private static func single(_ body: Data) -> [String]? {
            JSONText.isJSON(body) ? [String(decoding: body, as: UTF8.self)] : nil
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
