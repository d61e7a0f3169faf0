import Foundation
import SessionMachine
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerDocuments
@testable import SwaggerServers

@Suite("Discovery: reading an OAuth 2 server's documents", .timeLimit(.minutes(5)))
struct DiscoveryTests {
    static let fastAPI = Data(
        #"""
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
         "components": {"securitySchemes": {"OAuth2PasswordBearer": {"type": "oauth2",
           "flows": {"password": {"refreshUrl": "token/refresh", "scopes": {}, "tokenUrl": "token"}}}}}}
        """#.utf8)

    @Test("an authorization code flow gives a browser login's endpoints, beside or without a password flow")
    func authorizationCodeFlow() throws {
        let both = Data(
            #"""
            {"openapi": "3.0.0", "paths": {}, "components": {"securitySchemes": {"o": {"type": "oauth2", "flows": {
              "authorizationCode": {"authorizationUrl": "/authorize", "tokenUrl": "/token", "scopes": {}},
              "password": {"tokenUrl": "/token", "scopes": {}}}}}}}
            """#.utf8)
        let found = try #require(Discovery.openAPI(both, at: URL(string: "https://h/openapi.json")!))
        #expect(found.authorization?.absoluteString == "https://h/authorize")
        #expect(found.grantTypes == ["password", "authorization_code"])
        let codeOnly = Data(
            #"""
            {"swagger": "2.0", "paths": {}, "securityDefinitions": {"o": {"type": "oauth2", "flow": "accessCode",
              "authorizationUrl": "https://id/authorize", "tokenUrl": "https://id/token"}}}
            """#.utf8)
        let browser = try #require(Discovery.openAPI(codeOnly, at: URL(string: "https://h/swagger.json")!))
        #expect(browser.token?.absoluteString == "https://id/token" && browser.grantTypes == ["authorization_code"])
    }

    @Test("metadata's grant types, challenge methods and browser endpoints are read")
    func browserMetadata() throws {
        let metadata = Data(
            #"""
            {"token_endpoint": "/token", "authorization_endpoint": "/authorize",
             "device_authorization_endpoint": "https://id/device", "grant_types_supported": ["authorization_code"],
             "code_challenge_methods_supported": ["S256"]}
            """#.utf8)
        let found = try #require(
            Discovery.metadata(metadata, at: URL(string: "https://id/.well-known/openid-configuration")!))
        #expect(found.authorization?.absoluteString == "https://id/authorize")
        #expect(found.deviceAuthorization?.absoluteString == "https://id/device")
        #expect(found.grantTypes == ["authorization_code"] && found.challengeMethods == ["S256"])
    }

    @Test("FastAPI's document: tokenUrl and refreshUrl, relative to the document without a servers entry")
    func fastAPIDocument() throws {
        let found = try #require(Discovery.openAPI(Self.fastAPI, at: URL(string: "http://h:8000/openapi.json")!))
        #expect(found.token?.absoluteString == "http://h:8000/token")
        #expect(found.refresh?.absoluteString == "http://h:8000/token/refresh")
    }

    @Test("a YAML document's relative tokenUrl follows its first servers entry, a folder")
    func yamlWithServers() throws {
        let yaml = Data(
            """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            servers:
              - url: https://api.example.com/v2
                description: 1:30
            paths: {}
            components:
              securitySchemes:
                other: {type: http, scheme: bearer}
                password:
                  type: oauth2
                  flows:
                    password:
                      tokenUrl: auth/token
                      scopes: {}
            """.utf8)
        let found = try #require(Discovery.openAPI(yaml, at: URL(string: "https://docs.example.com/api.yaml")!))
        #expect(found.token?.absoluteString == "https://api.example.com/v2/auth/token")
        #expect(found.refresh == nil)
    }

    @Test("Swagger 2's securityDefinitions with flow: password, and an absolute tokenUrl")
    func swagger2() throws {
        let document = Data(
            #"{"swagger": "2.0", "securityDefinitions": {"o": {"type": "oauth2", "flow": "password", "tokenUrl": "https://auth.example.com/token"}}}"#
                .utf8)
        let found = try #require(Discovery.openAPI(document, at: URL(string: "https://api.example.com/swagger.json")!))
        #expect(found.token?.absoluteString == "https://auth.example.com/token")
    }

    @Test(
        "a document with no password flow, or no document at all, names nothing",
        arguments: [
            #"{"openapi": "3.0.0", "components": {"securitySchemes": {"b": {"type": "http", "scheme": "bearer"}}}}"#,
            #"{"openapi": "3.0.0", "components": {"securitySchemes": {"c": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "t"}}}}}}"#,
            "<html><body>Not Found</body></html>",
            "[1, 2]",
        ])
    func nothing(text: String) {
        #expect(Discovery.openAPI(Data(text.utf8), at: URL(string: "http://h/openapi.json")!) == nil)
    }

    @Test("metadata documents: the endpoints they name, relative ones resolved; javascript: and the like refused")
    func metadata() throws {
        let document = Data(
            #"{"issuer": "https://h/o", "token_endpoint": "https://h/o/token/", "userinfo_endpoint": "/o/userinfo/", "revocation_endpoint": "javascript:alert(1)"}"#
                .utf8)
        let found = try #require(
            Discovery.metadata(document, at: URL(string: "https://h/o/.well-known/openid-configuration")!))
        #expect(found.token?.absoluteString == "https://h/o/token/")
        #expect(found.userinfo?.absoluteString == "https://h/o/userinfo/")
        #expect(found.revocation == nil)
        #expect(Discovery.metadata(Data("{}".utf8), at: URL(string: "https://h/")!) == nil)
    }

    @Test("a certificate's aliases (RFC 8705 §5), and a secret taken only in the form, go into the description")
    func clientProof() throws {
        let document = Data(
            #"""
            {"token_endpoint": "https://h/o/token", "token_endpoint_auth_methods_supported": ["client_secret_post"],
             "mtls_endpoint_aliases": {"token_endpoint": "https://mtls.h/o/token", "revocation_endpoint": "/o/mtls/revoke",
                                       "userinfo_endpoint": "javascript:alert(1)"}}
            """#.utf8)
        let found = try #require(
            Discovery.metadata(document, at: URL(string: "https://h/o/.well-known/openid-configuration")!))
        #expect(
            found.mtls
                == MTLSAliases(
                    token: URL(string: "https://mtls.h/o/token"), revocation: URL(string: "https://h/o/mtls/revoke")))
        guard case .object(let confidential) = found.json(confidential: true),
            case .object(let publicClient) = found.json(confidential: false)
        else {
            Issue.record("the description is an object")
            return
        }
        #expect(confidential["client"] == .object(["authentication": .string("client_secret_post")]))
        #expect(publicClient["client"] == nil, "a public client has no secret to send")
        #expect(
            confidential["mtls"]
                == .object([
                    "token": .string("https://mtls.h/o/token"), "revocation": .string("https://h/o/mtls/revoke"),
                ]))
    }

    @Test(
        "the documents tried for an issuer with a path: OIDC, RFC 8414 at the origin and under the path, then the origin's"
    )
    func candidates() throws {
        let server = try ServerURL("https://h.example.com/realms/x")
        #expect(
            Discovery.metadataDocuments(for: server).map(\.absoluteString) == [
                "https://h.example.com/realms/x/.well-known/openid-configuration",
                "https://h.example.com/.well-known/oauth-authorization-server/realms/x",
                "https://h.example.com/realms/x/.well-known/oauth-authorization-server",
                "https://h.example.com/.well-known/openid-configuration",
                "https://h.example.com/.well-known/oauth-authorization-server",
            ])
        // At the origin, the forms under the path are the origin's own.
        #expect(Discovery.metadataDocuments(for: try ServerURL("https://h.example.com")).count == 2)
        // The frameworks' places, the commonest first: FastAPI's, Litestar's, drf-spectacular's, Django Ninja's at
        // api/, Flask-RESTX's and
        // drf-yasg's, Swashbuckle's, ASP.NET's, springdoc's, NestJS's, swaggo's, Flask-AppBuilder's, Huma's, rswag's,
        // Express apps'.
        #expect(
            Discovery.openAPIDocuments(for: try ServerURL("https://h.example.com")).map(\.absoluteString) == [
                "https://h.example.com/openapi.json", "https://h.example.com/schema/openapi.json",
                "https://h.example.com/api/schema/", "https://h.example.com/api/openapi.json",
                "https://h.example.com/schema/",
                "https://h.example.com/swagger.json",
                "https://h.example.com/swagger/v1/swagger.json", "https://h.example.com/openapi/v1.json",
                "https://h.example.com/v3/api-docs", "https://h.example.com/api-json",
                "https://h.example.com/swagger/doc.json", "https://h.example.com/api/v1/_openapi",
                "https://h.example.com/openapi.yaml", "https://h.example.com/api-docs/v1/swagger.yaml",
                "https://h.example.com/api-docs", "https://h.example.com/__api__",
                "https://h.example.com/_allauth/openapi.json",
            ])
        // Under the server's path only: the rest of the host may be another API.
        let underPath = Discovery.openAPIDocuments(for: server).map(\.absoluteString)
        #expect(underPath.count == 17)
        #expect(underPath.first == "https://h.example.com/realms/x/openapi.json")
        #expect(underPath.allSatisfy { $0.hasPrefix("https://h.example.com/realms/x/") })
    }

    @Test("a framework's path that begins where the typed one ends is joined to it, and appended too")
    func overlappingPaths() throws {
        let documents = Discovery.openAPIDocuments(for: try ServerURL("http://h/api/v1")).map(\.absoluteString)
        #expect(documents.contains("http://h/api/v1/_openapi") && documents.contains("http://h/api/v1/api/v1/_openapi"))
        #expect(!documents.contains("http://h/api/schema/") && documents.contains("http://h/api/v1/api/schema/"))
        #expect(documents.contains("http://h/api/v1/openapi.json"))
        #expect(documents.allSatisfy { $0.hasPrefix("http://h/api/") })
        #expect(Discovery.joined(try ServerURL("http://h"), "/api/v1/_openapi") == ["http://h/api/v1/_openapi"])
    }

    @Test("a Link to the service's description, and an API catalog's, name the server's documents")
    func namedDocuments() throws {
        let base = try #require(URL(string: "https://h.example.com/api"))
        #expect(
            Discovery.serviceDescriptions(
                link: #"</api/openapi.yaml>; rel="service-desc"; type="application/yaml", </docs>; rel="service-doc""#,
                at: base
            ).map(\.absoluteString) == ["https://h.example.com/api/openapi.yaml"])
        #expect(Discovery.serviceDescriptions(link: #"</docs>; rel="service-doc""#, at: base).isEmpty)
        let catalog = Data(
            #"""
            {"linkset": [
              {"anchor": "https://h.example.com/api/v1", "service-desc": [{"href": "/api/v1/openapi.json"}],
               "service-doc": [{"href": "/docs"}]},
              {"anchor": "https://h.example.com/api/v2", "service-desc": [{"href": "javascript:alert(1)"},
               {"href": "https://h.example.com/api/v2/openapi.json"}]}]}
            """#.utf8)
        let at = try #require(URL(string: "https://h.example.com/.well-known/api-catalog"))
        #expect(
            Discovery.catalog(catalog, at: at).map(\.absoluteString) == [
                "https://h.example.com/api/v1/openapi.json", "https://h.example.com/api/v2/openapi.json",
            ])
        #expect(Discovery.catalog(Data("<html>".utf8), at: at).isEmpty)
    }

    @Test("the metadata's scopes and revocation methods: OpenID's scopes asked for, the client authenticated as listed")
    func metadataChoices() throws {
        let metadata = try #require(
            Discovery.metadata(
                Data(
                    #"""
                    {"token_endpoint": "http://h:4593//api/oidc/token", "userinfo_endpoint": "http://h:4593//api/oidc/userinfo",
                     "revocation_endpoint": "http://h:4593//api/oidc/revoke", "scopes_supported": ["openid", "profile", "email"],
                     "revocation_endpoint_auth_methods_supported": ["client_secret_basic", "bearer"],
                     "grant_types_supported": ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"]}
                    """#.utf8), at: URL(string: "http://h:4593/api/oidc/.well-known/openid-configuration")!))
        // Glewlwyd's endpoints keep their double slash, and so their host.
        #expect(metadata.token?.host() == "h" && metadata.token?.path(percentEncoded: true) == "//api/oidc/token")
        let server = try ServerURL("http://h:4593/api/oidc")
        for (confidential, method) in [(false, ClientAuthentication.bearer), (true, .basic)] {
            let description = try ServerDescription(
                json: (ServerPresets.named("oauth2")?.json ?? [:]).merging(metadata.json(confidential: confidential)),
                under: server)
            #expect(description.scope == "openid profile email")
            #expect(description.revocation?.clientAuthentication == method)
            #expect(description.login.url?.path(percentEncoded: true) == "//api/oidc/token")
            #expect(!description.offersPasswordGrant)
        }
        #expect(Discovery.Endpoints.revocationMethod(["client_secret_post"], confidential: false) == nil)
        #expect(Discovery.Endpoints.revocationMethod(nil, confidential: true) == nil)
    }
}
