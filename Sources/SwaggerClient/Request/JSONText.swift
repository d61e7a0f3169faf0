import Foundation

/// JSON handled as text: indented and split without being decoded, so that member order, number spellings
/// and escapes stay exactly as the server sent them, as `jq` and `gh` keep them. Foundation's decoder checks
/// that the text is JSON first; only then is it scanned.
public enum JSONText {
    /// The keys under which a page of a list keeps its items, in order of preference: Stack Exchange's and
    /// many others' `items`, Django REST Framework's `results`, `data`, and OData's `value`.
    static let itemKeys = ["items", "results", "data", "value"]

    /// Whether `data` is one JSON value.
    public static func isJSON(_ data: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
    }

    /// `data` indented by two spaces for each level, with `": "` after each key; `nil` when it is not JSON.
    /// - Parameter data: JSON text.
    /// - Returns: The same JSON value, laid out for people.
    public static func indented(_ data: Data) -> String? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var depth = 0
        var index = 0
        func newline() {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, from: index)
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                let next = skippingSpace(bytes, from: index + 1)
                if next < bytes.count, bytes[next] == byte + 2 {  // `}` and `]` follow `{` and `[` by two.
                    output.append(bytes[next])
                    index = next + 1
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline()
            case UInt8(ascii: ":"):
                output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of each item of a page of a list: the elements of a top-level array, or of the array under
    /// one of `items`, `results`, `data` and `value` (in that order of preference) in a top-level object. `nil` when `data` is not JSON or holds no such array.
    /// - Parameter data: A page.
    /// - Returns: Each item's JSON text, as sent.
    public static func items(of data: Data) -> [String]? {
        guard isJSON(data) else { return nil }
        let bytes = [UInt8](data)
        let start = skippingSpace(bytes, from: 0)
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "[") { return elements(bytes, from: start) }
        guard bytes[start] == UInt8(ascii: "{") else { return nil }
        let members = self.members(bytes, from: start)
        for key in itemKeys {
            if let value = members[key], bytes[value.lowerBound] == UInt8(ascii: "[") {
                return elements(bytes, from: value.lowerBound)
            }
        }
        return nil
    }

    // MARK: - Scanning text already known to be JSON

    /// The members of the object that starts at `start`, by key, as ranges of their values. A key written
    /// with escapes is kept as written; none of the keys looked for needs them.
    private static func members(_ bytes: [UInt8], from start: Int) -> [String: Range<Int>] {
        var members: [String: Range<Int>] = [:]
        var index = skippingSpace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let keyEnd = endOfString(bytes, from: index)
            let key = String(decoding: bytes[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            let valueStart = skippingSpace(bytes, from: skippingSpace(bytes, from: keyEnd) + 1)
            let valueEnd = endOfValue(bytes, from: valueStart)
            members[key] = valueStart..<valueEnd
            index = skippingSpace(bytes, from: valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skippingSpace(bytes, from: index + 1)
        }
        return members
    }

    /// The text of each element of the array that starts at `start`.
    private static func elements(_ bytes: [UInt8], from start: Int) -> [String] {
        var elements: [String] = []
        var index = skippingSpace(bytes, from: start + 1)
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            let end = endOfValue(bytes, from: index)
            elements.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = skippingSpace(bytes, from: end)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skippingSpace(bytes, from: index + 1)
        }
        return elements
    }

    /// The index just past the value that starts at `start`.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            // A number, true, false or null: up to the next delimiter.
            var index = start
            while index < bytes.count, !Array(",]} \t\n\r".utf8).contains(bytes[index]) { index += 1 }
            return index
        }
    }

    /// The index just past the closing quote of the string that starts at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    private static func skippingSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, Array(" \t\n\r".utf8).contains(bytes[index]) { index += 1 }
        return index
    }
}
