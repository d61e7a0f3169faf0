import Foundation
import Testing

/// The messages written where they are thrown, rather than in the failure types' own renderings: every `SwaggerError(code, "…")` and
/// every warning in the program's sources, read from the source text, with each interpolation counted as 23
/// characters (a server's URL, `https://api.example.com`). Each must fit two lines at 80 columns with its prefix.
@Suite("Message catalogue: the messages thrown where they happen fit two lines too", .timeLimit(.minutes(5)))
struct MessageSourceTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// What interpolations stand for: as long as `https://api.example.com`.
    static let placeholder = String(repeating: "x", count: 23)

    struct Message: CustomStringConvertible, Sendable {
        var place: String
        var text: String
        var prefix: Int
        var description: String { "\(place): \(text)" }
    }

    /// Every message: the string literals of each call's arguments, joined, as the line would read.
    static let messages: [Message] = {
        let sources = root.appending(path: "Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: [Message] = []
        for file in files where !file.path.contains("/DemoServer/") && !file.path.contains("/SwaggerAPI/") {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let bytes = Array(text.utf8)
            for (pattern, prefix) in [
                (#/SwaggerError\(\s*(?:error\.code|ended\.code|reason\.code|\.[a-z]+),/#, 12),
                (#/\bwarn\(|Terminal\.warning\(/#, 21),
            ] as [(Regex<Substring>, Int)] {
                for match in text.matches(of: pattern) {
                    let start = text.utf8.distance(from: text.startIndex, to: match.range.upperBound)
                    let literal = literals(bytes, from: start)
                    guard !literal.isEmpty else { continue }
                    let line = text[..<match.range.lowerBound].count { $0 == "\n" } + 1
                    found.append(Message(place: "\(file.lastPathComponent):\(line)", text: literal, prefix: prefix))
                }
            }
        }
        return found
    }()

    /// The string literals up to the call's closing parenthesis, joined, interpolations replaced.
    static func literals(_ bytes: [UInt8], from start: Int) -> String {
        var depth = 1
        var index = start
        var out: [UInt8] = []
        while index < bytes.count, depth > 0 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        if bytes[index + 1] == UInt8(ascii: "(") {
                            // An interpolation: skip to its closing parenthesis.
                            var nested = 1
                            index += 2
                            while index < bytes.count, nested > 0 {
                                if bytes[index] == UInt8(ascii: "(") { nested += 1 }
                                if bytes[index] == UInt8(ascii: ")") { nested -= 1 }
                                index += 1
                            }
                            out += Array(placeholder.utf8)
                            continue
                        }
                        out.append(bytes[index + 1])
                        index += 2
                        continue
                    }
                    out.append(bytes[index])
                    index += 1
                }
            } else if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("the sources hold the messages this test reads")
    func found() {
        #expect(Self.messages.count > 40, "\(Self.messages.count)")
    }

    @Test("each fits two lines of 80 columns", arguments: messages)
    func twoLines(message: Message) {
        #expect(message.prefix + message.text.count <= 160, "\(message.prefix + message.text.count) characters")
    }

    @Test("one style: seconds as \"10 s\", statuses as \"(HTTP 404)\"", arguments: messages)
    func style(message: Message) {
        #expect(message.text.firstMatch(of: #/ sec\b/#) == nil, "seconds are written \"10 s\"")
        #expect(!message.text.contains("with HTTP") && !message.text.contains("HTTP status"))
    }
}
