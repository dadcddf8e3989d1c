import ReelMedia

/// One player instance of a feed session: the card it was mounted for, whether it was ever told
/// to play (its reads then count as bytes played) and its report once stopped. The player itself
/// is let go once it has stopped, so its demuxer's thread and buffers end with the mount.
struct SessionPlayer: Sendable {
    let card: String
    var player: Player?
    var played = false
    /// It holds its first frame decoded, ready to show.
    var prerolled = false
    /// It has shown a frame.
    var framed = false
    var report: PlayerReport?
}
