#ifndef SWAGGERCTL_CSPAWN_SHIM_H
#define SWAGGERCTL_CSPAWN_SHIM_H

// glibc (2.34 and later) declares posix_spawn_file_actions_addclosefrom_np only under _GNU_SOURCE, which would
// change its other headers from what Swift's Glibc module reads; the function is declared here instead. A child
// started with it closes every descriptor from `from` up before it runs, so it inherits none of swaggerctl's
// sockets, whichever thread opened them and with or without close-on-exec.
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

static inline int swaggerctl_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// prctl is variadic, which Swift cannot call.
#include <sys/prctl.h>

/// Makes the process undumpable: no core file, and no ptrace or /proc/PID/mem by other processes of the same user.
static inline int swaggerctl_set_undumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

// close_range is a GNU extension, declared under _GNU_SOURCE only; see above.
extern int close_range(unsigned int first, unsigned int last, int flags);

/// Marks every descriptor from `from` up close-on-exec, so that a program that replaces this process by exec
/// inherits only the standard streams. NIO opens its sockets without SOCK_CLOEXEC. Returns -1 where the kernel
/// has no close_range (before Linux 5.11), for the caller to do it one descriptor at a time.
static inline int swaggerctl_cloexec_from(unsigned int from) {
    return close_range(from, ~0U, 1U << 2 /* CLOSE_RANGE_CLOEXEC */);
}

#endif
