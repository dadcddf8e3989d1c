import Foundation
import ReelCore
import ReelManifest
import ReelNet
import Testing
@testable import ReelMedia

@Suite("AES-128 segment decryption")
struct AESDecryptingDataSourceTests {
    // Made with: openssl enc -aes-128-cbc -K <key> -iv <iv> over the 67-byte plaintext below.
    let key = hex("2b7e151628aed2a6abf7158809cf4f3c")
    let iv = hex("000102030405060708090a0b0c0d0e0f")
    let plaintext = "Reel says hello, this is a test of AES-128 CBC with PKCS#7 padding!"
    let ciphertext = hex(
        "9c0e7bf02df974a729a4a574f91e81fed761916c1f7d4c98bd11d03bb2e921ee90d43d3dd2f7f41c3c8185a751bbc0b7"
        + "6f3bb12e114e23946f680c28a50028d362261a4962a3c5e859c2c8382b3ea026")
    let spec = DataSpec(url: URL(string: "http://cdn.test/seg0.ts")!, kind: .segment)

    @Test(arguments: [1, 7, 16, 17, 4096])
    func decryptsAndStripsPaddingWhateverTheReadSize(readSize: Int) throws {
        let source = try AESDecryptingDataSource(upstream: MemoryDataSource(ciphertext), key: key, iv: iv)
        _ = try source.open(spec)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: readSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            output += buffer[..<count]
        }
        #expect(String(decoding: output, as: UTF8.self) == plaintext)
    }

    @Test func aWrongKeyIsAClearErrorNotGarbage() throws {
        var wrong = key
        wrong[0] ^= 0xFF
        let source = try AESDecryptingDataSource(upstream: MemoryDataSource(ciphertext), key: wrong, iv: iv)
        _ = try source.open(spec)
        var buffer = [UInt8](repeating: 0, count: 256)
        #expect(throws: ReelError.self) {
            while try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
        }
    }

    @Test func aTruncatedSegmentIsRefused() throws {
        let source = try AESDecryptingDataSource(upstream: MemoryDataSource(Array(ciphertext.dropLast(5))), key: key, iv: iv)
        _ = try source.open(spec)
        var buffer = [UInt8](repeating: 0, count: 256)
        let error = #expect(throws: ReelError.self) {
            while try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
        }
        #expect(error?.message.contains("seg0.ts") == true)
    }
}

func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
