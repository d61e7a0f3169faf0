import Foundation
import Testing

/// Names for servers: `server set --name`, `login --name`, and every `-s` and `SWAGGERCTL_SERVER` that take them.
@Suite("Server names: given, used in place of URLs, shown, refused when taken, forgotten", .timeLimit(.minutes(15)))
struct ServerNameTests {
    @Test("a name is taken by login, details, status, server show and SWAGGERCTL_SERVER, and shown where servers are")
    func named() async throws {
        let sandbox = try Sandbox()
        try await withDemoServers { first, second in
            let (demo, other) = (first.apiURL, second.apiURL)
            let set = try await sandbox.swaggerctl("server", "set", demo, "--name", "demo")
            #expect(
                set.status == 0 && set.stderr.hasSuffix("Saved how to talk to \(demo) (now named demo).\n"), "\(set)")
            let login = try await sandbox.loginAsDemo("demo")
            #expect(
                login.status == 0 && login.stderr == "Logged in to \(demo) (named demo) as demo@example.com.\n",
                "\(login)")
            // Another server becomes the current one, so that only the name can lead commands to the first.
            let named = try await sandbox.loginAsDemo(other, extra: ["--name", "other"])
            #expect(named.status == 0, "\(named)")

            let details = try await sandbox.swaggerctl("details", "-s", "demo")
            #expect(details.status == 0 && details.stdout.contains("demo@example.com"), "\(details)")
            let status = try await sandbox.swaggerctl("status", "-s", "demo")
            #expect(status.row("Server")?.hasPrefix(demo) == true, "\(status)")
            #expect(status.row("Server")?.contains(" (named demo; ") == true, "\(status)")
            #expect(!status.stdout.contains(other), "\(status)")
            let fromEnvironment = try await sandbox.swaggerctl(
                ["server", "show"], environment: ["SWAGGERCTL_SERVER": "demo"])
            #expect(fromEnvironment.row("Server") == "\(demo) (current)", "\(fromEnvironment)")
            #expect(fromEnvironment.row("Name") == "demo", "\(fromEnvironment)")
            let environmentDetails = try await sandbox.swaggerctl(
                ["details"], environment: ["SWAGGERCTL_SERVER": "demo"])
            #expect(environmentDetails.status == 0, "\(environmentDetails)")

            let list = try await sandbox.swaggerctl("server", "list")
            #expect(
                list.stdout.split(separator: "\n").map { $0.split(separator: ";").first.map(String.init) } == [
                    "\(demo)  named demo", "\(other)  named other",
                ], "\(list)")
            let json = try await sandbox.swaggerctl("server", "list", "--format", "json")
            let listed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(listed?.map { $0["name"] as? String } == ["demo", "other"], "\(json)")
        }
    }

    @Test("an unknown name, and a name another server has, are refused in one line; forget frees a name")
    func refused() async throws {
        let sandbox = try Sandbox()
        try await withDemoServers { first, second in
            let (demo, other) = (first.apiURL, second.apiURL)
            #expect(try await sandbox.swaggerctl("server", "set", demo, "--name", "demo").status == 0)
            let none = try await sandbox.swaggerctl("details", "-s", "prod")
            #expect(none.status == 64, "\(none)")
            #expect(none.stderr == "swaggerctl: No server is named prod. Known names: demo.\n", "\(none)")
            let environment = try await sandbox.swaggerctl(["details"], environment: ["SWAGGERCTL_SERVER": "prod"])
            #expect(environment.status == 64 && environment.stderr == none.stderr, "\(environment)")

            let taken = try await sandbox.swaggerctl("server", "set", other, "--name", "demo")
            #expect(taken.status == 64, "\(taken)")
            #expect(
                taken.stderr
                    == "swaggerctl: \(demo) has the name demo; give another, or add --rename to move the name to "
                    + "\(other).\n", "\(taken)")
            let loginTaken = try await sandbox.loginAsDemo(other, extra: ["--name", "demo"])
            #expect(loginTaken.status == 64 && loginTaken.stderr.contains("has the name demo;"), "\(loginTaken)")
            #expect(try sandbox.sessions.records().isEmpty, "refused before anything was stored")

            // Another name needs --rename, by set and by login alike; then the old one is free for another server.
            let renaming = try await sandbox.swaggerctl("server", "set", "demo", "--name", "local")
            #expect(
                renaming.status == 64
                    && renaming.stderr == "swaggerctl: \(demo) is named demo; add --rename to name it local instead.\n",
                "\(renaming)")
            let loginRenaming = try await sandbox.loginAsDemo("demo", extra: ["--name", "local"])
            #expect(loginRenaming.status == 64 && loginRenaming.stderr == renaming.stderr, "\(loginRenaming)")
            #expect(try sandbox.sessions.records().isEmpty, "refused before the password was sent")
            let lone = try await sandbox.swaggerctl("server", "set", "demo", "--rename")
            #expect(lone.status == 64 && lone.stderr.contains("--rename goes with --name"), "\(lone)")
            let renamed = try await sandbox.swaggerctl("server", "set", "demo", "--name", "local", "--rename")
            #expect(
                renamed.status == 0 && renamed.stderr == "Saved how to talk to \(demo) (now named local; was demo).\n",
                "\(renamed)")
            #expect(try await sandbox.swaggerctl("server", "set", other, "--name", "demo").status == 0)
            #expect(try await sandbox.swaggerctl("server", "show", "local").row("Server")?.hasPrefix(demo) == true)

            // --rename moves a name from the server that has it, and says so.
            let moved = try await sandbox.loginAsDemo(demo, extra: ["--name", "demo", "--rename"])
            #expect(
                moved.status == 0
                    && moved.stderr.hasPrefix(
                        "Logged in to \(demo) (now named demo, taken from \(other), which has no name now; was local) "
                    ), "\(moved)")
            #expect(try await sandbox.swaggerctl("server", "show", other).row("Name") == nil)
            #expect(try await sandbox.swaggerctl("logout", "-s", "demo").status == 0)
            #expect(try await sandbox.swaggerctl("server", "set", other, "--name", "demo", "--rename").status == 0)
            #expect(try await sandbox.swaggerctl("server", "set", demo, "--name", "local").status == 0)

            let forgot = try await sandbox.swaggerctl("server", "forget", "local")
            #expect(forgot.status == 0 && forgot.stderr == "Forgot \(demo).\n", "\(forgot)")
            let gone = try await sandbox.swaggerctl("server", "show", "local")
            #expect(gone.status == 64 && gone.stderr.contains("Known names: demo."), "\(gone)")
        }
    }

    @Test("export carries the name, and import gives it only where no other server has it")
    func exported() async throws {
        let sandbox = try Sandbox()
        try await withDemoServers { first, second in
            let (demo, other) = (first.apiURL, second.apiURL)
            #expect(try await sandbox.swaggerctl("server", "set", demo, "--name", "demo").status == 0)
            let export = try await sandbox.swaggerctl("server", "export", "demo")
            #expect(export.status == 0 && export.stdout.contains("\"name\": \"demo\""), "\(export)")
            let file = sandbox.root.appending(path: "demo.json")
            try Data(export.stdout.utf8).write(to: file)

            // The name is the first server's still: the second is not described at all.
            let clash = try await sandbox.swaggerctl("server", "import", file.path, "-s", other)
            #expect(clash.status == 64 && clash.stderr.contains("\(demo) has the name demo;"), "\(clash)")
            #expect(try await sandbox.swaggerctl("server", "show", other).status == 1)

            #expect(try await sandbox.swaggerctl("server", "forget", "demo").status == 0)
            let imported = try await sandbox.swaggerctl("server", "import", file.path)
            #expect(
                imported.status == 0
                    && imported.stderr == "Saved how to talk to \(demo) (now named demo), from \(file.path).\n",
                "\(imported)")
            #expect(try await sandbox.swaggerctl("server", "show", "demo").row("Server")?.hasPrefix(demo) == true)
        }
    }

    @Test("two imports cannot move a live session's name to another host: the first is refused, nothing reaches it")
    func importsMoveNoName() async throws {
        try await Listener.run { authority, requests in
            let sandbox = try Sandbox()
            try await withDemoServer { server in
                let (live, elsewhere) = (server.apiURL, "http://\(authority)/api")
                try #require(try await sandbox.loginAsDemo(live, extra: ["--name", "prod"]).status == 0)
                let staging = sandbox.root.appending(path: "staging.json")
                try Data(#"{"server": "\#(live)", "name": "staging"}"#.utf8).write(to: staging)
                let prod = sandbox.root.appending(path: "prod.json")
                try Data(#"{"server": "\#(elsewhere)", "name": "prod"}"#.utf8).write(to: prod)

                let renaming = try await sandbox.swaggerctl("server", "import", staging.path)
                #expect(renaming.status == 64, "\(renaming)")
                #expect(
                    renaming.stderr == "swaggerctl: \(live) is named prod; add --rename to name it staging instead.\n",
                    "\(renaming)")
                let moving = try await sandbox.swaggerctl("server", "import", prod.path)
                #expect(moving.status == 64, "\(moving)")
                #expect(
                    moving.stderr
                        == "swaggerctl: \(live) has the name prod; give another, or add --rename to move the name "
                        + "to \(elsewhere).\n", "\(moving)")

                // What a script that names prod does next: its CI token, and a password, go to the server named.
                let token = try await sandbox.swaggerctl(
                    ["api", "-s", "prod", "/User/User"], environment: ["SWAGGERCTL_TOKEN": "ci-token"])
                #expect(token.status == 4, "the live server refused the CI token: \(token)")
                let login = try await sandbox.loginAsDemo("prod")
                #expect(login.status == 0 && login.stderr.hasPrefix("Logged in to \(live) (named prod) "), "\(login)")
                #expect(requests.all.isEmpty, "\(requests.all)")
                #expect(try await sandbox.swaggerctl("server", "show", elsewhere).status == 1)
            }
        }
    }

    @Test("git-credential --setup needs a session, and names the program as PATH finds it")
    func gitCredentialSetup() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let url = server.apiURL
            #expect(try await sandbox.swaggerctl("server", "set", url, "--name", "demo").status == 0)
            let refused = try await sandbox.swaggerctl("git-credential", "--setup", "demo")
            #expect(refused.status == 4 && refused.stdout.isEmpty, "\(refused)")
            #expect(
                refused.stderr
                    == "swaggerctl: No session on \(url) for git to use. Log in first: `swaggerctl login -s \(url)`, "
                    + "then run --setup again.\n", "\(refused)")
            try #require(try await sandbox.loginAsDemo("demo").status == 0)

            // The program as installed, in a folder of PATH: a copy, and a link to it elsewhere.
            let bin = sandbox.root.appending(path: "bin")
            let links = sandbox.root.appending(path: "links")
            for folder in [bin, links] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let installed = bin.appending(path: "swaggerctl")
            try FileManager.default.copyItem(at: Binaries.swaggerctl, to: installed)
            let link = links.appending(path: "swaggerctl")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: installed)
            let path = "\(bin.path):/usr/bin:/bin"

            let found = try await sandbox.run(
                installed, ["git-credential", "--setup", "demo"], environment: ["PATH": path])
            #expect(found.status == 0 && found.stdout.contains(" '!swaggerctl git-credential'\n"), "\(found)")
            let linked = try await sandbox.run(link, ["git-credential", "--setup", url], environment: ["PATH": path])
            #expect(linked.stdout.contains(" '!swaggerctl git-credential'\n"), "PATH finds this very file: \(linked)")
            // Off PATH, the link as it was run: an upgrade that moves the file it points to keeps git working.
            let off = try await sandbox.run(
                link, ["git-credential", "--setup", url], environment: ["PATH": "/usr/bin:/bin"])
            #expect(off.stdout.contains("'!\(link.path) git-credential'\n"), "\(off)")
            #expect(!off.stdout.contains(installed.path), "\(off)")
        }
    }
}
