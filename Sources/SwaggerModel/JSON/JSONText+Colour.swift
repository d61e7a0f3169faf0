import FoundationEssentials

/// JSON coloured for a terminal, as jq colours it.
extension JSONText {
    /// SGR colours for JSON on a terminal, jq's: keys bold blue, strings green, `null` grey, the rest plain.
    enum Colour {
        static let key = "\u{1B}[1;34m"
        static let string = "\u{1B}[32m"
        static let null = "\u{1B}[1;30m"
        static let reset = "\u{1B}[0m"
    }

    /// `text`, JSON that ``indented(_:)`` laid out and ``TerminalText/escapedJSON(_:)`` made safe, coloured as
    /// jq colours it. The text holds no escape character of its own, so the colours are the only ones.
    package static func coloured(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = endOfString(bytes, from: index)
                let isKey =
                    skippingSpace(bytes, from: end) < bytes.count
                    && bytes[skippingSpace(bytes, from: end)] == UInt8(ascii: ":")
                output +=
                    Array((isKey ? Colour.key : Colour.string).utf8) + bytes[index..<end] + Array(Colour.reset.utf8)
                index = end
            } else if byte == UInt8(ascii: "n"), bytes[index...].starts(with: Array("null".utf8)) {
                output += Array("\(Colour.null)null\(Colour.reset)".utf8)
                index += 4
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
