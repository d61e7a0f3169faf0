internal import CSecret
import Glibc
import SwaggerModel

/// libsecret's functions, and the GLib ones used with them, loaded with dlopen the first time the keyring is
/// used. A command that never uses the keyring never maps libsecret, GLib, GObject or GIO: linked, they cost
/// about 2 ms of every start, more than a file-backed `swaggerctl token` does otherwise. Without libsecret
/// installed, the keyring is unavailable, as it is without a session bus, and `auto` falls back to the file.
struct LibSecretLibrary: @unchecked Sendable {
    let passwordStorev: swaggerctl_secret_password_storev_sync
    let passwordLookupv: swaggerctl_secret_password_lookupv_sync
    let passwordClearv: swaggerctl_secret_password_clearv_sync
    let passwordFree: swaggerctl_secret_password_free
    let serviceSearch: swaggerctl_secret_service_search_sync
    let itemGetLocked: swaggerctl_secret_item_get_locked
    let itemGetLabel: swaggerctl_secret_item_get_label
    let itemGetAttributes: swaggerctl_secret_item_get_attributes
    let itemGetSecret: swaggerctl_secret_item_get_secret
    let itemDelete: swaggerctl_secret_item_delete_sync
    let valueGetText: swaggerctl_secret_value_get_text
    let valueUnref: swaggerctl_secret_value_unref
    let secretErrorQuark: swaggerctl_secret_error_get_quark
    let ioErrorQuark: swaggerctl_g_io_error_quark
    let dbusErrorQuark: swaggerctl_g_dbus_error_quark
    let dbusErrorStripRemoteError: swaggerctl_g_dbus_error_strip_remote_error
    let errorFree: swaggerctl_g_error_free
    let hashTableNewFull: swaggerctl_g_hash_table_new_full
    let hashTableInsert: swaggerctl_g_hash_table_insert
    let hashTableUnref: swaggerctl_g_hash_table_unref
    let hashTableContains: swaggerctl_g_hash_table_contains
    let strdup: swaggerctl_g_strdup
    let listFreeFull: swaggerctl_g_list_free_full
    let cancellableNew: swaggerctl_g_cancellable_new
    let cancellableCancel: swaggerctl_g_cancellable_cancel
    let cancellableIsCancelled: swaggerctl_g_cancellable_is_cancelled
    let objectUnref: swaggerctl_g_object_unref
    let busGetSync: swaggerctl_g_bus_get_sync
    let connectionCallSync: swaggerctl_g_dbus_connection_call_sync
    let variantNewString: swaggerctl_g_variant_new_string
    let variantNewObjectPath: swaggerctl_g_variant_new_object_path
    let variantNewVariant: swaggerctl_g_variant_new_variant
    let variantNewDictEntry: swaggerctl_g_variant_new_dict_entry
    let variantNewArray: swaggerctl_g_variant_new_array
    let variantNewTuple: swaggerctl_g_variant_new_tuple
    let variantGetChildValue: swaggerctl_g_variant_get_child_value
    let variantNChildren: swaggerctl_g_variant_n_children
    let variantGetString: swaggerctl_g_variant_get_string
    let variantGetUInt32: swaggerctl_g_variant_get_uint32
    let variantGetFixedArray: swaggerctl_g_variant_get_fixed_array
    let variantUnref: swaggerctl_g_variant_unref
    let strHash: GHashFunc
    let strEqual: GEqualFunc
    let free: GDestroyNotify

    /// The library's soname in Debian's libsecret-1-0.
    static let soname = "libsecret-1.so.0"

    /// Loaded once, on first use, by whichever thread asks first; never unloaded.
    static let shared: Result<LibSecretLibrary, SecretServiceError> = Result { () throws(SecretServiceError) in
        try LibSecretLibrary()
    }

    private init() throws(SecretServiceError) {
        // RTLD_LOCAL: GLib's symbols stay out of the global namespace; dlsym on the handle still finds them,
        // because it searches the library's dependencies too.
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw .noLibrary(dlerror().map { String(cString: $0) } ?? Self.soname)
        }
        func symbol<Function>(_ name: String, as type: Function.Type) throws(SecretServiceError) -> Function {
            guard let address = dlsym(handle, name) else {
                throw .noLibrary("\(Self.soname) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        passwordStorev = try symbol("secret_password_storev_sync", as: swaggerctl_secret_password_storev_sync.self)
        passwordLookupv = try symbol("secret_password_lookupv_sync", as: swaggerctl_secret_password_lookupv_sync.self)
        passwordClearv = try symbol("secret_password_clearv_sync", as: swaggerctl_secret_password_clearv_sync.self)
        passwordFree = try symbol("secret_password_free", as: swaggerctl_secret_password_free.self)
        serviceSearch = try symbol("secret_service_search_sync", as: swaggerctl_secret_service_search_sync.self)
        itemGetLocked = try symbol("secret_item_get_locked", as: swaggerctl_secret_item_get_locked.self)
        itemGetLabel = try symbol("secret_item_get_label", as: swaggerctl_secret_item_get_label.self)
        itemGetAttributes = try symbol("secret_item_get_attributes", as: swaggerctl_secret_item_get_attributes.self)
        itemGetSecret = try symbol("secret_item_get_secret", as: swaggerctl_secret_item_get_secret.self)
        itemDelete = try symbol("secret_item_delete_sync", as: swaggerctl_secret_item_delete_sync.self)
        valueGetText = try symbol("secret_value_get_text", as: swaggerctl_secret_value_get_text.self)
        valueUnref = try symbol("secret_value_unref", as: swaggerctl_secret_value_unref.self)
        secretErrorQuark = try symbol("secret_error_get_quark", as: swaggerctl_secret_error_get_quark.self)
        ioErrorQuark = try symbol("g_io_error_quark", as: swaggerctl_g_io_error_quark.self)
        dbusErrorQuark = try symbol("g_dbus_error_quark", as: swaggerctl_g_dbus_error_quark.self)
        dbusErrorStripRemoteError = try symbol(
            "g_dbus_error_strip_remote_error", as: swaggerctl_g_dbus_error_strip_remote_error.self)
        errorFree = try symbol("g_error_free", as: swaggerctl_g_error_free.self)
        hashTableNewFull = try symbol("g_hash_table_new_full", as: swaggerctl_g_hash_table_new_full.self)
        hashTableInsert = try symbol("g_hash_table_insert", as: swaggerctl_g_hash_table_insert.self)
        hashTableUnref = try symbol("g_hash_table_unref", as: swaggerctl_g_hash_table_unref.self)
        hashTableContains = try symbol("g_hash_table_contains", as: swaggerctl_g_hash_table_contains.self)
        strdup = try symbol("g_strdup", as: swaggerctl_g_strdup.self)
        listFreeFull = try symbol("g_list_free_full", as: swaggerctl_g_list_free_full.self)
        cancellableNew = try symbol("g_cancellable_new", as: swaggerctl_g_cancellable_new.self)
        cancellableCancel = try symbol("g_cancellable_cancel", as: swaggerctl_g_cancellable_cancel.self)
        cancellableIsCancelled = try symbol(
            "g_cancellable_is_cancelled", as: swaggerctl_g_cancellable_is_cancelled.self)
        objectUnref = try symbol("g_object_unref", as: swaggerctl_g_object_unref.self)
        busGetSync = try symbol("g_bus_get_sync", as: swaggerctl_g_bus_get_sync.self)
        connectionCallSync = try symbol("g_dbus_connection_call_sync", as: swaggerctl_g_dbus_connection_call_sync.self)
        variantNewString = try symbol("g_variant_new_string", as: swaggerctl_g_variant_new_string.self)
        variantNewObjectPath = try symbol("g_variant_new_object_path", as: swaggerctl_g_variant_new_object_path.self)
        variantNewVariant = try symbol("g_variant_new_variant", as: swaggerctl_g_variant_new_variant.self)
        variantNewDictEntry = try symbol("g_variant_new_dict_entry", as: swaggerctl_g_variant_new_dict_entry.self)
        variantNewArray = try symbol("g_variant_new_array", as: swaggerctl_g_variant_new_array.self)
        variantNewTuple = try symbol("g_variant_new_tuple", as: swaggerctl_g_variant_new_tuple.self)
        variantGetChildValue = try symbol("g_variant_get_child_value", as: swaggerctl_g_variant_get_child_value.self)
        variantNChildren = try symbol("g_variant_n_children", as: swaggerctl_g_variant_n_children.self)
        variantGetString = try symbol("g_variant_get_string", as: swaggerctl_g_variant_get_string.self)
        variantGetUInt32 = try symbol("g_variant_get_uint32", as: swaggerctl_g_variant_get_uint32.self)
        variantGetFixedArray = try symbol("g_variant_get_fixed_array", as: swaggerctl_g_variant_get_fixed_array.self)
        variantUnref = try symbol("g_variant_unref", as: swaggerctl_g_variant_unref.self)
        strHash = try symbol("g_str_hash", as: GHashFunc.self)
        strEqual = try symbol("g_str_equal", as: GEqualFunc.self)
        free = try symbol("g_free", as: GDestroyNotify.self)
    }
}
