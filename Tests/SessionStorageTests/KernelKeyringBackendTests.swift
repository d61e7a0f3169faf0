import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionStorage

/// The kernel keyring backend against this machine's own kernel keyring. Every test's keys have a description
/// prefix of their own, so tests that run side by side, and the person's own sessions, never meet, and each test
/// removes its keys when it ends.
@Suite("KernelKeyringBackend: a session's credentials in one key of the kernel keyring", .timeLimit(.minutes(5)))
final class KernelKeyringBackendTests {
    let prefix = "swaggerctl-test-\(UUID().uuidString):"
    let backend: KernelKeyringBackend
    let temporary: TemporaryDirectory

    init() throws {
        backend = KernelKeyringBackend(prefix: prefix)
        temporary = try TemporaryDirectory()
    }

    deinit {
        for account in [Fixtures.ana, Fixtures.ivo] {
            _ = try? backend.removeCredentials(for: account)
        }
    }

    /// The fields of the line of /proc/keys that shows the key described `description`: serial, flags, usage,
    /// expiry, permissions, owner, group and type.
    func procKeysFields(_ description: String) throws -> [Substring]? {
        // A file of /proc has no size to read up to: it is read to its end.
        let bytes = try FileHandle(forReadingFrom: URL(filePath: "/proc/keys")).readToEnd() ?? Data()
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first {
            $0.hasSuffix(" \(description): \($0.split(separator: " ").last ?? "")")
        }
        return line.map { Array($0.split(separator: " ").prefix(8)) }
    }

    @Test("store, read, replace and remove round-trip, per account, every field of the credentials kept")
    func roundTrip() throws {
        let ana = Credentials(accessToken: "ana-access", refreshToken: "ana-refresh", clientSecret: "ana-client")
        let ivo = Credentials(accessToken: "ivo-access")

        #expect(try backend.credentials(for: Fixtures.ana) == nil)
        try backend.store(ana, for: Fixtures.ana)
        try backend.store(ivo, for: Fixtures.ivo)
        #expect(try backend.credentials(for: Fixtures.ana) == ana)
        #expect(try backend.accessToken(for: Fixtures.ivo) == "ivo-access")

        let renewed = Credentials(accessToken: "ana-access-2", refreshToken: nil)
        try backend.store(renewed, for: Fixtures.ana)
        #expect(try backend.credentials(for: Fixtures.ana) == renewed)

        #expect(try backend.removeCredentials(for: Fixtures.ana))
        #expect(try backend.credentials(for: Fixtures.ana) == nil)
        #expect(try backend.removeCredentials(for: Fixtures.ana) == false)
        #expect(try backend.credentials(for: Fixtures.ivo) == ivo)
    }

    @Test("the key is a user key in the persistent keyring, named by server and account, its payload the JSON")
    func theKey() throws {
        let credentials = Credentials(accessToken: "a", refreshToken: "r")
        try backend.store(credentials, for: Fixtures.ana)
        let description = "\(prefix)http://127.0.0.1:8080/api ana@example.com"
        #expect(backend.keyDescription(for: Fixtures.ana) == description)
        #expect(backend.place(of: Fixtures.ana) == "persistent keyring, key \"\(description)\"")

        guard case .persistent = Keyctl.keyring() else {
            Issue.record("this machine's kernel refuses the persistent keyring")
            return
        }
        let key = try #require(try Keyctl.search(description, in: Keyctl.keyring()))
        let payload = try #require(try Keyctl.read(key))
        let object = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: String]
        #expect(object == ["accessToken": "a", "refreshToken": "r"])
    }

    @Test("only the possessor and the user have any permission on the key: no group or other bits")
    func permissions() throws {
        try backend.store(Credentials(accessToken: "a"), for: Fixtures.ana)
        let line = try #require(try procKeysFields(backend.keyDescription(for: Fixtures.ana)))
        #expect(line[7] == "user")
        let permissions = try #require(UInt32(line[4], radix: 16))
        #expect(permissions == 0x3f03_0000, "\(line[4])")
        #expect(permissions & 0x0000_ffff == 0, "group or other bits: \(line[4])")
        #expect(line[5] == "\(getuid())")
    }

    @Test("credentials larger than a key holds are refused, and nothing is stored")
    func tooLarge() throws {
        let huge = Credentials(accessToken: String(repeating: "x", count: Keyctl.maximumPayload))
        let error = #expect(throws: KernelKeyringError.self) { try self.backend.store(huge, for: Fixtures.ana) }
        #expect(error == .tooLarge(bytes: Keyctl.maximumPayload + #"{"accessToken":""}"#.utf8.count))
        #expect(try backend.credentials(for: Fixtures.ana) == nil)
    }

    @Test("a key of the same description that holds no credentials is an error that names it, not a session")
    func foreignKey() throws {
        let description = backend.keyDescription(for: Fixtures.ana)
        _ = try Keyctl.add(description, Array("not JSON".utf8), to: Keyctl.keyring())
        let error = #expect(throws: KernelKeyringError.self) { try self.backend.credentials(for: Fixtures.ana) }
        #expect(error == .notCredentials(key: description))
        #expect(error?.reason == "the key \"\(description.prefix(40))…\" holds something else")
    }

    @Test("the kernel's errors are sorted by what can be done about them")
    func errors() {
        #expect(KernelKeyringError(call: "add_key", code: EPERM) == .refused(call: "add_key", code: EPERM))
        #expect(KernelKeyringError(call: "keyctl", code: ENOSYS) == .refused(call: "keyctl", code: ENOSYS))
        #expect(KernelKeyringError(call: "add_key", code: EDQUOT) == .quotaExceeded)
        #expect(KernelKeyringError(call: "keyctl", code: EINVAL) == .failed(call: "keyctl", code: EINVAL))
        #expect(
            KernelKeyringError.refused(call: "add_key", code: EPERM).reason
                == "the kernel refused add_key (EPERM)")
    }

    /// The token store with the kernel keyring chosen, or `choice`, on this suite's keys.
    func tokenStore(_ choice: BackendChoice = .kernel) -> TokenStore {
        TokenStore(
            choice: choice, directory: temporary.url, keyringTimeout: .seconds(1), busAddress: nil,
            sleep: { _ in }, kernel: backend)
    }

    @Test("with --keyring kernel the token store keeps the session in the kernel alone, and removes a file copy")
    func tokenStoreChoosesKernel() async throws {
        let file = FileBackend(directory: temporary.url)
        try await file.store(Credentials(accessToken: "old"), for: Fixtures.ana)
        let credentials = Credentials(accessToken: "new", refreshToken: "refresh")

        #expect(try await tokenStore().store(credentials, for: Fixtures.ana) == .kernel)
        #expect(try await file.credentials(for: Fixtures.ana) == nil)
        #expect(try backend.credentials(for: Fixtures.ana) == credentials)
        let record = Fixtures.record(Fixtures.ana, backend: .kernel)
        #expect(
            tokenStore().location(of: .kernel, for: Fixtures.ana)
                == "persistent keyring, key \"\(backend.keyDescription(for: Fixtures.ana))\"")
        // Later commands find it without the choice, and never ask D-Bus for it.
        for choice in BackendChoice.allCases {
            #expect(try await tokenStore(choice).credentials(for: record) == credentials, "\(choice)")
        }

        #expect(try await tokenStore(.auto).remove(Fixtures.ana, recordedIn: .kernel))
        #expect(try backend.credentials(for: Fixtures.ana) == nil)
        // A key the kernel has dropped is a session without tokens, not a failure.
        #expect(try await tokenStore(.file).accessToken(for: record) == nil)
    }

    @Test("the kernel keyring is not asked for a session it does not hold unless it is chosen")
    func notAskedUnlessChosen() async throws {
        try backend.store(Credentials(accessToken: "in-kernel"), for: Fixtures.ana)
        let record = Fixtures.record(Fixtures.ana, backend: .file)
        #expect(try await tokenStore(.file).accessToken(for: record) == nil)
        #expect(try await tokenStore(.kernel).accessToken(for: record) == "in-kernel")
    }
}
