import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import ReelCore
import ReelManifest
import ReelNet

/// Decrypts an AES-128-CBC (HLS `METHOD=AES-128`) segment as it streams, stripping the PKCS#7
/// padding at the end. The corresponding C functions are `av_aes_init` and `av_aes_crypt`.
final class AESDecryptingDataSource: DataSource {
    private let upstream: any DataSource
    private let aes: OpaquePointer
    private var iv: [UInt8]
    private var cipher: [UInt8] = []
    private var plain: [UInt8] = []
    private var plainPosition = 0
    private var upstreamDone = false
    private var url = ""

    /// `key` and `iv` are 16 bytes each.
    init(upstream: any DataSource, key: [UInt8], iv: [UInt8]) throws {
        guard key.count == 16, iv.count == 16 else {
            throw ReelError(.invalidInput, "AES-128 needs a 16-byte key and IV, got \(key.count) and \(iv.count)")
        }
        guard let aes = av_aes_alloc() else { throw ReelError(.internalFailure, "av_aes_alloc failed") }
        self.aes = aes
        self.upstream = upstream
        self.iv = iv
        _ = av_aes_init(aes, key, 128, 1)
    }

    deinit { av_free(UnsafeMutableRawPointer(aes)) }

    func open(_ spec: DataSpec) throws -> Int64? {
        url = spec.url.absoluteString
        _ = try upstream.open(spec)
        return nil
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while plainPosition == plain.count {
            if upstreamDone && cipher.isEmpty { return 0 }
            try decryptMore()
        }
        let count = min(buffer.count, plain.count - plainPosition)
        plain.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[plainPosition..<(plainPosition + count)]))
        }
        plainPosition += count
        return count
    }

    /// Reads ciphertext and decrypts whole blocks, holding back the last block until the end is
    /// known (it carries the padding).
    private func decryptMore() throws {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let got = try chunk.withUnsafeMutableBytes { try upstream.read(into: $0) }
        if got == 0 { upstreamDone = true } else { cipher.append(contentsOf: chunk[..<got]) }
        var usable = (cipher.count / 16) * 16
        if !upstreamDone { usable = max(0, usable - 16) }
        if upstreamDone && cipher.count % 16 != 0 {
            throw ReelError(.decodeFailed, "encrypted segment '\(url)' is not a whole number of AES blocks (\(cipher.count) bytes)")
        }
        plain = [UInt8](repeating: 0, count: usable)
        plainPosition = 0
        if usable > 0 {
            cipher.withUnsafeBufferPointer { source in
                plain.withUnsafeMutableBufferPointer { target in
                    av_aes_crypt(aes, target.baseAddress, source.baseAddress, Int32(usable / 16), &iv, 1)
                }
            }
            cipher.removeFirst(usable)
        }
        if upstreamDone, let padding = plain.last {
            let pad = Int(padding)
            guard pad >= 1, pad <= 16, pad <= plain.count else {
                throw ReelError(.decodeFailed, "encrypted segment '\(url)' has invalid padding (wrong key?)")
            }
            plain.removeLast(pad)
        }
    }

    func close() { upstream.close() }

    var metrics: TransferMetrics { upstream.metrics }
}
