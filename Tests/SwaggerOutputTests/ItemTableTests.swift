import FoundationEssentials
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

/// The table `-o table` makes of a list, and the outline of a page that it and the pagination read.
@Suite("Item tables and page outlines", .timeLimit(.minutes(5)))
struct ItemTableTests {
    static let page = Fixtures.otherServer.url.appending(path: "items")

    @Test("-o table: a column for each member of the first items, in the server's order; strings as text")
    func itemTable() throws {
        func table(forTerminal: Bool) throws -> String {
            var table = ItemTable(forTerminal: forTerminal)
            var text = try table.add(
                Data(#"{"items": [{"id": 1, "name": "A\tb", "tags": ["x"]}, {"id": 2, "extra": null}]}"#.utf8),
                from: Self.page)
            text += try table.add(Data(#"[{"name": "\u001b[31mred", "id": 3}]"#.utf8), from: Self.page)
            #expect(table.columns == ["id", "name", "tags", "extra"])
            #expect(throws: SwaggerError.self) { try table.add(Data("<html>".utf8), from: Self.page) }
            return text + table.finish()
        }
        #expect(
            try table(forTerminal: false)
                == "id\tname\ttags\textra\n1\tA\\u{9}b\t[\"x\"]\t\n2\t\t\tnull\n3\t\\u{1b}[31mred\t\t\n")
        #expect(
            try table(forTerminal: true)
                == "ID  NAME           TAGS   EXTRA\n1   A\\u{9}b        [\"x\"]\n2                         null\n"
                + "3   \\u{1b}[31mred\n")
    }

    @Test("-o table of an object that holds no list: a row for each member, nested values as compact JSON")
    func objectTable() throws {
        let body = Data(
            #"{"id": 7, "name": "Ana\nH.", "address": {"city": "Oslo", "zip": "0150"}, "tags": [ "a" ], "x": null}"#
                .utf8)
        var pipe = ItemTable(forTerminal: false, columns: 20)
        let piped = try pipe.add(body, from: Self.page) + pipe.finish()
        #expect(
            piped
                == "id       7\nname     Ana\\u{a}H.\naddress  {\"city\":\"Oslo\",\"zip\":\"0150\"}\ntags     [\"a\"]\n"
                + "x        null\n", "\(piped)")
        var terminal = ItemTable(forTerminal: true, columns: 20)
        let shown = try terminal.add(body, from: Self.page) + terminal.finish()
        #expect(
            shown == "id       7\nname     Ana\\u{a}H.\naddress  {\"city\":\"O…\ntags     [\"a\"]\nx        null\n",
            "\(shown)")
    }

    @Test("operations' columns: cut to the terminal's width with …, whole in a pipe")
    func columnTableWidth() {
        let summary = Array(repeating: "word", count: 20).joined(separator: " ")
        let rows = [["getUser", "GET", "/users/{id}", summary], ["me", "GET", "/me", "Me"]]
        #expect(
            ColumnTable.render(rows: rows, columns: 40)
                == "getUser  GET  /users/{id}  word word wo…\nme       GET  /me          Me\n")
        #expect(ColumnTable.render(rows: rows, columns: nil).hasPrefix("getUser  GET  /users/{id}  \(summary)\n"))
    }

    @Test("-o table prints rows as they come once its columns are known: a long list is not held")
    func streamingTable() throws {
        var table = ItemTable(forTerminal: false)
        let page = { (first: Int) in
            Data(("[" + (first..<first + 15).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]").utf8)
        }
        #expect(try table.add(page(1), from: Self.page) == "")
        let second = try table.add(page(16), from: Self.page)
        #expect(second == "id\n" + (1...30).map { "\($0)\n" }.joined())
        #expect(try table.add(page(31), from: Self.page) == (31...45).map { "\($0)\n" }.joined())
        #expect(table.finish() == "")
    }

    @Test("a page is read once: its members as ranges, its list found and counted, nothing for brackets left open")
    func pageText() throws {
        let page = try #require(
            JSONText.outline(of: Data(#" {"next": "/p/2", "items": [1, {"a": [2, 3]}, "x,]"], "n": 2} "#.utf8)))
        #expect(page.count == 3)
        #expect(page.list.map { String(decoding: page.bytes[$0], as: UTF8.self) } == #"[1, {"a": [2, 3]}, "x,]"]"#)
        #expect(page.members?["next"] == #""/p/2""# && page.members?["n"] == "2" && page.members?["none"] == nil)
        #expect(page.members?.member("items", startsWith: UInt8(ascii: "[")) == true)
        // A member whose value is an object keeps its own name, not the last one read inside it.
        let nested = try #require(
            JSONText.outline(
                of: Data(#"{"links": {"next": "/p/3", "self": {}}, "data": [[1], [], {"x": []}], "z": {}}"#.utf8)))
        #expect(nested.members?["links"] == #"{"next": "/p/3", "self": {}}"# && nested.members?["z"] == "{}")
        #expect(nested.members?["next"] == nil && nested.members?["self"] == nil && nested.count == 3)
        let array = try #require(JSONText.outline(of: Data("[]".utf8)))
        #expect(array.count == 0 && array.members == nil && array.list == 0..<2)
        #expect(JSONText.outline(of: Data(#"{"items": [1, [2]"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data([0x22, 0xFF, 0x22])) == nil)
    }

    @Test("text is JSON only in UTF-8: overlong forms, surrogates and stray continuation bytes are refused")
    func utf8() {
        for valid: [UInt8] in [
            [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ] {
            #expect(JSONText.isJSON(Data([0x22] + valid + [0x22])), "\(valid)")
        }
        for invalid: [UInt8] in [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xC3],
        ] {
            #expect(!JSONText.isJSON(Data([0x22] + invalid + [0x22])), "\(invalid)")
        }
        #expect(!JSONText.isJSON(Data([0xC3, 0xA9])))
    }
}
