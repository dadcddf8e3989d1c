@testable import ReelServer
import Testing

@Suite("Content-Type by extension")
struct ContentTypeTests {
    @Test("every known extension", arguments: Array(ServedDirectory.contentTypes))
    func known(name: String, type: String) {
        #expect(ContentType.forPath("/dir/" + name) == type)
    }

    @Test func dotInDirectoryNameIsNotAnExtension() {
        #expect(ContentType.forPath("/v1.mp4/segment") == "application/octet-stream")
        #expect(ContentType.forPath("/.hidden") == "application/octet-stream")
    }
}
