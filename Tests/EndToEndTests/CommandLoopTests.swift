import Foundation
import Testing

@Suite("The command loop", .timeLimit(.minutes(15)))
struct CommandLoopTests {
    @Test("a command runs on one thread: details starts none from its start to its exit, shutdown included")
    func oneThread() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            // strace sees every thread the process starts, however briefly it runs.
            let trace = sandbox.root.appending(path: "clone.trace")
            let details = try await runProgram(
                URL(filePath: "/usr/bin/strace"),
                ["-f", "-e", "trace=clone,clone3", "-o", trace.path, Binaries.swaggerctl.path, "details"],
                environment: sandbox.environment)
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout.contains("demo@example.com"), "\(details)")
            let calls = try String(contentsOf: trace, encoding: .utf8)
            #expect(!calls.contains("clone"), "details started threads:\n\(calls)")
        }
    }
}
