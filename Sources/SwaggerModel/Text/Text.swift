import FoundationEssentials

// Text helpers that FoundationEssentials leaves out. The whole of Foundation has them, but on Linux its
// NSString-based string methods bring in CoreFoundation and ICU: 44 MB of binary and thousands of
// protocol conformances that every dynamic cast at start-up scans. See Docs/performance.md.

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs, as Foundation's `.whitespaces` trims: a line break
    /// stays, so that a check after it still sees one.
    package func trimmingWhitespace() -> String {
        trimming { character in
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
    }

    /// The text without leading and trailing whitespace, line breaks included (`.whitespacesAndNewlines`).
    func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.isWhitespace }
    }

    /// The text without the leading and trailing characters for which `isTrimmed` is true.
    package func trimming(while isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }
}

extension UInt8 {
    /// The byte, an ASCII capital made small: for names that are ASCII by their grammar (a URL's scheme and host,
    /// a header's name), compared or lower-cased without a lower-cased copy of the whole string.
    var asciiLowercased: UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self
    }
}

/// RFC 3986 percent-encoding.
package enum PercentEncoding {
    /// Whether `byte` is one of RFC 3986's unreserved characters (§2.3): a letter, a digit, `-`, `.`, `_` or
    /// `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// `text` with each UTF-8 byte that `keeps` refuses written as `%XX`, and, with `spaceAsPlus`, each space
    /// as `+`, as forms write it.
    package static func encode(
        _ text: String, keeping keeps: (UInt8) -> Bool = isUnreserved, spaceAsPlus: Bool = false
    ) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if keeps(byte) {
                result.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                result.append(UInt8(ascii: "+"))
            } else {
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `text` with each `%XX` decoded; `nil` when a `%` is not followed by two hex digits, or the bytes are
    /// not UTF-8.
    package static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A `Content-Type`, as far as an answer's reader needs it.
package enum MediaType {
    /// The media type `contentType` names when it is a whole `type/subtype` that is not `kind` (`json` is
    /// `application/json` and every `+json`); `nil` when it is `kind`, or missing or too vague to name another
    /// (`json`, `application/`), which an answer whose body is `kind` is read as all the same.
    package static func other(than kind: String, _ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let essence = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace() } ?? ""
        let parts = essence.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[1] != "*" else { return nil }
        let subtype = parts[1]
        return subtype == kind || subtype.hasSuffix("+" + kind) ? nil : String(essence.prefix(60))
    }
}
