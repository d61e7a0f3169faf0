import FoundationEssentials
import SwaggerModel
import SwaggerOutput

/// One field of `swaggerctl api`, as `gh api` takes them: `-f key=value` sends the text as it is; `-F key=value`
/// types it (`true`, `false`, `null` and integers become JSON's, `@file` and `@-` read a file or standard input,
/// and `key:=json` is any JSON value). A key names a place in the body: `user[name]=ana` a member of an object,
/// `tags[]=a` an element of an array, and `tags[]` alone an empty array.
package struct RequestField: Sendable, Hashable {
    /// The key as given, such as `user[name]`: the query takes it as it is.
    package var key: String
    /// The value; `nil` for `key[]` with none, an empty array.
    package var value: JSONValue?

    /// How a field's value is read: `-f`'s text, or `-F`'s typed value.
    package enum Kind: Sendable, Hashable {
        case raw, typed
    }

    /// Where a field's value comes from, before any file is read.
    package enum Source: Sendable, Hashable {
        case value(RequestField)
        /// The text of this file, or of standard input for `-`, as the string value of `key`.
        case file(key: String, path: String)
    }

    package init(key: String, value: JSONValue?) {
        self.key = key
        self.value = value
    }

    package init(key: String, string: String) {
        self.init(key: key, value: .string(string))
    }

    /// Parses a `-f` (`raw`) or `-F` (`typed`) argument.
    /// - Throws: `SwaggerError` with code `usage` for a field with no key or value, a key whose brackets do not
    ///   close, or `:=` with text that is not JSON.
    package static func parse(_ argument: String, _ kind: Kind) throws(SwaggerError) -> Source {
        let flag = kind == .raw ? "-f" : "-F"
        guard let equals = argument.firstIndex(of: "=") else {
            // `key[]` alone is an empty array, as gh makes it.
            if argument.hasSuffix("[]"), argument.count > 2 {
                _ = try path(of: argument, flag: flag)
                return .value(RequestField(key: argument, value: nil))
            }
            throw SwaggerError(.usage, "\(flag) \(TerminalText.escaped(argument)) has no value; write key=value.")
        }
        var key = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        let isJSON = kind == .typed && key.hasSuffix(":")
        if isJSON { key.removeLast() }
        guard !key.isEmpty else { throw SwaggerError(.usage, "\(flag) \(TerminalText.escaped(argument)) has no key.") }
        _ = try path(of: key, flag: flag)
        switch kind {
        case .raw:
            return .value(RequestField(key: key, string: text))
        case .typed where isJSON:
            guard let value = JSONValue(parsing: text) else {
                throw SwaggerError(
                    .usage, "-F \(TerminalText.escaped(key)):= takes JSON, such as 42, true, null, [1,2] or {\"a\":1}.")
            }
            return .value(RequestField(key: key, value: value))
        case .typed where text.hasPrefix("@"):
            return .file(key: key, path: String(text.dropFirst()))
        case .typed:
            return .value(RequestField(key: key, value: typed(text)))
        }
    }

    /// `-F`'s value: `true`, `false` and `null` as JSON's, an integer as a number, anything else as text.
    static func typed(_ text: String) -> JSONValue {
        switch text {
        case "true": .bool(true)
        case "false": .bool(false)
        case "null": .null
        default: Int64(text).map(JSONValue.integer) ?? .string(text)
        }
    }

    /// One step of a key: a member of an object, or the next element of an array.
    enum Step: Hashable {
        case member(String)
        case append
    }

    /// The steps of `key`: `a[b][]` is `a`, `b`, then an element.
    static func path(of key: String, flag: String = "-F") throws(SwaggerError) -> [Step] {
        guard let open = key.firstIndex(of: "[") else { return [.member(key)] }
        var steps: [Step] = [.member(String(key[..<open]))]
        var rest = key[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]"), !key[..<open].isEmpty else {
                throw SwaggerError(
                    .usage, "\(flag) \(TerminalText.escaped(key)): write nested keys as name[member] or name[].")
            }
            let inside = rest[rest.index(after: rest.startIndex)..<close]
            steps.append(inside.isEmpty ? .append : .member(String(inside)))
            rest = rest[rest.index(after: close)...]
        }
        return steps
    }

    /// The value in a query, percent-encoded: a string as it is, anything else as its JSON text.
    var queryItem: URLQueryItem {
        let text: String =
            switch value {
            case .string(let string): string
            case let other?: other.compactJSON
            case nil: ""
            }
        return URLQueryItem(name: PercentEncoding.encode(key), value: PercentEncoding.encode(text))
    }

    /// The fields as one JSON object, in which each key names its place; a key given twice keeps its last value,
    /// and `a[][x]=1 -F a[][y]=2` makes one element, as gh does, until a member repeats.
    /// - Throws: `SwaggerError` with code `usage` when two keys want one place as two kinds of value.
    static func object(_ fields: [RequestField]) throws(SwaggerError) -> String {
        try value(of: fields).compactJSON
    }

    /// The fields as one JSON object, as ``object(_:)`` writes it.
    static func value(of fields: [RequestField]) throws(SwaggerError) -> JSONValue {
        var root: JSONValue? = .object([:])
        for field in fields {
            let steps = try path(of: field.key)
            guard insert(field.value ?? .array([]), at: steps[...], into: &root) else {
                throw SwaggerError(
                    .usage,
                    "-F \(TerminalText.escaped(field.key)): another field already put a value of another kind there.")
            }
        }
        return root ?? .object([:])
    }

    /// Puts `value` at `steps` under `node`; `false` when a step finds a value of the wrong kind.
    private static func insert(_ value: JSONValue, at steps: ArraySlice<Step>, into node: inout JSONValue?) -> Bool {
        guard let step = steps.first else {
            node = value
            return true
        }
        let rest = steps.dropFirst()
        switch (step, node) {
        case (.member(let name), nil), (.member(let name), .object?):
            var members: [String: JSONValue] = if case .object(let existing)? = node { existing } else { [:] }
            var child = members[name]
            guard insert(value, at: rest, into: &child) else { return false }
            members[name] = child
            node = .object(members)
            return true
        case (.append, nil), (.append, .array?):
            var elements: [JSONValue] = if case .array(let existing)? = node { existing } else { [] }
            // `a[][x]=1 a[][y]=2` fills one object; a member it has already starts the next.
            if case .member(let name)? = rest.first, case .object(let members)? = elements.last, members[name] == nil {
                var last = elements.last
                guard insert(value, at: rest, into: &last) else { return false }
                elements[elements.count - 1] = last ?? .null
            } else if value == .array([]), rest.isEmpty {
                // `a[]` alone: the array, with nothing in it.
            } else {
                var element: JSONValue?
                guard insert(value, at: rest, into: &element) else { return false }
                elements.append(element ?? .null)
            }
            node = .array(elements)
            return true
        default:
            return false
        }
    }
}
