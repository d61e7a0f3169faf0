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

    /// The API's profile fields in display order, with their labels.
    package static let knownFields: [(field: String, label: String)] = [
        ("id", "ID"),
        ("name", "First name"),
        ("surname", "Last name"),
        ("fullName", "Full name"),
        ("imageId", "Image ID"),
        ("adress", "Address"),
        ("phonenumber", "Phone number"),
        ("oib", "OIB"),
        ("email", "E-mail"),
        ("statusId", "Status"),
    ]

    /// The rows for a profile.
    ///
    /// The API's fields come first, in a fixed order with human labels, each shown even when the server left
    /// it out. Then come the fields the server added, sorted by name, with nested objects flattened into
    /// `parent.child` keys. An image id of -1 means "no image" and shows as ``unknown``, as the original
    /// app did.
    ///
    /// A profile from another kind of server (Identity's `/manage/info`, an OpenID Connect userinfo answer) has
    /// fields of its own, so it shows only those, sorted by name, flattened the same way.
    package static func rows(for profile: Profile, kind: ServerKind) -> [DetailsViewModel] {
        guard kind == .original else {
            var rows: [DetailsViewModel] = []
            for name in profile.fields.keys.sorted() { flatten(profile.fields[name] ?? .null, key: name, into: &rows) }
            return rows
        }
        let known = Set(knownFields.map(\.field))
        var rows = knownFields.map { field, label in
            let value = profile.fields[field] ?? .null
            if field == "imageId", value == .integer(-1) {
                return DetailsViewModel(key: label, value: unknown)
            }
            return DetailsViewModel(key: label, value: text(for: value))
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
