import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SwaggerModel

extension AsyncHTTPTransport {
    /// Sorts what AsyncHTTPClient, NIO or BoringSSL threw into an ``APIServiceError``: no answer came back, so the
    /// kind of error decides. An answer that came back is classified from its status, above the transport.
    static func classify(_ error: any Error) -> APIServiceError {
        if let error = error as? APIServiceError { return error }
        return transportFailure(error)
    }

    /// BoringSSL's reason, in words; its own text (error codes and a build path) is never shown.
    private static func tlsFailure(_ error: BoringSSLError) -> TLSFailure {
        let reasons = String(describing: error).uppercased()
        func says(_ names: String...) -> Bool { names.contains { reasons.contains($0) } }
        if says("CERTIFICATE_VERIFY_FAILED") { return .untrusted }
        if says("WRONG_VERSION_NUMBER", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG", "RECORD_TOO_LARGE") { return .notTLS }
        if says(
            "UNSUPPORTED_PROTOCOL", "PROTOCOL_VERSION", "NO_SHARED_CIPHER", "NO_CIPHERS_AVAILABLE",
            "HANDSHAKE_FAILURE", "NO_SUPPORTED_VERSIONS")
        {
            return .noCommonProtocol
        }
        return .handshakeFailed
    }

    private static func transportFailure(_ error: any Error) -> APIServiceError {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .unreachable("the server closed the connection")
            // Through a proxy only; ``atProxy(_:_:)`` names the proxy.
            case .proxyAuthenticationRequired:
                return .proxyFailed(proxy: "", .authenticationRequired)
            case .invalidProxyResponse:
                return .proxyFailed(proxy: "", .refused)
            default:
                return .unreachable(String(describing: error))
            }
        case let error as HTTPParserError:
            // The connection dropped part-way through the response, or what came back was not HTTP at all,
            // which is what an https, SSH or other non-HTTP port sends to a plain http request.
            if error == .invalidEOFState { return .unreachable("the connection closed before the whole response came") }
            return .notHTTP
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .tls(.wrongHost)
        case let error as NIOSSLError:
            if case .handshakeFailed(let boringSSL) = error { return .tls(tlsFailure(boringSSL)) }
            return .tls(.handshakeFailed)
        case let error as BoringSSLError:
            return .tls(tlsFailure(error))
        case is NIOSSLExtraError:
            return .tls(.handshakeFailed)
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
