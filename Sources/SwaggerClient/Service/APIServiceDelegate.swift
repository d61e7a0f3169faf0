/// Receives reports from an ``APIService`` while it works, as the original app's view controllers did.
///
/// The command-line tool's spinner is a delegate: it shows while ``apiService(_:isWaiting:)`` is on.
public protocol APIServiceDelegate: AnyObject, Sendable {
    /// A request started (`true`) or finished (`false`).
    /// - Parameters:
    ///   - service: The reporting service.
    ///   - isWaiting: Whether a request is in flight.
    func apiService(_ service: APIService, isWaiting: Bool)

    /// A request failed.
    /// - Parameters:
    ///   - service: The reporting service.
    ///   - error: What went wrong.
    func apiService(_ service: APIService, didFailWith error: APIServiceError)

    /// A profile arrived.
    /// - Parameters:
    ///   - service: The reporting service.
    ///   - profile: The profile as received.
    func apiService(_ service: APIService, didReceive profile: Profile)
}

extension APIServiceDelegate {
    /// Does nothing.
    public func apiService(_ service: APIService, didFailWith error: APIServiceError) {}
    /// Does nothing.
    public func apiService(_ service: APIService, didReceive profile: Profile) {}
}
