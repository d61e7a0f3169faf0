import Foundation
import Testing

/// A third-party server that the tests log in to, from `Tests/Fixtures/python`, run with the venv that
/// `make test` makes (`scripts/python-env`): the FastAPI app, Django OAuth Toolkit, Django REST framework with
/// Simple JWT, Flask with flask-jwt-extended, or fastapi-users. Each listens on a loopback address of its own and a free port.
struct PythonServer: Sendable {
    enum Fixture: String {
        /// FastAPI's OAuth2PasswordRequestForm and OAuth2PasswordBearer, with paged lists.
        case fastapi
        /// Django OAuth Toolkit under `/o`: password grant, rotation, revocation, introspection, OIDC.
        case dot
        /// Django REST framework with Simple JWT under `/api`: login, rotation with blacklisting, logout, `users/me`,
        /// DRF's page-number, limit-offset and cursor pages, drf-spectacular's schema.
        case drf
        /// Flask with flask-jwt-extended: JSON `/login`, `/refresh` with the refresh token as the bearer (a new access
        /// token only), `DELETE /logout` revoking the bearer token into an in-memory blocklist, `/me`.
        case flask
        /// fastapi-users with its bearer transport and a database strategy under `/auth/jwt` (a form login, a logout
        /// that deletes the token), `/users/me`, fastapi-pagination's four page types under `/items`, and
        /// `/test/tokens`, the number of live tokens.
        case fastapiUsers = "fastapi-users"
        /// Authlib's authorization server in Flask: RFC 8628's device endpoint with its device code grant, refresh
        /// with rotation, RFC 7009 revocation, `/userinfo`, RFC 8414 metadata, and `/test/tokens`.
        case authlib
        /// dj-rest-auth with DRF's `Authorization: Token`, allauth's login by user name or e-mail, a logout that
        /// deletes the token, DRF's page numbers, drf-spectacular's schema at `/api/schema/` and `/api/test/tokens/`.
        case djRestAuth = "dj-rest-auth"
        /// django-rest-knox: `api/auth/login/` by HTTP Basic answering `{expiry, token}` (10 hours), `Authorization:
        /// Token`, a logout and a logout of every session that delete tokens, `api/users/me/`, DRF's page numbers,
        /// drf-spectacular's schema at `/api/schema/` and `/api/test/tokens/`, the live tokens.
        case knox
        /// Django Ninja with django-ninja-jwt under `/api`: token pair, rotation with blacklisting, `/api/me`, Ninja's
        /// page numbers, its document at `/api/openapi.json` and `/api/test/blacklisted`.
        case ninja
        /// Litestar's JWT backend: a JSON login by e-mail, a refresh of the app's own, a logout that revokes the
        /// bearer, classic pages by `current_page`, `/schema/openapi.json` and `/test/revoked`.
        case litestar
        /// Flask-RESTX with flask-jwt-extended: a Swagger 2.0 document at `/swagger.json`, `/auth/login`, refresh with
        /// the refresh token as the bearer, `DELETE /auth/logout`, Flask-SQLAlchemy's pages and `/test/revoked`.
        case restx
        /// Flask-AppBuilder's REST API, whose document is behind its login: `/api/v1/security/login` with
        /// `provider` and `refresh`, a profile wrapped in `result`, no logout.
        case fab
        /// APIFlask with an API key in `X-API-Key`: a JSON login by e-mail, a logout that deletes the key, its
        /// pagination object, `/openapi.json` and `/test/tokens`.
        case apiflask
        /// django-allauth's headless API with session tokens (`X-Session-Token`), its document at
        /// `/_allauth/openapi.json`, a logout answered 401, and `/test/state` (users and sessions).
        case allauth
        /// The same with allauth's JWT strategy: access and refresh tokens, `POST …/tokens/refresh`.
        case allauthJWT = "allauth-jwt"
        /// Kinto with its accounts plugin: HTTP Basic on every request, Swagger 2.0 at `/v1/__api__`, 25 records in
        /// `b/c` paged by `Next-Page`; an admin (`admin`, `admin-Passw0rd!`) who may count the accounts.
        case kinto
        /// Synapse, the Matrix homeserver: the client API with refresh tokens; the server admin's token is in
        /// `admin_token` in the server's folder.
        case synapse
    }

    /// The script that stands in for a person's browser (`$BROWSER`): it signs in on the provider's login page
    /// and approves or refuses, as `BROWSER_ACTION` says.
    static var browser: URL { Project.root.appending(path: "Tests/Fixtures/python/browser.py") }

    /// The venv's interpreter.
    static var python: URL { Project.root.appending(path: ".build-py/venv/bin/python") }

    /// The server's origin, such as `http://127.4.5.6:41234`.
    let origin: String
    /// The folder the server keeps its files in, for a test's look at the server's side.
    var folder: URL = URL(filePath: "/")

    /// The JSON object that `curl` gets: how a test sees what the server thinks.
    func json(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await curl(arguments)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }
}

/// Runs `body` with a fresh `fixture` server, and stops it afterwards. It listens on `host`, else on a loopback
/// address of its own (HTTPS needs 127.0.0.1, which the tests' certificates name).
func withPythonServer<Result: Sendable>(
    _ fixture: PythonServer.Fixture, environment: [String: String] = [:], host: String? = nil,
    _ body: (PythonServer) async throws -> Result
) async throws -> Result {
    guard FileManager.default.isExecutableFile(atPath: PythonServer.python.path) else {
        throw SupportFailure("no \(PythonServer.python.path): `make test` makes it with scripts/python-env")
    }
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-py-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "server.log")
    let host = host ?? privateLoopbackHost()
    let serve = Project.root.appending(path: "Tests/Fixtures/python/serve.py").path
    let fixtureEnvironment = [
        "PATH": "/usr/bin:/bin", "HOME": folder.path, "PYTHONDONTWRITEBYTECODE": "1",
        "DOT_DATABASE": folder.appending(path: "db.sqlite3").path,
    ].merging(environment) { $1 }
    do {
        return try await withChildProcess(
            PythonServer.python, [serve, fixture.rawValue, host], environment: fixtureEnvironment, log: log
        ) { lines in
            guard lines[0].hasPrefix("listening on ") else {
                throw SupportFailure("\(fixture) printed \(lines[0])")
            }
            return try await body(
                PythonServer(origin: String(lines[0].dropFirst("listening on ".count)), folder: folder))
        }
    } catch let failure as StartFailure {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw SupportFailure("\(fixture): \(failure); its log: \(said.suffix(2000))")
    }
}
