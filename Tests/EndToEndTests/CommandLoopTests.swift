import Foundation
import Testing

@Suite("The command loop")
struct CommandLoopTests {
    @Test("a command runs on one thread: while details waits for its profile, the process has no other thread")
    func oneThread() async throws {
        let sandbox = try Sandbox()
        let gate = FaultServer.Gate()
        // The login's own profile is answered at once; the one that details asks for is held.
        let profiles = FaultServer.Replies([.init(body: "{}"), .init(body: #"{"id": 1}"#, held: true)])
        try await FaultServer.run(profiles: profiles, gate: gate) { url in
            let login = try await sandbox.login(url, email: "a@example.com", password: "pw")
            try #require(login.status == 0, "\(login)")
            let threads = try await withThrowingTaskGroup(of: Void.self, returning: [String].self) { group in
                group.addTask {
                    let details = try await sandbox.swaggerctl("details")
                    // A command that ended without asking for the profile must not leave the test waiting.
                    gate.open()
                    #expect(details.status == 0, "\(details)")
                }
                await gate.held()
                let threads = Self.threads(ofCommandIn: sandbox)
                gate.open()
                try await group.waitForAll()
                return threads
            }
            #expect(threads.count == 1, "the waiting command had the threads \(threads)")
        }
    }

    /// The names of the threads of the running process whose environment names `sandbox`'s configuration
    /// folder: the `swaggerctl` that the sandbox started.
    static func threads(ofCommandIn sandbox: Sandbox) -> [String] {
        let marker = Data("SWAGGERCTL_CONFIG_DIR=\(sandbox.configDirectory.path)\0".utf8)
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for process in processes where process.allSatisfy(\.isNumber) {
            guard let environment = FileManager.default.contents(atPath: "/proc/\(process)/environ"),
                environment.range(of: marker) != nil,
                let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")
            else { continue }
            return tasks.map { task in
                let name = (try? String(contentsOfFile: "/proc/\(process)/task/\(task)/comm", encoding: .utf8)) ?? "?"
                return name.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return []
    }
}
