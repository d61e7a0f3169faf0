import Foundation

/// A `swagger-demo-server` process on a free loopback port, stopped with SIGTERM when the test is done.
final class DemoServerProcess: Sendable {
    let process: Process
    /// The API's base URL, such as `http://127.0.0.1:41234/api`.
    let apiURL: String

    /// Starts the server and waits for its "listening on" line.
    static func start(_ arguments: [String] = []) async throws -> DemoServerProcess {
        try await onDedicatedThread { try DemoServerProcess(arguments: arguments) }
    }

    private init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = Binaries.demoServer
        process.arguments = ["--port", "0", "--bcrypt-cost", "4"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runWithDefaultSignalMask()
        var buffer = Data()
        let reader = output.fileHandleForReading
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                throw StartFailure(message: "swagger-demo-server exited with \(process.terminationStatus)")
            }
            buffer.append(chunk)
        }
        let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard line.hasPrefix("listening on http://") else {
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

    deinit {
        if process.isRunning { process.terminate() }
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
    let server = try await DemoServerProcess.start(arguments)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
