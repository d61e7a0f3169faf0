#ifndef SWAGGERCTL_CSECRET_SHIM_H
#define SWAGGERCTL_CSECRET_SHIM_H

// libsecret's public API. Swift calls the non-variadic functions (secret_password_storev_sync and the
// like, which take a GHashTable of attributes) directly; this header adds only what Swift cannot
// express on its own.
#include <libsecret/secret.h>

// The schema of swaggerctl's items. A SecretSchema holds a fixed array of 32 attribute structs, which Swift
// can neither declare as a static constant nor initialise without copying it onto the heap on every call.
//
// SECRET_SCHEMA_DONT_MATCH_NAME: lookups match on the attributes alone, not on this schema name, so an item
// with the same `service` and `username` written by another Secret Service client (secret-tool, python
// keyring, go-keyring) is found too.
static inline const SecretSchema *swaggerctl_token_schema(void) {
    static const SecretSchema schema = {
        "io.swaggerctl.Token",
        SECRET_SCHEMA_DONT_MATCH_NAME,
        {
            {"service", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"username", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"refresh-token-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {"client-secret-for", SECRET_SCHEMA_ATTRIBUTE_STRING},
            {NULL, 0},
        },
    };
    return &schema;
}

#endif
