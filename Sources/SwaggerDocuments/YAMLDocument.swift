internal import CYAML
import FoundationEssentials
import SwaggerModel

/// A YAML document read with libyaml into a `JSONValue`, as OpenAPI documents written in YAML need.
///
/// Plain scalars are typed by YAML 1.2's core schema: `null`, `~` and nothing are null; `true` and `false`
/// booleans; decimal, `0o` and `0x` integers; decimal floats, `.inf` and `.nan` numbers; everything else,
/// and every quoted scalar, a string. YAML 1.1's sexagesimal integers are not, so `https://host:8443/v2`
/// stays a string. Aliases take their anchor's value; only the first document is read.
enum YAMLDocument {
    /// The document's value; `nil` when it is not YAML.
    static func value(of data: Data) -> JSONValue? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> JSONValue? in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
            yaml_parser_set_input_string(&parser, base, bytes.count)
            var reader = Reader()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch reader.take(event) {
                case .more: continue
                case .done(let value): return value
                case .failed: return nil
                }
            }
        }
    }

    /// The most nodes read, aliases counted as the nodes they repeat: a bound on time and memory that a
    /// billion-laughs document of nested aliases cannot get around.
    static let nodeLimit = 2_000_000

    /// Builds the value from libyaml's events.
    private struct Reader {
        enum Step {
            case more
            case done(JSONValue?)
            case failed
        }

        /// An open sequence or mapping, with its anchor; a mapping holds its pending key. Each is changed in
        /// place at the top of the stack: taking it off and putting it back would copy every element each time.
        private struct Frame {
            var isMapping: Bool
            var anchor: String?
            var elements: [JSONValue] = []
            var members: [String: JSONValue] = [:]
            var key: Key?
            /// The nodes inside, counted for each anchor's aliases.
            var nodes = 1
        }

        /// A mapping's key, read and waiting for its value.
        private enum Key {
            case named(String)
            /// A key that is not a scalar (YAML allows any node): it names nothing a document needs, so its
            /// value is dropped.
            case unnamed
        }

        private var open: [Frame] = []
        private var anchors: [String: (value: JSONValue, nodes: Int)] = [:]
        private var root: JSONValue?
        private var nodes = 0

        mutating func take(_ event: yaml_event_t) -> Step {
            switch event.type {
            case YAML_SCALAR_EVENT:
                guard open.count < JSONValue.depthLimit else { return .failed }
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let plain = scalar.plain_implicit == 1 && scalar.style == YAML_PLAIN_SCALAR_STYLE
                let tag = scalar.tag.map { String(cString: $0) }
                return add(
                    YAMLDocument.scalar(text, plain: plain, tag: tag), nodes: 1, anchor: Self.text(scalar.anchor))
            case YAML_SEQUENCE_START_EVENT:
                return start(Frame(isMapping: false, anchor: Self.text(event.data.sequence_start.anchor)))
            case YAML_MAPPING_START_EVENT:
                return start(Frame(isMapping: true, anchor: Self.text(event.data.mapping_start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = open.popLast() else { return .failed }
                let value: JSONValue = frame.isMapping ? .object(frame.members) : .array(frame.elements)
                // Counted as its elements were added.
                return add(value, nodes: 0, anchor: frame.anchor, inside: frame.nodes)
            case YAML_ALIAS_EVENT:
                guard open.count < JSONValue.depthLimit, let name = Self.text(event.data.alias.anchor),
                    let anchored = anchors[name]
                else {
                    return .failed
                }
                return add(anchored.value, nodes: anchored.nodes, anchor: nil)
            case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                return .done(root)
            default:
                return .more
            }
        }

        private mutating func start(_ frame: Frame) -> Step {
            nodes += 1
            // libyaml checks every open flow level at every token, so depth also costs time.
            guard open.count < JSONValue.depthLimit, nodes <= YAMLDocument.nodeLimit else { return .failed }
            open.append(frame)
            return .more
        }

        /// Adds `value`, which brings `nodes` more nodes, to the open container; `inside` is the size of a
        /// container being closed, for its anchor.
        private mutating func add(_ value: JSONValue, nodes added: Int, anchor: String?, inside: Int? = nil)
            -> Step
        {
            nodes += added
            guard nodes <= YAMLDocument.nodeLimit else { return .failed }
            let size = inside ?? added
            if let anchor { anchors[anchor] = (value, size) }
            guard !open.isEmpty else {
                root = value
                return .more
            }
            let top = open.count - 1
            open[top].nodes += size
            guard open[top].isMapping else {
                open[top].elements.append(value)
                return .more
            }
            switch open[top].key {
            case .named(let key):
                open[top].members[key] = value
                open[top].key = nil
            case .unnamed:
                open[top].key = nil
            case nil:
                open[top].key =
                    switch value {
                    case .string(let text): .named(text)
                    case .integer(let number): .named(String(number))
                    case .bool(let flag): .named(String(flag))
                    default: .unnamed
                    }
            }
            return .more
        }

        private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }
    }

    /// A scalar's value: a quoted or tagged string as it is, a plain one typed by the core schema.
    static func scalar(_ text: String, plain: Bool, tag: String?) -> JSONValue {
        if let tag, tag != "?" {
            switch tag {
            case "tag:yaml.org,2002:null": return .null
            case "tag:yaml.org,2002:bool": return bool(text).map(JSONValue.bool) ?? .string(text)
            case "tag:yaml.org,2002:int": return integer(text).map(JSONValue.integer) ?? .string(text)
            case "tag:yaml.org,2002:float": return number(text).map(JSONValue.number) ?? .string(text)
            default: return .string(text)
            }
        }
        guard plain else { return .string(text) }
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if let flag = bool(text) { return .bool(flag) }
        if let whole = integer(text) { return .integer(whole) }
        if let real = number(text) { return .number(real) }
        return .string(text)
    }

    private static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    private static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0o") { return Int64(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(text.first == "+" ? String(digits) : text)
    }

    private static func number(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        // The core schema's float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        let allowed = Set("0123456789+-.eE")
        guard text.contains(where: \.isNumber), text.allSatisfy(allowed.contains) else { return nil }
        return Double(text)
    }
}
