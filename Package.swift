// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "swaggerctl",
    // Linux only: the keyring is the Secret Service, through libsecret, and the targets read its headers where
    // Debian puts them.
    products: [
        .executable(name: "swaggerctl", targets: ["swaggerctl"]),
        .executable(name: "swagger-demo-server", targets: ["SwaggerDemoServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.7.0"),
        // Without its FullFoundation trait, the runtime uses FoundationEssentials alone, as the client does.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0", traits: []),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.24.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // The end-to-end tests start, wait for and end their child processes with it.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.0"),
    ],
    targets: [
        // libsecret-1, the Secret Service client library: its headers only. The client loads it with dlopen
        // when the keyring is first used (LibSecretLibrary); pkg-config would also link it, and GLib, into
        // every command. Its importers add the include folders (libsecretHeaders).
        .systemLibrary(
            name: "CSecret",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // posix_spawn's closefrom action, which glibc declares only under _GNU_SOURCE.
        .systemLibrary(name: "CSpawn"),
        // The kernel keyring's system calls (add_key, keyctl), which glibc does not wrap: no libkeyutils.
        .systemLibrary(name: "CKeyctl"),
        // libjq's headers only, for `api --jq`: JQProgram loads libjq1 with dlopen when a program is first compiled.
        .systemLibrary(
            name: "CJQ",
            providers: [.apt(["libjq-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The account API contract, generated from openapi.yaml for the demo server; swaggerctl does not link it.
        .target(
            name: "SwaggerAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            plugins: [
                .plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")
            ]
        ),
        // The bytes of a page's JSON that its structure is read from, found sixteen at a time (JSONText.outline).
        .target(name: "CJSONScan"),
        // The values every part shares: servers and their descriptions, accounts, session records, tokens,
        // profiles, responses, JSON read as text, and errors.
        // The presets are the description files in Presets/, which the Presets plugin embeds.
        .target(
            name: "SwaggerModel", dependencies: ["CJSONScan"], swiftSettings: essentialsOnly, plugins: ["Presets"]),
        // The coordinators: every decision of a login, a use of a session and a logout, as state machines with no
        // I/O at all.
        .target(name: "SessionMachine", dependencies: ["SwaggerModel"], swiftSettings: essentialsOnly),
        // The person's own request as a state machine with no I/O: the token's use through SessionMachine's
        // coordinator, redirects, and the pages of a list, asked for several at once where they can be named ahead.
        .target(
            name: "RequestMachine", dependencies: ["SwaggerModel", "SessionMachine"], swiftSettings: essentialsOnly),
        // Where sessions are kept: the session list, the token store with its keyring, file and kernel keyring
        // backends, saved profiles and the refresh lock. No networking.
        .target(
            name: "SessionStorage",
            dependencies: ["SwaggerModel", "CSecret", "CKeyctl"],
            swiftSettings: essentialsOnly + libsecretHeaders
        ),
        // The HTTP side: the API service over AsyncHTTPClient, with its one request path, proxies and TLS. No
        // libsecret.
        .target(
            name: "SwaggerHTTP",
            dependencies: [
                "SwaggerModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // DPoP proofs (RFC 9449), signed at every request with the session's P-256 key, and a confidential
                // client's assertions (RFC 7523), with its own key: RSA's in _CryptoExtras.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: essentialsOnly
        ),
        // What a command prints: responses as bodies, tables and jq's output, profiles as detail rows.
        .target(
            name: "SwaggerOutput",
            dependencies: ["SwaggerModel", "SessionMachine", "RequestMachine", "SwaggerHTTP", "CJQ"],
            swiftSettings: essentialsOnly
        ),
        // OpenAPI documents read: JSON or YAML, their operations, and the checks of a request against them.
        .target(
            name: "SwaggerDocuments",
            dependencies: ["SwaggerModel", "CYAML"],
            swiftSettings: essentialsOnly
        ),
        // How to talk to a server, decided: the plan for a login or `server set`, discovery's reading of what a
        // server publishes and its choice among a document's operations, the flags and files that describe a
        // server. No I/O; the controller fetches what a plan names.
        .target(
            name: "SwaggerServers",
            dependencies: ["SwaggerModel", "SessionMachine", "SwaggerDocuments"],
            swiftSettings: essentialsOnly
        ),
        // The controller that runs the coordinators over the storage and the API service, fetches what a server
        // plan names, and the configuration.
        .target(
            name: "SwaggerClient",
            dependencies: [
                "SwaggerModel",
                "SessionMachine",
                "RequestMachine",
                "SessionStorage",
                "SwaggerHTTP",
                "SwaggerOutput",
                "SwaggerDocuments",
                "SwaggerServers",
            ],
            swiftSettings: essentialsOnly
        ),
        .executableTarget(
            name: "swaggerctl",
            dependencies: [
                "SwaggerClient",
                "SwaggerModel",
                "SwaggerOutput",
                "SwaggerServers",
                "CSpawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // SessionStorage imports CSecret internally; a debug build, which enables testing, still reads it here.
            swiftSettings: essentialsOnly + libsecretHeaders,
            plugins: ["BuildInfo"]
        ),
        // Stamps the commit and the Swift version into swaggerctl, for --version.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // Embeds each server family's description, Presets/NAME.json, in SwaggerModel.
        .plugin(name: "Presets", capability: .buildTool()),
        // The demo server's logic, a library so that its tests can run it in-process.
        .target(
            name: "DemoServer",
            dependencies: [
                "SwaggerAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The contract it serves, as the frameworks serve theirs: a link to SwaggerAPI's, so there is one copy.
            resources: [.embedInCode("openapi.yaml")]
        ),
        .executableTarget(
            name: "SwaggerDemoServer",
            dependencies: [
                "DemoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Fixtures and helpers that the unit test targets share.
        .target(
            name: "TestSupport",
            dependencies: [
                "SwaggerModel", "SwaggerHTTP", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "SwaggerModelTests", dependencies: ["SwaggerModel", "TestSupport"]),
        .testTarget(
            name: "SessionMachineTests",
            dependencies: ["SessionMachine", "RequestMachine", "SwaggerModel", "TestSupport"]),
        .testTarget(name: "SessionStorageTests", dependencies: ["SessionStorage", "SwaggerModel", "TestSupport"]),
        .testTarget(
            name: "SwaggerHTTPTests",
            dependencies: [
                "SwaggerHTTP",
                "SwaggerModel",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SwaggerOutputTests",
            dependencies: ["SwaggerOutput", "SwaggerModel", "SessionMachine", "SessionStorage", "TestSupport"]),
        .testTarget(name: "SwaggerDocumentsTests", dependencies: ["SwaggerDocuments", "SwaggerModel", "TestSupport"]),
        .testTarget(
            name: "SwaggerClientTests",
            dependencies: [
                "SwaggerClient",
                "SwaggerModel",
                "SessionMachine",
                "RequestMachine",
                "SessionStorage",
                "SwaggerHTTP",
                "SwaggerOutput",
                "SwaggerDocuments",
                "SwaggerServers",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SwaggerServersTests",
            dependencies: ["SwaggerServers", "SwaggerDocuments", "SessionMachine", "SwaggerModel", "TestSupport"]
        ),
        .testTarget(
            name: "SwaggerDemoServerTests",
            dependencies: [
                "DemoServer",
                "SwaggerAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // A Secret Service that owns its bus name and never answers, for the end-to-end tests' timeouts.
        .executableTarget(
            name: "StalledSecretService",
            dependencies: ["CSecret"],
            path: "Tests/StalledSecretService",
            swiftSettings: libsecretHeaders,
            linkerSettings: ["secret-1", "gio-2.0", "gobject-2.0", "glib-2.0"].map { .linkedLibrary($0) }
        ),
        // Runs the built swaggerctl and swagger-demo-server binaries as a person would.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestSupport",
                "SwaggerClient",
                "SwaggerModel",
                "SessionMachine",
                "SessionStorage",
                "SwaggerHTTP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
    ]
)

// CI builds the project's own targets with every warning an error (.ci/run sets SWAGGERCTL_WARNINGS_AS_ERRORS=1);
// the dependencies' warnings are theirs, and a newer compiler's new warning does not stop a newcomer's build.
// SwaggerAPI is the generator's output, which imports its modules publicly in files that declare nothing.
if Context.environment["SWAGGERCTL_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets
    where target.type != .system && target.type != .plugin && target.name != "SwaggerAPI" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}

/// The client uses FoundationEssentials alone. On Linux the whole of Foundation (NSString's string methods,
/// FileHandle, JSONSerialization) brings in CoreFoundation and ICU: 44 MB of binary, and thousands of
/// protocol conformances that start-up's dynamic casts scan. A member is visible only from a module the file
/// imports, so a Foundation method that another module re-exports cannot be picked by accident.
var essentialsOnly: [SwiftSetting] { [.enableUpcomingFeature("MemberImportVisibility")] }

/// Where Debian puts libsecret's and GLib's headers, as `pkg-config --cflags libsecret-1` says: given by hand
/// because a system library's pkg-config name would link the libraries too.
var libsecretHeaders: [SwiftSetting] {
    #if arch(arm64)
        let multiarch = "aarch64-linux-gnu"
    #else
        let multiarch = "x86_64-linux-gnu"
    #endif
    let folders = ["/usr/include/libsecret-1", "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include"]
    return [.unsafeFlags(folders.flatMap { ["-Xcc", "-I\($0)"] })]
}
