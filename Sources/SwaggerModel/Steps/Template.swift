/// Text with placeholders for a step's inputs: `Bearer {access}`, `/v3/users/{user_id}`. `{name}` needs the
/// input, and a request that lacks one is not sent; `{name?}` is empty without it, and a member or field that is
/// nothing but an absent `{name?}` is left out. `{{` and `}}` are braces.
package struct Template: Sendable, Hashable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case text(String)
        case input(String, optional: Bool)
    }

    let parts: [Part]
    package let description: String

    /// The longest template read.
    static let lengthLimit = 8192

    /// Reads a template.
    /// - Throws: ``JSONPointer/Invalid`` for a brace that is not closed, or a name that is not one.
    package init(_ text: String) throws(JSONPointer.Invalid) {
        guard text.utf8.count <= Self.lengthLimit else {
            throw JSONPointer.Invalid("a template has at most \(Self.lengthLimit) characters")
        }
        // Read by bytes: a brace is ASCII, never part of another character, and the runs of text between braces are
        // copied whole, where reading it a Character at a time cost as much as the rest of a description.
        var parts: [Part] = []
        var literal = ""
        let bytes = text.utf8
        var index = bytes.startIndex
        while let brace = bytes[index...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
            literal.append(contentsOf: text[index..<brace])
            let next = bytes.index(after: brace)
            if next < bytes.endIndex, bytes[next] == bytes[brace] {
                literal.append(contentsOf: text[brace..<next])
                index = bytes.index(after: next)
                continue
            }
            guard bytes[brace] == UInt8(ascii: "{") else {
                throw JSONPointer.Invalid("a } has no { in \(text.prefix(60)); write }} for a brace")
            }
            guard let close = bytes[next...].firstIndex(of: UInt8(ascii: "}")) else {
                throw JSONPointer.Invalid("a { is not closed in \(text.prefix(60))")
            }
            var name = text[next..<close]
            let optional = name.hasSuffix("?")
            if optional { name = name.dropLast() }
            guard Self.isName(name) else {
                throw JSONPointer.Invalid("{\(name.prefix(40))} is not an input's name in \(text.prefix(60))")
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.input(String(name), optional: optional))
            index = bytes.index(after: close)
        }
        literal.append(contentsOf: text[index...])
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
        description = text
    }

    /// A name: a letter or `_`, then letters, digits and `_`, at most 64.
    static func isName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64,
            first == UInt8(ascii: "_") || first.isASCIILetter
        else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || $0.isASCIIDigit }
    }

    /// The inputs it names.
    package var inputs: [String] {
        parts.compactMap { if case .input(let name, _) = $0 { name } else { nil } }
    }

    /// The inputs it needs: those without `?`.
    package var required: [String] {
        parts.compactMap { if case .input(let name, false) = $0 { name } else { nil } }
    }

    /// Whether it is nothing but one placeholder, `{name}` or `{name?}`.
    var lonePlaceholder: String? {
        guard parts.count == 1, case .input(let name, _) = parts[0] else { return nil }
        return name
    }

    /// What an expansion makes.
    package enum Expansion: Sendable, Hashable {
        case text(String)
        /// An input without `?` has no value.
        case missing(String)
        /// The template is nothing but `{name?}`, which has no value: the member or field is left out.
        case omitted
    }

    /// The text with each placeholder's value, each passed through `encode` (percent-encoding in a URL).
    package func expanded(_ inputs: (String) -> String?, encode: (String) -> String = { $0 }) -> Expansion {
        if parts.count == 1, case .input(let name, true) = parts[0], inputs(name) == nil { return .omitted }
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .input(let name, let optional):
                guard let value = inputs(name) else {
                    if optional { continue }
                    return .missing(name)
                }
                text += encode(value)
            }
        }
        return .text(text)
    }

    /// The text with every placeholder as `{name}`, for `server show`: what is sent, with no value of any input.
    package var shown: String {
        parts.map { part in
            switch part {
            case .text(let literal): literal.replacing("{", with: "{{").replacing("}", with: "}}")
            case .input(let name, _): "{\(name)}"
            }
        }.joined()
    }
}

extension UInt8 {
    var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }

    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}
