@testable import ReelServer
import Testing

@Suite("Request targets: keys and traversal")
struct RequestPathTests {
    @Test("safe targets become normalised keys", arguments: [
        ("/video.mp4", "/video.mp4"),
        ("/video.mp4?token=abc&x=1", "/video.mp4"),
        ("/hls//./seg1.ts#frag", "/hls/seg1.ts"),
        ("/a%20b.ts", "/a b.ts"),
        ("http://cdn.example/hls/seg1.ts?q=1", "/hls/seg1.ts"),
        ("/", "/"),
        ("/%252e%252e/x", "/%2e%2e/x"),
    ])
    func keys(uri: String, key: String) {
        let path = RequestPath(uri: uri)
        #expect(path.key == key)
        guard case .components = path.verdict else {
            Issue.record("\(uri) was refused")
            return
        }
    }

    @Test("climbing out is forbidden", arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/hls/../../secret.txt",
        "/..%2fsecret.txt", "/hls/%2e%2e/%2e%2e/secret.txt", "/..", "http://x/../secret.txt",
    ])
    func forbidden(uri: String) {
        #expect(RequestPath(uri: uri).verdict == .forbidden)
    }

    @Test("targets that are not paths are bad requests", arguments: ["*", "video.mp4", "/bad%zzescape", "/nul%00byte"])
    func badRequests(uri: String) {
        #expect(RequestPath(uri: uri).verdict == .badRequest)
    }

    @Test func apiPathsNormaliseLikeRequests() {
        #expect(RequestPath.key(for: "hls/seg1.ts") == "/hls/seg1.ts")
        #expect(RequestPath.key(for: "/hls/seg1.ts?x=1") == "/hls/seg1.ts")
    }
}
