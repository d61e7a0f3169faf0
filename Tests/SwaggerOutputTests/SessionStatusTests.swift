import Foundation
import SessionMachine
import SessionStorage
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerOutput

@Suite("SessionStatus: what `swaggerctl status` shows", .timeLimit(.minutes(5)))
struct SessionStatusTests {
    /// 2033-05-18T03:33:20Z.
    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let other = Account(server: Fixtures.otherServer, name: "ana@example.com")

    /// Newest first, as `SessionList.records()` returns them.
    static let records = [
        Fixtures.record(Fixtures.ivo, savedAt: now.addingTimeInterval(-10)),
        Fixtures.record(other, appID: "other-app", username: "ana.h", savedAt: now.addingTimeInterval(-20)),
        Fixtures.record(Fixtures.ana, savedAt: now.addingTimeInterval(-30)),
        Fixtures.record(
            Account(server: Fixtures.otherServer, name: "old@example.com"), savedAt: now.addingTimeInterval(-40)),
    ]

    @Test("list marks only the newest session on each server active, and copies every field")
    func list() {
        let statuses = SessionStatus.list(Self.records, now: Self.now)

        #expect(statuses.map(\.active) == [true, true, false, false])
        #expect(statuses.map(\.activeBecause) == [.latestLogin, .latestLogin, nil, nil])
        #expect(statuses.map(\.email) == ["ivo@example.com", "ana@example.com", "ana@example.com", "old@example.com"])
        #expect(
            statuses[1]
                == SessionStatus(
                    server: Fixtures.otherServer, email: "ana@example.com", username: "ana.h", appID: "other-app",
                    backend: .file, savedAt: Self.now.addingTimeInterval(-20), expiresAt: nil, active: true,
                    activeBecause: .latestLogin, serverDescription: Fixtures.original(Fixtures.otherServer)))
        #expect(SessionStatus.list([], now: Self.now) == [])
    }

    @Test("the active session says why: the only one, chosen with switch after the others' logins, or the latest login")
    func activeReasons() {
        var switched = Fixtures.record(Fixtures.ana, savedAt: Self.now.addingTimeInterval(-60))
        switched.selectedAt = Self.now.addingTimeInterval(-5)
        let newer = Fixtures.record(Fixtures.ivo, savedAt: Self.now.addingTimeInterval(-10))
        let alone = Fixtures.record(Self.other, savedAt: Self.now.addingTimeInterval(-90))

        let statuses = SessionStatus.list([switched, newer, alone], now: Self.now)
        #expect(statuses.map(\.activeBecause) == [.switched, nil, .only])
        #expect(
            statuses.map { $0.rows(location: "", now: Self.now)[0].value } == [
                "http://127.0.0.1:8080/api (active: chosen with swaggerctl switch)",
                "http://127.0.0.1:8080/api",
                "https://api.example.com/v2 (active)",
            ])

        // A login after the switch makes its own account the active one, for the latest-login reason.
        let relogin = Fixtures.record(Fixtures.ivo, savedAt: Self.now)
        #expect(SessionStatus.list([relogin, switched], now: Self.now).map(\.activeBecause) == [.latestLogin, nil])
        #expect(
            SessionStatus.list([relogin, switched], now: Self.now)[0].rows(location: "", now: Self.now)[0].value
                == "http://127.0.0.1:8080/api (active: logged in most recently)")
    }

    @Test("rows for an active session: four by default, and under --verbose who signed in and what is sent")
    func rowsFull() {
        var status = SessionStatus(
            server: Fixtures.server, email: "ana@example.com", username: "ana.h", appID: "swaggerctl-demo",
            backend: .file, savedAt: Self.now.addingTimeInterval(-30), expiresAt: Self.now.addingTimeInterval(3700),
            active: true, activeBecause: .only, serverDescription: Fixtures.original())
        status.token = .stored
        let location = "/home/ana/.config/swaggerctl/credentials.json"
        let usual = [
            DetailsViewModel(key: "Server", value: "http://127.0.0.1:8080/api (active)"),
            DetailsViewModel(key: "Account", value: "ana@example.com"),
            DetailsViewModel(key: "Token in", value: "file (/home/ana/.config/swaggerctl/credentials.json)"),
            DetailsViewModel(key: "Expires", value: "2033-05-18 04:35:00 UTC (in 1 h 1 min)"),
        ]
        #expect(status.rows(location: location, now: Self.now) == usual)
        #expect(
            status.rows(location: location, now: Self.now, verbose: true) == usual + [
                DetailsViewModel(key: "User name", value: "ana.h"),
                DetailsViewModel(key: "App ID", value: "swaggerctl-demo"),
                DetailsViewModel(
                    key: "Sends",
                    value:
                        "login JSON {email, password, appId}; refresh JSON {refreshToken, appId}; logout JSON "
                        + "{refreshToken}"),
                DetailsViewModel(key: "Saved", value: "2033-05-18 03:32:50 UTC (30 s ago)"),
            ])
    }

    @Test("rows for an inactive session without a user name or expiry, on a server with a name")
    func rowsMinimal() {
        var status = SessionStatus(
            server: Fixtures.otherServer, email: "ivo@example.com", username: nil, appID: "app",
            backend: .file, savedAt: Self.now.addingTimeInterval(-2 * 86_400), expiresAt: nil, active: false,
            serverDescription: Fixtures.original(Fixtures.otherServer))
        status.serverName = try? ServerName("prod")

        #expect(
            status.rows(location: "/cfg/credentials.json", now: Self.now) == [
                DetailsViewModel(key: "Server", value: "https://api.example.com/v2 (named prod)"),
                DetailsViewModel(key: "Account", value: "ivo@example.com"),
                DetailsViewModel(key: "Token in", value: "file (/cfg/credentials.json)"),
                DetailsViewModel(key: "Expires", value: "unknown"),
            ])
    }

    @Test("a token missing from its store, or a store that cannot be read, is a Problem row and in the JSON")
    func tokenProblems() throws {
        var status = try #require(SessionStatus.list([Fixtures.record(Fixtures.ana)], now: Self.now).first)
        status.token = .missing
        #expect(status.lacksToken)
        #expect(
            status.rows(location: "/cfg", now: Self.now).last
                == DetailsViewModel(
                    key: "Problem",
                    value: "no token in file: log in again (`swaggerctl login -s http://127.0.0.1:8080/api -e "
                        + "ana@example.com`)"))
        #expect(status.rows(location: "/cfg", now: Self.now).count == 5)
        #expect(StatusReport(sessions: [status], environmentToken: nil).lackingTokens?.hasPrefix("A session") == true)

        status.token = .unreadable("The keyring is locked. Unlock it, or use --keyring file.")
        #expect(
            status.rows(location: "/cfg", now: Self.now).last?.value
                == "the token cannot be read: The keyring is locked. Unlock it, or use --keyring file.")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(SessionStatus.json([status]).utf8)) as? [[String: Any]])
        #expect(json.first?["token"] as? String == "unreadable")
        #expect(json.first?["tokenProblem"] as? String == "The keyring is locked. Unlock it, or use --keyring file.")
        let read = try JSONDecoder.swaggerctl.decode([SessionStatus].self, from: Data(SessionStatus.json([status]).utf8))
        #expect(read.first?.token == status.token)

        status.token = .stored
        #expect(!status.lacksToken)
        #expect(StatusReport(sessions: [status], environmentToken: nil).lackingTokens == nil)
        #expect(
            status.rows(location: "/cfg", now: Self.now).map(\.key) == ["Server", "Account", "Token in", "Expires"])
    }

    @Test(
        "an expired access token is never shown as plainly active: it says whether it is refreshed or must be renewed",
        arguments: [
            (3600.0, true as Bool?, "http://127.0.0.1:8080/api (active)", false as Bool?),
            (10, nil, "http://127.0.0.1:8080/api (active)", false),
            (
                0, true,
                "http://127.0.0.1:8080/api (active; the access token has expired, and is refreshed on next use)", true
            ),
            (
                -60, nil,
                "http://127.0.0.1:8080/api (active; the access token has expired, and is refreshed on next use)", true
            ),
            (-60, false, "http://127.0.0.1:8080/api (active; the access token has expired: log in again)", true),
        ])
    func expiredIsNeverPlainlyActive(offset: TimeInterval, refreshable: Bool?, server: String, expired: Bool?) throws {
        var record = Fixtures.record(Fixtures.ana, expiresAt: Self.now.addingTimeInterval(offset))
        record.refreshable = refreshable
        let status = try #require(SessionStatus.list([record], now: Self.now).first)

        #expect(status.expired == expired)
        #expect(status.rows(location: "/cfg", now: Self.now).first == DetailsViewModel(key: "Server", value: server))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(SessionStatus.json([status]).utf8)) as? [[String: Any]])
        #expect(json.first?["expired"] as? Bool == expired)
    }

    @Test("an inactive session with an expired token says so too; one with no known expiry is not called expired")
    func expiredInactive() throws {
        let records = [
            Fixtures.record(Fixtures.ivo, savedAt: Self.now),
            Fixtures.record(Fixtures.ana, expiresAt: Self.now.addingTimeInterval(-5)),
            Fixtures.record(Self.other, expiresAt: nil),
        ]
        let statuses = SessionStatus.list(records, now: Self.now)

        #expect(statuses.map(\.expired) == [nil, true, nil])
        #expect(
            statuses[1].rows(location: "/cfg", now: Self.now).first
                == DetailsViewModel(
                    key: "Server",
                    value: "http://127.0.0.1:8080/api (the access token has expired, and is refreshed on next use)"))
    }

    @Test("status --check adds what the server said")
    func checkRow() {
        var status = SessionStatus.list([Fixtures.record(Fixtures.ana)], now: Self.now)[0]
        status.check = .refreshed
        #expect(
            status.rows(location: "/cfg", now: Self.now).last
                == DetailsViewModel(key: "Checked", value: "refreshed: the server accepts the new token"))
        status.check = .valid
        #expect(
            status.rows(location: "/cfg", now: Self.now).last
                == DetailsViewModel(key: "Checked", value: "valid: the server accepts the token"))
    }

    @Test(
        "format gives the UTC time and how far it is from now",
        arguments: [
            (0.0, "2033-05-18 03:33:20 UTC (now)"),
            (3700, "2033-05-18 04:35:00 UTC (in 1 h 1 min)"),
            (-30, "2033-05-18 03:32:50 UTC (30 s ago)"),
            (59, "2033-05-18 03:34:19 UTC (in 59 s)"),
            (60, "2033-05-18 03:34:20 UTC (in 1 min)"),
            (-3599, "2033-05-18 02:33:21 UTC (59 min ago)"),
            (3600, "2033-05-18 04:33:20 UTC (in 1 h 0 min)"),
            (86_399, "2033-05-19 03:33:19 UTC (in 23 h 59 min)"),
            (86_400, "2033-05-19 03:33:20 UTC (in 1 d)"),
            (-864_005, "2033-05-08 03:33:15 UTC (10 d ago)"),
        ] as [(TimeInterval, String)])
    func format(offset: TimeInterval, expected: String) {
        #expect(RelativeTime.stamp(Self.now.addingTimeInterval(offset), now: Self.now) == expected)
    }

    @Test("format contains the relative part for a future and a past date")
    func formatRelative() {
        #expect(RelativeTime.stamp(Self.now.addingTimeInterval(3700), now: Self.now).contains("(in 1 h 1 min)"))
        #expect(RelativeTime.stamp(Self.now.addingTimeInterval(-30), now: Self.now).hasSuffix("(30 s ago)"))
    }

    @Test("render gives one table per session, separated by a blank line")
    func render() {
        let statuses = SessionStatus.list(
            [
                Fixtures.record(Fixtures.ana, savedAt: Self.now.addingTimeInterval(-30)),
                Fixtures.record(Fixtures.ivo, username: "ivo", savedAt: Self.now.addingTimeInterval(-90)),
            ], now: Self.now)

        let text = SessionStatus.render(
            statuses, location: { "/cfg/\($0.backend.rawValue).json" }, renderer: TableRenderer(), now: Self.now)

        #expect(
            text == """
                Server    http://127.0.0.1:8080/api (active: logged in most recently)
                Account   ana@example.com
                Token in  file (/cfg/file.json)
                Expires   unknown

                Server    http://127.0.0.1:8080/api
                Account   ivo@example.com
                Token in  file (/cfg/file.json)
                Expires   unknown

                """)
    }

    @Test("json round-trips, ends in a newline, and holds no token")
    func json() async throws {
        // Store a session the way login does: the token in the file, the record in the session list.
        let folder = try TemporaryDirectory()
        let token = Fixtures.jwt(exp: 2_000_003_600)
        try await FileBackend(directory: folder.url).store(
            Credentials(accessToken: token, refreshToken: "REFRESH-TOKEN-TEXT"), for: Fixtures.ana)
        let index = SessionList(directory: folder.url)
        try index.save(Fixtures.record(Fixtures.ana, savedAt: Self.now, expiresAt: JWTClaims.expiry(of: token)))
        for record in Self.records where record.account != Fixtures.ana { try index.save(record) }
        let statuses = SessionStatus.list(try index.records(), now: Self.now)
        try #require(statuses.count == 4)

        let text = SessionStatus.json(statuses)

        #expect(text.hasPrefix("["))
        #expect(text.hasSuffix("]\n"))
        #expect(!text.contains(token))
        #expect(!text.contains("REFRESH-TOKEN-TEXT"))
        #expect(!text.contains("Token"))
        #expect(try JSONDecoder.swaggerctl.decode([SessionStatus].self, from: Data(text.utf8)) == statuses)
        #expect(statuses.first?.expiresAt == Date(timeIntervalSince1970: 2_000_003_600))
        #expect(try JSONDecoder.swaggerctl.decode([SessionStatus].self, from: Data(SessionStatus.json([]).utf8)) == [])
    }

    @Test("json writes dates as ISO 8601 and the active flag")
    func jsonFields() throws {
        let text = SessionStatus.json(
            SessionStatus.list([Fixtures.record(Fixtures.ana, savedAt: Self.now)], now: Self.now))
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let object = try #require(array.first)

        #expect(object["savedAt"] as? String == "2033-05-18T03:33:20.000Z")
        #expect(object["active"] as? Bool == true)
        #expect(object["server"] as? String == Fixtures.server.string)
        #expect(object["email"] as? String == "ana@example.com")
        #expect(object["appId"] as? String == "swaggerctl-demo")
        #expect(object["keystore"] as? String == "file")
    }
}

@Suite("RefreshReport: what refresh prints", .timeLimit(.minutes(5)))
struct RefreshReportTests {
    static let now = Date(timeIntervalSince1970: 2_000_000_000)

    @Test("a renewed session's expiry is the record's, whatever the token is: a JWT's exp or an expires_in")
    func renewed() {
        let record = Fixtures.record(Fixtures.ana, expiresAt: Self.now.addingTimeInterval(3600))
        #expect(
            RefreshReport.line(.renewed(record), now: Self.now)
                == "Refreshed the session for ana@example.com on \(Fixtures.server): the access token expires "
                + "2033-05-18 04:33:20 UTC (in 1 h 0 min).")
        #expect(
            RefreshReport.line(.renewed(Fixtures.record(Fixtures.ana)), now: Self.now)
                == "Refreshed the session for ana@example.com on \(Fixtures.server): the server did not say when "
                + "the new access token expires.")
    }

    @Test("a session without a refresh token: the server gave none, and the token is good until its expiry")
    func notRenewable() {
        let record = Fixtures.record(Fixtures.ana, expiresAt: Self.now.addingTimeInterval(600))
        #expect(
            RefreshReport.line(.notRenewable(record), now: Self.now)
                == "\(Fixtures.server) gave no refresh token for ana@example.com, so there is nothing to renew; its "
                + "access token is good until 2033-05-18 03:43:20 UTC (in 10 min).")
    }
}
