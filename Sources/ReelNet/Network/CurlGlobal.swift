import CCurl
import CReelShims

/// libcurl's process-wide setup, done once before the first handle.
enum CurlGlobal {
    /// The corresponding C function is `curl_global_init`; not thread-safe, hence the lazy global.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func initialize() {
        precondition(initialized, "curl_global_init failed")
    }
}
