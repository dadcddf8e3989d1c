import Foundation
import Testing

@testable import ReelManifest

/// The segment locations kept without a Foundation `URL` resolve exactly as Foundation's
/// resolution does, and everything else still goes through it.
@Suite struct SegmentLocationTests {
    static let base = URL(string: "https://cdn.example.com/shows/ep1/index.m3u8?token=abc")!

    @Test(arguments: [
        "seg.ts", "a/b/c_1-2~.ts", "seg.ts?x=1&y=2", "https://cdn.example.com/a/b.m4s", "http://h:8080/x_y-z~.ts",
        "https://other.example/p/q.mp4?t=1", "https://host/a/../b.ts", "HTTPS://HOST/x.ts", "https://user@h/x.ts",
        "/abs/path.ts", "../up.ts", "./here.ts", "seg 1.ts", "https://h/", "http://[::1]/x.ts", "seg%20x.ts",
        "../media/seg-1.m4s", "../../a/./b/seg.ts?x=1", "/root/seg.ts", "a/b.ts?x=/y", "//other.example/x/s.ts",
        "HTTPS://HOST/A/../x.ts", "my dir/seg.ts", "https:rel/x.ts", "a:b/c.ts",
    ])
    func sameAsFoundation(uri: String) throws {
        // The usual base, one without a host (what the DASH fuzz target made of a BaseURL), one
        // with a host and no path, and a local file.
        let bases = [Self.base, URL(string: "https:ww//w.example.com/base")!, URL(string: "http://h")!,
                     URL(fileURLWithPath: "/srv/v/index.m3u8")]
        for base in bases {
            var resolver = URLResolver(base: base)
            let found = resolver.location(uri)
            let location = try #require(found)
            let expected = try #require(URLResolver.resolve(uri, against: base)).absoluteString
            #expect(location.absoluteString == expected, "\(uri) against \(base)")
            #expect(location.url.absoluteString == expected, "\(uri) against \(base)")
        }
    }

    @Test func segmentsKeepNoURLObject() throws {
        var resolver = URLResolver(base: Self.base)
        let kinds = ["seg.ts", "https://cdn.example.com/a/b.m4s", "../a/seg.ts", "a/../seg.ts", "./seg.ts", "seg 1.ts"].map { uri -> String in
            switch resolver.location(uri) {
            case .inDirectory?: "directory"
            case .absolute(let text)?: text
            case .url?: "url"
            case nil: "nil"
            }
        }
        #expect(kinds == ["directory", "https://cdn.example.com/a/b.m4s", "directory", "directory", "directory",
                          "https://cdn.example.com/shows/ep1/seg%201.ts"])
    }
}
