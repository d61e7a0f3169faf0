#ifndef SWAGGERCTL_CSECRET_SHIM_H
#define SWAGGERCTL_CSECRET_SHIM_H

// libsecret's public API, for its types and the functions' signatures. swaggerctl does not link libsecret:
// it loads it with dlopen when the keyring is first used, so that a command that never uses it (the file
// backend, --version, status) never maps libsecret, GLib, GObject and GIO, which costs about 2 ms of every
// start. Swift calls the non-variadic functions (secret_password_storev_sync and the like, which take a
// GHashTable of attributes) through the pointers that dlsym returns, typed by the typedefs below.
#include <libsecret/secret.h>

// One function-pointer type for each function swaggerctl looks up, with the function's own signature.
typedef __typeof__(&secret_password_storev_sync) swaggerctl_secret_password_storev_sync;
typedef __typeof__(&secret_password_lookupv_sync) swaggerctl_secret_password_lookupv_sync;
typedef __typeof__(&secret_password_clearv_sync) swaggerctl_secret_password_clearv_sync;
typedef __typeof__(&secret_password_free) swaggerctl_secret_password_free;
typedef __typeof__(&secret_service_search_sync) swaggerctl_secret_service_search_sync;
typedef __typeof__(&secret_item_get_locked) swaggerctl_secret_item_get_locked;
typedef __typeof__(&secret_item_get_label) swaggerctl_secret_item_get_label;
typedef __typeof__(&secret_item_get_attributes) swaggerctl_secret_item_get_attributes;
typedef __typeof__(&secret_item_get_secret) swaggerctl_secret_item_get_secret;
typedef __typeof__(&secret_item_delete_sync) swaggerctl_secret_item_delete_sync;
typedef __typeof__(&secret_value_get_text) swaggerctl_secret_value_get_text;
typedef __typeof__(&secret_value_unref) swaggerctl_secret_value_unref;
typedef __typeof__(&secret_error_get_quark) swaggerctl_secret_error_get_quark;
typedef __typeof__(&g_io_error_quark) swaggerctl_g_io_error_quark;
typedef __typeof__(&g_dbus_error_quark) swaggerctl_g_dbus_error_quark;
typedef __typeof__(&g_dbus_error_strip_remote_error) swaggerctl_g_dbus_error_strip_remote_error;
typedef __typeof__(&g_error_free) swaggerctl_g_error_free;
typedef __typeof__(&g_hash_table_new_full) swaggerctl_g_hash_table_new_full;
typedef __typeof__(&g_hash_table_insert) swaggerctl_g_hash_table_insert;
typedef __typeof__(&g_hash_table_unref) swaggerctl_g_hash_table_unref;
typedef __typeof__(&g_hash_table_contains) swaggerctl_g_hash_table_contains;
typedef __typeof__(&g_strdup) swaggerctl_g_strdup;
typedef __typeof__(&g_list_free_full) swaggerctl_g_list_free_full;
typedef __typeof__(&g_cancellable_new) swaggerctl_g_cancellable_new;
typedef __typeof__(&g_cancellable_cancel) swaggerctl_g_cancellable_cancel;
typedef __typeof__(&g_cancellable_is_cancelled) swaggerctl_g_cancellable_is_cancelled;
typedef __typeof__(&g_object_unref) swaggerctl_g_object_unref;

// GDBus and GVariant, for the lookup over a plain session (PlainSession.swift), which libsecret cannot make.
typedef __typeof__(&g_bus_get_sync) swaggerctl_g_bus_get_sync;
typedef __typeof__(&g_dbus_connection_call_sync) swaggerctl_g_dbus_connection_call_sync;
typedef __typeof__(&g_variant_new_string) swaggerctl_g_variant_new_string;
typedef __typeof__(&g_variant_new_object_path) swaggerctl_g_variant_new_object_path;
typedef __typeof__(&g_variant_new_variant) swaggerctl_g_variant_new_variant;
typedef __typeof__(&g_variant_new_dict_entry) swaggerctl_g_variant_new_dict_entry;
typedef __typeof__(&g_variant_new_array) swaggerctl_g_variant_new_array;
typedef __typeof__(&g_variant_new_tuple) swaggerctl_g_variant_new_tuple;
typedef __typeof__(&g_variant_get_child_value) swaggerctl_g_variant_get_child_value;
typedef __typeof__(&g_variant_n_children) swaggerctl_g_variant_n_children;
typedef __typeof__(&g_variant_get_string) swaggerctl_g_variant_get_string;
typedef __typeof__(&g_variant_get_uint32) swaggerctl_g_variant_get_uint32;
typedef __typeof__(&g_variant_get_fixed_array) swaggerctl_g_variant_get_fixed_array;
typedef __typeof__(&g_variant_unref) swaggerctl_g_variant_unref;

// The schema of swaggerctl's items. A SecretSchema holds a fixed array of 32 attribute structs, which Swift
// can neither declare as a static constant nor initialise without copying it onto the heap on every call.
//
// SECRET_SCHEMA_NONE: libsecret stores this schema's name in each item's `xdg:schema` attribute, and lookups,
// searches and deletions match on it. An item with the same `service` and `username` written by another
// Secret Service client (python keyring, go-keyring, secret-tool) is then never read as a token, nor
// replaced or deleted: it is not swaggerctl's. secret-tool still finds swaggerctl's items by `service` and
// `username`, because it matches on the attributes it is given alone.
//
// The schema alone is not enough: gnome-keyring's CreateItem with `replace` overwrites, in place, any item
// that has at least the attributes it is given, and keeps that item's `xdg:schema`. So `secret-tool store
// service … username …` turns swaggerctl's item into another program's secret that still carries this
// schema. It drops every attribute the writer did not give, though, so `swaggerctl-item`, which only
// swaggerctl writes, marks the items that are still its own.
static inline const SecretSchema *swaggerctl_token_schema(void) {
    static const SecretSchema schema = {
        "io.swaggerctl.Token",
        SECRET_SCHEMA_NONE,
        {
            {"service", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"username", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"refresh-token-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"client-secret-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"client-key-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"proof-key-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"swaggerctl-item", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {NULL, 0},
        },
    };
    return &schema;
}

#endif
