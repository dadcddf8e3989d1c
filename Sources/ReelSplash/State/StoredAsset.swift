/// One asset row of the launch state: the asset's URL, its file when it is cached, and what was
/// found when it was downloaded.
public struct StoredAsset: Sendable, Hashable {
    public var url: String
    /// The file's name under `assets/`, for a valid asset; nil otherwise.
    public var file: String?
    public var bytes: Int
    /// XXH64 of the file's bytes, checked when the state is opened.
    public var checksum: UInt64
    public var status: SplashAssetStatus

    public init(url: String, file: String?, bytes: Int, checksum: UInt64, status: SplashAssetStatus) {
        self.url = url
        self.file = file
        self.bytes = bytes
        self.checksum = checksum
        self.status = status
    }

    /// Whether `name` has the form of an asset file's name: `<16 hex>.json`.
    package static func isFileName(_ name: String) -> Bool {
        name.count == 21 && name.hasSuffix(".json") && name.prefix(16).allSatisfy(\.isHexDigit)
    }
}
