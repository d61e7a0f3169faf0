import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OpenAPIRuntime
import SwaggerAPI

extension APIService {
    /// Sorts a thrown error into an ``APIServiceError``.
    ///
    /// The rule: if a response arrived, its status decides (a 2xx that failed to decode breaks the contract);
    /// if none arrived, the transport failed, and the kind of transport error decides.
    static func classify(_ error: any Error, operation: Operation) -> APIServiceError {
        if let error = error as? APIServiceError { return error }
        guard let clientError = error as? ClientError else { return transportFailure(error) }
        if let known = clientError.underlyingError as? APIServiceError { return known }
        if let response = clientError.response {
            if (200..<300).contains(response.status.code) {
                return .contractViolation(contractDetail(clientError))
            }
            return failure(
                status: response.status.code, operation: operation, headers: response.headerFields, body: nil)
        }
        return transportFailure(clientError.underlyingError)
    }

    /// The operations, which read 401 and 403 differently.
    enum Operation {
        /// `POST /User/AdminLogin`: 401 and 403 mean bad credentials.
        case login
        /// `POST /User/RefreshToken`: 401 means the session has ended.
        case refresh
        /// `GET /User/User` and `POST /User/Logout`: 401 means the bearer token was rejected.
        case bearer
    }

    /// The error for a status code that the operation does not document, or whose body did not decode.
    static func failure(status: Int, operation: Operation, headers: HTTPFields, body: Data?) -> APIServiceError {
        switch (status, operation) {
        case (401, .login), (403, .login): .badCredentials
        case (401, .refresh): .refreshRejected
        case (401, .bearer): .tokenRejected
        default: failure(status: status, headers: headers, body: body)
        }
    }

    private static func failure(status: Int, headers: HTTPFields, body: Data?) -> APIServiceError {
        switch status {
        case 300..<400: .redirected(status: status, location: headers[.location])
        case 400..<500: .requestRejected(status: status, message: message(json: body))
        case 500..<600: .serverFailed(status: status)
        default: .contractViolation("HTTP status \(status) is not part of the API")
        }
    }

    /// The `message` (else `error`, else `title`) of a JSON error body, when it has one.
    private static func message(json body: Data?) -> String? {
        guard let body, let object = try? JSONDecoder().decode([String: JSONValue].self, from: body) else {
            return nil
        }
        for key in ["message", "error", "title"] {
            if case .string(let text) = object[key], !text.isEmpty { return String(text.prefix(200)) }
        }
        return nil
    }

    private static func contractDetail(_ error: ClientError) -> String {
        switch error.underlyingError {
        case let decoding as DecodingError:
            switch decoding {
            case .keyNotFound(let key, _): "the field \"\(key.stringValue)\" is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                "the field \"\(path(context.codingPath))\" has the wrong type"
            case .dataCorrupted(let context) where context.codingPath.isEmpty: "the body is not valid JSON"
            case .dataCorrupted(let context): "the field \"\(path(context.codingPath))\" is malformed"
            @unknown default: "the body could not be decoded"
            }
        default:
            if let contentType = error.response?.headerFields[.contentType] {
                "it sent \(contentType.prefix(60)) instead of JSON"
            } else {
                "it sent no JSON body"
            }
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func transportFailure(_ error: any Error) -> APIServiceError {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .unreachable("the server closed the connection")
            default:
                return .unreachable(String(describing: error))
            }
        case let error as HTTPParserError:
            // The connection dropped part-way through the response, or what came back was not HTTP at all,
            // which is what an https, SSH or other non-HTTP port sends to a plain http request.
            if error == .invalidEOFState { return .unreachable("the connection closed before the whole response came") }
            return .contractViolation("it did not answer in HTTP; check the URL's scheme and port")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return .tls(String(describing: error))
        case let error as IOError:
            return .unreachable(String(cString: strerror(error.errnoCode)).lowercased())
        case let error as NIOConnectionError:
            return error.connectionErrors.first.map { transportFailure($0.error) }
                ?? .unreachable("the host name could not be resolved")
        case let error as ChannelError:
            if case .connectTimeout = error { return .timedOut }
            return .unreachable("the connection failed")
        case is SocketAddressError:
            return .unreachable("the host name could not be resolved")
        default:
            return .unreachable(String(describing: error))
        }
    }
}

extension ResponseRecorder {
    /// The error for the response recorded last, which the generated client decoded as a failure.
    func failure(_ operation: APIService.Operation) -> APIServiceError {
        guard let response else { return .contractViolation("no response was recorded") }
        return APIService.failure(
            status: response.status.code, operation: operation, headers: response.headerFields, body: body)
    }
}
