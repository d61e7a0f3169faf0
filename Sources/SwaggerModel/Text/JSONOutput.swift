import FoundationEssentials

/// JSON for standard output, as `--format json` prints it: pretty, keys sorted, safe on a terminal
/// (``TerminalText/escapedJSON(_:)``), and ending in a newline.
package enum JSONOutput {
    /// - Parameters:
    ///   - value: What to print.
    ///   - fallback: The text for a value that cannot be encoded, such as a number JSON cannot hold.
    package static func render<Value: Encodable>(_ value: Value, fallback: String) -> String {
        guard let data = try? JSONEncoder.swaggerctl.encode(value) else { return fallback + "\n" }
        // Laid out again as `api` lays out a server's JSON, and as jq does: `"key": value`, `{}` and `[]`, where
        // Foundation writes `"key" : value` and an empty object over three lines.
        let text = JSONText.indented(data) ?? String(decoding: data, as: UTF8.self)
        return TerminalText.escapedJSON(text) + "\n"
    }
}

extension Profile {
    /// The profile as pretty-printed JSON with sorted keys, ending in a newline. Controls and invisible
    /// characters in keys and values are written as `\u` escapes (``TerminalText/escapedJSON(_:)``).
    package var prettyJSON: String {
        JSONOutput.render(fields, fallback: "{}")
    }
}
