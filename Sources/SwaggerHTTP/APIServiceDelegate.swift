/// Hears from an ``APIService`` while it works, as the original app's view controllers did: the command line's
/// spinner shows while a request is in flight.
package protocol APIServiceDelegate: Sendable {
    /// A request started (`true`) or finished (`false`).
    func apiService(_ service: APIService, isWaiting: Bool)
}
