/// `launch.*`: what the app shows when it starts or comes back from the background: a seasonal
/// splash, the loading animation, or nothing (see docs/launch.md).
public struct LaunchSettings: ConfigSection {
    /// `launch.splash.*`: seasonal Lottie splashes listed by a splash configuration service.
    public struct Splash: ConfigSection {
        @Setting("Show launch splashes; give it versioned, {\"value\": true, \"minVersion\": \"24.0\"}, to turn them on from that app.version.")
        public var enabled = false

        @Setting("The splash configuration, an http(s) URL or a path ({\"holidaySplash\": [...]}); empty: no splashes.")
        public var configURL = ""

        @Setting("Minutes a fetched splash configuration stays fresh; a launch or foreground after that fetches it again in the background.", .range(0...10_080))
        public var configRefreshMinutes = 60

        @Setting("Hours before a splash's window opens that its asset is downloaded.", .range(0...8_784))
        public var downloadAheadHours = 72

        @Setting("Highest frame rate of a valid asset, in frames per second (an asset at exactly this rate is valid).", .range(1.0...1_000.0))
        public var maxFPS = 30.0

        @Setting("Longest a valid asset may play, in seconds (frames / frame rate; exactly this long is valid).", .range(0.1...600.0))
        public var maxSeconds = 3.0

        @Setting("Largest valid asset, in bytes (exactly this size is valid).", .range(1...67_108_864))
        public var maxBytes = 1_048_576

        @Setting("Most splash assets downloaded and kept at once for the configuration (valid, refused or failed; the soonest windows first); the others wait until one ends.", .range(1...10_000))
        public var maxAssets = 16

        @Setting("Most bytes of valid splash assets kept at once; a download starts only while the largest asset (launch.splash.maxBytes) still fits.", .range(1...1_073_741_824))
        public var maxTotalBytes = 8_388_608

        @Setting("Memory the child process checking an asset with rlottie may take, in MiB; an asset needing more is refused.", .range(64...16_384))
        public var checkMemoryMiB = 512

        @Setting("CPU seconds the child process checking an asset with rlottie may take (and twice that in wall-clock time); an asset taking longer is refused.", .range(1.0...600.0))
        public var checkSeconds = 15.0

        public init() {}
    }

    /// `launch.loading.*`: the loading animation of a first launch or a new session.
    public struct Loading: ConfigSection {
        @Setting("Length of one cycle of the loading animation, in seconds; it plays at least one whole cycle.", .range(0.1...60.0))
        public var cycleSeconds = 1.0

        @Setting("Pause after the last cycle before the fade, in seconds.", .range(0.0...10.0))
        public var postDelaySeconds = 0.3

        @Setting("Fade-out at the end of the loading animation, in seconds.", .range(0.0...10.0))
        public var fadeSeconds = 0.4

        public init() {}
    }

    public var splash = Splash()
    public var loading = Loading()

    @Setting("Minutes in the background (or since the last session ended, for a launch) from which coming back is a new session with the loading animation.", .range(0...525_600))
    public var sessionTimeoutMinutes = 30

    @Setting("A session that crashed within this many seconds of its start blocks the splash of the next launch.", .range(0...86_400))
    public var crashGuardSeconds = 10

    @Setting("Folder of the launch state (database and assets); empty means $XDG_STATE_HOME/reel/launch or ~/.local/state/reel/launch.")
    public var stateDirectory = ""

    @Setting("While a splash or the loading animation shows, ask for the first feed page and prefetch the start of its first videos (imminent), so the session's first play starts as fast as the others.")
    public var warmFeed = true

    public init() {}
}
