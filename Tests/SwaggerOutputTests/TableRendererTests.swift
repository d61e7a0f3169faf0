import Testing

@testable import SwaggerOutput

@Suite("TableRenderer: the exact text of key/value tables", .timeLimit(.minutes(5)))
struct TableRendererTests {
    static func rows(_ pairs: KeyValuePairs<String, String>) -> [DetailsViewModel] {
        pairs.map { DetailsViewModel(key: $0.key, value: $0.value) }
    }

    @Test("plain keys are padded to the widest key plus two spaces")
    func plain() {
        let rows = Self.rows(["ID": "1024", "First name": "Ana", "E-mail": "ana@example.com"])

        #expect(
            TableRenderer(style: .plain).render(rows)
                == "ID          1024\n"
                + "First name  Ana\n"
                + "E-mail      ana@example.com\n")
    }

    @Test("the default style is plain")
    func defaultStyle() {
        let rows = Self.rows(["A": "1", "Long": "2"])

        #expect(TableRenderer().render(rows) == "A     1\nLong  2\n")
    }

    @Test("a single row gets two spaces after its key")
    func singleRow() {
        #expect(TableRenderer().render(Self.rows(["Key": "value"])) == "Key  value\n")
    }

    @Test("no rows give empty text", arguments: [TableRenderer.Style.plain, .dimmedKeys])
    func empty(style: TableRenderer.Style) {
        #expect(TableRenderer(style: style).render([]) == "")
    }

    @Test("CJK keys are two columns per character, so values still line up")
    func wideKeys() {
        let rows = Self.rows(["名前": "Ana", "ID": "1", "メールアドレス": "ana@example.com"])

        // Widths: 名前 4, ID 2, メールアドレス 14.
        #expect(
            TableRenderer().render(rows)
                == "名前            Ana\n"
                + "ID              1\n"
                + "メールアドレス  ana@example.com\n")
    }

    @Test("combining marks in keys take no column")
    func combiningKeys() {
        let rows = Self.rows(["Caf\u{65}\u{301}": "x", "ID": "1", "Z\u{30C}\u{323}": "y"])

        // Widths: Café 4 (five scalars), ID 2, Ẓ̌ 1 (three scalars).
        #expect(
            TableRenderer().render(rows)
                == "Caf\u{65}\u{301}  x\n"
                + "ID    1\n"
                + "Z\u{30C}\u{323}     y\n")
    }

    @Test("wide values do not change the padding, which depends only on the keys")
    func wideValues() {
        let rows = Self.rows(["ID": "名前名前名前", "Name": "👍"])

        #expect(TableRenderer().render(rows) == "ID    名前名前名前\nName  👍\n")
    }

    @Test("dimmed keys are wrapped in SGR 2 and 22, with the padding after the reset")
    func dimmedKeys() {
        let rows = Self.rows(["ID": "1024", "名前": "Ana", "E-mail": "ana@example.com"])

        #expect(
            TableRenderer(style: .dimmedKeys).render(rows)
                == "\u{1B}[2mID\u{1B}[22m      1024\n"
                + "\u{1B}[2m名前\u{1B}[22m    Ana\n"
                + "\u{1B}[2mE-mail\u{1B}[22m  ana@example.com\n")
    }

    @Test("control characters in values and keys are shown as escapes, and keys align by the escaped text")
    func controlCharacters() {
        let rows = Self.rows([
            "ID": "\u{1B}[2J\u{1B}[31mred\u{1B}[0m",
            "bad\nkey": "line one\nline two\r\n",
            "tab": "a\tb\u{7F}\u{9B}c",
        ])

        // The escaped key "bad\u{a}key" is 11 columns wide.
        #expect(
            TableRenderer().render(rows)
                == #"ID           \u{1b}[2J\u{1b}[31mred\u{1b}[0m"# + "\n"
                + #"bad\u{a}key  line one\u{a}line two\u{d}\u{a}"# + "\n"
                + #"tab          a\u{9}b\u{7f}\u{9b}c"# + "\n")
    }

    @Test("dimmed keys are escaped before they are wrapped")
    func dimmedControlCharacters() {
        let rows = Self.rows(["a\u{1B}b": "v"])

        #expect(TableRenderer(style: .dimmedKeys).render(rows) == "\u{1B}[2m" + #"a\u{1b}b"# + "\u{1B}[22m  v\n")
    }

    @Test("on a narrow terminal a long value wraps under itself, at spaces where it can, never into the keys")
    func wrapsAtTheTerminalWidth() {
        let rows = Self.rows([
            "ID": "1024", "Address": "12 Long Street, Springfield, Some Very Long County, Far Away",
            "Token": String(repeating: "x", count: 70),
        ])
        let table = TableRenderer(columns: 40).render(rows)
        #expect(
            table
                == "ID       1024\n"
                + "Address  12 Long Street, Springfield,\n"
                + "         Some Very Long County, Far Away\n"
                + "Token    \(String(repeating: "x", count: 31))\n"
                + "         \(String(repeating: "x", count: 31))\n"
                + "         xxxxxxxx\n")
        for line in table.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 40, "\(line)")
        }
        // In a pipe, nothing is wrapped.
        #expect(TableRenderer().render(rows).split(separator: "\n").count == 3)
    }

    @Test("keys too wide to leave room for values put each value on lines of its own")
    func narrowerThanTheKeys() {
        let rows = Self.rows(["A key far too long for this terminal": "a value that is long too"])
        #expect(
            TableRenderer(columns: 20).render(rows)
                == "A key far too long for this terminal\n  a value that is\n  long too\n")
    }

    @Test("cut values stay on one line each, ended with … at the terminal's width; a pipe gets them whole")
    func cutValues() {
        let rows = Self.rows(["id": "7", "address": "12 Long Street, Springfield, Some County", "名前": "山田太郎さん"])
        #expect(
            TableRenderer(columns: 24, overflow: .cut).render(rows)
                == "id       7\n"
                + "address  12 Long Street…\n"
                + "名前     山田太郎さん\n")
        #expect(TableRenderer(columns: 18, overflow: .cut).render(rows).hasSuffix("名前     山田太郎…\n"))
        #expect(
            TableRenderer(overflow: .cut).render(rows).contains("address  12 Long Street, Springfield, Some County\n"))
    }
}
