@testable import ReelServer
import Testing

@Suite("Range header parsing and resolution")
struct ByteRangeRequestTests {
    @Test("each form resolves against a 1000-byte file", arguments: [
        ("bytes=0-99", ByteRangeRequest.Resolution.partial(0..<100)),
        ("bytes=10-10", .partial(10..<11)),
        ("bytes=900-", .partial(900..<1000)),
        ("bytes=-100", .partial(900..<1000)),
        ("bytes=-5000", .partial(0..<1000)),
        ("bytes=990-5000", .partial(990..<1000)),
        ("bytes=999-999", .partial(999..<1000)),
        ("bytes=0-9, 20-29", .partial(0..<10)),
        ("BYTES = 5-6", nil),
        ("bytes= 5-6 ", .partial(5..<7)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=1000-2000", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
    ] as [(String, ByteRangeRequest.Resolution?)])
    func resolves(header: String, expected: ByteRangeRequest.Resolution?) {
        #expect(ByteRangeRequest(header: header)?.resolve(size: 1000) == expected)
    }

    @Test("malformed headers are ignored", arguments: [
        "bytes=abc", "bytes=5-2", "bytes=-", "bytes=", "items=0-5", "bytes=+1-2", "bytes=1--2", "0-5", "bytes=0x10-20",
    ])
    func ignoresMalformed(header: String) {
        #expect(ByteRangeRequest(header: header) == nil)
    }

    @Test func anyRangeOfAnEmptyFileIsUnsatisfiable() {
        #expect(ByteRangeRequest(header: "bytes=0-")?.resolve(size: 0) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=-10")?.resolve(size: 0) == .unsatisfiable)
    }
}
