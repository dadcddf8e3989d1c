import Foundation
import ReelCore
import ReelManifest
import ReelNet
import Testing

@Suite("URL policy for demuxer opens")
struct URLPolicyTests {
    let remote = URLPolicy(allowLocalFiles: false)
    let local = URLPolicy(allowLocalFiles: true)

    @Test(arguments: ["http://cdn.test/a.ts", "https://cdn.test/a/b.m4s?token=1"])
    func httpAndHttpsAreAllowed(url: String) throws {
        #expect(try remote.check(url).absoluteString == url)
    }

    @Test(arguments: ["file:///etc/passwd", "/etc/passwd"])
    func aRemotePlaylistMayNotNameLocalFiles(url: String) {
        let error = #expect(throws: ReelError.self) { try remote.check(url) }
        #expect(error?.code == .forbiddenURL)
        #expect(error?.message.contains(url) == true)
    }

    @Test func aLocalInputMayReadLocalFiles() throws {
        #expect(try local.check("/tmp/x.ts").isFileURL)
        #expect(try local.check("file:///tmp/x.ts").isFileURL)
    }

    @Test(arguments: ["ftp://cdn.test/a.ts", "rtmp://cdn.test/live", "data:text/plain,abc", "concat:a.ts|b.ts",
                      "subfile,,start,0,end,10,,:/etc/passwd", "gopher://x"])
    func otherSchemesAreRefusedByName(url: String) {
        let error = #expect(throws: ReelError.self) { try local.check(url) }
        #expect(error?.code == .unsupportedScheme || error?.code == .invalidInput)
    }
}
