internal import CSecret
import Glibc
import SwaggerModel
import Synchronization

/// Reads a secret over a `plain` Secret Service session, with GDBus, where the session bus is the user's alone.
///
/// libsecret opens every session with a Diffie-Hellman exchange (`dh-ietf1024-sha256-aes128-cbc-pkcs7`) and
/// has no way to ask for `plain`. The exchange hides the secret from whoever else can watch the bus. On a bus
/// that only the user can join, everyone who could watch it may also ask the Secret Service for the secret
/// outright, so there it protects nothing; it costs a 1024-bit key pair and shared secret on each side, about
/// 5 of the 6.5 ms that libsecret's lookup took (dbus-monitor's timestamps, Docs/performance.md). Before its
/// first call, libsecret's service proxy also asks for the name's owner twice, tries to start the service,
/// and loads the service's properties.
///
/// Here a lookup is the bus's `Hello`, one call to the bus that says who runs it, `OpenSession("plain")`
/// once per process, `SearchItems`, and the first unlocked match's `GetSecret`. A bus that is not the user's
/// alone, a Secret Service that offers no plain session, a match that is locked (libsecret unlocks it, which
/// may prompt) and a secret that is not text are all left to libsecret, which then behaves as it always has.
enum PlainSession {
    enum Lookup: Sendable, Equatable {
        case secret(String)
        /// No item matches, locked or not.
        case absent
        /// Ask libsecret.
        case deferred
    }

    /// Whether a plain session may be used on the bus at `address`: every transport it lists is a Unix socket,
    /// which the bus authenticates by the connecting process's user (the `EXTERNAL` mechanism). Whether the bus
    /// admits only that user is asked of the bus itself, once connected.
    static func mayBePlain(address: String) -> Bool {
        address.split(separator: ";").allSatisfy { $0.hasPrefix("unix:") }
    }

    /// The secret of the first unlocked item matching `attributes`.
    static func lookup(_ attributes: [String: String], cancellable: BoundedCall.Cancellable)
        throws(SecretServiceError) -> Lookup
    {
        let library = cancellable.library
        guard let (connection, session) = try channel(cancellable) else { return .deferred }
        let bus = Bus(library: library, connection: connection, cancellable: cancellable)
        let query = attributes.merging(["xdg:schema": schemaName]) { $1 }
        let found = try bus.call(
            Self.service, path: Self.servicePath, interface: Self.serviceInterface, method: "SearchItems",
            [bus.dictionary(query)], reply: "(aoao)")
        defer { library.variantUnref(found) }
        let unlocked = bus.objectPaths(found, at: 0)
        guard let item = unlocked.first else { return bus.objectPaths(found, at: 1).isEmpty ? .absent : .deferred }

        // An item locked or deleted since the search: libsecret's lookup searches again, and unlocks.
        guard
            let reply = try bus.call(
                Self.service, path: item, interface: "org.freedesktop.Secret.Item", method: "GetSecret",
                [library.variantNewObjectPath(session)], reply: "((oayays))",
                unless: { bus.isAbout(theItem: $0) })
        else { return .deferred }
        defer { library.variantUnref(reply) }
        guard let secret = bus.text(ofSecret: reply) else { return .deferred }
        return .secret(secret)
    }

    /// The name under which libsecret stores swaggerctl's schema in each item's `xdg:schema` attribute, which
    /// its lookups add to the attributes given.
    private static var schemaName: String { String(cString: swaggerctl_token_schema().pointee.name) }

    private static let service = "org.freedesktop.secrets"
    private static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"

    /// The connection and the plain session's object path, opened by the first lookup; `nil` once a plain
    /// session has been found unfit, so that every later lookup goes to libsecret without asking again.
    /// Sendable: a GDBusConnection may be used from any thread.
    private enum Channel: @unchecked Sendable {
        case open(connection: OpaquePointer, session: String)
        case refused
    }

    private static let opened = Mutex<Channel?>(nil)

    private static func channel(_ cancellable: BoundedCall.Cancellable)
        throws(SecretServiceError) -> (OpaquePointer, String)?
    {
        switch opened.withLock({ $0 }) {
        case .open(let connection, let session): return (connection, session)
        case .refused: return nil
        case nil: break
        }
        let channel = try open(cancellable)
        // Two first lookups at once each open a channel; the first one kept is the one everyone uses.
        let kept = opened.withLock { kept in
            if kept == nil { kept = channel }
            return kept
        }
        guard case .open(let connection, let session) = kept else { return nil }
        return (connection, session)
    }

    private static func open(_ cancellable: BoundedCall.Cancellable) throws(SecretServiceError) -> Channel {
        let library = cancellable.library
        var error: UnsafeMutablePointer<GError>?
        // The process's shared session-bus connection, which libsecret uses too when a lookup is left to it.
        let connection = library.busGetSync(G_BUS_TYPE_SESSION, cancellable.pointer, &error)
        try LibSecret.check(error, library)
        guard let connection else { throw .busUnreachable("GDBus made no connection") }
        let bus = Bus(library: library, connection: connection, cancellable: cancellable)

        // dbus-daemon admits only the user it runs as, unless its configuration says otherwise. A bus of another
        // user's, or one that cannot say, is shared, and libsecret's encrypted session is kept for it.
        guard
            let user = try bus.call(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "GetConnectionUnixUser", [library.variantNewString("org.freedesktop.DBus")], reply: "(u)",
                unless: { bus.isRefusal($0) })
        else { return .refused }
        defer { library.variantUnref(user) }
        guard bus.child(of: user, at: 0, library.variantGetUInt32) == getuid() else { return .refused }

        // The specification lets a Secret Service refuse a plain session, with NotSupported.
        guard
            let reply = try bus.call(
                Self.service, path: Self.servicePath, interface: Self.serviceInterface, method: "OpenSession",
                [library.variantNewString("plain"), library.variantNewVariant(library.variantNewString(""))],
                reply: "(vo)",
                unless: { bus.isDBusError($0, G_DBUS_ERROR_NOT_SUPPORTED) })
        else { return .refused }
        defer { library.variantUnref(reply) }
        return .open(connection: connection, session: bus.string(reply, at: 1))
    }

    /// GDBus calls and GVariant reading on one connection. Every GVariant that a `get` returns is a new
    /// reference, released here before returning.
    private struct Bus {
        let library: LibSecretLibrary
        let connection: OpaquePointer
        let cancellable: BoundedCall.Cancellable

        /// Calls `method` with `arguments` (floating references, which the call takes), and returns the reply,
        /// which GDBus has checked against `reply` and which the caller releases.
        func call(
            _ destination: String, path: String, interface: String, method: String, _ arguments: [OpaquePointer?],
            reply: String
        ) throws(SecretServiceError) -> OpaquePointer {
            guard
                let answer = try call(
                    destination, path: path, interface: interface, method: method, arguments, reply: reply,
                    unless: { _ in false })
            else {
                preconditionFailure("an error that is never a refusal is thrown")
            }
            return answer
        }

        /// ``call(_:path:interface:method:_:reply:)``, or `nil` when it fails with an error that `refusal` says
        /// means "not here" rather than a failure of the bus or the service. A bus that does not answer, or
        /// answers too late, is a failure: asking libsecret instead would only wait as long again.
        func call(
            _ destination: String, path: String, interface: String, method: String, _ arguments: [OpaquePointer?],
            reply: String, unless refusal: (GError) -> Bool
        ) throws(SecretServiceError) -> OpaquePointer? {
            var error: UnsafeMutablePointer<GError>?
            let parameters = arguments.withUnsafeBufferPointer {
                library.variantNewTuple($0.baseAddress, gsize($0.count))
            }
            let answer = reply.withCString { type in
                library.connectionCallSync(
                    connection, destination, path, interface, method, parameters, OpaquePointer(type),
                    G_DBUS_CALL_FLAGS_NONE, -1, cancellable.pointer, &error)
            }
            if let error, refusal(error.pointee) {
                library.errorFree(error)
                return nil
            }
            try LibSecret.check(error, library)
            guard let answer else { throw .failed("no reply to \(method)") }
            return answer
        }

        func isDBusError(_ error: GError, _ codes: GDBusError...) -> Bool {
            error.domain == library.dbusErrorQuark() && codes.contains { Int32($0.rawValue) == error.code }
        }

        /// An error of the bus itself, other than no answer in time.
        func isRefusal(_ error: GError) -> Bool {
            error.domain == library.dbusErrorQuark()
                && !isDBusError(error, G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT)
        }

        /// An error that says the item is not there, or not readable: one of libsecret's (an item that is
        /// locked, or gone), an unknown object, or an error from the service that GDBus has no name for.
        func isAbout(theItem error: GError) -> Bool {
            error.domain == library.secretErrorQuark()
                || isDBusError(error, G_DBUS_ERROR_UNKNOWN_OBJECT, G_DBUS_ERROR_UNKNOWN_METHOD)
                || (error.domain == library.ioErrorQuark() && error.code == Int32(G_IO_ERROR_DBUS_ERROR.rawValue))
        }

        /// An `a{ss}`.
        func dictionary(_ entries: [String: String]) -> OpaquePointer? {
            let pairs = entries.sorted { $0.key < $1.key }.map { name, value in
                library.variantNewDictEntry(library.variantNewString(name), library.variantNewString(value))
            }
            return "{ss}".withCString { type in
                pairs.withUnsafeBufferPointer {
                    library.variantNewArray(OpaquePointer(type), $0.baseAddress, gsize($0.count))
                }
            }
        }

        func child<Value>(of value: OpaquePointer, at index: Int, _ read: (OpaquePointer) -> Value) -> Value {
            guard let child = library.variantGetChildValue(value, gsize(index)) else {
                preconditionFailure("a reply that GDBus checked has every member of its type")
            }
            defer { library.variantUnref(child) }
            return read(child)
        }

        func string(_ value: OpaquePointer, at index: Int) -> String {
            child(of: value, at: index) { library.variantGetString($0, nil).map { String(cString: $0) } ?? "" }
        }

        /// The object paths of the `ao` at `index`.
        func objectPaths(_ value: OpaquePointer, at index: Int) -> [String] {
            child(of: value, at: index) { array in
                (0..<Int(library.variantNChildren(array))).map { string(array, at: $0) }
            }
        }

        /// The secret of a `((oayays))` reply, when it is text as libsecret's password functions take it: of
        /// type `text/plain`, and UTF-8 without a NUL.
        func text(ofSecret reply: OpaquePointer) -> String? {
            child(of: reply, at: 0) { secret -> String? in
                guard string(secret, at: 3) == "text/plain" else { return nil }
                return child(of: secret, at: 2) { value -> String? in
                    var count: gsize = 0
                    guard let bytes = library.variantGetFixedArray(value, &count, 1) else { return "" }
                    let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(count))
                    guard !buffer.contains(0) else { return nil }
                    return String(validating: buffer, as: UTF8.self)
                }
            }
        }
    }
}
