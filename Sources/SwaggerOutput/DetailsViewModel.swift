import SessionMachine
import SwaggerModel

/// One row of the details table: a label and the text shown for it.
package struct DetailsViewModel: Sendable, Hashable {
    /// The label, such as "First name".
    package var key: String
    /// The value as text; ``unknown`` for a null or missing value.
    package var value: String

    /// What a null or missing value shows as.
    package static let unknown = "unknown"

    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The rows for a profile.
    ///
    /// The fields the server's description labels (`ProfileStep.labels`) come first, in its order and under its
    /// labels, each shown even when the server left it out, and a value that means "none" (the original API's image
    /// id of -1) shown as ``unknown``, as the original app did. Then come the other fields, sorted by name, with
    /// nested objects flattened into `parent.child` keys.
    package static func rows(for profile: Profile, labels: [ProfileLabel]) -> [DetailsViewModel] {
        let known = Set(labels.map(\.field))
        var rows = labels.map { label in
            let value = profile.fields[label.field] ?? .null
            if let none = label.none, value == none {
                return DetailsViewModel(key: label.label, value: unknown)
            }
            return DetailsViewModel(key: label.label, value: text(for: value))
        }
        for name in profile.fields.keys.sorted() where !known.contains(name) {
            flatten(profile.fields[name] ?? .null, key: name, into: &rows)
        }
        return rows
    }

    private static func flatten(_ value: JSONValue, key: String, into rows: inout [DetailsViewModel]) {
        guard case .object(let members) = value, !members.isEmpty else {
            rows.append(DetailsViewModel(key: key, value: text(for: value)))
            return
        }
        for name in members.keys.sorted() {
            flatten(members[name] ?? .null, key: "\(key).\(name)", into: &rows)
        }
    }

    private static func text(for value: JSONValue) -> String {
        switch value {
        case .null: unknown
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): value
        case .array, .object: value.compactJSON
        }
    }
}
