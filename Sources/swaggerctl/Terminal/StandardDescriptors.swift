import Glibc

/// The standard descriptors, 0, 1 and 2, as a process that was started with one of them closed must find them.
enum StandardDescriptors {
    /// Opens `/dev/null` in each of the three slots that is closed. Called first thing in `main`, before anything
    /// opens a descriptor: the kernel gives the lowest free number, so the command loop's epoll descriptor, a socket
    /// or the keyring's connection would otherwise take the slot, and be written to as stdout or stderr, or be
    /// handed to `exec`'s command as one of its streams.
    ///
    /// - Returns: Whether each slot holds a descriptor; `false` only when `/dev/null` could not be opened.
    static func openClosed() -> Bool {
        for slot: Int32 in 0...2 where fcntl(slot, F_GETFD) == -1 && errno == EBADF {
            // The slots below this one are open, so the lowest free number is this one. Not close-on-exec: a child
            // inherits its standard streams.
            let descriptor = open("/dev/null", slot == 0 ? O_RDONLY : O_WRONLY)
            guard descriptor == slot else { return false }
        }
        return true
    }
}
