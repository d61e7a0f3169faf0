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
        /// The description, in the description language.
        package var json: JSONValue
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
    ]

    package static var names: [String] { all.map(\.name) }

    package static func named(_ name: String) -> Preset? {
        all.first { $0.name == name }
    }
}
