import Testing

@testable import SwaggerOutput

@Suite("DisplayWidth: terminal columns of text", .timeLimit(.minutes(5)))
struct DisplayWidthTests {
    @Test(
        "the width of text is the sum of its characters' widths",
        arguments: [
            ("", 0),
            ("ID", 2),
            ("First name", 10),
            ("名前", 4),
            ("メールアドレス", 14),
            ("한국어", 6),
            ("ＡＢ", 4),  // full-width Latin
            ("👍", 2),
            ("👍🏽", 2),  // with a skin tone modifier
            ("❤\u{FE0F}", 2),  // emoji presentation selector
            ("❤", 1),  // text presentation by default
            ("e\u{301}", 1),
            ("Cafe\u{301}", 4),
            ("Z\u{30C}\u{323}", 1),
            ("\u{301}", 0),  // a lone combining mark
            ("👨\u{200D}👩\u{200D}👧", 2),  // a ZWJ family is one picture
            ("a\u{200D}b", 2),  // a joiner between letters takes no column
            ("a\u{200B}b", 2),  // zero-width space
            ("\u{200D}", 0),
            ("Ana 名前 👍", 11),
        ])
    func width(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }
}
