import Foundation

/// Where the built `swaggerctl` and `swagger-demo-server` are: beside the test bundle, in SwiftPM's build
/// folder, unless `SWAGGERCTL_BIN_DIR` names another folder.
enum Binaries {
    static let directory: URL = {
        if let explicit = ProcessInfo.processInfo.environment["SWAGGERCTL_BIN_DIR"], !explicit.isEmpty {
            return URL(filePath: explicit, directoryHint: .isDirectory)
        }
        return URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }()

    static var swaggerctl: URL { directory.appending(path: "swaggerctl") }
    static var demoServer: URL { directory.appending(path: "swagger-demo-server") }
}
