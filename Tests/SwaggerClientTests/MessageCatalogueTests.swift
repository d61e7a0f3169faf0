import Foundation
import SessionMachine
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

/// Every error and warning the session flows can print, with values of a usual length, held to one style: at most
/// two lines at 80 columns with the prefix it is printed with, one way of writing seconds and statuses, and no
/// doubled full stop.
@Suite("Message catalogue: every failure and warning fits two lines, in one style", .timeLimit(.minutes(5)))
struct MessageCatalogueTests {
    static let server = Fixtures.serverURL("https://api.example.com")
    static let other = Fixtures.serverURL("https://auth.example.com")
    static let account = Account(server: server, name: "ana@example.com")
    static let record = Fixtures.record(account)
    static var kernelRecord: SessionRecord {
        var record = record
        record.backend = .kernel
        return record
    }
    static var clientRecord: SessionRecord {
        var record = record
        record.signIn = .client
        return record
    }
    static let messages = MessageContext(timeout: .seconds(10), now: Fixtures.savedAt)
    static let description = Fixtures.original(server)
    /// A store's own error, as the token store or a private file words it.
    static let storeError = SwaggerError(
        .failure, "Could not write /home/ana/.config/swaggerctl/sessions.json: No space left on device.")
    /// What a server says, as long as servers usually say it.
    static let said = "Unable to log in with provided credentials."

    static let requestFailures: [APIServiceError] = [
        .badCredentials(status: 400, message: said), .badCredentials(status: 401, message: nil),
        .tokenRejected(challenge: nil), .refreshRejected, .forbidden(message: "This account is disabled."),
        .forbidden(message: nil), .requestRejected(status: 404, message: nil),
        .requestRejected(status: 400, message: said), .requestRejected(status: 422, message: nil),
        .redirected(status: 302, location: "https://login.example.com/sso/start"),
        .serverFailed(status: 503), .serverFailed(status: 429), .serverFailed(status: 501),
        .contractViolation("an unexpected status (HTTP 418)"),
        .notAProfile("the body is not a JSON object"),
        .unreachable("connection refused"), .timedOut, .requestTooLarge(limit: 16 << 20), .clientKeyUnusable,
        .tokenNotBound("Bearer"),
        .proxyFailed(proxy: "http://proxy.example.com:3128", .unreachable("connection refused")),
        .proxyFailed(proxy: "http://proxy.example.com:3128", .authenticationRequired),
        .proxyFailed(proxy: "http://proxy.example.com:3128", .refused),
        .tls(.untrusted), .tls(.expired(Fixtures.savedAt.addingTimeInterval(-86_400))),
        .tls(.notYetValid(Fixtures.savedAt.addingTimeInterval(86_400))), .tls(.wrongHost),
        .tls(.noCommonProtocol), .tls(.notTLS), .tls(.handshakeFailed),
        .tls(.unloadableTrustStore("/etc/ssl/certs/ca-certificates.crt")), .notHTTP,
        .elsewhere(other, .unreachable("connection refused")),
    ]

    static let failures: [SessionFailure] =
        requestFailures.map { .requestFailed($0, server: server, account: account.name, description: description) }
        + [
            .undescribed(server: server),
            .environmentTokenRejected(server: server), .environmentTokenExpired(server: server),
            .sessionEnded(account, because: .tokenRejected(challenge: nil)),
            .sessionEnded(account, because: .forbidden(message: "This account is disabled.")),
            .noStoredToken(record), .keyMissing(record), .sessionGone(account), .expiredWithoutRefreshToken(record),
            .plainHTTPRefused(server: server, sending: .password),
            .plainHTTPRefused(server: server, sending: .tokens(account: account.name)),
            .plainHTTPRefused(server: server, sending: .environmentToken),
            .foreignOrigin(server: server, .init(step: "login", origin: other), sending: .password),
            .profileAfterLogin(.unreachable("connection refused"), record),
            .unusableProfile(.notAProfile("the body is not a JSON object"), account, description),
            .notStored(account, storeError), .renewedButNotStored(account, storeError),
            .renewalRefused(record, status: 400, message: "invalid_grant"),
            .renewalNotWritable(account, storeError), .notRemoved(account, storeError, revoked: true),
            .tokensNotRemoved(account, storeError),
            .otherAccountSignedIn(server: server, asked: account.name, signedIn: "ivo@example.com"),
            .unknownAccountSignedIn(server: server), .tokenRefused(server: server, .tokenRejected(challenge: nil)),
            .clientRefused(server: server, client: AccountName("ci-deploy-bot", isEmail: false)),
            .deviceLoginEnded(server: server, .denied), .deviceLoginEnded(server: server, .expired),
            .browserLoginEnded(server: server, .denied("The user denied access.")),
            .browserLoginEnded(server: server, .refused("invalid_scope", "The scope is not allowed.")),
            .browserLoginEnded(server: server, .noCode), .browserLoginEnded(server: server, .timedOut(.seconds(300))),
        ]

    static let logoutWarnings: [LogoutCoordinator.Warning] = [
        .serverCannotRevoke(server), .tokensUnreadable(storeError, server: server),
        .plainHTTPRefused(account, to: server), .foreignOrigin(account, .init(step: "revocation", origin: other)),
        .revocationFailed(.unreachable("connection refused"), server: server, description: description),
        .undescribed(server), .tokensMissing(server), .tokensLeft(.keyring),
        .accessTokenStays(server, until: Fixtures.savedAt.addingTimeInterval(86_000), endedRefresh: true),
        .accessTokenStays(server, until: nil, endedRefresh: false),
    ]

    /// Every line, with the prefix it is printed with.
    static var lines: [String] {
        failures.map { "swaggerctl: \($0.rendered(in: messages).message)" }
            + [
                SessionFailure.noStoredToken(kernelRecord).rendered(in: messages),
                SessionFailure.sessionEnded(account, because: .tokenRejected(challenge: nil))
                    .rendered(in: messages, session: clientRecord),
            ].map { "swaggerctl: \($0.message)" }
            + logoutWarnings.map { "swaggerctl: warning: \($0.line(in: messages))" }
            + [
                LoginCoordinator.Leftover(until: nil),
                LoginCoordinator.Leftover(until: Fixtures.savedAt.addingTimeInterval(86_000)),
                LoginCoordinator.Leftover(until: nil, failure: .timedOut),
            ].map { "swaggerctl: warning: \($0.line(in: messages))" }
            + logoutWarnings.map { "swaggerctl: \($0.failure(in: messages))" }
            + [
                SwaggerError.notLoggedInAnywhere, .noServer, .loginWithoutServer, .tokenWithoutServer, .notAToken,
                SwaggerError.nothingDescribed(server, ["no login operation", "no profile operation"]),
                SwaggerError.noBrowserLogin(server, description),
                SwaggerError.noDeviceAuthorization(server, description),
                SwaggerError.noPasswordGrant(server, description),
                SessionController.TokenMove(server: server, accounts: ["ana@example.com"], origins: [other]).refusal,
            ].map { "swaggerctl: \($0.message)" }
            + [
                Account.nowActiveNotice("ivo@example.com", on: server), BrowserFlow.wrongStateNotice,
                ProofBinding.tokenNotice,
                BrowserFlow.latecomerNotice, OriginRule.movedNotice(server, [other]),
            ]
            .map { "swaggerctl: warning: \($0)" }
            + [
                OriginRule.Foreign.init(step: "login", origin: other).refusal(on: server),
                OriginRule.othersNotice(server, [other]),
            ].map { "swaggerctl: \($0)" }
            + [
                SignIn.web.chosenNotice(server, hasBrowser: true),
                SignIn.device.chosenNotice(server, hasBrowser: false),
                BrowserFlow.addressNotice(
                    server.url.appending(path: "callback"), opened: true),
                DeviceAuthorization(
                    deviceCode: "device", userCode: "WDJB-MJHT",
                    verificationURI: other.url.appending(path: "device"),
                    interval: .seconds(5), expiresIn: .seconds(600)
                ).instructions(opened: true),
            ].map { "swaggerctl: \($0)" }
    }

    /// The name of each case, by a switch with no default: a case added to a failure type does not compile here
    /// until it is named, and `everyCase` then fails until the catalogue renders it.
    static func name(_ failure: SessionFailure) -> String {
        switch failure {
        case .requestFailed: "requestFailed"
        case .undescribed: "undescribed"
        case .environmentTokenRejected: "environmentTokenRejected"
        case .environmentTokenExpired: "environmentTokenExpired"
        case .sessionEnded: "sessionEnded"
        case .noStoredToken: "noStoredToken"
        case .keyMissing: "keyMissing"
        case .sessionGone: "sessionGone"
        case .expiredWithoutRefreshToken: "expiredWithoutRefreshToken"
        case .plainHTTPRefused: "plainHTTPRefused"
        case .foreignOrigin: "foreignOrigin"
        case .profileAfterLogin: "profileAfterLogin"
        case .unusableProfile: "unusableProfile"
        case .notStored: "notStored"
        case .renewedButNotStored: "renewedButNotStored"
        case .renewalRefused: "renewalRefused"
        case .renewalNotWritable: "renewalNotWritable"
        case .notRemoved: "notRemoved"
        case .tokensNotRemoved: "tokensNotRemoved"
        case .otherAccountSignedIn: "otherAccountSignedIn"
        case .unknownAccountSignedIn: "unknownAccountSignedIn"
        case .tokenRefused: "tokenRefused"
        case .clientRefused: "clientRefused"
        case .deviceLoginEnded: "deviceLoginEnded"
        case .browserLoginEnded: "browserLoginEnded"
        }
    }

    static func name(_ error: APIServiceError) -> String {
        switch error {
        case .badCredentials: "badCredentials"
        case .tokenRejected: "tokenRejected"
        case .refreshRejected: "refreshRejected"
        case .forbidden: "forbidden"
        case .requestRejected: "requestRejected"
        case .redirected: "redirected"
        case .serverFailed: "serverFailed"
        case .contractViolation: "contractViolation"
        case .notHTTP: "notHTTP"
        case .notAProfile: "notAProfile"
        case .unreachable: "unreachable"
        case .timedOut: "timedOut"
        case .tls: "tls"
        case .requestTooLarge: "requestTooLarge"
        case .tokenNotBound: "tokenNotBound"
        case .clientKeyUnusable: "clientKeyUnusable"
        case .proxyFailed: "proxyFailed"
        case .elsewhere: "elsewhere"
        }
    }

    static func name(_ warning: LogoutCoordinator.Warning) -> String {
        switch warning {
        case .serverCannotRevoke: "serverCannotRevoke"
        case .tokensUnreadable: "tokensUnreadable"
        case .plainHTTPRefused: "plainHTTPRefused"
        case .foreignOrigin: "foreignOrigin"
        case .revocationFailed: "revocationFailed"
        case .undescribed: "undescribed"
        case .tokensMissing: "tokensMissing"
        case .tokensLeft: "tokensLeft"
        case .accessTokenStays: "accessTokenStays"
        }
    }

    @Test("the catalogue renders every case of every failure type")
    func everyCase() {
        #expect(Set(Self.failures.map(Self.name)).count == 25)
        #expect(Set(Self.requestFailures.map(Self.name)).count == 18)
        #expect(Set(Self.logoutWarnings.map(Self.name)).count == 9)
    }

    @Test("each fits two lines of 80 columns", arguments: lines)
    func twoLines(line: String) {
        #expect(!line.contains("\n"), "one line, wrapped by the terminal")
        #expect(line.count <= 160, "\(line.count) characters")
    }

    @Test("one style: seconds as \"10 s\", statuses as \"(HTTP 404)\", no doubled full stop", arguments: lines)
    func style(line: String) {
        #expect(!line.contains(" sec"), "seconds are written \"10 s\"")
        #expect(!line.contains("with HTTP") && !line.contains("HTTP status"), "a status is written (HTTP 404)")
        #expect(!line.contains("..") && !line.contains(".\"."), "a doubled full stop")
    }
}
