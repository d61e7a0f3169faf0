#ifndef SWAGGERCTL_CSECRET_SHIM_H
#define SWAGGERCTL_CSECRET_SHIM_H

// libsecret's public API. Swift calls the non-variadic functions directly; this header adds only what
// Swift cannot express on its own.
#include <libsecret/secret.h>

#endif
