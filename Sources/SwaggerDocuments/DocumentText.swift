import FoundationEssentials
import SwaggerModel

/// A document that may be JSON or YAML, as OpenAPI documents are.
package enum DocumentText {
    /// The document as a value: JSON first, then YAML, of which JSON is a subset but that is slower to read.
    package static func value(of data: Data) -> JSONValue? {
        if let value = JSONValue(parsing: data) { return value }
        return YAMLDocument.value(of: data)
    }
}
