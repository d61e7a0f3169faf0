import Foundation
import Testing

@testable import SwaggerModel

@Suite("TerminalText: one sanitiser for every piece of server text", .timeLimit(.minutes(5)))
struct TerminalTextTests {
    @Test(
        "escaped shows controls, separators and invisible format characters as \\u{…}, and nothing else",
        arguments: [
            ("plain text", "plain text"),
            ("\u{1B}[31m", #"\u{1b}[31m"#),
            ("\u{1B}]52;c;cGF5bG9hZA==\u{7}", #"\u{1b}]52;c;cGF5bG9hZA==\u{7}"#),
            ("\u{1B}[2J", #"\u{1b}[2J"#),
            ("a\nb", #"a\u{a}b"#),
            ("\r\n", #"\u{d}\u{a}"#),
            ("\t", #"\u{9}"#),
            ("\u{0}", #"\u{0}"#),
            ("\u{7F}", #"\u{7f}"#),
            ("\u{85}\u{9B}", #"\u{85}\u{9b}"#),
            ("line\u{2028}sep\u{2029}", #"line\u{2028}sep\u{2029}"#),
            ("evil\u{202E}txt.exe", #"evil\u{202e}txt.exe"#),
            ("\u{2066}isolate\u{2069}", #"\u{2066}isolate\u{2069}"#),
            (
                "zero\u{200B}width\u{200C}\u{200D}\u{2060}\u{FEFF}",
                #"zero\u{200b}width\u{200c}\u{200d}\u{2060}\u{feff}"#
            ),
            ("tag\u{E0041}\u{E007F}", #"tag\u{e0041}\u{e007f}"#),
            ("soft\u{AD}hyphen", #"soft\u{ad}hyphen"#),
            ("Žaba 名前 👍 e\u{301}", "Žaba 名前 👍 e\u{301}"),
            (
                "👨‍👩‍👧 🏳️‍🌈 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
                "👨‍👩‍👧 🏳️‍🌈 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
            ),
            (#"\u{1b} typed by hand"#, #"\u{1b} typed by hand"#),
            // Found by the fuzzer: once the ZWNJ is escaped, the ZWJ after it would stand alone.
            ("👩\u{200C}\u{200D}", #"👩\u{200c}\u{200d}"#),
        ])
    func escaped(text: String, expected: String) {
        #expect(TerminalText.escaped(text) == expected)
    }

    @Test("escapedJSON writes DEL, C1, separators and format characters as \\u escapes and keeps the same value")
    func escapedJSON() throws {
        let value = ["a\u{7F}b": "c\u{9B}d\u{2028}e\u{202E}f\u{E0041}", "plain": "ok é 名"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let raw = String(decoding: try encoder.encode(value), as: UTF8.self)

        let safe = TerminalText.escapedJSON(raw)

        #expect(!safe.unicodeScalars.contains(where: TerminalText.isUnsafe))
        #expect(safe.contains(#"a\u007fb"#))
        #expect(safe.contains(#"\u009bd\u2028e\u202ef\udb40\udc41"#))
        #expect(safe.contains("ok é 名"))
        #expect(try JSONDecoder().decode([String: String].self, from: Data(safe.utf8)) == value)
    }
}
