import FuzzSupport
import Foundation
import ReelManifest

/// MPD bytes through Reel's DASH parser (and its XML checks), then through what uses a parsed
/// manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    FuzzCheck.onlyReelErrors {
        try FuzzCheck.exercise(.dash(try DASHManifestParser.parse(bytes, url: FuzzCheck.manifestURL, limits: FuzzCheck.limits)))
    }
    return 0
}
