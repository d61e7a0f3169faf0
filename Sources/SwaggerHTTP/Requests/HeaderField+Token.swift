import SwaggerModel

extension HeaderField {
    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    /// RFC 9110's `tchar`, the characters of a method or header name.
    package static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: tokenSymbols.contains(byte)
        }
    }

    /// Whether `text` is an RFC 9110 token: a method or a header name.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }
}
