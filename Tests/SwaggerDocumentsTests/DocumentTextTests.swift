import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerDocuments

@Suite("Documents read as JSON or YAML, bounded against hostile ones", .timeLimit(.minutes(5)))
struct DocumentTextTests {
    @Test("a document nested deeper than the limit is no document, in JSON or YAML, flow or block")
    func deepDocuments() {
        let limit = JSONValue.depthLimit
        func flow(_ depth: Int) -> Data {
            Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        }
        func block(_ depth: Int) -> Data {
            Data((0..<depth).map { String(repeating: " ", count: 2 * $0) + "k:" }.joined(separator: "\n").utf8)
        }
        // The innermost value of flow(n) is an empty list at level n; of block(n), a null at level n + 1.
        #expect(DocumentText.value(of: flow(limit)).map(\.nesting) == limit)
        #expect(DocumentText.value(of: block(limit - 1)).map(\.nesting) == limit - 1)
        #expect(DocumentText.value(of: flow(limit + 1)) == nil)
        #expect(DocumentText.value(of: block(limit)) == nil)
        // Unclosed, as a hostile server sends it: 200 KB crashed, and 2 MB took minutes, before the bound.
        for size in [200_000, 2_000_000] {
            #expect(DocumentText.value(of: Data(repeating: UInt8(ascii: "["), count: size)) == nil)
            #expect(DocumentText.value(of: Data(String(repeating: "- ", count: size / 2).utf8)) == nil)
        }
    }

    @Test("aliases count as the nodes they repeat, so nested aliases (billion laughs) are refused")
    func aliasBomb() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(refs)]")
        }
        let bomb = Data(lines.joined(separator: "\n").utf8)
        #expect(YAMLDocument.value(of: bomb) == nil)
        // A few aliases, as real documents use them, are read.
        let small = Data(lines.prefix(4).joined(separator: "\n").utf8)
        guard case .object(let members)? = YAMLDocument.value(of: small), case .array(let top)? = members["a3"] else {
            Issue.record("the document with a few aliases was not read")
            return
        }
        #expect(top.count == 10)
    }

    @Test("a key that is not a scalar names nothing: its value is dropped, and the members after it are read")
    func complexKey() {
        // The empty key comes first: a complex key read as "" would overwrite it.
        let text = Data("'': empty\n? [a, b]\n: dropped\n? {c: d}\n: [dropped]\nkept: 1\n".utf8)
        #expect(YAMLDocument.value(of: text) == .object(["kept": .integer(1), "": .string("empty")]))
    }
}
