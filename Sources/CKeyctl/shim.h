#ifndef SWAGGERCTL_CKEYCTL_SHIM_H
#define SWAGGERCTL_CKEYCTL_SHIM_H

// The kernel keyring's system calls, without libkeyutils: glibc has no wrappers for them, and syscall(2) is
// variadic, which Swift cannot call. Each returns what the system call does: -1 with errno set on failure.
#include <linux/keyctl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Adds a key to `keyring`, or updates the payload of the key of the same type and description there.
static inline long swaggerctl_add_key(
    const char *type, const char *description, const void *payload, size_t length, int32_t keyring) {
    return syscall(SYS_add_key, type, description, payload, length, keyring);
}

/// Links the calling user's persistent keyring into `destination` and returns its serial; the kernel creates it
/// when it is missing, and starts its expiry timer again.
static inline long swaggerctl_keyctl_get_persistent(int32_t destination) {
    return syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, (uid_t)-1, destination);
}

/// The serial of the key of `type` and `description` in `keyring` or the keyrings it links to.
static inline long swaggerctl_keyctl_search(int32_t keyring, const char *type, const char *description) {
    return syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, type, description, 0);
}

/// Copies at most `capacity` bytes of `key`'s payload into `buffer`; returns the payload's whole length, which may
/// be more than was copied.
static inline long swaggerctl_keyctl_read(int32_t key, void *buffer, size_t capacity) {
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, capacity);
}

static inline long swaggerctl_keyctl_setperm(int32_t key, uint32_t permissions) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, key, permissions);
}

/// Marks `key` invalid: it is gone from every keyring that links it at once, and the kernel frees it soon after.
static inline long swaggerctl_keyctl_invalidate(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_INVALIDATE, key);
}

#endif
