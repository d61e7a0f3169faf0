import Foundation
import Testing

@testable import SwaggerModel

@Suite("JSONValue(parsing:): JSON text read as JSONDecoder reads it, without its cost", .timeLimit(.minutes(5)))
struct JSONValueParsingTests {
    @Test(
        "each edge of the grammar reads as JSONDecoder reads it",
        arguments: [
            "1.0", "1e3", "1E2", "-0", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "1.5", "-1.5e-3", "0.1e1", "1e400", "-1e400", "1e-400", "100e-2", "0.0", "-0.0e5",
            "505918651.14285713e8", "-2865043593624551.24", "123.456e2", "1e19", "123456789012345678901234567890", "01",
            "-01", "1.", ".5", "-",
            "+1", "1e", "1e+", "NaN", "Infinity", "\u{FEFF}{}", " [1, 2] ", #"{"a":1,"a":2}"#, "[1,]", #"{"a":1,}"#,
            "[,]", "{,}", "[1,,2]", #""\ud83d\ude00""#, #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, "\"a\u{0}b\"",
            #""\u0000""#, "\"\t\"", #""\/\b\f\n\r\t\"\\""#, #""\x""#, #""\u12""#, #""\u00e9\u00E9é""#, "\"😀\"",
            "\"unterminated", "true", "false", "null", "nul", "truex", "[true false]", #"{"a" 1}"#, #"{1: 2}"#, "[] x",
            "  ", "", "{}", "[]", #"{"nested": {"a": [1, {"b": null}]}}"#,
            // The second of two members of a name is looked at, never read, by JSONDecoder.
            #"{"a": 1, "a": 1e400}"#, #"{"a": 1, "a": "\ud83d"}"#, #"{"a": 1, "a": {"b": "\ud83d"}}"#,
            #"{"a": 1, "a": 01}"#, #"{"a": 1, "a": "\q"}"#, "{\"a\": 1, \"a\": \"\t\"}",
        ])
    func edges(text: String) {
        let data = Data(text.utf8)
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        #expect(JSONValue(parsing: data) == decoded)
        #expect(JSONValue(parsing: text) == decoded, "read from the string's own storage")
    }

    @Test("invalid UTF-8 in a string, and nesting past the depth limit, are not JSON values")
    func refusals() {
        let invalid = Data([0x22, 0xC3, 0x28, 0x22])
        #expect(JSONValue(parsing: invalid) == nil)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: invalid)) == nil)
        let limit = JSONValue.depthLimit
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(JSONValue(parsing: Data(deepest.utf8)) != nil)
        let deeper = Data(("[" + deepest + "]").utf8)
        #expect(JSONValue(parsing: deeper) == nil)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: deeper)) == nil)
    }
}
