import SwaggerHTTP
import SwaggerModel
import Synchronization

/// The DPoP keys of the sessions a command has read from the token store, by account: read with the session's
/// tokens, and used by every request made for the session after that.
package final class ProofKeys: Sendable {
    private let keys = Mutex<[Account: ProofKey]>([:])

    func key(of account: Account) -> ProofKey? {
        keys.withLock { $0[account] }
    }

    /// Keeps the key of `credentials`, read for `record`'s session.
    /// - Throws: A `SwaggerError` when the record says its tokens are bound to a key that the store does not hold,
    ///   or holds unreadable: they are of no use without it.
    func keep(_ credentials: Credentials?, of record: SessionRecord) throws(SwaggerError) {
        guard record.proofKey != nil, let credentials else { return }
        guard let pem = credentials.proofKey, let key = try? ProofKey(pem: pem), key.thumbprint == record.proofKey
        else {
            throw SwaggerError(
                .authentication,
                "The DPoP key of \(record.name)'s tokens is missing from the token store, and they are no use "
                    + "without it. Run `\(Messages.login(record.account))`.")
        }
        keys.withLock { $0[record.account] = key }
    }
}
