internal import CSecret
import SwaggerModel

/// The libsecret calls swaggerctl makes, as blocking functions that take Swift values.
///
/// Each returns or throws a Swift value only: GErrors become ``SecretServiceError`` and are freed with
/// `g_error_free`, secrets are copied into Swift strings and freed with `secret_password_free`, and every
/// GLib object is unreferenced before returning. Call them through ``BoundedCall``, never directly from
/// async code: they block.
enum LibSecret {
    /// Stores `secret` in the default collection under `attributes`, replacing an item with the same ones.
    static func store(
        _ secret: String, label: String, attributes: [String: String], cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) {
        var error: UnsafeMutablePointer<GError>?
        let library = cancellable.library
        let stored = withAttributes(attributes, library) { table in
            library.passwordStorev(swaggerctl_token_schema(), table, nil, label, secret, cancellable.pointer, &error)
        }
        try check(error, cancellable.library)
        guard stored != 0 else { throw .failed("libsecret refused to store the item") }
    }

    /// The secret of the first unlocked item matching `attributes`, or `nil` when none is readable.
    /// libsecret asks the Secret Service to unlock a locked match first; if that fails, this returns `nil`.
    static func lookup(
        attributes: [String: String], cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let library = cancellable.library
        let secret = withAttributes(attributes, library) { table in
            library.passwordLookupv(swaggerctl_token_schema(), table, cancellable.pointer, &error)
        }
        try check(error, library)
        guard let secret else { return nil }
        defer { library.passwordFree(secret) }
        return String(cString: secret)
    }

    /// Deletes every unlocked item matching `attributes`, and says whether there was any. Locked items are
    /// left alone.
    static func clear(
        attributes: [String: String], cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let library = cancellable.library
        let cleared = withAttributes(attributes, library) { table in
            library.passwordClearv(swaggerctl_token_schema(), table, cancellable.pointer, &error)
        }
        try check(error, library)
        return cleared != 0
    }

    /// Counts the items matching `attributes`, locked ones included.
    /// - Parameter unlock: Ask the Secret Service to unlock locked matches first (which may show a prompt).
    /// - Returns: How many matches there are, and how many of them are still locked.
    static func count(
        attributes: [String: String], unlock: Bool, cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) -> (all: Int, locked: Int) {
        var error: UnsafeMutablePointer<GError>?
        let flags =
            unlock ? SecretSearchFlags(SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue) : SECRET_SEARCH_ALL
        let library = cancellable.library
        let items = withAttributes(attributes, library) { table in
            library.serviceSearch(nil, swaggerctl_token_schema(), table, flags, cancellable.pointer, &error)
        }
        try check(error, library)
        defer { library.listFreeFull(items, library.objectUnref) }
        var all = 0
        var locked = 0
        var node = items
        while let current = node {
            all += 1
            if let item = current.pointee.data,
                library.itemGetLocked(item.assumingMemoryBound(to: SecretItem.self)) != 0
            {
                locked += 1
            }
            node = current.pointee.next
        }
        return (all, locked)
    }

    /// The secret of an item that an earlier swaggerctl wrote under `attributes`, before it marked its items with
    /// `marker`: a match without that attribute whose label is still `label`. A secret that another program
    /// stored over such an item has that program's label, and is not one.
    static func unmarkedSecret(
        attributes: [String: String], label: String, marker: String, cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) -> String? {
        let library = cancellable.library
        var secret: String?
        try forEachUnmarked(
            attributes, label: label, marker: marker, loadingSecrets: true, cancellable: cancellable
        ) { item in
            guard secret == nil, let value = library.itemGetSecret(item) else { return }
            defer { library.valueUnref(UnsafeMutableRawPointer(value)) }
            secret = library.valueGetText(value).map { String(cString: $0) }
        }
        return secret
    }

    /// Deletes the items that ``unmarkedSecret(attributes:label:marker:cancellable:)`` reads, and says whether
    /// there was any.
    static func deleteUnmarked(
        attributes: [String: String], label: String, marker: String, cancellable: BoundedCall.Cancellable
    ) throws(SecretServiceError) -> Bool {
        let library = cancellable.library
        var deleted = false
        try forEachUnmarked(
            attributes, label: label, marker: marker, loadingSecrets: false, cancellable: cancellable
        ) { (item) throws(SecretServiceError) in
            var error: UnsafeMutablePointer<GError>?
            _ = library.itemDelete(item, cancellable.pointer, &error)
            try check(error, library)
            deleted = true
        }
        return deleted
    }

    private static func forEachUnmarked(
        _ attributes: [String: String], label: String, marker: String, loadingSecrets: Bool,
        cancellable: BoundedCall.Cancellable,
        _ body: (UnsafeMutablePointer<SecretItem>) throws(SecretServiceError) -> Void
    ) throws(SecretServiceError) {
        var error: UnsafeMutablePointer<GError>?
        let library = cancellable.library
        let flags =
            SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue
            | (loadingSecrets ? SECRET_SEARCH_LOAD_SECRETS.rawValue : 0)
        let items = withAttributes(attributes, library) { table in
            library.serviceSearch(
                nil, swaggerctl_token_schema(), table, SecretSearchFlags(flags), cancellable.pointer, &error)
        }
        try check(error, library)
        defer { library.listFreeFull(items, library.objectUnref) }
        var node = items
        while let current = node {
            node = current.pointee.next
            guard let item = current.pointee.data?.assumingMemoryBound(to: SecretItem.self),
                isUnmarked(item, label: label, marker: marker, library)
            else { continue }
            try body(item)
        }
    }

    private static func isUnmarked(
        _ item: UnsafeMutablePointer<SecretItem>, label: String, marker: String, _ library: LibSecretLibrary
    ) -> Bool {
        guard let itemLabel = library.itemGetLabel(item) else { return false }
        defer { library.free(itemLabel) }
        guard String(cString: itemLabel) == label, let itemAttributes = library.itemGetAttributes(item) else {
            return false
        }
        defer { library.hashTableUnref(itemAttributes) }
        return marker.withCString { library.hashTableContains(itemAttributes, $0) == 0 }
    }

    /// Builds the GHashTable of attributes that the `v` functions take, and frees it afterwards.
    private static func withAttributes<Result>(
        _ attributes: [String: String], _ library: LibSecretLibrary, _ body: (OpaquePointer) -> Result
    ) -> Result {
        guard let table = library.hashTableNewFull(library.strHash, library.strEqual, library.free, library.free)
        else { preconditionFailure("g_hash_table_new_full aborts rather than return no table") }
        defer { library.hashTableUnref(table) }
        for (name, value) in attributes {
            // Whether the key was new: each is, in a table made from a dictionary.
            _ = library.hashTableInsert(table, library.strdup(name), library.strdup(value))
        }
        return body(table)
    }

    /// Turns a GError into a ``SecretServiceError`` and frees it.
    static func check(_ error: UnsafeMutablePointer<GError>?, _ library: LibSecretLibrary)
        throws(SecretServiceError)
    {
        guard let error else { return }
        defer { library.errorFree(error) }
        let domain = error.pointee.domain
        let code = error.pointee.code
        if domain == library.ioErrorQuark(), code == Int32(G_IO_ERROR_CANCELLED.rawValue) {
            throw .cancelled
        }
        if domain == library.secretErrorQuark(), code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
            throw .locked
        }
        _ = library.dbusErrorStripRemoteError(error)
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if domain == library.ioErrorQuark(),
            [G_IO_ERROR_NOT_FOUND, G_IO_ERROR_CONNECTION_REFUSED, G_IO_ERROR_CLOSED, G_IO_ERROR_BROKEN_PIPE]
                .map({ Int32($0.rawValue) }).contains(code)
        {
            throw .busUnreachable(message)
        }
        if domain == library.dbusErrorQuark() {
            switch GDBusError(UInt32(code)) {
            case G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
                G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED, G_DBUS_ERROR_SPAWN_FAILED:
                throw .noService
            case G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT:
                throw .failed("no reply: \(message)")
            default:
                break
            }
        }
        throw .failed(message)
    }
}
