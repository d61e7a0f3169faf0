internal import CJQ
import Glibc

/// A jq program, compiled once and run on one JSON input after another, as `api --jq` runs it on each page.
///
/// It runs jq 1.6 through Debian's libjq1, loaded the first time a program is compiled. A string result is
/// given as its text, unquoted, as `jq -r` and `gh api --jq` print it; any other result as compact JSON.
///
/// Not `Sendable`: a compiled program is one `jq_state`, which holds the run in progress, so two threads must
/// not run it at once. A task compiles its own, or hands one over and stops using it.
package final class JQProgram {
    private let library: JQLibrary
    private let state: OpaquePointer
    private let messages: JQReports

    /// Compiles `expression`. Throws ``JQError/noLibrary(_:)`` when libjq cannot be loaded, and
    /// ``JQError/compile(_:)`` with jq's own message when the expression is not valid jq.
    package init(_ expression: String) throws(JQError) {
        library = try JQLibrary.shared.get()
        // jq_compile reads a C string: a NUL would end the program early and compile only what comes before.
        guard !expression.utf8.contains(0) else {
            throw .compile("the expression holds a NUL character")
        }
        guard let state = library.initialize() else {
            throw .compile("jq cannot allocate its state")
        }
        self.state = state
        messages = JQReports(library: library)
        let context = Unmanaged.passUnretained(messages).toOpaque()
        // The state keeps `context` only as long as `self` keeps `messages`: both end in deinit.
        library.setErrorCallback(state, { JQReports.report($0, $1) }, context)
        // jq 1.6's jq_init leaves the input and debug callbacks uninitialised, so `input` and `debug` would
        // call whatever the allocation held. With no input callback, `input` fails as it does in jq at the end
        // of its inputs (jq 1.6 says "break"), and `inputs` gives nothing.
        library.setInputCallback(state, nil, nil)
        library.setDebugCallback(state, { JQReports.debug($0, $1) }, context)
        // jq 1.6 aborts the process on `import` or `include` when no search path is set. An empty one makes
        // them fail to compile ("module not found") instead; `~/.jq` is still read, as jq itself reads it.
        library.setAttribute(state, library.string("JQ_LIBRARY_PATH"), library.array())
        // From here on, a throw runs deinit, which tears the state down.
        guard expression.withCString({ library.compile(state, $0) }) != 0 else {
            throw .compile(messages.compileError())
        }
        messages.lines.removeAll()
    }

    deinit {
        var state: OpaquePointer? = state
        library.teardown(&state)
    }

    /// Runs the program on `json`, one JSON value in UTF-8, and gives `emit` each result in order.
    ///
    /// The program is compiled once and can run on any number of inputs, one after another: each run starts
    /// afresh, whether the one before finished, failed or halted.
    ///
    /// Throws ``JQError/input(_:)`` when `json` is not exactly one JSON value, ``JQError/runtime(_:)`` when
    /// the program raises an error (the results before it have been emitted), and ``JQError/halted(status:message:)``
    /// when it calls `halt` or `halt_error`, which end the whole run of jq, later inputs included.
    package func run(on json: some Collection<UInt8>, emit: (JQOutput) -> Void) throws(JQError) {
        let parsed =
            json.withContiguousStorageIfAvailable { parse($0) }
            ?? Array(json).withUnsafeBufferPointer { parse($0) }
        let input: jv
        switch parsed {
        case .success(let value): input = value
        case .failure(let error): throw error
        }
        library.start(state, input, 0)
        while true {
            let result = library.next(state)
            guard library.kind(result) == JV_KIND_INVALID else {
                emit(output(of: result))
                continue
            }
            // A halt also ends with an invalid value, so it is checked first, as jq's main does.
            if library.halted(state) != 0 {
                library.free(result)
                throw halt()
            }
            if let message = errorMessage(of: result) {
                throw .runtime(JQError.bounded(message))
            }
            return
        }
    }

    /// The one value in `bytes`, owned by the caller.
    ///
    /// jv_parser rather than jv_parse_sized: jv_parse_sized quotes the whole input in its message, and upstream
    /// jq 1.6 quotes it with `%s`, reading past the end of a buffer with no NUL after it (Debian's uses `%.*s`).
    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<jv, JQError> {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return .failure(.input("Expected JSON value"))
        }
        guard let length = Int32(exactly: bytes.count) else {
            return .failure(.input("it is larger than jq can read, 2 GiB"))
        }
        // The parser reads the buffer until it is freed, so everything happens inside the rebinding.
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
            guard let parser = library.parserNew(0) else {
                return .failure(.input("jq cannot allocate its parser"))
            }
            defer { library.parserFree(parser) }
            library.parserSetBuffer(parser, characters, length, 0)
            let value = library.parserNext(parser)
            guard library.kind(value) != JV_KIND_INVALID else {
                return .failure(.input(JQError.bounded(errorMessage(of: value) ?? "Expected JSON value")))
            }
            // A second value, or a syntax error after the first, makes the input more than one value.
            let next = library.parserNext(parser)
            if library.kind(next) != JV_KIND_INVALID {
                library.free(next)
                library.free(value)
                return .failure(.input("Unexpected extra JSON values"))
            }
            if let message = errorMessage(of: next) {
                library.free(value)
                return .failure(.input(JQError.bounded(message)))
            }
            return .success(value)
        }
    }

    /// Consumes `result`, a valid value.
    private func output(of result: jv) -> JQOutput {
        if library.kind(result) == JV_KIND_STRING {
            defer { library.free(result) }
            return .text(text(of: result))
        }
        let dumped = library.dumpString(result, 0)
        defer { library.free(dumped) }
        return .json(text(of: dumped))
    }

    /// The bytes of a jq string, which it does not consume; a string may hold NUL, so its length is asked for.
    private func text(of string: jv) -> String {
        let count = Int(library.stringLengthBytes(library.copy(string)))
        guard let start = library.stringValue(string), count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// Consumes `invalid`: the message it carries, or nil when it carries none, as when a program or a parser
    /// simply has nothing more. A message that is not a string is shown as JSON, as jq shows it.
    private func errorMessage(of invalid: jv) -> String? {
        guard library.invalidHasMessage(library.copy(invalid)) != 0 else {
            library.free(invalid)
            return nil
        }
        let message = library.invalidGetMessage(invalid)
        if library.kind(message) == JV_KIND_STRING {
            defer { library.free(message) }
            return text(of: message)
        }
        let dumped = library.dumpString(message, 0)
        defer { library.free(dumped) }
        return "(not a string): " + text(of: dumped)
    }

    /// The halt that ended the run: the status and message `halt_error` gave, or status 0 and no message for
    /// `halt`. Status and message are jq's own: a string message exactly as given, with no newline added;
    /// any other value as JSON with a newline; a status that is not a number is 5, jq's status for an error.
    private func halt() -> JQError {
        let code = library.exitCode(state)
        defer { library.free(code) }
        let status: Int32
        switch library.kind(code) {
        case JV_KIND_INVALID:
            status = 0
        case JV_KIND_NUMBER:
            let number = library.numberValue(code)
            status = number.isNaN ? 5 : Int32(max(min(number, Double(Int32.max)), Double(Int32.min)))
        default:
            status = 5
        }
        let message = library.errorMessage(state)
        switch library.kind(message) {
        case JV_KIND_STRING:
            defer { library.free(message) }
            return .halted(status: status, message: text(of: message))
        case JV_KIND_INVALID, JV_KIND_NULL:
            library.free(message)
            return .halted(status: status, message: nil)
        default:
            let dumped = library.dumpString(message, 0)
            defer { library.free(dumped) }
            return .halted(status: status, message: text(of: dumped) + "\n")
        }
    }
}

/// One result of a jq program.
package enum JQOutput: Sendable, Hashable {
    /// A string, as its text: unquoted, unescaped, with no newline added.
    case text(String)
    /// Any other value, as compact JSON: numbers as jq 1.6 writes them (`1.0` as `1`, integers past 2^53
    /// rounded to a double, `1e+17` from 10^17 on).
    case json(String)
}

/// Why a jq program could not be compiled or run.
package enum JQError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libjq is not installed, or cannot be loaded; dlopen's message says why.
    case noLibrary(String)
    /// The expression is not valid jq; jq's message says where.
    case compile(String)
    /// The program raised an error while running, with jq's message: `error("x")`, or `.a` on a number.
    case runtime(String)
    /// The input is not one JSON value; jq's parser says why.
    case input(String)
    /// The program called `halt` or `halt_error`, which end jq: `status` is the exit status jq would end with,
    /// and `message` what it would write to stderr, exactly.
    case halted(status: Int32, message: String?)

    package var description: String {
        switch self {
        case .noLibrary(let detail):
            "--jq needs libjq (Debian's libjq1), which cannot be loaded "
                + "(\(detail.count > 60 ? detail.prefix(60) + "…" : detail))"
        case .compile(let message):
            "the jq program does not compile: \(message)"
        case .runtime(let message):
            "the jq program failed: \(message)"
        case .input(let message):
            "the input is not JSON: \(message)"
        case .halted(let status, let message):
            message ?? "jq halted with status \(status)"
        }
    }

    /// `message`'s first line without trailing space, cut at 100 characters, so that it fits the one line of an
    /// error: jq's messages quote values and programs, which can be long.
    static func bounded(_ message: String) -> String {
        let line = message.split(separator: "\n", maxSplits: 1).first ?? ""
        var text = trimmed(line)
        // jq ends its line with a colon, before the program it no longer shows.
        if text.hasSuffix(":") { text.removeLast() }
        return text.count > 100 ? text.prefix(100) + "…" : String(text)
    }

    /// `text` without the spaces and newlines that end it.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}

/// What libjq reports through its callbacks: compile errors, and `debug`'s values.
private final class JQReports {
    let library: JQLibrary
    var lines: [String] = []

    init(library: JQLibrary) {
        self.library = library
    }

    /// jq's error callback, which owns the message it is given.
    static func report(_ context: UnsafeMutableRawPointer?, _ message: jv) {
        guard let context else { return }
        let messages = Unmanaged<JQReports>.fromOpaque(context).takeUnretainedValue()
        let library = messages.library
        let text: jv = library.kind(message) == JV_KIND_STRING ? message : library.dumpString(message, 0)
        defer { library.free(text) }
        if let start = library.stringValue(text) {
            messages.lines.append(String(cString: start))
        }
    }

    /// `debug`'s callback, which owns the value: written to stderr as jq writes it, `["DEBUG:",value]`.
    static func debug(_ context: UnsafeMutableRawPointer?, _ value: jv) {
        guard let context else { return }
        let library = Unmanaged<JQReports>.fromOpaque(context).takeUnretainedValue().library
        let dumped = library.dumpString(value, 0)
        defer { library.free(dumped) }
        guard let start = library.stringValue(dumped) else { return }
        var line = Array(#"["DEBUG:","#.utf8)
        line += UnsafeRawBufferPointer(start: start, count: strlen(start))
        line += Array("]\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The compile error, from what jq reported: each error as `jq: error: … at <top-level>, line 1:` and the
    /// line it is on, padded with spaces where jq 1.6 meant to mark the column, then `jq: 1 compile error`.
    /// The prefixes, the padding and the count go; the line stays.
    func compileError() -> String {
        let errors = lines.compactMap { line -> String? in
            if line.hasPrefix("jq: "), line.hasSuffix(" compile error") || line.hasSuffix(" compile errors") {
                return nil
            }
            let text = line.hasPrefix("jq: error: ") ? line.dropFirst("jq: error: ".count) : Substring(line)
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { JQError.trimmed($0) }
                .joined(separator: "\n")
        }
        return JQError.bounded(errors.isEmpty ? lines.joined(separator: "\n") : errors.joined(separator: "\n"))
    }
}

/// libjq's functions, loaded with dlopen the first time a jq program is compiled. A command without `--jq`
/// never maps libjq, nor the Oniguruma regex library it needs.
///
/// `@unchecked Sendable`: it holds only addresses of functions in a library that is never unloaded, and C
/// function pointers are not marked `Sendable`.
struct JQLibrary: @unchecked Sendable {
    let initialize: swaggerctl_jq_init
    let setErrorCallback: swaggerctl_jq_set_error_cb
    let setDebugCallback: swaggerctl_jq_set_debug_cb
    let setInputCallback: swaggerctl_jq_set_input_cb
    let setAttribute: swaggerctl_jq_set_attr
    let compile: swaggerctl_jq_compile
    let start: swaggerctl_jq_start
    let next: swaggerctl_jq_next
    let halted: swaggerctl_jq_halted
    let exitCode: swaggerctl_jq_get_exit_code
    let errorMessage: swaggerctl_jq_get_error_message
    let teardown: swaggerctl_jq_teardown
    let parserNew: swaggerctl_jv_parser_new
    let parserSetBuffer: swaggerctl_jv_parser_set_buf
    let parserNext: swaggerctl_jv_parser_next
    let parserFree: swaggerctl_jv_parser_free
    let kind: swaggerctl_jv_get_kind
    let copy: swaggerctl_jv_copy
    let free: swaggerctl_jv_free
    let invalidHasMessage: swaggerctl_jv_invalid_has_msg
    let invalidGetMessage: swaggerctl_jv_invalid_get_msg
    let string: swaggerctl_jv_string
    let stringValue: swaggerctl_jv_string_value
    let stringLengthBytes: swaggerctl_jv_string_length_bytes
    let array: swaggerctl_jv_array
    let numberValue: swaggerctl_jv_number_value
    let dumpString: swaggerctl_jv_dump_string

    /// The library's soname in Debian's libjq1.
    static let soname = "libjq.so.1"

    /// Loaded once, on first use, by whichever thread asks first; never unloaded.
    static let shared: Result<JQLibrary, JQError> = Result { () throws(JQError) in
        try JQLibrary()
    }

    private init() throws(JQError) {
        // RTLD_LOCAL: libjq's and Oniguruma's symbols stay out of the global namespace; dlsym on the handle
        // still finds them.
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw .noLibrary(dlerror().map { String(cString: $0) } ?? Self.soname)
        }
        func symbol<Function>(_ name: String, as type: Function.Type) throws(JQError) -> Function {
            guard let address = dlsym(handle, name) else {
                throw .noLibrary("\(Self.soname) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        initialize = try symbol("jq_init", as: swaggerctl_jq_init.self)
        setErrorCallback = try symbol("jq_set_error_cb", as: swaggerctl_jq_set_error_cb.self)
        setDebugCallback = try symbol("jq_set_debug_cb", as: swaggerctl_jq_set_debug_cb.self)
        setInputCallback = try symbol("jq_set_input_cb", as: swaggerctl_jq_set_input_cb.self)
        setAttribute = try symbol("jq_set_attr", as: swaggerctl_jq_set_attr.self)
        compile = try symbol("jq_compile", as: swaggerctl_jq_compile.self)
        start = try symbol("jq_start", as: swaggerctl_jq_start.self)
        next = try symbol("jq_next", as: swaggerctl_jq_next.self)
        halted = try symbol("jq_halted", as: swaggerctl_jq_halted.self)
        exitCode = try symbol("jq_get_exit_code", as: swaggerctl_jq_get_exit_code.self)
        errorMessage = try symbol("jq_get_error_message", as: swaggerctl_jq_get_error_message.self)
        teardown = try symbol("jq_teardown", as: swaggerctl_jq_teardown.self)
        parserNew = try symbol("jv_parser_new", as: swaggerctl_jv_parser_new.self)
        parserSetBuffer = try symbol("jv_parser_set_buf", as: swaggerctl_jv_parser_set_buf.self)
        parserNext = try symbol("jv_parser_next", as: swaggerctl_jv_parser_next.self)
        parserFree = try symbol("jv_parser_free", as: swaggerctl_jv_parser_free.self)
        kind = try symbol("jv_get_kind", as: swaggerctl_jv_get_kind.self)
        copy = try symbol("jv_copy", as: swaggerctl_jv_copy.self)
        free = try symbol("jv_free", as: swaggerctl_jv_free.self)
        invalidHasMessage = try symbol("jv_invalid_has_msg", as: swaggerctl_jv_invalid_has_msg.self)
        invalidGetMessage = try symbol("jv_invalid_get_msg", as: swaggerctl_jv_invalid_get_msg.self)
        string = try symbol("jv_string", as: swaggerctl_jv_string.self)
        stringValue = try symbol("jv_string_value", as: swaggerctl_jv_string_value.self)
        stringLengthBytes = try symbol("jv_string_length_bytes", as: swaggerctl_jv_string_length_bytes.self)
        array = try symbol("jv_array", as: swaggerctl_jv_array.self)
        numberValue = try symbol("jv_number_value", as: swaggerctl_jv_number_value.self)
        dumpString = try symbol("jv_dump_string", as: swaggerctl_jv_dump_string.self)
    }
}
