import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An address in 127.0.0.0/8 other than 127.0.0.1, picked at random, for a test's own listener, or for an
/// address where nothing listens. Every connection on this machine leaves from 127.0.0.1, and the other tests
/// listen there, so none of them can take a port on it between the moment it is found free and its use.
func privateLoopbackHost() -> String {
    "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
}

/// A port on `host` that nothing listens on just now.
func freeLoopbackPort(on host: String) throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw PortFailure() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw PortFailure() }
    return Int(UInt16(bigEndian: address.sin_port))
}

struct PortFailure: Error {}
