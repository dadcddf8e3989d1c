import Foundation
import ReelServer
import Testing

@Suite("Serving files: GET, HEAD, Range, content types, keep-alive")
struct ServingTests {
    @Test func getSendsTheWholeFile() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/video.mp4")
            #expect(response.outcome == .complete)
            #expect(response.status == 200)
            #expect(response.body == ServedDirectory.bytes(of: "video.mp4"))
            #expect(response.headers["content-length"] == "200000")
            #expect(response.headers["content-type"] == "video/mp4")
            #expect(response.headers["accept-ranges"] == "bytes")
            #expect(response.headers["content-range"] == nil)
        }
    }

    @Test func largeFileStreamsInChunks() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/big.bin")
            #expect(response.status == 200)
            #expect(response.body.count == 1_500_000)
            #expect(response.body == ServedDirectory.bytes(of: "big.bin"))
        }
    }

    @Test("every Range form", arguments: [
        ("bytes=0-99", 0..<100),
        ("bytes=1000-1999", 1000..<2000),
        ("bytes=199990-", 199_990..<200_000),
        ("bytes=-10", 199_990..<200_000),
        ("bytes=199999-300000", 199_999..<200_000),
        ("bytes=-300000", 0..<200_000),
        ("bytes=10-19,50-59", 10..<20),
    ])
    func ranges(header: String, expected: Range<Int>) async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/video.mp4", headers: ["Range": header])
            #expect(response.status == 206)
            #expect(response.outcome == .complete)
            #expect(response.headers["content-range"] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/200000")
            #expect(response.headers["content-length"] == String(expected.count))
            #expect(response.body == Array(ServedDirectory.bytes(of: "video.mp4")[expected]))
        }
    }

    @Test("unsatisfiable ranges get 416", arguments: ["bytes=200000-", "bytes=500000-600000", "bytes=-0"])
    func unsatisfiable(header: String) async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/video.mp4", headers: ["Range": header])
            #expect(response.status == 416)
            #expect(response.headers["content-range"] == "bytes */200000")
            #expect(response.headers["content-length"] == "0")
            #expect(response.body.isEmpty)
        }
    }

    @Test func malformedRangeGetsTheWholeFile() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/video.mp4", headers: ["Range": "bytes=abc"])
            #expect(response.status == 200)
            #expect(response.body.count == 200_000)
        }
    }

    @Test func emptyFile() async throws {
        try await withTestServer { server, _ throws in
            let whole = try await fetch(server, "/empty.bin")
            #expect(whole.status == 200)
            #expect(whole.headers["content-length"] == "0")
            let ranged = try await fetch(server, "/empty.bin", headers: ["Range": "bytes=0-"])
            #expect(ranged.status == 416)
        }
    }

    @Test func headSendsHeadersWithoutBody() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            let head = await connection.request("/video.mp4", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "200000")
            #expect(head.headers["content-type"] == "video/mp4")
            let rangedHead = await connection.request("/video.mp4", method: "HEAD", headers: ["Range": "bytes=0-9"])
            #expect(rangedHead.status == 206)
            #expect(rangedHead.headers["content-length"] == "10")
            // Had HEAD sent a body, this response would start with its bytes instead of a status line.
            let get = await connection.request("/hls/seg1.ts", headers: ["Range": "bytes=0-3"])
            #expect(get.status == 206)
            #expect(get.body == Array(ServedDirectory.bytes(of: "hls/seg1.ts")[0..<4]))
            #expect(server.bill().bodyBytes == 4)
        }
    }

    @Test func contentTypes() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            for (name, type) in ServedDirectory.contentTypes {
                let response = await connection.request("/" + name, method: "HEAD")
                #expect(response.status == 200, "\(name)")
                #expect(response.headers["content-type"] == type, "\(name)")
            }
            #expect(server.bill().connections == 1)
        }
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            for path in ["hls/seg1.ts", "hls/seg2.ts", "hls/seg3.ts", "video.mp4"] {
                let response = await connection.request("/" + path)
                #expect(response.outcome == .complete)
                #expect(response.body == ServedDirectory.bytes(of: path))
            }
            let bill = server.bill()
            #expect(bill.requests == 4)
            #expect(bill.connections == 1)
            #expect(bill.peakConcurrentConnections == 1)
            #expect(bill.bodyBytes == 350_000)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            let text = RawConnection.requestText("/hls/seg2.ts") + RawConnection.requestText("/hls/seg1.ts", headers: ["Range": "bytes=0-9"])
            #expect(await connection.send(text))
            let first = await connection.readResponse()
            let second = await connection.readResponse()
            #expect(first.body == ServedDirectory.bytes(of: "hls/seg2.ts"))
            #expect(second.status == 206)
            #expect(second.body == Array(ServedDirectory.bytes(of: "hls/seg1.ts")[0..<10]))
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            let response = await connection.request("/hls/seg1.ts", headers: ["Connection": "close"])
            #expect(response.outcome == .complete)
            #expect(response.headers["connection"] == "close")
            let rest = await connection.readToEnd()
            #expect(rest.bytes.isEmpty)
            #expect(rest.outcome == .closed)
        }
    }

    @Test func queryStringsAreIgnored() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/hls/seg1.ts?token=abc&exp=123")
            #expect(response.status == 200)
            #expect(response.body == ServedDirectory.bytes(of: "hls/seg1.ts"))
            #expect(server.bill().paths["/hls/seg1.ts"]?.requests == 1)
        }
    }

    @Test func missingFileIs404() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/nope.ts")
            #expect(response.status == 404)
            #expect(response.headers["content-length"] == "0")
            let directory = try await fetch(server, "/hls")
            #expect(directory.status == 404)
        }
    }

    @Test func otherMethodsAre405() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/video.mp4", method: "DELETE")
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD")
        }
    }

    @Test func symlinkInsideTheRootIsServed() async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, "/alias.ts")
            #expect(response.status == 200)
            #expect(response.body == ServedDirectory.bytes(of: "hls/seg1.ts"))
        }
    }

    @Test("no path escapes the served directory", arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/hls/../../secret.txt",
        "/hls/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/escape/secret.txt", "/secret-link.txt",
        "//secret.txt", "/%2fetc/passwd", "/escape/root/../secret.txt",
    ])
    func traversalIsRefused(target: String) async throws {
        try await withTestServer { server, _ throws in
            let response = try await fetch(server, target)
            #expect(response.status == 403 || response.status == 404, "\(target) got \(String(describing: response.status))")
            #expect(!String(decoding: response.body, as: UTF8.self).contains("secret"))
            #expect(server.bill().bodyBytes == 0)
        }
    }

    @Test func http10ClosesAfterTheResponse() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            #expect(await connection.send("GET /hls/seg1.ts HTTP/1.0\r\n\r\n"))
            let response = await connection.readResponse()
            #expect(response.status == 200)
            #expect(response.body.count == 50_000)
            #expect(await connection.readToEnd().outcome == .closed)
        }
    }

    @Test func garbageGets400AndTheServerCarriesOn() async throws {
        try await withTestServer { server, _ throws in
            let connection = try await RawConnection.open(port: server.port)
            defer { connection.close() }
            #expect(await connection.send("NOT HTTP AT ALL\r\n\u{1}\u{2}\r\n\r\n"))
            let response = await connection.readResponse()
            #expect(response.status == 400)
            #expect(try await fetch(server, "/hls/seg1.ts").status == 200)
        }
    }
}
