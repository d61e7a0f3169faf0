import Foundation

/// Debian's tinyproxy on a free loopback port, logging every request it carries, for the proxy tests.
final class Tinyproxy: StoppableProcess {
    let port: Int
    private let folder: URL
    private let process: Process

    /// `http://127.0.0.1:PORT`, or with `user:password@` when the proxy asks for them.
    let url: String

    /// Starts tinyproxy in the foreground; with `credentials`, it demands them (`BasicAuth`).
    static func start(credentials: (user: String, password: String)? = nil) async throws -> Tinyproxy {
        try await onDedicatedThread { try Tinyproxy(credentials: credentials) }
    }

    private init(credentials: (user: String, password: String)?) throws {
        port = try freeLoopbackPort()
        folder = FileManager.default.temporaryDirectory.appending(path: "tinyproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            LogFile "\(folder.appending(path: "tinyproxy.log").path)"
            LogLevel Info
            MaxClients 100
            Allow 127.0.0.1

            """
        if let credentials { configuration += "BasicAuth \(credentials.user) \(credentials.password)\n" }
        let file = folder.appending(path: "tinyproxy.conf")
        try Data(configuration.utf8).write(to: file)
        let credentialPart = credentials.map { "\($0.user):\($0.password)@" } ?? ""
        url = "http://\(credentialPart)127.0.0.1:\(port)"

        process = Process()
        process.executableURL = URL(filePath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithDefaultSignalMask()
        try waitUntilListening(port: port, while: process)
    }

    /// What tinyproxy logged so far.
    var log: String {
        (try? String(contentsOf: folder.appending(path: "tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    /// The log lines of the requests it carried, `…: Request (file descriptor 5): CONNECT host:port HTTP/1.1`,
    /// one for every tunnel. (tinyproxy's log level for them is also called CONNECT.)
    var connects: [String] {
        log.split(separator: "\n").filter { $0.contains(": Request (") && $0.contains(": CONNECT ") }.map(String.init)
    }

    func stop() async {
        let (process, folder) = (process, folder)
        _ = try? await onDedicatedThread {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// Runs `body` with a tinyproxy, and stops it afterwards.
func withTinyproxy<Result>(
    credentials: (user: String, password: String)? = nil, _ body: (Tinyproxy) async throws -> Result
) async throws -> Result {
    try await using(try await Tinyproxy.start(credentials: credentials), body)
}

/// A loopback port that nothing listens on just now.
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw PortFailure() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
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

/// Waits, up to ten seconds, until something accepts connections on the loopback `port`.
func waitUntilListening(port: Int, while process: Process) throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        guard process.isRunning else { throw PortFailure() }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        close(descriptor)
        if connected { return }
        Thread.sleep(forTimeInterval: 0.05)
    }
    throw PortFailure()
}

struct PortFailure: Error {}
