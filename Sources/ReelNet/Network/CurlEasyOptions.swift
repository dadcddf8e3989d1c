import CCurl
import CReelShims
import ReelCore

/// Sets options on one easy handle, checking each: the first option libcurl refuses (a value
/// out of range, a protocol it was built without) becomes an error naming the option and why,
/// and the transfer fails with it instead of going out half configured. The corresponding C
/// function is `curl_easy_setopt`, through the shim's typed wrappers.
struct CurlEasyOptions {
    let handle: UnsafeMutableRawPointer
    /// What the options are for, for the error ("'http://...'").
    let subject: String

    func set(_ name: String, _ option: CURLoption, long value: Int) throws {
        try check(name, reel_shim_curl_easy_setopt_long(handle, option, value))
    }

    func set(_ name: String, _ option: CURLoption, string value: String?) throws {
        if let value {
            try check(name, reel_shim_curl_easy_setopt_string(handle, option, value))
        } else {
            try check(name, reel_shim_curl_easy_setopt_pointer(handle, option, nil))
        }
    }

    func set(_ name: String, _ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws {
        try check(name, reel_shim_curl_easy_setopt_pointer(handle, option, value))
    }

    func set(_ name: String, _ option: CURLoption, callback: curl_write_callback) throws {
        try check(name, reel_shim_curl_easy_setopt_write_callback(handle, option, callback))
    }

    private func check(_ name: String, _ result: CURLcode) throws {
        let code = CurlCode(result)
        guard code != .ok else { return }
        throw ReelError(.networkFailed, "libcurl refused \(name) for \(subject): \(code)", cause: code)
    }
}
