import FoundationEssentials
import SwaggerOutput
import Testing

@Suite("JQProgram: jq 1.6 through libjq, strings as text and other values as compact JSON", .timeLimit(.minutes(5)))
struct JQProgramTests {
    /// Every output of `expression` run on `json`.
    func outputs(_ expression: String, on json: String) throws(JQError) -> [JQOutput] {
        var outputs: [JQOutput] = []
        try JQProgram(expression).run(on: Array(json.utf8)) { outputs.append($0) }
        return outputs
    }

    @Test("A string is given as its text, unquoted")
    func text() throws {
        #expect(try outputs(".name", on: #"{"name":"Ada","id":1}"#) == [.text("Ada")])
    }

    @Test("Each result of a stream is given in order, other values as compact JSON")
    func stream() throws {
        let json = #"[{"id":1},{"id":2,"tags":["a", "b"]},{"id":null}]"#
        #expect(try outputs(".[] | .id", on: json) == [.json("1"), .json("2"), .json("null")])
        #expect(try outputs(".[1]", on: json) == [.json(#"{"id":2,"tags":["a","b"]}"#)])
        #expect(try outputs(".[] | select(.id == 5)", on: json) == [])
    }

    @Test("A runtime error carries jq's message, after the results before it")
    func runtimeError() throws {
        #expect(throws: JQError.runtime(#"Cannot index number with string "x""#)) { try outputs(".x", on: "5") }
        #expect(throws: JQError.runtime("custom")) { try outputs(#"error("custom")"#, on: "null") }
        #expect(throws: JQError.runtime(#"(not a string): {"a":1}"#)) { try outputs("error({a: 1})", on: "null") }
        var seen: [JQOutput] = []
        #expect(throws: JQError.runtime(#"Cannot iterate over number (1)"#)) {
            try JQProgram(".[] | .[]").run(on: Array("[[1], 1]".utf8)) { seen.append($0) }
        }
        #expect(seen == [.json("1")])
        // `error(null)` is no error in jq 1.6: it gives nothing, as `empty` does, and the run goes on.
        #expect(try outputs("1, error(null), 2", on: "null") == [.json("1"), .json("2")])
    }

    @Test("A syntax error carries jq's message, on one line, without its prefixes, padding or count")
    func compileError() {
        #expect(
            throws: JQError.compile(
                "syntax error, unexpected $end (Unix shell quoting issues?) at <top-level>, line 1")
        ) {
            try JQProgram(".[")
        }
        #expect(throws: JQError.compile("foo/0 is not defined at <top-level>, line 1")) {
            try JQProgram("foo | .a")
        }
        // jq 1.6 aborts the process here unless a search path is set.
        #expect(throws: JQError.compile("module not found: m")) { try JQProgram(#"import "m" as m; ."#) }
        #expect(throws: JQError.compile("the expression holds a NUL character")) { try JQProgram(".a\u{0}") }
    }

    @Test("A long message is cut at 100 characters, so that the error fits its line")
    func longMessage() throws {
        let error = #expect(throws: JQError.self) { try outputs(#"error("x" * 1000)"#, on: "null") }
        #expect(error == .runtime(String(repeating: "x", count: 100) + "…"))
    }

    @Test("A program compiled once runs on input after input, after an error or a halt too")
    func reuse() throws {
        let program = try JQProgram(".items[] | .name")
        var seen: [JQOutput] = []
        try program.run(on: Array(#"{"items":[{"name":"a"}]}"#.utf8)) { seen.append($0) }
        try program.run(on: Array(#"{"items":[{"name":"b"},{"name":"c"}]}"#.utf8)) { seen.append($0) }
        #expect(throws: JQError.runtime("Cannot iterate over null (null)")) {
            try program.run(on: Array("{}".utf8)) { seen.append($0) }
        }
        #expect(throws: JQError.self) { try program.run(on: Array("{".utf8)) { seen.append($0) } }
        try program.run(on: Array(#"{"items":[{"name":"d"}]}"#.utf8)) { seen.append($0) }
        #expect(seen == [.text("a"), .text("b"), .text("c"), .text("d")])

        let halting = try JQProgram("if . == 1 then halt_error(2) else . end")
        var after: [JQOutput] = []
        #expect(throws: JQError.halted(status: 2, message: "1\n")) { try halting.run(on: Array("1".utf8)) { _ in } }
        try halting.run(on: Array("3".utf8)) { after.append($0) }
        #expect(after == [.json("3")])
    }

    @Test(
        "Input that is not one JSON value is refused, naming why",
        arguments: [
            ("{", "Unfinished JSON term at EOF at line 1, column 1"),
            ("nope", "Invalid literal at EOF at line 1, column 4"),
            ("[1] [2]", "Unexpected extra JSON values"),
            ("[1] ]", "Unmatched ']' at line 1, column 5"),
            ("", "Expected JSON value"),
            ("  \n", "Expected JSON value"),
        ])
    func notJSON(input: String, message: String) {
        #expect(throws: JQError.input(message)) { try outputs(".", on: input) }
        #expect(JQError.input(message).description == "the input is not JSON: \(message)")
    }

    @Test("Unicode comes back as it went in: raw UTF-8, escapes decoded, NUL kept")
    func unicode() throws {
        let string = #""Zoë 🦊 e\u0301 \u00e9 \ud83e\udd8a 中文""#
        let json = #"{"s":\#(string),"nul":"a\u0000b","k":{"ключ":"значение"}}"#
        #expect(try outputs(".s", on: json) == [.text("Zoë 🦊 e\u{301} é 🦊 中文")])
        #expect(try outputs(".nul", on: json) == [.text("a\u{0}b")])
        #expect(try outputs(".k", on: json) == [.json(#"{"ключ":"значение"}"#)])
        #expect(try outputs(".nul | tojson", on: json) == [.text(#""a\u0000b""#)])
        #expect(try outputs(".s | length", on: json) == [.json("15")])
    }

    @Test("Numbers are written as jq 1.6 writes them: doubles, shortest form, large ones rounded")
    func numbers() throws {
        let json = "[1.0, 1.50, 12345678901234567890, 9007199254740993, 100000000000000000, 1e1000, -0, 0.1]"
        #expect(
            try outputs(".[]", on: json).map { if case .json(let text) = $0 { text } else { "" } } == [
                "1", "1.5", "12345678901234567000", "9007199254740992", "1e+17", "1.7976931348623157e+308", "-0",
                "0.1",
            ])
    }

    @Test("`halt` ends with status 0 and no message; `halt_error` with its status and message, exactly")
    func halts() throws {
        var seen: [JQOutput] = []
        #expect(throws: JQError.halted(status: 0, message: nil)) {
            try JQProgram("1, halt, 2").run(on: Array("null".utf8)) { seen.append($0) }
        }
        #expect(seen == [.json("1")])
        #expect(throws: JQError.halted(status: 5, message: "bye\n")) { try outputs(#""bye\n" | halt_error"#, on: "0") }
        #expect(throws: JQError.halted(status: 3, message: "no newline")) {
            try outputs(#""no newline" | halt_error(3)"#, on: "0")
        }
        #expect(throws: JQError.halted(status: 1, message: "{\"a\":1}\n")) {
            try outputs("{a: 1} | halt_error(1)", on: "0")
        }
    }

    @Test("`input` fails as jq 1.6's does, rather than calling an uninitialised callback")
    func input() throws {
        #expect(throws: JQError.runtime("break")) { try outputs("input", on: "1") }
        #expect(try outputs("[inputs]", on: "1") == [.json("[]")])
    }

    @Test("Any collection of bytes is input, contiguous or not")
    func collections() throws {
        let bytes = Array(#"xx{"a":[1,2]}yy"#.utf8)
        var seen: [JQOutput] = []
        let program = try JQProgram(".a | add")
        try program.run(on: bytes[2..<(bytes.count - 2)]) { seen.append($0) }
        try program.run(on: bytes.lazy.filter { $0 != UInt8(ascii: "x") && $0 != UInt8(ascii: "y") }) {
            seen.append($0)
        }
        #expect(seen == [.json("3"), .json("3")])
    }

    @Test("Data, as a response body arrives, is input")
    func data() throws {
        var seen: [JQOutput] = []
        try JQProgram(".a").run(on: Data(#"{"a":"b"}"#.utf8)) { seen.append($0) }
        #expect(seen == [.text("b")])
    }

    @Test("Each error says what failed in a sentence that ends with jq's own message")
    func descriptions() {
        #expect(
            JQError.noLibrary("libjq.so.1: cannot open shared object file: No such file or directory").description
                == "--jq needs libjq (Debian's libjq1), which cannot be loaded "
                + "(libjq.so.1: cannot open shared object file: No such file or …)")
        #expect(
            JQError.compile("foo/0 is not defined").description
                == "the jq program does not compile: foo/0 is not defined")
        #expect(JQError.runtime("x").description == "the jq program failed: x")
        #expect(JQError.halted(status: 5, message: "bye\n").description == "bye\n")
        #expect(JQError.halted(status: 0, message: nil).description == "jq halted with status 0")
    }

    @Test("A 5 MB array is read and run on")
    func large() throws {
        let items = (0..<60_000).map {
            #"{"id":\#($0),"title":"An item with a title long enough to matter","tags":["x","y","z"]}"#
        }
        let json = "[" + items.joined(separator: ",") + "]"
        #expect(json.utf8.count > 5_000_000)
        #expect(
            try outputs("length, .[-1].id, ([.[].id] | add)", on: json) == [
                .json("60000"), .json("59999"), .json("1799970000"),
            ])
        #expect(try outputs(".[]", on: json).count == 60_000)
    }
}
