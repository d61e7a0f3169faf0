import Foundation
import PropertyBased
import SessionMachine
import SwaggerOutput
import TestSupport
import Testing

@testable import SessionStorage
@testable import SwaggerClient
@testable import SwaggerDocuments
@testable import SwaggerHTTP
@testable import SwaggerModel

/// Property-based fuzzing of everything that reads what a server sends, and of the one sanitiser that stands
/// between it and the terminal. `make test` runs each property ``count`` times; `make fuzz` runs them far
/// longer (`SWAGGERCTL_FUZZ_COUNT`).
/// The properties run one at a time, and each iteration yields: they are CPU-bound, and the suite shares the
/// cooperative thread pool (as wide as the cores) with end-to-end tests whose servers and timers must keep
/// running on time.
@Suite("Fuzzing the decoders and the sanitiser", .serialized, .timeLimit(.minutes(5)))
struct FuzzTests {
    /// Iterations per property: `SWAGGERCTL_FUZZ_COUNT`, else a number that keeps `make test` quick.
    static let count = ProcessInfo.processInfo.environment["SWAGGERCTL_FUZZ_COUNT"].flatMap(Int.init) ?? 400

    /// Numbers that ``FuzzInput`` turns into hostile text and JSON.
    static let numbers = Gen<UInt32>.value(in: 0...UInt32.max).array(of: 0...60)

    @Test(
        "escaped text has no control or invisible character, stays on one line, and escaping it again changes nothing")
    func sanitiser() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let text = FuzzInput.text(numbers)
            let safe = TerminalText.escaped(text)
            #expect(!safe.contains("\n") && !safe.contains("\r"))
            #expect(FuzzInput.unsafeOutsideEmoji(safe).isEmpty, "\(FuzzInput.unsafeOutsideEmoji(safe))")
            #expect(TerminalText.escaped(safe) == safe)
        }
    }

    @Test("escaped JSON is the same JSON value, with no raw control or invisible character")
    func jsonSanitiser() async throws {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let text = FuzzInput.text(numbers)
            guard let data = try? JSONEncoder().encode([text: text]) else { return }
            let safe = TerminalText.escapedJSON(String(decoding: data, as: UTF8.self))
            #expect(!safe.unicodeScalars.contains(where: TerminalText.isUnsafe))
            #expect((try? JSONDecoder().decode([String: String].self, from: Data(safe.utf8))) == [text: text])
        }
    }

    @Test("JSON text is read as JSONDecoder reads it into JSON values, whole, cut short or with a byte changed")
    func jsonParsing() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let text = FuzzInput.json(numbers)
            var variants = [Data(text.utf8), Data("[\(text), \(text)]".utf8)]
            let bytes = Array(text.utf8)
            if let first = numbers.first, !bytes.isEmpty {
                variants.append(Data(bytes.prefix(Int(first) % bytes.count)))
                var changed = bytes
                changed[Int(first) % bytes.count] = UInt8(truncatingIfNeeded: numbers.last ?? 0)
                variants.append(Data(changed))
            }
            for data in variants {
                #expect(
                    JSONValue(parsing: data) == (try? JSONDecoder().decode(JSONValue.self, from: data)),
                    "\(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    @Test("indented JSON is the same value, and a page's items are its elements, each valid JSON")
    func jsonText() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let object = FuzzInput.json(numbers)
            for text in [object, "[\(object), \(object)]", #"{"items": [\#(object)], "has_more": true}"#] {
                let data = Data(text.utf8)
                let value = Self.jsonObject(data)
                let indented = JSONText.indented(data)
                guard let indented else {
                    #expect(value == nil, "\(text)")
                    continue
                }
                #expect(JSONText.indented(Data(indented.utf8)) == indented, "\(text)")
                guard let value else {
                    // Foundation refuses a number too large for a Double, which RFC 8259's grammar allows;
                    // without exponents the text must be JSON to Foundation too.
                    let small = text.replacing(/(: |\[|, )(-?[0-9.]+)[eE][-+]?[0-9]+/) { "\($0.1)\($0.2)" }
                    #expect(Self.jsonObject(Data(small.utf8)) != nil, "\(text)")
                    continue
                }
                #expect(Self.jsonObject(Data(indented.utf8)) == value, "\(text)")
                guard text.hasPrefix("["), let items = JSONText.items(of: data) else { continue }
                #expect(NSArray(array: items.compactMap { Self.jsonObject(Data($0.utf8)) }) == value, "\(text)")
            }
        }
    }

    /// The value Foundation reads from `data`, compared by `isEqual`; `nil` when it is not JSON.
    static func jsonObject(_ data: Data) -> NSObject? {
        (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) as? NSObject
    }

    @Test("any profile body either fails to decode or renders as one clean line per row, and as clean JSON")
    func profiles() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let body = FuzzInput.json(numbers)
            guard let profile = try? Profile(json: Data(body.utf8)) else { return }
            let rows = DetailsViewModel.rows(for: profile, labels: Fixtures.original().profile.labels)
            let table = TableRenderer(style: .plain).render(rows)
            #expect(table.filter { $0 == "\n" }.count == rows.count)
            // Line feeds are dropped by scalar: comparing Characters, as replacingOccurrences does, can miss one.
            var lines = ""
            lines.unicodeScalars.append(contentsOf: table.unicodeScalars.filter { $0 != "\n" })
            #expect(FuzzInput.unsafeOutsideEmoji(lines).isEmpty)
            let json = profile.prettyJSON
            #expect(!json.unicodeScalars.contains { $0 != "\n" && TerminalText.isUnsafe($0) })
            #expect((try? JSONDecoder().decode([String: JSONValue].self, from: Data(json.utf8))) == profile.fields)
        }
    }

    @Test("any error body is quoted in at most 200 characters of message, and every error line stays one line")
    func errorBodies() async {
        let messages = MessageContext(timeout: .seconds(1), now: Date())
        let server = Fixtures.serverURL("http://h/api")
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let body = Data(FuzzInput.json(numbers).utf8)
            // Cut where it is shown, after the secrets in it were hidden whole.
            let message = APIService.serverMessage(json: body).map(TerminalText.quoted)
            #expect((message?.count ?? 0) <= TerminalText.serverTextLimit + "\"…\"".count)
            for status in [400, 401, 403, 404, 429, 503] {
                let response = APIResponse(url: server.url, status: status, reason: "", headers: [], body: body)
                let error = APIService.failure(response, operation: .login)
                for preset in ["original", "identity", "fastapi-users"] {
                    let description = Fixtures.described(["preset": .string(preset)], under: server)
                    let line = TerminalText.escaped(
                        error.rendered(on: server, account: "a@b", description: description, in: messages).message)
                    #expect(!line.contains("\n") && FuzzInput.unsafeOutsideEmoji(line).isEmpty)
                }
            }
        }
    }

    @Test("any YAML text is no document or a value within the depth limit, read without a crash")
    func yamlDocuments() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let text = FuzzInput.yaml(numbers)
            // Repeated, so that the nesting and the aliases it builds reach past the limits.
            for document in [text, String(repeating: text, count: 200)] {
                guard let value = DocumentText.value(of: Data(document.utf8)) else { continue }
                #expect(value.nesting <= JSONValue.depthLimit, "\(text)")
            }
        }
    }

    @Test("any token yields sane dates or none")
    func tokens() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let payload = Data(FuzzInput.json(numbers).utf8).base64EncodedString()
            for token in ["eyJhbGciOiJub25lIn0.\(payload).sig", FuzzInput.text(numbers)] {
                let times = JWTClaims.times(of: token)
                for date in [times.issuedAt, times.expiresAt].compactMap({ $0 }) {
                    #expect(JWTClaims.sensible.contains(date.timeIntervalSince1970))
                }
            }
        }
    }

    @Test("any session list decodes element by element: readable records survive beside damaged ones")
    func sessionLists() async {
        await propertyCheck(count: Self.count, input: Self.numbers) { numbers in
            await Task.yield()
            let good =
                #"{"appId":"a","email":"e@x","keystore":"file","savedAt":"2026-01-01T00:00:00Z","server":"http://h/api"}"#
            let other = FuzzInput.json(numbers)
            guard other.hasPrefix("{") else { return }
            let list = "[\(good),\(other)]"
            guard let decoded = try? JSONDecoder.swaggerctl.decode([Lossy<SessionRecord>].self, from: Data(list.utf8))
            else { return }
            #expect(decoded.first?.element?.name == "e@x")
            #expect(decoded.count == 2)
        }
    }
}

/// Turns fuzzer numbers into hostile inputs: text drawn mostly from the characters that break terminals, and
/// JSON, well-formed or not, built from that text.
enum FuzzInput {
    /// Characters that break terminals or hide text, and some that must survive: letters, CJK, combining
    /// marks, and the parts of emoji sequences.
    static let specials: [Unicode.Scalar] = [
        "\u{0}", "\u{7}", "\u{8}", "\u{9}", "\u{A}", "\u{D}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{9D}",
        "\u{AD}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{200E}", "\u{200F}", "\u{2028}", "\u{2029}", "\u{202A}",
        "\u{202E}", "\u{2060}", "\u{2066}", "\u{2069}", "\u{FEFF}", "\u{E0001}", "\u{E0041}", "\u{E007F}",
        "\u{1F468}", "\u{1F469}", "\u{FE0F}", "\u{301}", "\u{540D}", "é", "\\", "\"", "[", "]", "{", "}", ";", ":",
    ]

    static func scalar(_ number: UInt32) -> Unicode.Scalar {
        switch number % 4 {
        case 0: specials[Int(number / 4) % specials.count]
        case 1: Unicode.Scalar(0x20 + (number / 4) % 0x5F) ?? "?"
        case 2: Unicode.Scalar((number / 4) % 0xA0) ?? "?"
        default: Unicode.Scalar((number / 4) % 0x3000) ?? "?"
        }
    }

    static func text(_ numbers: [UInt32]) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: numbers.map(scalar))
        return text
    }

    /// YAML's structural pieces, and scalars of each kind, for text that libyaml mostly reads as far as its
    /// nesting and aliases.
    static let yamlPieces = [
        "[", "]", "{", "}", ", ", ": ", "- ", "\n", "  ", "? ", "&a ", "*a", "&b ", "*b", "x", "-1", "0x1F", ".inf",
        "\"q\\u00e9\"", "'s'", "null", "~", "!!str ", "!!int ", "|\n  ", "# c\n", "---\n", "\t", "\u{1B}",
    ]

    /// YAML text steered by `numbers`.
    static func yaml(_ numbers: [UInt32]) -> String {
        numbers.map { yamlPieces[Int($0 % UInt32(yamlPieces.count))] }.joined()
    }

    /// JSON text steered by `numbers`: an object of strings, numbers, nulls, nested objects and arrays;
    /// sometimes cut short, so both the decoder's errors and its results are exercised.
    static func json(_ numbers: [UInt32]) -> String {
        var parts: [String] = []
        for (index, number) in numbers.enumerated() {
            let key = jsonString(text(Array(numbers.dropFirst(index).prefix(Int(number % 5)))))
            let value: String =
                switch number % 9 {
                case 0: "null"
                case 1: String(Int64(bitPattern: UInt64(number) << 33))
                case 2: "\(Double(number) / 7)e\(Int(number % 700) - 350)"
                case 3: #"{"nested": \#(jsonString(text([number, number &* 31])))}"#
                case 4: "[\(number), \(jsonString(text([number])))]"
                case 5: number % 2 == 0 ? "true" : "false"
                case 6: jsonString(["message", "error", "error_description", "title", "detail"][Int(number / 9) % 5])
                default: jsonString(text(Array(numbers.suffix(Int(number % 12)))))
                }
            parts.append("\(key): \(value)")
        }
        let object = "{" + parts.joined(separator: ", ") + "}"
        guard let first = numbers.first, first % 11 == 0 else { return object }
        return String(object.prefix(Int(first % UInt32(max(object.count, 1)))))
    }

    private static func jsonString(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// The unsafe scalars of `text` that are not the joiners or tags inside an emoji sequence.
    static func unsafeOutsideEmoji(_ text: String) -> [Unicode.Scalar] {
        text.flatMap { character -> [Unicode.Scalar] in
            let scalars = Array(character.unicodeScalars)
            let emoji = scalars.count > 1 && (scalars.first?.properties.isEmoji ?? false)
            return scalars.filter { scalar in
                TerminalText.isUnsafe(scalar)
                    && !(emoji && (scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)))
            }
        }
    }
}
