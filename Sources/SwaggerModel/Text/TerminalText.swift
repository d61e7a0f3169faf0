/// Text from a server, made harmless for a terminal: the one sanitiser for error lines, table cells and keys,
/// notices, and JSON output.
///
/// A server can put anything in a message, a header or a profile field: escape sequences that clear the
/// screen or write the clipboard (OSC 52), line breaks that forge a second line, and invisible characters
/// that reorder or hide text (bidi overrides such as U+202E, zero-width characters, tag characters). Each of
/// these is shown as a visible escape instead.
package enum TerminalText {
    /// `text` on one line, with every control character (C0, DEL, C1), line or paragraph separator and
    /// invisible format character shown as `\u{…}`. The joiners and tags inside an emoji sequence, which draw
    /// one picture, are kept.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            let scalars = character.unicodeScalars
            // Fast path: printable ASCII, the common case.
            if scalars.count == 1, let scalar = scalars.first, scalar.value >= 0x20, scalar.value < 0x7F {
                result.unicodeScalars.append(scalar)
                continue
            }
            // Glue is kept only while it still follows the picture: once anything in the sequence has been
            // escaped, a joiner after it would stand alone in the output, outside any emoji.
            var joined = isEmojiSequence(character)
            for scalar in scalars {
                if isUnsafe(scalar), !(joined && isEmojiGlue(scalar)) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                    joined = false
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// JSON text with every character that ``escaped(_:)`` would escape written as a JSON `\uXXXX` escape,
    /// but for the whitespace between tokens. The others can only occur inside JSON strings, so the result is
    /// the same JSON value, and
    /// `jq`, a pager or a terminal shows it without obeying it. Escaping inside emoji sequences too keeps
    /// the rule simple for a format meant for programs.
    /// - Parameter json: JSON text, as an encoder wrote it.
    package static func escapedJSON(_ json: String) -> String {
        // Tab, line feed and carriage return are JSON's own whitespace between tokens; inside a string an
        // encoder always escapes them, so any left raw are layout and stay.
        func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
            isUnsafe(scalar) && scalar != "\n" && scalar != "\t" && scalar != "\r"
        }
        guard json.unicodeScalars.contains(where: mustEscape) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            guard mustEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result
    }

    /// Whether `scalar` must not reach a terminal as it is: a control character (C0, DEL, C1), a line or
    /// paragraph separator, or an invisible format character (bidi controls, zero-width characters, tags).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// Whether `character` draws one emoji picture from several code points, so that its joiners are part
    /// of the picture: 👨‍👩‍👧, 🏳️‍🌈, 🏴󠁧󠁢󠁳󠁣󠁴󠁿.
    private static func isEmojiSequence(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard scalars.count > 1, let first = scalars.first, first.properties.isEmoji else { return false }
        return first.properties.isEmojiPresentation || scalars.contains { $0.value == 0xFE0F }
    }

    /// The zero-width joiner and the tag characters, which join emoji into one picture.
    private static func isEmojiGlue(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)
    }

    /// Server text in quotes: it stands out as the server's words, not swaggerctl's. It is cut here, to
    /// ``serverTextLimit`` characters, and not where it was read: the secrets in it were hidden whole first, so
    /// no cut can leave part of one that the ``Redactor`` no longer recognises.
    package static func quoted(_ text: String) -> String {
        // The sentence that follows has its own full stop.
        let sentence = text.hasSuffix(".") && !text.hasSuffix("..") ? String(text.dropLast()) : text
        return "\"\(cut(sentence))\""
    }

    /// The most characters of a server's words that an error line shows: enough for a sentence, and two lines for
    /// the whole message. `-v` shows all of it.
    static let serverTextLimit = 60

    package static func cut(_ text: String, to limit: Int = serverTextLimit) -> String {
        text.count > limit ? text.prefix(limit) + "…" : text
    }
}
