import SwaggerHTTP
import SwaggerModel
import Synchronization

/// The keys of the sessions a command has read from the token store, by account: the DPoP key their tokens are bound
/// to, and the certificate their client proves itself with in TLS. They are read with the session's tokens, and every
/// request made for the session after that uses them.
package final class SessionKeys: Sendable {
    private struct Keys {
        var proof: ProofKey?
        var certificate: ClientKey?
    }

    private let keys = Mutex<[Account: Keys]>([:])

    /// `service`, proving and presenting what `account`'s session was read with.
    func service(_ service: APIService, for account: Account) -> APIService {
        guard let keys = keys.withLock({ $0[account] }) else { return service }
        var service = service
        if let certificate = keys.certificate { service = service.presenting(certificate) }
        if let proof = keys.proof { service = service.proving(with: proof) }
        return service
    }

    /// Keeps the keys of `credentials`, read for `record`'s session.
    /// - Returns: `false` when the record says its tokens are bound to a DPoP key that the store does not hold, or
    ///   holds another of, and nothing is kept.
    func keep(_ credentials: Credentials?, of record: SessionRecord) -> Bool {
        guard record.needsKeys, let credentials else { return true }
        var kept = Keys()
        if record.proofKey != nil {
            guard let pem = credentials.proofKey, let key = try? ProofKey(pem: pem), key.thumbprint == record.proofKey
            else { return false }
            kept.proof = key
        }
        if record.presentsCertificate == true { kept.certificate = credentials.clientKey }
        keys.withLock { $0[record.account] = kept }
        return true
    }
}
