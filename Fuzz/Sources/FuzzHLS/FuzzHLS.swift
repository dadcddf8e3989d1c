import FuzzSupport
import Foundation
import ReelManifest

/// HLS playlist bytes through Reel's parser, then through what uses a parsed playlist.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    FuzzCheck.onlyReelErrors {
        try FuzzCheck.exercise(try HLSPlaylistParser.parse(bytes, url: FuzzCheck.manifestURL, limits: FuzzCheck.limits))
    }
    return 0
}
