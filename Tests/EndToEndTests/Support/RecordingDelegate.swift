import SwaggerHTTP
import Synchronization

/// An `APIServiceDelegate` that records whether a request was in flight, each time it is told.
final class RecordingDelegate: APIServiceDelegate {
    private let log = Mutex<[Bool]>([])

    var reports: [Bool] { log.withLock { $0 } }

    func apiService(_ service: APIService, isWaiting: Bool) {
        log.withLock { $0.append(isWaiting) }
    }
}
