import SwaggerClient
import Synchronization

/// An `APIServiceDelegate` that records every report, in order.
final class RecordingDelegate: APIServiceDelegate {
    enum Report: Sendable, Equatable {
        case waiting(Bool)
        case failed(APIServiceError)
        case received(Profile)
    }

    private let log = Mutex<[Report]>([])

    var reports: [Report] { log.withLock { $0 } }

    func apiService(_ service: APIService, isWaiting: Bool) {
        log.withLock { $0.append(.waiting(isWaiting)) }
    }

    func apiService(_ service: APIService, didFailWith error: APIServiceError) {
        log.withLock { $0.append(.failed(error)) }
    }

    func apiService(_ service: APIService, didReceive profile: Profile) {
        log.withLock { $0.append(.received(profile)) }
    }
}
