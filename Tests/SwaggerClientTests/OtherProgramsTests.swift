import Foundation
import SessionMachine
import SwaggerClient
import SwaggerModel
import TestSupport
import Testing

@Suite("The faces other programs use: token formats, exec's variables and git's helper", .timeLimit(.minutes(5)))
struct OtherProgramsTests {
    /// 2023-11-14T22:43:20Z.
    static let expiry = Date(timeIntervalSince1970: 1_700_001_800)
    static let stored = UsableToken(
        "tok-en.1", from: .stored(Fixtures.record(Fixtures.ana, expiresAt: expiry)))

    /// A server that takes its token as `Authorization: Token …`, as DRF's TokenAuthentication does.
    static var drf: UsableToken {
        var description = Fixtures.original()
        description.token = TokenUse(header: "Authorization", scheme: "Token")
        var record = Fixtures.record(Fixtures.ana, expiresAt: nil)
        record.serverDescription = description
        return UsableToken("drf-key", from: .stored(record))
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("plain is the token; header is the server's header and scheme, for curl -H @-")
    func plainAndHeader() throws {
        #expect(try TokenFormat.plain.render(Self.stored, execInfo: nil) == "tok-en.1\n")
        #expect(try TokenFormat.header.render(Self.stored, execInfo: nil) == "Authorization: Bearer tok-en.1\n")
        #expect(try TokenFormat.header.render(Self.drf, execInfo: nil) == "Authorization: Token drf-key\n")
        var apiKey = Self.drf
        apiKey.use = TokenUse(header: "X-API-Key", scheme: nil)
        #expect(try TokenFormat.header.render(apiKey, execInfo: nil) == "X-API-Key: drf-key\n")
    }

    @Test("json has the token, header, scheme, expiry in RFC 3339, server and account, with null for unknowns")
    func json() throws {
        let object = try Self.object(try TokenFormat.json.render(Self.stored, execInfo: nil))
        #expect(object["token"] as? String == "tok-en.1")
        #expect(object["header"] as? String == "Authorization" && object["scheme"] as? String == "Bearer")
        #expect(object["expiry"] as? String == "2023-11-14T22:43:20Z")
        #expect(object["server"] as? String == "http://127.0.0.1:8080/api")
        #expect(object["account"] as? String == "ana@example.com")

        let environment = UsableToken(
            Fixtures.jwt(exp: 1_700_001_800),
            from: .environment(
                token: Fixtures.jwt(exp: 1_700_001_800), server: Fixtures.server, description: Fixtures.original()))
        let unknown = try Self.object(try TokenFormat.json.render(environment, execInfo: nil))
        // SWAGGERCTL_TOKEN has no account, and its expiry is the JWT's own.
        #expect(unknown["account"] is NSNull && unknown["expiry"] as? String == "2023-11-14T22:43:20Z")
        let opaque = try Self.object(try TokenFormat.json.render(Self.drf, execInfo: nil))
        #expect(opaque["expiry"] is NSNull && opaque["scheme"] as? String == "Token")
    }

    @Test(
        "exec-credential answers in the version kubectl asks for, v1 when it asks for none",
        arguments: [
            (nil, "client.authentication.k8s.io/v1"),
            (
                #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#,
                "client.authentication.k8s.io/v1beta1"
            ),
            (
                #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":true}}"#,
                "client.authentication.k8s.io/v1"
            ),
        ])
    func execCredential(execInfo: String?, version: String) throws {
        let object = try Self.object(try TokenFormat.execCredential.render(Self.stored, execInfo: execInfo))
        #expect(object["apiVersion"] as? String == version && object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["token"] as? String == "tok-en.1")
        #expect(status["expirationTimestamp"] as? String == "2023-11-14T22:43:20Z")
        // No expiry known: left out, as Kubernetes leaves it; kubectl then keeps the token until a request is
        // refused, and runs the plugin again.
        let opaque = try Self.object(try TokenFormat.execCredential.render(Self.drf, execInfo: execInfo))
        let opaqueStatus = try #require(opaque["status"] as? [String: Any])
        #expect(opaqueStatus["token"] as? String == "drf-key" && opaqueStatus.keys.sorted() == ["token"])
    }

    @Test(
        "an ExecCredential version this does not write, or KUBERNETES_EXEC_INFO that is not one, is a usage error",
        arguments: [#"{"apiVersion":"client.authentication.k8s.io/v2"}"#, "not json", #"{"kind":"ExecCredential"}"#])
    func execCredentialRefused(execInfo: String) {
        #expect {
            try TokenFormat.execCredential.render(Self.stored, execInfo: execInfo)
        } throws: { error in
            (error as? SwaggerError)?.code == .usage && !((error as? SwaggerError)?.message.contains("tok-en") ?? true)
        }
    }

    @Test("exec sets the token under the name asked for, the server and the header's value")
    func execEnvironment() {
        let variables = Self.drf.environment(tokenVariable: "API_TOKEN")
        #expect(variables.map(\.name) == ["API_TOKEN", "SWAGGERCTL_SERVER", "SWAGGERCTL_AUTHORIZATION"])
        #expect(variables.map(\.value) == ["drf-key", "http://127.0.0.1:8080/api", "Token drf-key"])
        for good in ["SWAGGERCTL_TOKEN", "_x", "GITHUB_TOKEN2"] {
            #expect(UsableToken.isTokenVariable(good), "\(good)")
        }
        for bad in ["", "1X", "A-B", "A=B", "SWAGGERCTL_SERVER", "SWAGGERCTL_AUTHORIZATION", "É"] {
            #expect(!UsableToken.isTokenVariable(bad), "\(bad)")
        }
    }

    @Test(
        "exec refuses --env names that the dynamic loader or the C library reads: glibc's unsecvars.h, LD_*, MALLOC_*",
        arguments: [
            "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "LD_DEBUG_OUTPUT", "LD_ANYTHING", "GCONV_PATH", "GETCONF_DIR",
            "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE", "MALLOC_ARENA_MAX", "NIS_PATH",
            "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR", "TZDIR",
        ])
    func loaderVariables(name: String) {
        #expect(UsableToken.isTokenVariable(name) && UsableToken.isReadByLoader(name))
    }

    @Test("names the loader does not read stay free for --env")
    func otherVariables() {
        for name in ["SWAGGERCTL_TOKEN", "API_TOKEN", "GITHUB_TOKEN", "LD", "OLD_PRELOAD", "ld_preload", "TMP", "PATH"]
        {
            #expect(!UsableToken.isReadByLoader(name), "\(name)")
        }
    }

    @Test(
        "exec's command is found as command -v finds it: a name with a slash is that file; an empty PATH names no folder",
        arguments: [
            ("ls", "/usr/local/bin:/usr/bin", ["/usr/local/bin/ls", "/usr/bin/ls"]),
            ("ls", "", []), ("ls", ":", []), ("ls", "::/bin:", ["/bin/ls"]), ("ls", ".:/bin/", ["./ls", "/bin/ls"]),
            ("ls", nil, ["/bin/ls", "/usr/bin/ls"]), ("./ls", "", ["./ls"]), ("sub/ls", "/bin", ["sub/ls"]),
            ("/bin/ls", nil, ["/bin/ls"]),
        ])
    func programSearch(name: String, path: String?, candidates: [String]) {
        #expect(ProgramSearch.candidates(for: name, path: path) == candidates)
    }

    static let api = Fixtures.record(Fixtures.ana)
    static let ivoAPI = Fixtures.record(Fixtures.ivo)
    static let root = Fixtures.record(Account(server: Fixtures.serverURL("http://127.0.0.1:8080"), name: "root@x.com"))
    static let elsewhere = Fixtures.record(Account(server: Fixtures.otherServer, name: "ana@example.com"))

    static func request(_ text: String) -> GitCredentialRequest { GitCredentialRequest(text: text) }

    @Test("git's request is read as gitcredentials(7) writes it: unknown keys ignored, up to an empty line")
    func reading() {
        let request = Self.request(
            "protocol=HTTPS\nhost=Api.Example.com:8443\npath=team/tools.git\nusername=ana\nwwwauth[]=Basic\n\nhost=x\n")
        #expect(request.protocol == "https" && request.host == "api.example.com:8443")
        #expect(request.path == "team/tools.git" && request.username == "ana")
        let url = Self.request("url=https://ana@api.example.com/v2/tools.git\n")
        #expect(url.protocol == "https" && url.host == "api.example.com" && url.path == "v2/tools.git")
        #expect(url.username == "ana")
    }

    @Test("git gets the session of the origin it names, the deepest under its path, of the account it names")
    func matching() {
        let records = [Self.api, Self.ivoAPI, Self.root, Self.elsewhere]
        // No path (git's default): the most recently active session on the origin.
        #expect(Self.request("protocol=http\nhost=127.0.0.1:8080\n").session(among: records) == Self.api)
        // With credential.useHttpPath: the server whose path holds the repository's.
        #expect(
            Self.request("protocol=http\nhost=127.0.0.1:8080\npath=api/x.git\n").session(among: records) == Self.api)
        #expect(
            Self.request("protocol=http\nhost=127.0.0.1:8080\npath=apix/x.git\n").session(among: records) == Self.root)
        #expect(
            Self.request("protocol=http\nhost=127.0.0.1:8080\nusername=ivo@example.com\n").session(among: records)
                == Self.ivoAPI)
        #expect(Self.request("protocol=https\nhost=api.example.com\n").session(among: records) == Self.elsewhere)
        // Another scheme, port or host, an account with no session, or no host at all: nothing, for git to ask on.
        for text in [
            "protocol=https\nhost=127.0.0.1:8080\n", "protocol=http\nhost=127.0.0.1:8081\n",
            "protocol=http\nhost=127.0.0.1\n", "protocol=https\nhost=api.example.com.evil.net\n",
            "protocol=http\nhost=127.0.0.1:8080\nusername=eve\n", "protocol=http\n", "host=127.0.0.1:8080\n",
            "protocol=https\nhost=evil.net@api.example.com\n", "protocol=ssh\nhost=api.example.com\n",
        ] {
            #expect(Self.request(text).session(among: records) == nil, "\(text)")
        }
        #expect(
            Self.request("protocol=https\nhost=api.example.com\npath=v1/x.git\n").session(among: [Self.elsewhere])
                == nil)
    }

    @Test("without a path git gets the active session at the root, not another account's on a deeper path")
    func activeWithoutPath() {
        // The root's session was active last; ana's on /api is older.
        let records = [Self.root, Self.api]
        #expect(Self.request("protocol=http\nhost=127.0.0.1:8080\n").session(among: records) == Self.root)
        #expect(Self.request("url=http://127.0.0.1:8080\n").session(among: records) == Self.root)
        // With credential.useHttpPath, the path chooses.
        #expect(
            Self.request("protocol=http\nhost=127.0.0.1:8080\npath=api/x.git\n").session(among: records) == Self.api)
    }

    @Test(
        "the path is matched once its dot segments are removed, as the server will remove them",
        arguments: [
            ("sub/../api/x.git", "api"), ("api/../x.git", "root"), ("api/./x.git", "api"), ("./api/x.git", "api"),
            ("api/%2e%2E/x.git", "root"), ("api/sub/%2E./x.git", "api"), ("../../api/x.git", "api"),
            ("api/..", "root"), ("api/x/..", "api"), ("api/.", "api"),
        ])
    func dotSegments(path: String, server: String) {
        let records = [Self.api, Self.root]
        let chosen = Self.request("protocol=http\nhost=127.0.0.1:8080\npath=\(path)\n").session(among: records)
        #expect(chosen == (server == "api" ? Self.api : Self.root), "\(path)")
    }

    @Test(
        "an account name's control and bidi characters never reach git: one line each for the user name and password",
        arguments: [
            ("ana\npassword_expiry_utc=1", "anapassword_expiry_utc=1"), ("ana\r\nquit=1", "anaquit=1"),
            ("\u{1B}]52;c;aGk=\u{07}ana", "]52;c;aGk=ana"), ("ana\u{202E}moc.elpmaxe", "anamoc.elpmaxe"),
            ("\u{2066}ana\u{2069}\u{200F}", "ana"), ("a\u{0}n\u{85}a\u{9B}31m", "ana31m"), ("\n\r\u{1B}", "swaggerctl"),
        ])
    func controlCharacters(name: String, shown: String) throws {
        let record = Fixtures.record(Account(server: Fixtures.server, name: name), expiresAt: Self.expiry)
        let token = UsableToken("tok-en.1", from: .stored(record))
        let asked = Self.request("protocol=http\nhost=127.0.0.1:8080\n")
        let lines = GitCredentialAnswer.text(token, for: asked).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == ["username=\(shown)", "password=tok-en.1", "password_expiry_utc=1700001800", ""])
        // The user name git sent is answered back the same way.
        let named = Self.request("protocol=http\nhost=127.0.0.1:8080\nusername=\u{1B}[2J\u{202E}ivo\n")
        #expect(GitCredentialAnswer.text(token, for: named).hasPrefix("username=[2Jivo\npassword=tok-en.1\n"))
    }

    @Test("the answer is the user name, the token as the password and its expiry in Unix seconds")
    func answer() {
        let asked = Self.request("protocol=http\nhost=127.0.0.1:8080\n")
        #expect(
            GitCredentialAnswer.text(Self.stored, for: asked)
                == "username=ana@example.com\npassword=tok-en.1\npassword_expiry_utc=1700001800\n")
        let named = Self.request("protocol=http\nhost=127.0.0.1:8080\nusername=ana\n")
        #expect(GitCredentialAnswer.text(Self.drf, for: named) == "username=ana\npassword=drf-key\n")
    }

    /// A session that signs in by HTTP Basic, whose token is base64 of `pair`.
    static func basic(_ pair: String) -> UsableToken {
        var record = Fixtures.record(Account(server: Fixtures.server, name: "guest"), expiresAt: nil)
        record.serverDescription = Fixtures.described(["preset": "rabbitmq"])
        return UsableToken(Data(pair.utf8).base64EncodedString(), from: .stored(record))
    }

    @Test(
        "a Basic session answers git with its account and password themselves, which git sends as its own Basic",
        arguments: [
            ("guest:s3cret:with:colons", "username=guest\npassword=s3cret:with:colons\n"),
            // git reads one line for each: a pair that holds a line break or a control character is not answered.
            ("guest:pass\nusername=root", ""), ("gu\u{1B}[2Jest:pw", "username=gu[2Jest\npassword=pw\n"),
            ("guest:", ""),
        ])
    func basicAnswer(pair: String, answer: String) {
        let asked = Self.request("protocol=http\nhost=127.0.0.1:8080\nusername=someone\n")
        #expect(GitCredentialAnswer.text(Self.basic(pair), for: asked) == answer)
    }

    @Test(
        "token and exec warn that a Basic session's token is the account and password, and a bound one's needs proofs")
    func notices() {
        #expect(Self.basic("guest:pw").notice == TokenUse.basicNotice)
        #expect(Self.stored.notice == nil)
        #expect(Self.drf.notice == nil)
        var bound = Fixtures.record(Fixtures.ana, expiresAt: nil)
        bound.proofKey = "thumbprint"
        #expect(UsableToken("tok-en.1", from: .stored(bound)).notice == ProofBinding.tokenNotice)
    }

    @Test("--setup prints git config lines for the origin, quoted for a shell, with the helper's own path")
    func setup() {
        let lines = GitCredentialAnswer.setup(
            for: Fixtures.otherServer, program: "/opt/my tools/swaggerctl")
        #expect(
            lines == """
                git config --global credential.https://api.example.com.helper ''
                git config --global --add credential.https://api.example.com.helper '!'\\''/opt/my tools/swaggerctl'\\'' git-credential'

                """)
    }

    @Test("--setup's lines expand nothing of the program's path, in the shell that runs them or in the one git runs")
    func setupQuoted() throws {
        let folder = try TemporaryDirectory()
        let marker = folder.appending("ran")
        // A shell expands `~root` at the start of a word, which needs no other character to be special.
        for program in [
            "/opt/$(touch \(marker.path))/`touch \(marker.path)`/$HOME/it's/swaggerctl", "~root/swaggerctl",
        ] {
            let lines = GitCredentialAnswer.setup(for: Fixtures.otherServer, program: program).split(separator: "\n")
            // printf in git's place prints the words git would get.
            let words = try lines.map { try OperationTests.shellWords("printf '%s\\n'" + $0.dropFirst("git".count)) }
            let key = "credential.https://api.example.com.helper"
            #expect(words.first == "config\n--global\n\(key)\n\n")
            let added = try #require(words.last?.split(separator: "\n").map(String.init))
            #expect(added.dropLast() == ["config", "--global", "--add", key])
            let helper = try #require(added.last)
            #expect(helper.hasPrefix("!"))
            // git runs what follows the `!` through a shell.
            let run = try OperationTests.shellWords("printf '%s\\n' " + helper.dropFirst())
            #expect(run == "\(program)\ngit-credential\n", "\(lines)")
        }
        withExtendedLifetime(folder) { #expect(!FileManager.default.fileExists(atPath: marker.path)) }
    }
}

@Suite("git-credential --setup names this program as PATH finds it", .timeLimit(.minutes(5)))
struct ProgramInvocationTests {
    /// Files by path: the running program at `/opt/swaggerctl-1.2/swaggerctl`, linked from `/usr/local/bin`.
    static func found(_ path: String) -> ProgramSearch.Found {
        switch path {
        case "/usr/local/bin/swaggerctl", "/opt/swaggerctl-1.2/swaggerctl", "/home/ana/bin/swaggerctl": .thisProgram
        case "/usr/bin/swaggerctl": .another
        default: .missing
        }
    }

    @Test(
        "its name alone when PATH's first swaggerctl is this file; else the path it was run by, made absolute",
        arguments: [
            ("swaggerctl", "/usr/local/bin:/usr/bin", "swaggerctl") as (String, String?, String?),
            ("/usr/local/bin/swaggerctl", "/usr/local/bin:/usr/bin", "swaggerctl"),
            ("/opt/swaggerctl-1.2/swaggerctl", "/usr/bin:/usr/local/bin", "/opt/swaggerctl-1.2/swaggerctl"),
            ("/opt/swaggerctl-1.2/swaggerctl", "/sbin", "/opt/swaggerctl-1.2/swaggerctl"),
            ("bin/swaggerctl", "/sbin", "/home/ana/bin/swaggerctl"),
            ("./bin/swaggerctl", nil, "/home/ana/bin/swaggerctl"),
            ("swaggerctl", "/usr/bin", nil),
        ])
    func invocation(argument0: String, path: String?, expected: String?) {
        #expect(
            ProgramSearch.invocation(argument0: argument0, currentDirectory: "/home/ana", path: path, found: Self.found)
                == expected)
    }
}
