import Foundation
import Testing

/// The terminal interactions, on a real pseudo-terminal. Reads block, so each runs on its own thread.
@Suite("At a terminal", .timeLimit(.minutes(15)))
struct TerminalTests {
    @Test("the password is read without echo, and the terminal echoes again afterwards")
    func passwordWithoutEcho() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let terminal = try await sandbox.onTerminal("login", "-s", server.apiURL, "-e", "demo@example.com")
            let status = try await onDedicatedThread {
                try terminal.read(until: "Password for demo@example.com on \(server.apiURL): ")
                let echoedWhileTyping = terminal.echoes
                terminal.type("demo-password\n")
                return (echoedWhileTyping, try terminal.finish())
            }
            #expect(status.0 == false)
            #expect(status.1 == 0, "\(terminal.transcript)")
            #expect(terminal.transcript.contains("First name"))
            #expect(!terminal.transcript.contains("demo-password"))
            #expect(terminal.echoes)
        }
    }

    @Test(
        "Ctrl-C while a request waits erases the spinner's frame and says so on one line (130); --verbose has no spinner",
        arguments: [false, true])
    func interruptedRequest(verbose: Bool) async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(login: .init(body: "{}", held: true)) { url in
            let terminal = try await sandbox.onTerminal(
                ["login", "-s", url, "-e", "a@example.com"] + (verbose ? ["--verbose"] : []))
            // Under --verbose the trace says what is waiting: the request, written before its answer comes.
            let waiting = verbose ? "> POST \(url)/User/AdminLogin" : "Logging in to \(url)"
            let status = try await terminal.answer([
                ("Password for a@example.com on \(url): ", "pw\n"), (waiting, "\u{03}"),
            ])
            #expect(status == 130, "\(terminal.transcript)")
            // The terminal shows Ctrl-C as ^C where it echoes.
            #expect(terminal.transcript.contains(try Regex("(\\^C)?(\r\u{1B}\\[K)?swaggerctl: Cancelled.\r\n$")))
            #expect(terminal.transcript.contains("Logging in to") == !verbose, "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    /// What cancelling a prompt types: Ctrl-C, Ctrl-D, or Enter alone.
    enum Cancel: String, CaseIterable, CustomTestStringConvertible {
        case interrupt = "\u{03}"
        case endOfInput = "\u{04}"
        case emptyAnswer = "\n"

        var testDescription: String {
            switch self {
            case .interrupt: "Ctrl-C"
            case .endOfInput: "Ctrl-D"
            case .emptyAnswer: "an empty answer"
            }
        }
    }

    @Test(
        "a cancelled prompt ends its line, says so on the next, exits 130, restores echo and stores nothing",
        arguments: Cancel.allCases, [true, false])
    func cancelledPrompt(cancel: Cancel, atPassword: Bool) async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let terminal =
                atPassword
                ? try await sandbox.onTerminal("login", "-s", server.apiURL, "-e", "demo@example.com")
                : try await sandbox.onTerminal("login", "-s", server.apiURL)
            let prompt =
                atPassword ? "Password for demo@example.com on \(server.apiURL): " : "E-mail for \(server.apiURL): "
            let status = try await terminal.answer(prompt, with: cancel.rawValue)
            // Ctrl-C is a key the person pressed, not an answer left empty.
            let message =
                cancel == .interrupt
                ? "Login cancelled."
                : atPassword ? "Login cancelled: no password given." : "Login cancelled: no e-mail given."
            // The terminal shows Ctrl-C as ^C where it echoes; it sends a line break as \r\n.
            let line = try Regex("\(NSRegularExpression.escapedPattern(for: prompt))(\\^C)?\r\nswaggerctl: ")
            #expect(status == 130, "\(terminal.transcript)")
            #expect(terminal.transcript.contains(line), "\(terminal.transcript)")
            #expect(terminal.transcript.hasSuffix("swaggerctl: \(message)\r\n"), "\(terminal.transcript)")
            #expect(terminal.echoes, "echo must be on again")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("Ctrl-D after part of a password cancels the login instead of sending what was typed")
    func partialPassword() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let terminal = try await sandbox.onTerminal("login", "-s", server.apiURL, "-e", "demo@example.com")
            // The first Ctrl-D hands over what was typed without a line break; the second is the end of input.
            let status = try await terminal.answer(
                "Password for demo@example.com on \(server.apiURL): ", with: "demo-pass\u{04}\u{04}")
            #expect(status == 130, "\(terminal.transcript)")
            #expect(terminal.transcript.hasSuffix("swaggerctl: Login cancelled: no password given.\r\n"))
            #expect(terminal.echoes)
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("--password-stdin on a terminal reads with echo off")
    func passwordStandardInputWithoutEcho() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let terminal = try await sandbox.onTerminal(
                "login", "-s", server.apiURL, "-e", "demo@example.com", "--password-stdin", "--quiet")
            let result = try await onDedicatedThread {
                // Nothing is written before the read starts, so wait until echo goes off.
                try terminal.waitUntilEchoIsOff()
                terminal.type("demo-password\n\u{04}")
                return try terminal.finish()
            }
            #expect(result == 0, "\(terminal.transcript)")
            #expect(!terminal.transcript.contains("demo-password"), "\(terminal.transcript)")
            #expect(terminal.echoes)
            #expect(try sandbox.sessions.records().map(\.name) == ["demo@example.com"])
        }
    }

    @Test("a missing e-mail is asked for on a terminal")
    func emailPrompt() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let terminal = try await sandbox.onTerminal("login", "-s", server.apiURL)
            let status = try await terminal.answer([
                ("E-mail for \(server.apiURL): ", "demo@example.com\n"),
                ("Password for demo@example.com on \(server.apiURL): ", "demo-password\n"),
            ])
            #expect(status == 0, "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().map(\.name) == ["demo@example.com"])
        }
    }

    @Test("a change that moves a session's tokens to another host is asked about: no keeps what was, y saves it")
    func tokenMoveAsked() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let url = server.apiURL
            try #require(try await sandbox.loginAsDemo(url).status == 0)
            let other = "https://login.example.com"
            let question = "Go on? [y/N] "
            let refused = try await sandbox.onTerminal("server", "set", url, "--allow-origin", other)
            #expect(try await refused.answer([(question, "n\n")]) == 130, "\(refused.transcript)")
            #expect(refused.transcript.contains("demo@example.com on \(url) to \(other) too"), "\(refused.transcript)")
            #expect(try await sandbox.swaggerctl("server", "show").row("Other hosts") == nil)
            let agreed = try await sandbox.onTerminal("server", "set", url, "--allow-origin", other)
            #expect(try await agreed.answer([(question, "y\n")]) == 0, "\(agreed.transcript)")
            #expect(try await sandbox.swaggerctl("server", "show").row("Other hosts") == "\(other) (allowed)")
        }
    }

    @Test("keys are dimmed on a colour terminal, and plain with NO_COLOR")
    func colour() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            try #require(login.status == 0, "\(login)")
            let coloured = try await sandbox.onTerminal("details")
            #expect(try await onDedicatedThread { try coloured.finish() } == 0)
            #expect(coloured.transcript.contains("\u{1B}[2mFirst name\u{1B}[22m"))

            let plain = try await sandbox.onTerminal("details", environment: ["NO_COLOR": "1"])
            #expect(try await onDedicatedThread { try plain.finish() } == 0)
            #expect(plain.transcript.contains("First name"))
            // No colour (SGR, `ESC [ … m`); a spinner that a slow machine lets appear may still erase its line.
            #expect(plain.transcript.firstMatch(of: /\x1B\[[0-9;]*m/) == nil, "\(plain.transcript)")
        }
    }

    @Test("a password typed ahead reaches --password-stdin; a spinner shows during a slow request, then goes")
    func spinner() async throws {
        let sandbox = try Sandbox()
        let slowProfile = FaultServer.Reply(body: #"{"id": 1}"#, held: true)
        let gate = FaultServer.Gate()
        try await FaultServer.run(profile: slowProfile, gate: gate) { url in
            // --password-stdin on a terminal reads to end of input: the password, then Ctrl-D, typed before the
            // program starts, as a person who does not wait for it does.
            let terminal = try await sandbox.onTerminal(
                "login", "-s", url, "-e", "a@example.com", "--password-stdin", typedAhead: "pw\n\u{04}")
            // The profile is held until the spinner shows, however long a busy machine takes to draw it.
            try await onDedicatedThread { try terminal.read(until: "⠋ Logging in to \(url)") }
            gate.open()
            let status = try await onDedicatedThread { try terminal.finish() }
            #expect(status == 0, "\(terminal.transcript)")
            #expect(terminal.transcript.contains("⠋ Logging in to \(url)"))
            #expect(terminal.transcript.contains("\r\u{1B}[K"))
        }
    }
}
