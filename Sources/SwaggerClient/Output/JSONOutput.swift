import FoundationEssentials
import SwaggerModel

/// JSON for standard output, as `--format json` prints it: pretty, keys sorted, safe on a terminal
/// (``TerminalText/escapedJSON(_:)``), and ending in a newline.
package enum JSONOutput {
    /// - Parameters:
    ///   - value: What to print.
    ///   - fallback: The text for a value that cannot be encoded, such as a number JSON cannot hold.
    package static func render<Value: Encodable>(_ value: Value, fallback: String) -> String {
        guard let data = try? JSONEncoder.swaggerctl.encode(value) else { return fallback + "\n" }
        let text = String(decoding: data, as: UTF8.self)
        // Foundation writes an empty object or array over lines of their own, `{`, a blank line and `}`;
        // jq and every other tool write `{}` and `[]`. A JSON string holds no raw line break, so only structure
        // matches.
        let compacted = text.replacing(/\{\n\s*\n\s*\}/, with: "{}").replacing(/\[\n\s*\n\s*\]/, with: "[]")
        return TerminalText.escapedJSON(compacted) + "\n"
    }
}

extension Profile {
    /// The profile as pretty-printed JSON with sorted keys, ending in a newline. Controls and invisible
    /// characters in keys and values are written as `\u` escapes (``TerminalText/escapedJSON(_:)``).
    package var prettyJSON: String {
        JSONOutput.render(fields, fallback: "{}")
    }
}
