import CCurl
import CReelShims

/// A libcurl result code with a Swift name and libcurl's own text (`curl_easy_strerror`).
public struct CurlCode: Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ code: CURLcode) { rawValue = Int32(bitPattern: code.rawValue) }
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ok = CurlCode(CURLE_OK)
    public static let couldNotResolveHost = CurlCode(CURLE_COULDNT_RESOLVE_HOST)
    public static let couldNotConnect = CurlCode(CURLE_COULDNT_CONNECT)
    public static let httpReturnedError = CurlCode(CURLE_HTTP_RETURNED_ERROR)
    public static let writeError = CurlCode(CURLE_WRITE_ERROR)
    public static let operationTimedOut = CurlCode(CURLE_OPERATION_TIMEDOUT)
    public static let unsupportedProtocol = CurlCode(CURLE_UNSUPPORTED_PROTOCOL)
    public static let tooManyRedirects = CurlCode(CURLE_TOO_MANY_REDIRECTS)
    public static let gotNothing = CurlCode(CURLE_GOT_NOTHING)
    public static let sendError = CurlCode(CURLE_SEND_ERROR)
    public static let receiveError = CurlCode(CURLE_RECV_ERROR)
    public static let partialFile = CurlCode(CURLE_PARTIAL_FILE)
    public static let weirdServerReply = CurlCode(CURLE_WEIRD_SERVER_REPLY)
    public static let outOfMemory = CurlCode(CURLE_OUT_OF_MEMORY)
    public static let badContentEncoding = CurlCode(CURLE_BAD_CONTENT_ENCODING)
    public static let fileSizeExceeded = CurlCode(CURLE_FILESIZE_EXCEEDED)

    /// Failures of the connection itself, worth another attempt for an idempotent GET.
    public var isTransient: Bool {
        [.couldNotConnect, .operationTimedOut, .gotNothing, .sendError, .receiveError, .partialFile]
            .contains(self) || rawValue == Int32(bitPattern: CURLE_HTTP2.rawValue)
            || rawValue == Int32(bitPattern: CURLE_HTTP2_STREAM.rawValue)
    }

    /// libcurl's text for the code. The corresponding C function is `curl_easy_strerror`.
    public var description: String {
        String(cString: curl_easy_strerror(CURLcode(UInt32(bitPattern: rawValue))))
    }
}
