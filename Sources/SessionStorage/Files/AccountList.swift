import FoundationEssentials
import SwaggerModel

/// A list of per-account elements in a ``PrivateJSONFile``, in which one element that cannot be read
/// affects only its own account.
///
/// An element that no longer decodes (a date no parser accepts, a field of the wrong type) is kept exactly as
/// it is in the file, so nothing is lost when the file is rewritten, and it is attributed to its account when
/// its `server` and `email` can still be read. Replacing or removing that account's element removes the
/// damaged one too, so `logout` can always clear it.
struct AccountList<Element: AccountKeyed>: Sendable {
    private let file: PrivateJSONFile<[Lossy<Element>]>

    init(file: PrivateJSONFile<[Lossy<Element>]>) {
        self.file = file
    }

    var path: String { file.path }

    /// The elements that decode, in file order.
    func elements() throws(SwaggerError) -> [Element] {
        try contents().elements
    }

    /// The accounts of the elements that do not decode; `nil` for one that does not even say whose it is.
    func damaged() throws(SwaggerError) -> [Account?] {
        try contents().damaged
    }

    /// Both of the above, from one read of the file.
    func contents() throws(SwaggerError) -> (elements: [Element], damaged: [Account?]) {
        let all = try file.read()
        return (all.compactMap(\.element), all.filter { $0.element == nil }.map(\.key))
    }

    /// Replaces the element for `element`'s account, damaged or not, or adds it, in one locked update.
    func replace(_ element: Element, durability: PrivateDirectory.Durability? = nil) throws(SwaggerError) {
        try file.update(durability: durability) { (elements) throws(SwaggerError) in
            elements.removeAll { $0.key == element.account }
            elements.append(.decoded(element))
        }
    }

    /// Changes the element for `account` with `change`, in one locked update; says whether there was one to change.
    @discardableResult
    func modify(_ account: Account, _ change: @Sendable (inout Element) -> Void) throws(SwaggerError) -> Bool {
        try file.update { (elements) throws(SwaggerError) in
            guard let index = elements.firstIndex(where: { $0.key == account }),
                case .decoded(var element) = elements[index]
            else { return false }
            change(&element)
            elements[index] = .decoded(element)
            return true
        }
    }

    /// Fails as ``replace(_:durability:)`` would fail to write the list, and changes nothing.
    func checkWritable() throws(SwaggerError) {
        try file.checkWritable()
    }

    /// Removes the element for `account`, damaged or not; returns whether there was one. An absent one costs a
    /// read, no write.
    func remove(_ account: Account) throws(SwaggerError) -> Bool {
        guard try file.read().contains(where: { $0.key == account }) else { return false }
        return try file.update { (elements) throws(SwaggerError) in
            let before = elements.count
            elements.removeAll { $0.key == account }
            return elements.count != before
        }
    }
}

/// An element of a list in a private file, stored under a key of its own.
protocol Keyed: Codable, Sendable {
    associatedtype Key: Hashable & Sendable
    var key: Key { get }
    /// The key of an element that does not decode, when its members still say it.
    static func key(ofDamaged members: [String: JSONValue]) -> Key?
}

/// An element stored under the account it belongs to.
protocol AccountKeyed: Keyed where Key == Account {
    var account: Account { get }
}

extension AccountKeyed {
    var key: Account { account }

    /// Read from a damaged element's `server` and `email`, when they are strings.
    static func key(ofDamaged members: [String: JSONValue]) -> Account? {
        guard case .string(let server) = members["server"], case .string(let email) = members["email"],
            let server = try? ServerURL(server)
        else { return nil }
        return Account(server: server, name: email)
    }
}

/// One element of a list, decoded, or kept as the JSON it was when it could not be.
enum Lossy<Element: Keyed>: Codable, Sendable {
    case decoded(Element)
    case damaged(JSONValue)

    init(from decoder: any Decoder) throws {
        do {
            self = .decoded(try Element(from: decoder))
        } catch {
            self = .damaged(try JSONValue(from: decoder))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .decoded(let element): try element.encode(to: encoder)
        case .damaged(let json): try json.encode(to: encoder)
        }
    }

    /// `json` read by `read`, or kept as it is when it cannot be.
    init(json: JSONValue, _ read: (JSONValue) throws(JSONFields.Mismatch) -> Element) {
        do throws(JSONFields.Mismatch) {
            self = .decoded(try read(json))
        } catch {
            self = .damaged(json)
        }
    }

    var element: Element? {
        if case .decoded(let element) = self { element } else { nil }
    }

    /// Whose element this is, when a damaged one still says.
    var key: Element.Key? {
        switch self {
        case .decoded(let element): element.key
        case .damaged(.object(let members)): Element.key(ofDamaged: members)
        case .damaged: nil
        }
    }
}
