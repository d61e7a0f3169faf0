import FoundationEssentials
import RequestMachine
import SessionMachine
import SessionStorage
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput

/// `api`: the person's own request, by operation or path, sent with the session's token, and its response printed.
package struct APICommand: Sendable {
    /// An operationId, `METHOD /path`, a path or a URL; `nil` with `list`.
    package var target: String?
    /// `--list`: the operations, as `operations` prints them.
    package var list = false
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    /// `-X`: the method; `nil` for the operation's, else GET.
    package var method: String?
    /// `-H`: the headers to add, `Name: value`.
    package var headers: [String] = []
    /// `-f`: fields sent as the text they are.
    package var rawFields: [String] = []
    /// `-F`: typed fields.
    package var fields: [String] = []
    /// `--input`: the body's file, `-` for standard input.
    package var input: String?
    /// `--paginate`, with `--max-pages` and `--parallel`: every page, or as many as `limit`, `parallel` at once.
    package var paging: Pages?
    /// `--slurp`: one array of every page's items.
    package var slurp = false
    /// `-i`: the status line and headers before the body.
    package var include = false
    /// `--silent`: no body.
    package var silent = false
    /// `--jq`: what this program makes of each page.
    package var jq: String?
    /// `-o`: the body as sent, or as a table.
    package var format = OutputFormat.json
    /// `-L`: a redirect elsewhere followed too, without the token.
    package var followCrossOrigin = false
    /// `--dry-run`: the request printed as a curl line, nothing sent.
    package var dryRun = false
    /// `--refresh-document`: the document asked for again first.
    package var refreshDocument = false
    /// `--color`.
    package var colour = ColourChoice.auto

    /// `--paginate`'s settings: how many pages, and how many at once.
    package struct Pages: Sendable {
        /// `--max-pages`; `nil` for every page.
        package var limit: Int?
        /// `--parallel`.
        package var parallel: Int

        package init(limit: Int? = nil, parallel: Int = 1) {
            self.limit = limit
            self.parallel = parallel
        }
    }

    package init(_ target: String?) {
        self.target = target
    }

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        guard let target, !list else {
            var operations = OperationsCommand()
            (operations.word, operations.session, operations.connection) = (target, session, connection)
            operations.refreshDocument = refreshDocument
            return try await operations.run(environment)
        }
        let configuration = try environment.configuration(connection)
        let given = try Given(rawFields: rawFields, fields: fields, input: input)
        let console = environment.console
        // Chosen once, before anything is sent; the --jq program is compiled here, so a mistake in it costs no request.
        var pages = try output(console, environment.variables)
        let outcome = try await console.working("Waiting for \(target)") { (progress) throws(SwaggerError) in
            try await environment.withController(configuration, delegate: progress) {
                (controller) throws(SwaggerError) -> SessionController.RequestOutcome? in
                let selection = try controller.select(
                    server: session.server, name: session.account, usingEnvironmentToken: true)
                let request = try await request(to: APITarget(target), given, with: selection, controller)
                if dryRun {
                    console.print(
                        CurlLine.render(
                            method: request.method, url: request.url, headers: request.headers, body: request.body,
                            token: selection.tokenUse, server: selection.server, account: session.account,
                            input: input))
                    return nil
                }
                return try await controller.send(
                    request, with: selection,
                    paging: paging.map { SessionController.PageWalk(limit: $0.limit, parallel: $0.parallel) },
                    crossOrigin: followCrossOrigin
                ) { (response) throws(SwaggerError) in try pages.receive(response) }
            }
        }
        guard let outcome else { return }
        if let warning = try pages.finish(outcome) { console.warning(warning) }
    }

    /// What the flags ask to be sent: the fields, parsed and read, and the body.
    private struct Given {
        var raw: [RequestField]
        var all: [RequestField]
        var body: Data?

        init(rawFields: [String], fields: [String], input: String?) throws(SwaggerError) {
            raw = try rawFields.map { (argument) throws(SwaggerError) in try Self.field(argument, .raw) }
            all = try raw + fields.map { (argument) throws(SwaggerError) in try Self.field(argument, .typed) }
            body = try input.map { (file) throws(SwaggerError) in try Self.contents(of: file) }
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

    /// The request to `target`: a path as it is, or an operation of the server's document with its fields checked.
    private func request(
        to target: APITarget, _ given: Given, with selection: SessionSelection, _ controller: SessionController
    ) async throws(SwaggerError) -> APIRequest {
        let request: APIRequest
        switch target {
        case .path(let path):
            request = try APIRequest(
                path, on: selection.server, method: paging != nil ? "GET" : method, headers: headers,
                fields: given.all, input: given.body)
        case .operation(let name):
            let index = try await controller.operations(on: selection.server, refresh: refreshDocument, wanted: name)
            guard let operation = try index.operation(named: name) else {
                throw SwaggerError.noOperation(name, on: selection.server, nearest: index.suggestions(for: name))
            }
            request = try APIRequest(
                operation, in: index, on: selection.server, method: method, headers: headers, fields: given.all,
                raw: Set(given.raw.map(\.key)), input: given.body)
        }
        if paging != nil, request.method != "GET" {
            throw SwaggerError(
                .usage, "--paginate follows pages with GET; \(self.target ?? "") is a \(request.method).")
        }
        return request
    }

    /// Where the pages go, and how they are printed.
    private func output(_ console: any Console, _ variables: [String: String]) throws(SwaggerError) -> APIOutput {
        let colour =
            switch colour {
            case .auto: console.colourEnabled
            case .always: true
            case .never: false
            }
        return try APIOutput(
            .init(
                include: include, silent: silent, paginate: paging != nil, slurp: slurp, table: format == .table,
                jq: try jq.map { (expression) throws(SwaggerError) in try Self.program(expression) },
                columns: console.columns),
            renderer: ResponseRenderer(forTerminal: console.outputIsTerminal, colour: colour),
            spool: { () throws(SwaggerError) in try ScratchSpool(environment: variables) }, write: console.write)
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
}

/// `--color`: when JSON is coloured.
package enum ColourChoice: String, Sendable, CaseIterable {
    case auto, always, never
}
