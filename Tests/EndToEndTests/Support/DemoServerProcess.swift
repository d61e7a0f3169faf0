import Foundation

/// A `swagger-demo-server` process on a free loopback port, stopped with SIGTERM when the test is done.
final class DemoServerProcess: Sendable {
    let process: Process
    /// The API's base URL, such as `http://127.0.0.1:41234/api`.
    let apiURL: String
    /// Where the server's log (standard error) goes: one line per login, refresh and revocation.
    let logFile: URL

    /// Starts the server and waits for its "listening on" line.
    static func start(_ arguments: [String] = []) async throws -> DemoServerProcess {
        try await onDedicatedThread { try DemoServerProcess(arguments: arguments) }
    }

    /// Starts the server on a loopback address of its own, for a test that stops it and needs it to stay gone,
    /// or starts it again on the same port. The whole of 127.0.0.0/8 is this machine; the servers of other
    /// tests listen on 127.0.0.1, so none of them can take the freed address and port meanwhile.
    static func startAlone(_ arguments: [String] = []) async throws -> DemoServerProcess {
        let address = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        return try await start(["--host", address] + arguments)
    }

    /// The address and port it listens on, to start a server there again.
    var hostAndPort: [String] {
        guard let url = URL(string: apiURL), let host = url.host, let port = url.port else { return [] }
        return ["--host", host, "--port", String(port)]
    }

    private init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = Binaries.demoServer
        process.arguments = ["--port", "0", "--bcrypt-cost", "4"] + arguments
        let output = Pipe()
        logFile = FileManager.default.temporaryDirectory.appending(path: "demo-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.runWithDefaultSignalMask()
        guard let line = readLines(1, from: output.fileHandleForReading)?.first else {
            process.waitUntilExit()
            throw StartFailure(message: "swagger-demo-server exited with \(process.terminationStatus)")
        }
        guard line.hasPrefix("listening on http://") || line.hasPrefix("listening on https://") else {
            process.terminate()
            throw StartFailure(message: "unexpected first line: \(line)")
        }
        self.process = process
        self.apiURL = line.dropFirst("listening on ".count) + "/api"
    }

    /// Sends SIGTERM and waits for the exit on a dispatch thread, never blocking the threads that
    /// in-process servers need to answer.
    func stop() async {
        let process = process
        _ = try? await onDedicatedThread {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    /// The server's log so far.
    var log: String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// How many log lines contain `text`.
    func logLines(containing text: String) -> Int {
        log.split(separator: "\n").count { $0.contains(text) }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: logFile)
    }

    struct StartFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Runs `body` with a fresh demo server, and stops the server afterwards.
func withDemoServer<Result>(
    _ arguments: [String] = [], _ body: (DemoServerProcess) async throws -> Result
) async throws -> Result {
    try await using(try await DemoServerProcess.start(arguments), body)
}

/// A helper process that a test starts and must stop, whatever happens.
protocol StoppableProcess: Sendable {
    func stop() async
}

extension DemoServerProcess: StoppableProcess {}

/// Runs `body` with `process`, and stops the process afterwards, also when `body` throws.
func using<Process: StoppableProcess, Result>(
    _ process: Process, _ body: (Process) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(process)
        await process.stop()
        return result
    } catch {
        await process.stop()
        throw error
    }
}

/// Reads `reader` until it has given `count` whole lines, and returns them; `nil` when it ends first.
func readLines(_ count: Int, from reader: FileHandle) -> [String]? {
    var buffer = Data()
    while buffer.count(where: { $0 == UInt8(ascii: "\n") }) < count {
        let chunk = reader.availableData
        if chunk.isEmpty { return nil }
        buffer.append(chunk)
    }
    return String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
}
