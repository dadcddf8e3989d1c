/// Starts a `CDNServer`, runs `body` with it, and stops it on every path, throws included.
package func withServer<Result>(
    _ configuration: CDNServerConfiguration,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CDNServer) async throws -> Result
) async throws -> Result {
    let server = try await CDNServer.start(configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
