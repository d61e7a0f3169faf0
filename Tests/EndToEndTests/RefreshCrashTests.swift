import Foundation
import SessionStorage
import SwaggerModel
import Testing

/// The refresh path's writes, seen through strace: how many reach the disk, in what order, and what a process
/// killed at any one of them leaves.
@Suite("A refresh's writes: the fewest, in order, and whole when killed at any of them", .timeLimit(.minutes(15)))
struct RefreshCrashTests {
    /// The system calls that change a file or send a message: a kill at the entry of each is a crash at each write.
    static let writes = ["write", "writev", "fsync", "rename", "unlink"]

    /// What strace saw of one run: its lines, without the process ids.
    struct Trace {
        var lines: [String]

        init(_ log: URL) throws {
            // "997   write(…)": the process id, then spaces up to its sixth column.
            lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
                String($0.drop { $0 == " " }.drop { $0.isNumber }.drop { $0 == " " })
            }
        }

        func firstIndex(_ call: String, containing text: String = "") -> Int? {
            lines.firstIndex { $0.hasPrefix("\(call)(") && $0.contains(text) }
        }

        /// Whether a `call` whose line contains `text` returned 0: ran whole, rather than killed at its entry. A
        /// call another thread's interrupted shows its end on a later `<... call resumed>` line.
        func returned(_ call: String, containing text: String) -> Bool {
            guard let start = firstIndex(call, containing: text) else { return false }
            guard lines[start].hasSuffix("<unfinished ...>") else { return lines[start].hasSuffix("= 0") }
            return lines[(start + 1)...].contains { $0.hasPrefix("<... \(call) resumed>") && $0.hasSuffix("= 0") }
        }

        /// Every write, as (call, its count so far): each is a point to kill a run again at.
        var writePoints: [(call: String, count: Int)] {
            var seen: [String: Int] = [:]
            return lines.compactMap { line in
                guard let call = RefreshCrashTests.writes.first(where: { line.hasPrefix("\($0)(") }) else { return nil }
                seen[call, default: 0] += 1
                return (call, seen[call, default: 0])
            }
        }

        /// Runs swaggerctl with `arguments` in `sandbox` under strace, which logs its writes to `log`, killed at the
        /// entry of `point` when it is given.
        static func run(
            _ arguments: [String], in sandbox: Sandbox, log: URL, killedAt point: (call: String, count: Int)?
        ) async throws -> CommandResult {
            let inject = point.map { ["-e", "inject=\($0.call):signal=KILL:when=\($0.count)"] } ?? []
            return try await sandbox.run(
                URL(filePath: "/usr/bin/strace"),
                [
                    "-f", "-qq", "-s", "64", "-o", log.path, "-e",
                    "trace=" + RefreshCrashTests.writes.joined(separator: ","),
                ]
                    + inject + [Binaries.swaggerctl.path] + arguments)
        }

        /// Whether the request whose first line contains `text` was handed whole to the kernel.
        func sent(_ text: String) -> Bool {
            lines.contains {
                ($0.hasPrefix("writev(") || $0.hasPrefix("write(")) && $0.contains(text) && !$0.hasSuffix("= ?")
            }
        }
    }

    @Test(
        "details on the refresh path: no fsync before the refresh is sent, three after, the tokens' rename on the disk before the token is used"
    )
    func orderOfWrites() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try await sandbox.advanceClock(by: DemoServerProcess.pastExpiry, with: server)
            let log = sandbox.root.appending(path: "strace.log")
            let details = try await sandbox.run(
                URL(filePath: "/usr/bin/strace"),
                [
                    "-f", "-qq", "-y", "-s", "64", "-o", log.path, "-e", "trace=" + Self.writes.joined(separator: ","),
                    Binaries.swaggerctl.path, "details", "-s", server.apiURL,
                ])
            #expect(details.status == 0, "\(details)")
            let trace = try Trace(log)
            let folder = sandbox.configDirectory.path
            let refresh = try #require(trace.firstIndex("writev", containing: "/User/RefreshToken"), "\(trace.lines)")
            let tokens = try #require(trace.firstIndex("rename", containing: "\"\(folder)/credentials.json\""))
            let folderSync = try #require(trace.firstIndex("fsync", containing: "<\(folder)>"))
            let record = try #require(trace.firstIndex("rename", containing: "\"\(folder)/sessions.json\""))
            let profile = try #require(trace.firstIndex("write", containing: "GET /api/User/User"))
            // Before the refresh token is spent, the stores are only tried: nothing replaced, nothing synced.
            #expect(trace.lines[..<refresh].allSatisfy { !$0.hasPrefix("fsync(") && !$0.hasPrefix("rename(") })
            #expect(refresh < tokens && tokens < folderSync && folderSync < record && record < profile)
            // The tokens' data, the folder after their rename, the record's data; the saved profile is a cache.
            let syncs = trace.lines.filter { $0.hasPrefix("fsync(") }
            #expect(syncs.count == 3, "\(syncs)")
            #expect(
                syncs.first?.contains(".credentials.json.") == true && syncs.last?.contains(".sessions.json.") == true)
        }
    }

    @Test("a refresh killed at each of its writes, 200 times, leaves the old session or the new one, and no other lost")
    func killedAtEachWrite() async throws {
        let sandbox = try Sandbox()
        // Another session in the same files, which no kill may touch.
        let other = Account(server: try ServerURL("https://other.example/api"), name: "ivo@example.com")
        let otherTokens = Credentials(accessToken: "other-access", refreshToken: "other-refresh")
        try await sandbox.file.store(otherTokens, for: other)
        let otherRecord = SessionRecord(
            account: other, appID: "other", backend: .file, savedAt: Date(timeIntervalSince1970: 1_800_000_000),
            refreshable: true)
        try sandbox.sessions.save(otherRecord)
        try await withDemoServer { server in
            let account = Account(server: server.apiURL, name: Sandbox.demo.email)
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let log = sandbox.root.appending(path: "strace.log")
            func refresh(killedAt point: (call: String, count: Int)?) async throws -> CommandResult {
                try await Trace.run(["refresh", "-s", server.apiURL], in: sandbox, log: log, killedAt: point)
            }

            // Every write of a whole refresh: each is a point to kill at.
            try #require(try await refresh(killedAt: nil).status == 0)
            let points = try Trace(log).writePoints
            try #require(points.count >= 10, "\(points)")

            var outcomes = (unspent: 0, spent: 0, newTokensOldRecord: 0, renewed: 0)
            for attempt in 0..<200 {
                let point = points[attempt % points.count]
                let tokensBefore = try #require(try await sandbox.file.credentials(for: account))
                let recordBefore = try #require(try sandbox.sessions.record(server: account.server))
                let killed = try await refresh(killedAt: point)
                let place = "try \(attempt), killed at \(point.call) #\(point.count) (exit \(killed.status))"
                let trace = try Trace(log)

                #expect(try await sandbox.file.credentials(for: other) == otherTokens, "\(place)")
                #expect(try sandbox.sessions.records().contains(otherRecord), "\(place)")
                let record = try #require(try sandbox.sessions.record(server: account.server), "\(place)")
                let tokens = try #require(try await sandbox.file.credentials(for: account), "\(place)")
                let renewedTokens = tokens != tokensBefore
                // The record is read from the trace, not compared: a refresh in the second of the one before
                // gets a token with the same times, and so writes a record equal to the old one.
                let renewedRecord = trace.returned("rename", containing: "/sessions.json\"")
                if renewedTokens {
                    #expect(tokens.accessToken != tokensBefore.accessToken, "\(place)")
                    #expect(tokens.refreshToken != tokensBefore.refreshToken, "\(place)")
                } else {
                    #expect(!renewedRecord, "\(place): a new record with the spent tokens")
                }
                if !renewedRecord { #expect(record == recordBefore, "\(place): a record that was not renamed") }

                // The session left must be usable as what it is: new tokens refresh; old ones do unless the
                // server had already spent them (the crash came between its answer and the store).
                let next = try await sandbox.swaggerctl("refresh", "-s", server.apiURL)
                let spent = !renewedTokens && trace.sent("/User/RefreshToken")
                #expect(next.status == (spent ? 4 : 0), "\(place): \(next)")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory.path)
                    .filter { $0.hasSuffix(".tmp") }
                #expect(leftovers.isEmpty, "\(place): \(leftovers)")
                switch (renewedTokens, spent) {
                case (true, _) where !renewedRecord: outcomes.newTokensOldRecord += 1
                case (true, _): outcomes.renewed += 1
                case (false, true): outcomes.spent += 1
                case (false, false): outcomes.unspent += 1
                }
                if spent { try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0, "\(place)") }
            }
            // Each kind of instant was reached: before the server spent the token, between its answer and the
            // tokens' rename, between that and the record's, and after both.
            #expect(
                outcomes.unspent > 0 && outcomes.spent > 0 && outcomes.newTokensOldRecord > 0 && outcomes.renewed > 0,
                "\(outcomes)")
        }
    }
}
