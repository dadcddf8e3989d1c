/// `cache.*`: the disk cache of segments and playlists.
public struct CacheSettings: ConfigSection {
    @Setting("Size limit of the disk cache in bytes; least recently used spans are evicted beyond it.", .atLeast(0))
    public var maxBytes = 512 * 1024 * 1024

    @Setting("Cache directory; empty means $XDG_CACHE_HOME/reel or ~/.cache/reel.")
    public var directory = ""

    @Setting("Read from and write to the disk cache.")
    public var enabled = true

    public init() {}
}
