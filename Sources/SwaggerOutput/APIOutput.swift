import FoundationEssentials
import RequestMachine
import SwaggerModel

/// What `swaggerctl api` does with the body of each response that succeeded: one of the outputs, chosen once from
/// the options before the first request.
package protocol PageSink {
    mutating func page(_ response: APIResponse) throws(SwaggerError)
    /// After the last page, when every response succeeded.
    mutating func finish() throws(SwaggerError)
}

/// Where `--slurp` keeps the items of each page until the last has come: a long list is not held in memory.
package protocol ItemSpool: AnyObject {
    /// Adds the items of one page, each the JSON text of one element.
    func append(_ items: [String]) throws(SwaggerError)
    /// The whole array, `[` to `]`, handed to `body` a piece at a time.
    func array(_ body: (Data) -> Void) throws(SwaggerError)
}

/// `swaggerctl api`'s output: the status line and headers with `-i`, a failure's body as received, and every
/// successful page through the sink the options chose; at the end, the failure or the stop to report.
package struct APIOutput {
    /// The person's choices that decide the sink.
    package struct Options {
        package var include = false
        package var silent = false
        package var paginate = false
        package var slurp = false
        package var table = false
        package var jq: JQProgram?
        /// The terminal's width, which `-o table` fits an object to; `nil` in a pipe.
        package var columns: Int?

        package init(
            include: Bool = false, silent: Bool = false, paginate: Bool = false, slurp: Bool = false,
            table: Bool = false, jq: JQProgram? = nil, columns: Int? = nil
        ) {
            self.include = include
            self.silent = silent
            self.paginate = paginate
            self.slurp = slurp
            self.table = table
            self.jq = jq
            self.columns = columns
        }
    }

    private var sink: any PageSink
    private let renderer: ResponseRenderer
    private let include: Bool
    private let silent: Bool
    private let write: (Data) -> Void
    /// The last response that did not succeed, whose status decides the exit code.
    private var failure: APIResponse?

    /// `spool` makes `--slurp`'s spool, when the options ask for one.
    /// - Throws: What `spool` throws.
    package init(
        _ options: Options, renderer: ResponseRenderer, spool: () throws(SwaggerError) -> any ItemSpool,
        write: @escaping (Data) -> Void
    ) throws(SwaggerError) {
        self.renderer = renderer
        self.include = options.include
        self.silent = options.silent
        self.write = write
        // --silent keeps nothing: its sink neither prints nor holds.
        sink =
            if options.silent {
                SilentSink()
            } else if options.table {
                TableSink(
                    table: ItemTable(forTerminal: renderer.forTerminal, columns: options.columns), program: options.jq,
                    write: write)
            } else if options.slurp {
                SlurpSink(
                    spool: try spool(), program: options.jq, renderer: renderer,
                    write: write)
            } else if let program = options.jq {
                JQSink(program: program, renderer: renderer, write: write)
            } else {
                BodySink(renderer: renderer, separated: options.paginate, write: write)
            }
    }

    package mutating func receive(_ response: APIResponse) throws(SwaggerError) {
        if include { write(utf8(renderer.head(response))) }
        guard response.isSuccess else {
            failure = response
            if !silent { write(renderer.body(response.body)) }
            return
        }
        try sink.page(response)
    }

    /// Ends the output once the request has ended as `outcome` says.
    /// - Returns: A warning to show, when the pages stopped where the person asked.
    /// - Throws: `SwaggerError` for a failing status, or pages that stopped short of the list's end.
    package mutating func finish(_ outcome: RequestCoordinator.Outcome) throws(SwaggerError) -> String? {
        if let failure, let error = ResponseRenderer.failure(failure, outcome) { throw error }
        let stop = outcome.stoppedEarly.flatMap { ResponseRenderer.stop($0, outcome) }
        // Pages that stopped short of the list's end give nothing held back: --slurp's array would pass for all of
        // the list.
        if case .failure(let error) = stop { throw error }
        if failure == nil { try sink.finish() }
        if case .success(let warning) = stop { return warning }
        return nil
    }
}

/// Each body as received in a pipe, indented on a terminal; one per line when pages follow each other.
private struct BodySink: PageSink {
    let renderer: ResponseRenderer
    let separated: Bool
    let write: (Data) -> Void

    mutating func page(_ response: APIResponse) throws(SwaggerError) {
        write(renderer.body(response.body, separated: separated))
    }

    mutating func finish() throws(SwaggerError) {}
}

private struct SilentSink: PageSink {
    mutating func page(_ response: APIResponse) throws(SwaggerError) {}
    mutating func finish() throws(SwaggerError) {}
}

/// What `--jq`'s program makes of each page.
private struct JQSink: PageSink {
    let program: JQProgram
    let renderer: ResponseRenderer
    let write: (Data) -> Void

    mutating func page(_ response: APIResponse) throws(SwaggerError) {
        write(try renderer.jq(program, on: response.body))
    }

    mutating func finish() throws(SwaggerError) {}
}

/// `-o table`: rows as they come, once the columns are known; with `--jq`, the rows of what its program makes of
/// each page.
private struct TableSink: PageSink {
    var table: ItemTable
    let program: JQProgram?
    let write: (Data) -> Void

    mutating func page(_ response: APIResponse) throws(SwaggerError) {
        var body = response.body
        if let program { body = try Self.results(of: program, on: body) }
        let rows = try table.add(body, from: response.url)
        if !rows.isEmpty { write(utf8(rows)) }
    }

    /// The program's results as one JSON value for the table: a single result as it is (an object's members, a
    /// list's items), several as the items of a list. A string result, which `--jq` prints as text, is a string.
    static func results(of program: JQProgram, on body: Data) throws(SwaggerError) -> Data {
        var results: [String] = []
        do throws(JQError) {
            try program.run(on: body) { result in
                switch result {
                case .json(let json): results.append(json)
                case .text(let text): results.append(JSONValue.string(text).compactJSON)
                }
            }
        } catch {
            throw SwaggerError(.failure, "--jq: \(error.description).")
        }
        return Data((results.count == 1 ? results[0] : "[" + results.joined(separator: ",") + "]").utf8)
    }

    mutating func finish() throws(SwaggerError) {
        write(utf8(table.finish()))
    }
}

/// `--slurp`: every page's items in a scratch file, printed as one array (or given to `--jq`) once the last page
/// is in, so that a failure part of the way prints no half array.
private struct SlurpSink: PageSink {
    let spool: any ItemSpool
    let program: JQProgram?
    let renderer: ResponseRenderer
    let write: (Data) -> Void

    mutating func page(_ response: APIResponse) throws(SwaggerError) {
        // A page that is JSON but not a list is one item.
        let body = response.body
        guard
            let items = JSONText.items(of: body, paged: true)
                ?? (JSONText.isJSON(body) ? [String(decoding: body, as: UTF8.self)] : nil)
        else {
            throw SwaggerError(
                .server, "A page from \(response.url.absoluteString.prefix(300)) is not JSON, which --slurp needs.")
        }
        try spool.append(items)
    }

    mutating func finish() throws(SwaggerError) {
        // A pipe gets the array straight from the spool; a terminal gets it indented, and --jq runs on it, each of
        // which needs it whole.
        if program == nil, !renderer.forTerminal {
            try spool.array(write)
            write(Data("\n".utf8))
            return
        }
        var whole = Data()
        try spool.array { whole.append($0) }
        write(
            try program.map { (program) throws(SwaggerError) in try renderer.jq(program, on: whole) }
                ?? renderer.body(whole, separated: true))
    }
}

/// The text's bytes, from the string's own storage: `Data(text.utf8)` would first ask the runtime whether the view
/// is `ContiguousBytes`, and a process's first such question reads every protocol conformance record.
private func utf8(_ text: String) -> Data {
    var text = text
    return text.withUTF8 { Data(buffer: $0) }
}
