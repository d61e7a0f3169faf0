import FoundationEssentials

/// The server families swaggerctl knows by name, each a description in the description language (see
/// ``ServerDescription/init(json:under:)``) of the routes their software puts under the URL it is mounted at.
///
/// A preset is data: what a family does differently is said here, in its description, and nowhere else. A
/// preset may leave out what its software does not fix, such as simplejwt's profile or an OAuth 2 server's
/// endpoints, which its metadata names.
package enum ServerPresets {
    package struct Preset: Sendable {
        package var name: String
        /// What the family is, for `server show` and the help.
        package var summary: String
        /// What shows a server to be of this family, when nobody said so.
        package var evidence: Evidence = .steps
        /// The description, in the description language.
        package var json: JSONValue
    }

    /// What shows a server to be of a family: discovery's side of a preset, as data.
    package enum Evidence: Sendable {
        /// An OpenAPI document that has the preset's login and profile as operations.
        case steps
        /// An OpenAPI document that has these operations, `METHOD /path` under the server: for a family whose
        /// requests are signed in with HTTP Basic, which has no login of its own to find.
        case operations([String])
        /// Answers to `GET`s without credentials, as a protocol announces itself: each path under the server
        /// answers JSON with the member at `member`, holding `containing` (a string, somewhere in it) when given.
        case answers([Answer])

        package struct Answer: Sendable {
            package var path: String
            package var member: String
            package var containing: String?

            package init(_ path: String, _ member: String, containing: String? = nil) {
                self.path = path
                self.member = member
                self.containing = containing
            }
        }
    }

    /// The presets, by name.
    package static let all: [Preset] = [
        Preset(
            name: "original",
            summary: "this tool's own account API (openapi.yaml), as the demo server serves it",
            json: [
                "login": [
                    "url": "/User/AdminLogin", "body": "json", "account": "email", "appId": "appId",
                    "answer": [
                        "access": "accessToken", "refresh": "refreshToken", "expiresIn": "expiresIn",
                        "username": "username",
                    ],
                ],
                "refresh": ["url": "/User/RefreshToken", "with": "json:refreshToken", "appId": "appId"],
                "revocation": ["url": "/User/Logout", "with": "json:refreshToken"],
                "profile": [
                    "url": "/User/User",
                    "labels": [
                        ["id", "ID"], ["name", "First name"], ["surname", "Last name"], ["fullName", "Full name"],
                        ["imageId", "Image ID", -1], ["adress", "Address"], ["phonenumber", "Phone number"],
                        ["oib", "OIB"], ["email", "E-mail"], ["statusId", "Status"],
                    ],
                ],
            ]),
        Preset(
            name: "identity",
            summary: "ASP.NET Core Identity's bearer endpoints (MapIdentityApi): /login, /refresh, /manage/info",
            json: [
                "login": [
                    "url": "/login", "body": "json", "account": "email",
                    "answer": ["access": "accessToken", "refresh": "refreshToken", "expiresIn": "expiresIn"],
                ],
                "refresh": ["url": "/refresh", "with": "json:refreshToken"],
                "revocation": .null,
                "profile": ["url": "/manage/info"],
            ]),
        Preset(
            name: "oauth2",
            summary: "an OAuth 2 authorization server: the password grant, refresh, RFC 7009, userinfo",
            json: [
                "login": ["body": "form", "account": "username", "members": ["grant_type": "password"]],
                "refresh": ["with": "grant"],
                "revocation": ["with": "rfc7009"],
            ]),
        Preset(
            name: "simplejwt",
            summary: "Django REST framework with simplejwt: token/, token/refresh/, token/blacklist/",
            json: [
                "login": [
                    "url": "/token/", "body": "json", "account": "username",
                    "answer": ["access": "access", "refresh": "refresh"],
                ],
                "refresh": ["url": "/token/refresh/", "with": "json:refresh"],
                "revocation": ["url": "/token/blacklist/", "with": "json:refresh"],
            ]),
        Preset(
            name: "flask-jwt-extended",
            summary: "flask-jwt-extended as its documentation sets it up: /login, /refresh, DELETE /logout",
            json: [
                "login": ["url": "/login", "body": "json", "account": "username"],
                "refresh": ["url": "/refresh", "with": "bearer"],
                "revocation": ["url": "/logout", "with": "bearer:DELETE"],
            ]),
        Preset(
            name: "fastapi-users",
            summary: "fastapi-users' bearer transport: auth/jwt/login, auth/jwt/logout, users/me",
            json: [
                "login": [
                    "url": "/auth/jwt/login", "body": "form", "account": "username",
                    "members": ["grant_type": "password"],
                ],
                "refresh": .null,
                "revocation": ["url": "/auth/jwt/logout", "with": "bearer:POST"],
                "profile": ["url": "/users/me"],
            ]),
        Preset(
            name: "allauth",
            summary: "django-allauth's headless API for apps: a session token in X-Session-Token, logout by DELETE",
            json: allauth),
        Preset(
            name: "allauth-jwt",
            summary: "django-allauth's headless API with its JWT strategy: access and refresh tokens, Bearer",
            json: allauth.merging([
                "login": ["answer": ["access": "meta.access_token", "refresh": "meta.refresh_token"]],
                "token": .null,
                "refresh": [
                    "url": "/_allauth/app/v1/tokens/refresh", "with": "json:refresh_token",
                    "answer": ["access": "data.access_token", "refresh": "data.refresh_token"],
                ],
            ])),
        Preset(
            name: "kinto",
            summary: "Kinto: every request signed in with HTTP Basic; who you are in the root's user",
            evidence: .operations(["GET /__heartbeat__", "GET /buckets", "GET /accounts"]),
            json: [
                "login": ["with": "basic"],
                "token": "Authorization: Basic",
                "refresh": .null,
                "revocation": .null,
                "profile": ["url": "/", "unwrap": "user"],
            ]),
        Preset(
            name: "matrix",
            summary: "the Matrix client API: m.login.password, refresh tokens, logout, whoami, lists by since",
            evidence: .answers([
                .init("/_matrix/client/versions", "versions"),
                .init("/_matrix/client/v3/login", "flows", containing: "m.login.password"),
            ]),
            json: [
                "login": [
                    "url": "/_matrix/client/v3/login", "body": "json", "account": "identifier.user",
                    "members": ["type": "m.login.password", "identifier.type": "m.id.user", "refresh_token": true],
                    "answer": [
                        "access": "access_token", "refresh": "refresh_token", "expiresIn": "expires_in_ms",
                        "unit": "ms",
                    ],
                ],
                "refresh": ["url": "/_matrix/client/v3/refresh", "with": "json:refresh_token"],
                "revocation": ["url": "/_matrix/client/v3/logout", "with": "bearer:POST"],
                "profile": ["url": "/_matrix/client/v3/account/whoami"],
                // Lists such as publicRooms give next_batch, which the next request sends back as since.
                "paging": ["cursor": "since"],
            ]),
    ]

    /// django-allauth's headless API for apps, with its session tokens: what its JWT strategy changes goes over it.
    private static let allauth: JSONValue = [
        "login": [
            "url": "/_allauth/app/v1/auth/login", "body": "json", "account": "username", "email": "email",
            "answer": ["access": "meta.session_token"],
        ],
        "token": "X-Session-Token",
        "refresh": .null,
        // Its logout answers 401, "not authenticated": the session is over. 410 says it was already.
        "revocation": [
            "url": "/_allauth/app/v1/auth/session", "with": "bearer:DELETE", "revoked": [401], "gone": [410],
        ],
        "profile": ["url": "/_allauth/app/v1/auth/session", "unwrap": "data.user"],
    ]

    package static var names: [String] { all.map(\.name) }

    package static func named(_ name: String) -> Preset? {
        all.first { $0.name == name }
    }
}
