import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

/// JSON read as text, as the pages of a list are: RFC 8259's grammar, a page's outline and edges, its items, and
/// indenting, each checked against Foundation's parser.
@Suite("JSON text: read without a parser, as sent", .timeLimit(.minutes(5)))
struct JSONTextTests {
    @Test("indenting keeps member order, number spellings and escapes, and empty containers stay on one line")
    func indented() {
        let text = #"{"z":1.50,"a":[ ],"s":"x\"],{y\\","o":{},"n":[1,{"k":null}],"e":1E+2}"#
        #expect(
            JSONText.indented(Data(text.utf8)) == """
                {
                  "z": 1.50,
                  "a": [],
                  "s": "x\\"],{y\\\\",
                  "o": {},
                  "n": [
                    1,
                    {
                      "k": null
                    }
                  ],
                  "e": 1E+2
                }
                """)
        #expect(JSONText.indented(Data("42".utf8)) == "42")
        #expect(JSONText.indented(Data("{\"a\":".utf8)) == nil)
        #expect(JSONText.indented(Data("<html>".utf8)) == nil)
    }

    @Test("JSON is RFC 8259's grammar: no trailing commas, leading zeros, raw controls, bad escapes or deep nesting")
    func grammar() {
        let valid = [#" {"a": [1, -0.5e+3, 1e999, true, null, "\u00e9\n"]} "#, "0", #""x""#, "[]", "{}"]
        for text in valid { #expect(JSONText.isJSON(Data(text.utf8)), "\(text)") }
        let invalid = [
            "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "+1", "'a'", "\"a\u{1}\"", #""\x""#, #""\u12""#, "[1] [2]", "nul",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "",
        ]
        for text in invalid { #expect(!JSONText.isJSON(Data(text.utf8)), "\(text)") }
        #expect(!JSONText.isJSON(Data([0x22, 0xFF, 0x22])))
    }

    @Test("the grammar agrees with Foundation's parser on thousands of texts one edit away from JSON")
    func grammarAgainstFoundation() {
        let seeds = [
            #"{"items": [{"id": 1, "name": "Item 1", "done": false, "tags": ["a", "b"]}], "next": "/p/2"}"#,
            #"[1, -2.5e+3, true, null, {"a": {"b": [[], {}]}}, "x\"y\n"]"#, #"{"a": 0, "b": 1.0E-2}"#,
        ]
        for bytes in JSONEdits.edited(seeds, seed: 8259, fewest: 1) {
            let data = Data(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            // Foundation takes a comma before an object's `}`, which RFC 8259 does not.
            let foundation =
                text.contains(/,\s*[}\]]/)
                ? false
                : (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
            #expect(JSONText.isJSON(data) == foundation, "\(text)")
        }
    }

    /// Outlines `bytes`, without a fault, and when they are a JSON object or array, expects what a parser finds:
    /// the members, each value, the list and its count. Whether they were compared.
    static func outlinedAsParsed(_ bytes: [UInt8]) throws -> Bool {
        func canonical(_ value: Any) throws -> Data {
            try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        func canonical(_ text: Data) throws -> Data {
            try canonical(JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed))
        }
        let outline = JSONText.outline(of: Data(bytes))
        let text = String(decoding: bytes, as: UTF8.self)
        guard JSONText.isJSON(Data(bytes)),
            let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed),
            parsed is [String: Any] || parsed is [Any]
        else { return false }
        let page = try #require(outline, "\(text)")
        if let object = parsed as? [String: Any] {
            let ranges = try #require(page.members?.ranges, "\(text)")
            // A key is kept as written, escapes and all.
            let keys = try ranges.keys.map { try JSONDecoder().decode(String.self, from: Data("\"\($0)\"".utf8)) }
            #expect(Set(keys) == Set(object.keys), "\(text)")
            for (key, range) in ranges {
                let decoded = try JSONDecoder().decode(String.self, from: Data("\"\(key)\"".utf8))
                let value = try #require(object[decoded], "\(text)")
                #expect(try canonical(page.bytes[range]) == canonical(value), "\(text)")
            }
            // The first of the list's usual names that is an array, else, on a page, the only member that is one.
            let arrays = object.values.compactMap { $0 as? [Any] }
            let list =
                JSONText.itemKeys.lazy.compactMap { object[$0] as? [Any] }.first
                ?? (arrays.count == 1 ? arrays[0] : nil)
            #expect(try page.list.map { try canonical(page.bytes[$0]) } == list.map(canonical), "\(text)")
            #expect(page.count == list?.count ?? 0, "\(text)")
        } else {
            #expect(page.members == nil && page.count == (parsed as? [Any])?.count, "\(text)")
        }
        return true
    }

    @Test("a long page's outline is what a parser finds, and the same wherever its blocks of 64 bytes fall")
    func outlineOfLongPages() throws {
        // Strings with escaped quotes and backslashes, brackets and commas inside them, and containers within.
        let values = [
            #""a""#, #""he said \"hi\"""#, #""[{,}]""#, #""back\\slash\\""#, "12", "true", "null", #""\\""#,
            #""\"""#, #""ünï, \u0041""#, #"{"k": [1, "]"]}"#, "[]", "{}", #"[[{"x": ","}], "}"]"#,
        ]
        var generator = SplitMix64(seed: 6455)
        func value() -> String { values[Int(generator.next() % UInt64(values.count))] }
        let seeds = (0..<40).map { round -> String in
            let items = (0..<Int(generator.next() % 30)).map { index in
                round % 4 == 0 ? value() : #"{"id": \#(index), "s": \#(value()), "t": [\#(value()), \#(value())]}"#
            }
            let list = "[" + items.joined(separator: ",") + "]"
            return round % 5 == 0 ? list : #"{"count": \#(items.count), "items": \#(list), "next": "/p/2"}"#
        }
        #expect(try seeds.allSatisfy { try Self.outlinedAsParsed(Array($0.utf8)) })
        let edited = JSONEdits.edited(seeds, seed: 2731, fewest: 1)
        #expect(try edited.count(where: Self.outlinedAsParsed) > 300)
        // The blocks start where a list's contents do: spaces after its `[` move every block boundary.
        func shape(_ bytes: [UInt8]) -> [String]? {
            JSONText.outline(of: Data(bytes)).map { ($0.members?.ranges.keys.sorted() ?? []) + ["\($0.count)"] }
        }
        for (round, bytes) in edited.enumerated() {
            // Unless an edit put that `[` in a key, which the spaces would then change.
            guard let open = bytes.firstIndex(of: UInt8(ascii: "[")),
                shape(bytes)?.contains(where: { $0.contains("[") }) != true
            else { continue }
            var moved = bytes
            moved.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: 1 + round % 63), at: open + 1)
            #expect(shape(moved) == shape(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test("a page's outline finds what a parser finds in JSON, on thousands of texts and their edits")
    func outlineAgainstFoundation() throws {
        let seeds = [
            #" {"items": [{"id": 1, "tags": ["a,b", "c]"]}, {}], "next": "/p/2", "links": {"next": "/p/3"}} "#,
            #"[1, [2, 3], {"a": [4]}, "x\"],y"]"#, #"{"data": [], "ab": {"c": [1, 2]}, "count": 0, "s": "{\\"}"#,
            #"{"value" : [ 1 , 2 ] , "k" : "v" }"#, "[]", "{}",
            // Strings longer than the eight bytes read at a time, with a quote or a backslash past them.
            #"{"results": ["abcdefghij\"kl]mnopqrstu\\", "0123456789abcdef", "x"], "next": "/p/2?q=\"]\""}"#,
        ]
        let compared = try JSONEdits.edited(seeds, seed: 8288, fewest: 0).count(where: Self.outlinedAsParsed)
        #expect(compared > 1500)
        // Brackets that do not close, or text after them, outline nothing; a trailing comma does not stop it.
        #expect(JSONText.outline(of: Data(#"{"items": [1, 2"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"a": "b}"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"a": 1} x"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data("<html>".utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"items": [1,], "n": NaN}"#.utf8))?.members?["n"] == "NaN")
    }

    @Test("the members at a page's edges are the outline's, read from each end, strings with quotes and all")
    func edgeMembers() throws {
        let seeds = [
            #"{"count": 8, "next": "/p/2", "results": [{"a": "]"}], "previous": null, "n": -1.5e3 }"#,
            #"{"items": [1], "note": "a \",\"next\":\"/evil\" b\\", "next": "/p/2"}"#,
            #" { "a" : "x" , "b" : true } "#, #"{"data": {"next": "/in"}, "z": [], "next": "/p/3"}"#,
        ]
        var compared = 0
        for bytes in JSONEdits.edited(seeds, seed: 8287, fewest: 0) {
            let text = String(decoding: bytes, as: UTF8.self)
            let edges = JSONText.edgeMembers(of: Data(bytes))
            guard JSONText.isJSON(Data(bytes)), let outline = JSONText.outline(of: Data(bytes))?.members else {
                continue
            }
            // Each member found at an edge is one of the object's, with the value it has there.
            let found = try #require(edges, "\(text)")
            for (key, range) in found.ranges { #expect(outline.ranges[key] == range, "\(text)") }
            compared += 1
        }
        #expect(compared > 1000)
        let drf = try #require(JSONText.edgeMembers(of: Data(seeds[0].utf8)))
        #expect(Set(drf.ranges.keys) == ["count", "next", "previous", "n"] && drf["n"] == "-1.5e3")
        let quoted = try #require(JSONText.edgeMembers(of: Data(seeds[1].utf8)))
        #expect(quoted["next"] == #""/p/2""# && quoted["note"] == #""a \",\"next\":\"/evil\" b\\""#)
        #expect(JSONText.edgeMembers(of: Data(seeds[3].utf8))?["next"] == #""/p/3""#)
        #expect(JSONText.edgeMembers(of: Data("[1]".utf8)) == nil)
    }

    @Test("a page's items: a top-level array, or the array under items, results, data or value, each as sent")
    func items() {
        #expect(
            JSONText.items(of: Data(#" [ {"b":1, "a":2} , "x,]" ,3 ] "#.utf8)) == [#"{"b":1, "a":2}"#, #""x,]""#, "3"])
        #expect(
            JSONText.items(of: Data(#"{"count":2,"results":[{"pk":1},{"pk":2}],"next":null}"#.utf8)) == [
                #"{"pk":1}"#, #"{"pk":2}"#,
            ])
        #expect(JSONText.items(of: Data(#"{"data":{"id":1},"value":[]}"#.utf8)) == [])
        #expect(JSONText.items(of: Data(#"{"id":1}"#.utf8)) == nil)
        #expect(JSONText.items(of: Data("[1,".utf8)) == nil)
    }
}
